//! The one error body every API answer uses: a stable snake_case `code` and a human `message`.

use poem_openapi::Object;
use serde::Serialize;

#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "ApiError")]
pub struct ErrorBody {
    /// Stable, machine-readable code (snake_case).
    pub code: String,
    /// Human-readable explanation.
    pub message: String,
}

impl ErrorBody {
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            code: code.into(),
            message: message.into(),
        }
    }

    pub fn internal() -> Self {
        Self::new(
            "internal_error",
            "Something went wrong on our side. Please try again.",
        )
    }
}
