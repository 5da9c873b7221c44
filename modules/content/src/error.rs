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
    /// Something within an article is not there (a revision), with its code and words (404).
    #[error("{message}")]
    NotFoundWith { code: ErrorCode, message: String },
    #[error("Your role does not allow this.")]
    Forbidden,
    /// The role may not do this here, with the reason (403 with its own code).
    #[error("{message}")]
    Refused { code: ErrorCode, message: String },
    /// The piece's stage does not allow this now (409).
    #[error("{message}")]
    Conflict { code: ErrorCode, message: String },
    /// The edit was based on an older version: someone else saved meanwhile (409).
    #[error("the article was changed by someone else")]
    Stale(Box<crate::newsroom_dto::ConflictBody>),
    #[error("unexpected content error: {0}")]
    Unexpected(#[source] BoxError),
}

impl From<sqlx::Error> for ContentError {
    fn from(e: sqlx::Error) -> Self {
        kernel::http::note_database_error(&e);
        ContentError::Unexpected(Box::new(e))
    }
}

impl ContentError {
    pub(crate) fn invalid(code: impl Into<ErrorCode>, message: impl Into<String>) -> Self {
        ContentError::Invalid {
            code: code.into(),
            message: message.into(),
        }
    }
}
