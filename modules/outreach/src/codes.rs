//! The error codes outreach answers with (readers' forms and accounts), besides kernel's `Common`
//! ones. `app` joins every module's into the contract's one `ErrorCode` (see
//! `kernel::error::register_codes`).

use kernel::{ModuleCode, Refusal};

#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr, strum::EnumIter)]
#[strum(serialize_all = "snake_case")]
pub enum Code {
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
    EmptyFile,
    UnsupportedFile,
    /// A response's text breaks its rules (length, control characters).
    InvalidResponse,
    /// The reader must confirm their address before responding.
    ResponseUnconfirmed,
    /// The desk stopped this reader from responding.
    RespondingBlocked,
    /// The article takes no more responses.
    ResponsesClosed,
    /// Too many responses waiting, or sent today.
    ResponseLimit,
}

impl ModuleCode for Code {
    fn refusal(self) -> Refusal {
        match self {
            Code::LinkOrFile
            | Code::PortfolioRequired
            | Code::WritingSamplesRequired
            | Code::EmptyFile => Refusal::Unprocessable,
            Code::UnsupportedFile => Refusal::Unsupported,
            _ => Refusal::Invalid,
        }
    }
}
