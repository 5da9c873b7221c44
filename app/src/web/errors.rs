//! Errors raised by the framework itself (unknown API paths, unparsable parameters) answered
//! with the same `{code, message}` body as everything else.

use kernel::ErrorBody;
use kernel::ErrorCode;
use poem::http::StatusCode;
use poem::{IntoResponse, Response};

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
    let code = match e.name {
        "limit" => ErrorCode::InvalidLimit,
        "offset" => ErrorCode::InvalidOffset,
        _ => ErrorCode::InvalidRequest,
    };
    let body = ErrorBody::new(code, message);
    Some((StatusCode::BAD_REQUEST, poem::web::Json(body)).into_response())
}

pub async fn api_error(err: poem::Error) -> Response {
    if let Some(response) = out_of_range(&err) {
        return response;
    }
    let status = err.status();
    let (code, message) = match status {
        StatusCode::NOT_FOUND => (ErrorCode::NotFound, "No such API endpoint".to_string()),
        StatusCode::UNAUTHORIZED => (
            ErrorCode::NotSignedIn,
            "You must be logged in to do this.".to_string(),
        ),
        StatusCode::METHOD_NOT_ALLOWED => (
            ErrorCode::MethodNotAllowed,
            "This method is not allowed here".to_string(),
        ),
        StatusCode::SERVICE_UNAVAILABLE => {
            let mut response = (status, poem::web::Json(ErrorBody::unavailable())).into_response();
            response.headers_mut().insert(
                poem::http::header::RETRY_AFTER,
                poem::http::HeaderValue::from(kernel::http::RETRY_AFTER_SECONDS),
            );
            return response;
        }
        StatusCode::PAYLOAD_TOO_LARGE => (
            ErrorCode::PayloadTooLarge,
            "The request is too large".into(),
        ),
        s if s.is_client_error() => (ErrorCode::InvalidRequest, err.to_string()),
        _ => {
            tracing::error!(error = %err, "API request failed");
            let body = ErrorBody::internal();
            return (status, poem::web::Json(body)).into_response();
        }
    };
    (status, poem::web::Json(ErrorBody::new(code, message))).into_response()
}
