//! Errors raised by the framework itself (unknown API paths, unparsable parameters) answered
//! with the same `{code, message}` body as everything else.

use kernel::ErrorBody;
use poem::http::StatusCode;
use poem::{IntoResponse, Response};

pub async fn api_error(err: poem::Error) -> Response {
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
