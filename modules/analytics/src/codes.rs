//! The error codes analytics answers with (page-view statistics), besides kernel's `Common` ones.
//! `app` joins every module's into the contract's one `ErrorCode` (see
//! `kernel::error::register_codes`).

use kernel::{ErrorCode, Refusal};

#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr, strum::EnumIter)]
#[strum(serialize_all = "snake_case")]
pub enum Code {
    UnknownTimeZone,
}

impl From<Code> for ErrorCode {
    fn from(code: Code) -> Self {
        let refusal = match code {
            Code::UnknownTimeZone => Refusal::Unprocessable,
        };
        ErrorCode::with(code.into(), refusal)
    }
}
