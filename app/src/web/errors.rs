//! Errors raised by the framework itself (unknown API paths, unparsable parameters) answered
//! with the same `{code, message}` body as everything else.

use crate::codes::Code;
use kernel::Common;
use kernel::ErrorBody;
use kernel::ErrorCode;
use poem::http::StatusCode;
use poem::{Endpoint, IntoResponse, Request, Response};

/// A parameter outside the range the contract declares: `invalid_<name>` (`invalid_request`
/// for a parameter without a code of its own), with the bound.
fn out_of_range(err: &poem::Error) -> Option<Response> {
    let e = err.downcast_ref::<poem_openapi::error::ParseParamError>()?;
    let rule = e.reason.strip_prefix("verification failed. ")?;
    let bound = |prefix: &str| {
        rule.strip_prefix(prefix)
            .and_then(|r| r.split(',').next())
            .map(str::to_string)
    };
    let message = if let Some(min) = bound("minimum(") {
        format!("{} must be {min} or greater", e.name)
    } else if let Some(max) = bound("maximum(") {
        format!("{} must be at most {max}", e.name)
    } else {
        format!("{} is not allowed here ({rule})", e.name)
    };
    let code: ErrorCode = match e.name {
        "limit" => content::codes::Code::InvalidLimit.into(),
        "offset" => content::codes::Code::InvalidOffset.into(),
        _ => Common::InvalidRequest.into(),
    };
    let body = ErrorBody::new(code, message);
    Some((StatusCode::BAD_REQUEST, poem::web::Json(body)).into_response())
}

/// A JSON body field breaking a rule the contract declares, said in people's words (the
/// framework's own text names the regular expression): `invalid_request` with what is wrong.
fn body_rule(err: &poem::Error) -> Option<Response> {
    let e = err.downcast_ref::<poem_openapi::error::ParseRequestPayloadError>()?;
    let (_, after) = e.reason.split_once("field `")?;
    let (field, rest) = after.split_once('`')?;
    let (_, rule) = rest.split_once("verification failed. ")?;
    let name = field.replace('_', " ");
    let bound = |prefix: &str| {
        rule.strip_prefix(prefix)
            .and_then(|r| r.split(')').next())
            .map(str::to_string)
    };
    let message = if rule.starts_with("pattern(") && rule.contains("\\u0000") {
        format!("The {name} contains control characters, which are not allowed.")
    } else if rule.starts_with("pattern(") {
        format!("The {name} is not in a form this field takes.")
    } else if let Some(max) = bound("maxLength(") {
        format!("The {name} must be at most {max} characters.")
    } else if let Some(min) = bound("minLength(") {
        format!("The {name} must be at least {min} characters.")
    } else {
        return None;
    };
    let body = ErrorBody::new(Common::InvalidRequest, message);
    Some((StatusCode::BAD_REQUEST, poem::web::Json(body)).into_response())
}

/// `503 service_unavailable` with `Retry-After`: try again in a moment.
fn unavailable() -> Response {
    let mut response = (
        StatusCode::SERVICE_UNAVAILABLE,
        poem::web::Json(ErrorBody::unavailable()),
    )
        .into_response();
    response.headers_mut().insert(
        poem::http::header::RETRY_AFTER,
        poem::http::HeaderValue::from(kernel::http::RETRY_AFTER_SECONDS),
    );
    response
}

/// How long the check after a failed request waits for the database.
const DATABASE_WITHIN: std::time::Duration = std::time::Duration::from_secs(1);

/// A request that failed (500) because the database could not be reached failed because of
/// the outage, not a fault of ours or the caller's: it is answered as the guards answer then,
/// 503 `service_unavailable` with `Retry-After`, so a client (the dashboards do) tries again
/// and keeps what was typed. The modules note such errors as they meet them
/// ([`kernel::http::note_database_error`]); a failure they did not note is checked against
/// the database itself (only failed requests pay for that).
pub async fn database_outage<E: Endpoint>(
    next: E,
    req: Request,
    db: kernel::Db,
) -> poem::Result<Response> {
    let (response, outage) = kernel::http::answering(Box::pin(next.call(req))).await;
    let response = response?.into_response();
    if response.status() != StatusCode::INTERNAL_SERVER_ERROR {
        return Ok(response);
    }
    if outage {
        return Ok(unavailable());
    }
    match tokio::time::timeout(DATABASE_WITHIN, db.ping()).await {
        Ok(Ok(())) => Ok(response),
        _ => Ok(unavailable()),
    }
}

pub async fn api_error(err: poem::Error) -> Response {
    if let Some(response) = out_of_range(&err).or_else(|| body_rule(&err)) {
        return response;
    }
    let status = err.status();
    let (code, message): (ErrorCode, String) = match status {
        StatusCode::NOT_FOUND => (Common::NotFound.into(), "No such API endpoint".to_string()),
        StatusCode::UNAUTHORIZED => (
            Common::NotSignedIn.into(),
            "You must be logged in to do this.".to_string(),
        ),
        StatusCode::METHOD_NOT_ALLOWED => (
            Code::MethodNotAllowed.into(),
            "This method is not allowed here".to_string(),
        ),
        StatusCode::SERVICE_UNAVAILABLE => return unavailable(),
        StatusCode::PAYLOAD_TOO_LARGE => (
            Code::PayloadTooLarge.into(),
            "The request is too large".into(),
        ),
        s if s.is_client_error() => (Common::InvalidRequest.into(), err.to_string()),
        _ => {
            tracing::error!(error = %err, "API request failed");
            let body = ErrorBody::internal();
            return (status, poem::web::Json(body)).into_response();
        }
    };
    (status, poem::web::Json(ErrorBody::new(code, message))).into_response()
}
