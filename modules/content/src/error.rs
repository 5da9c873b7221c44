//! What can go wrong in the content module, as its callers see it.

use kernel::ErrorCode;

pub(crate) type BoxError = Box<dyn std::error::Error + Send + Sync>;

#[derive(Debug, thiserror::Error)]
pub enum ContentError {
    /// Bad input, with the message shown to the caller.
    #[error("{message}")]
    Invalid { code: ErrorCode, message: String },
    #[error("article not found")]
    NotFound,
    #[error("Your role does not allow this.")]
    Forbidden,
    #[error("unexpected content error: {0}")]
    Unexpected(#[source] BoxError),
}

impl From<sqlx::Error> for ContentError {
    fn from(e: sqlx::Error) -> Self {
        ContentError::Unexpected(Box::new(e))
    }
}

impl ContentError {
    pub(crate) fn invalid(code: ErrorCode, message: impl Into<String>) -> Self {
        ContentError::Invalid {
            code,
            message: message.into(),
        }
    }
}
