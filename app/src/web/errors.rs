//! Errors raised by the framework itself (unknown API paths, unparsable parameters) answered
//! with the same `{code, message}` body as everything else.

use kernel::ErrorBody;
use poem::http::StatusCode;
use poem::{IntoResponse, Response};

/// A parameter outside the range the contract declares: `invalid_<name>`, with the bound.
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
    let body = ErrorBody::new(format!("invalid_{}", e.name), message);
    Some((StatusCode::BAD_REQUEST, poem::web::Json(body)).into_response())
}

pub async fn api_error(err: poem::Error) -> Response {
    if let Some(response) = out_of_range(&err) {
        return response;
    }
    let status = err.status();
    let (code, message) = match status {
        StatusCode::NOT_FOUND => ("not_found", "No such API endpoint".to_string()),
        StatusCode::UNAUTHORIZED => (
            "not_signed_in",
            "You must be logged in to do this.".to_string(),
        ),
        StatusCode::METHOD_NOT_ALLOWED => (
            "method_not_allowed",
            "This method is not allowed here".to_string(),
        ),
        StatusCode::PAYLOAD_TOO_LARGE => ("payload_too_large", "The request is too large".into()),
        s if s.is_client_error() => ("invalid_request", err.to_string()),
        _ => {
            tracing::error!(error = %err, "API request failed");
            let body = ErrorBody::internal();
            return (status, poem::web::Json(body)).into_response();
        }
    };
    (status, poem::web::Json(ErrorBody::new(code, message))).into_response()
}
