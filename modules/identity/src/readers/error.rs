//! What can go wrong for a reader, and the `Invalid` error of a field they typed.

use kernel::Common;
use kernel::ErrorCode;

#[derive(Debug, thiserror::Error)]
pub enum ReaderError {
    /// Something the reader typed, with the message to show next to it.
    #[error("{message}")]
    Invalid { code: ErrorCode, message: String },
    #[error("Invalid email or password.")]
    InvalidCredentials,
    #[error("Please confirm your email address first: follow the link we emailed you, or ask for a new one.")]
    Unconfirmed,
    #[error("This link has expired or has already been used. Please ask for a new one.")]
    LinkInvalid,
    #[error("Your current password is not right.")]
    WrongPassword,
    #[error("Too many failed attempts. Try again in {retry_after} seconds.")]
    RateLimited { retry_after: u64 },
    #[error("the account no longer exists")]
    Gone,
    /// A password could not be hashed.
    #[error("password hashing failed: {0}")]
    Hashing(String),
    #[error(transparent)]
    Unexpected(sqlx::Error),
}

impl From<sqlx::Error> for ReaderError {
    fn from(e: sqlx::Error) -> Self {
        kernel::http::note_database_error(&e);
        ReaderError::Unexpected(e)
    }
}

impl ReaderError {
    /// The code of an `Invalid` error (others never reach a form's field).
    pub fn code(&self) -> ErrorCode {
        match self {
            ReaderError::Invalid { code, .. } => *code,
            _ => Common::InvalidRequest.into(),
        }
    }
}

pub fn invalid(code: impl Into<ErrorCode>, message: impl Into<String>) -> ReaderError {
    ReaderError::Invalid {
        code: code.into(),
        message: message.into(),
    }
}
