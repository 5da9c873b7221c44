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
    /// A short heading for the message, where the product shows one (e.g. "Invalid Email").
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

impl ErrorBody {
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            code: code.into(),
            message: message.into(),
            title: None,
        }
    }

    /// An error with the heading the product shows above the message.
    pub fn titled(
        code: impl Into<String>,
        title: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            code: code.into(),
            message: message.into(),
            title: Some(title.into()),
        }
    }

    pub fn internal() -> Self {
        Self::new(
            "internal_error",
            "Something went wrong on our side. Please try again.",
        )
    }
}
