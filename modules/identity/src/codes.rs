//! The error codes identity answers with (staff and reader sign-in, the staff list), besides kernel's
//! `Common` ones. `app` joins every module's into the contract's one `ErrorCode` (see
//! `kernel::error::register_codes`).

use kernel::{ModuleCode, Refusal};

#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr, strum::EnumIter)]
#[strum(serialize_all = "snake_case")]
pub enum Code {
    InvalidKey,
    InvalidStaff,
    InvalidProfile,
    LastAdmin,
    PasswordTooShort,
    PasswordTooLong,
    PasswordMismatch,
    InvalidCredentials,
    AccountUnconfirmed,
    LinkExpired,
    WrongPassword,
}

impl ModuleCode for Code {
    fn refusal(self) -> Refusal {
        match self {
            Code::PasswordMismatch => Refusal::Unprocessable,
            _ => Refusal::Invalid,
        }
    }
}
