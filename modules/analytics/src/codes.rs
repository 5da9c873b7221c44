//! The error codes analytics answers with (page-view statistics), besides kernel's `Common` ones.
//! `app` joins every module's into the contract's one `ErrorCode` (see
//! `kernel::error::register_codes`).

use kernel::{ModuleCode, Refusal};

#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr, strum::EnumIter)]
#[strum(serialize_all = "snake_case")]
pub enum Code {
    UnknownTimeZone,
}

impl ModuleCode for Code {
    fn refusal(self) -> Refusal {
        match self {
            Code::UnknownTimeZone => Refusal::Unprocessable,
        }
    }
}
