//! The error codes content answers with (articles, the listing and the newsroom), besides kernel's
//! `Common` ones. `app` joins every module's into the contract's one `ErrorCode` (see
//! `kernel::error::register_codes`).

use kernel::ModuleCode;

#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr, strum::EnumIter)]
#[strum(serialize_all = "snake_case")]
pub enum Code {
    ArticleNotFound,
    AuthorNotFound,
    InvalidQuery,
    InvalidLimit,
    InvalidOffset,
    ContentRequired,
    InvalidWriter,
    WriterRequired,
    ReviewRequired,
    InReview,
    EditConflict,
    InvalidPublishAt,
    NoteRequired,
    RevisionNotFound,
}

impl ModuleCode for Code {}
