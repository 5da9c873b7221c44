//! The one error body every API answer uses: a stable snake_case `code` and a human `message`.

use poem_openapi::{Enum, Object};
use serde::{Deserialize, Serialize};

/// Every code an API answer can carry, so the contract lists them and a generated client gets
/// a union type. A new code is a new variant here: the compiler then shows every `match`
/// that should know it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize, Deserialize)]
#[oai(rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    // The HTTP edge and any operation.
    InvalidRequest,
    InvalidCharacters,
    CrossSiteRequest,
    PayloadTooLarge,
    MethodNotAllowed,
    NotFound,
    NotSignedIn,
    Forbidden,
    TooManyRequests,
    InternalError,
    /// The server cannot answer for a moment (its database is unreachable): try again after
    /// `Retry-After` seconds. Never means "not signed in".
    ServiceUnavailable,
    // Sign-in and staff.
    InvalidKey,
    TooManyAttempts,
    InvalidStaff,
    LastAdmin,
    UnknownTimeZone,
    // Articles.
    ArticleNotFound,
    InvalidQuery,
    InvalidLimit,
    InvalidOffset,
    TitleRequired,
    TitleTooLong,
    ContentRequired,
    TooLong,
    InvalidCoverImage,
    InvalidWriter,
    WriterRequired,
    // The newsroom: review, scheduling, revisions.
    ReviewRequired,
    InReview,
    InvalidTransition,
    EditConflict,
    InvalidPublishAt,
    NoteRequired,
    RevisionNotFound,
    // Uploads.
    FileTooLarge,
    ImageTooLarge,
    ImageTooManyPixels,
    NotAnImage,
    NotAPdf,
    EmptyFile,
    UnsupportedFile,
    UploadFailed,
    DuplicateUpload,
    /// A file attached before a form came back with an error was not attached again.
    FileNotKept,
    // Magazine issues.
    InvalidDate,
    DescriptionRequired,
    // Educational packs.
    PackFileMissing,
    // Readers' forms.
    InvalidEmail,
    EmailRequired,
    MissingInformation,
    MissingAnswers,
    InvalidAge,
    AgeRequirement,
    InvalidAvailability,
    InvalidEnglishLevel,
    InvalidLink,
    LinkOrFile,
    RoleRequired,
    UnknownRole,
    UnknownInterest,
    PortfolioRequired,
    WritingSamplesRequired,
    PasswordTooShort,
    PasswordTooLong,
    PasswordMismatch,
    // Reader accounts.
    InvalidCredentials,
    AccountUnconfirmed,
    LinkExpired,
    WrongPassword,
}

/// How a refusal of a well-formed request is answered, by its code: most break a rule of one
/// field (400); some are fields that each pass their rules but disagree, or an empty file
/// (422), or a file of another kind than asked for, judged by its bytes (415).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    Invalid,
    Unprocessable,
    Unsupported,
}

impl ErrorCode {
    /// How a refusal with this code is answered (see [`Refusal`]).
    pub fn refusal(self) -> Refusal {
        match self {
            ErrorCode::PasswordMismatch
            | ErrorCode::UnknownTimeZone
            | ErrorCode::PortfolioRequired
            | ErrorCode::WritingSamplesRequired
            | ErrorCode::LinkOrFile
            | ErrorCode::EmptyFile => Refusal::Unprocessable,
            ErrorCode::NotAPdf | ErrorCode::NotAnImage | ErrorCode::UnsupportedFile => {
                Refusal::Unsupported
            }
            _ => Refusal::Invalid,
        }
    }
}

/// The code as it is sent (`invalid_email`), for logs.
impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::String(s)) => f.write_str(&s),
            _ => write!(f, "{self:?}"),
        }
    }
}

#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "ApiError")]
pub struct ErrorBody {
    /// Stable, machine-readable code (snake_case).
    pub code: ErrorCode,
    /// Human-readable explanation.
    pub message: String,
    /// A short heading for the message, where the product shows one (e.g. "Invalid Email").
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

impl ErrorBody {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            title: None,
        }
    }

    /// An error with the heading the product shows above the message.
    pub fn titled(code: ErrorCode, title: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            title: Some(title.into()),
        }
    }

    pub fn unavailable() -> Self {
        Self::new(
            ErrorCode::ServiceUnavailable,
            "The server is unavailable for a moment. Please try again.",
        )
    }

    pub fn internal() -> Self {
        Self::new(
            ErrorCode::InternalError,
            "Something went wrong on our side. Please try again.",
        )
    }
}
