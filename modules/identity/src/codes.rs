//! The error codes identity answers with (staff sign-in and the staff list), besides kernel's
//! `Common` ones. `app` joins every module's into the contract's one `ErrorCode` (see
//! `kernel::error::register_codes`).

use kernel::ErrorCode;

#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr, strum::EnumIter)]
#[strum(serialize_all = "snake_case")]
pub enum Code {
    InvalidKey,
    InvalidStaff,
    LastAdmin,
}

impl From<Code> for ErrorCode {
    fn from(code: Code) -> Self {
        ErrorCode::invalid(code.into())
    }
}
