//! What the reader sign-in endpoints take and give.

use kernel::text::{Chars, EmailAddress, Filled, Required, Text};
use poem_openapi::Object;

pub const MIN_PASSWORD_CHARS: usize = 6;
/// Long enough for any passphrase, short enough that hashing stays cheap.
pub const MAX_PASSWORD_CHARS: usize = 128;

/// A new password: its length as the account rules take it.
pub type NewPassword = Chars<MIN_PASSWORD_CHARS, MAX_PASSWORD_CHARS>;

#[derive(Debug, Object)]
#[oai(deny_unknown_fields)]
pub struct ReaderSignIn {
    pub email: Text<Required<{ kernel::text::MAX_EMAIL_CHARS }>>,
    pub password: Text<Filled<1024>>,
}

/// A reader who just signed in.
#[derive(Debug, Object)]
pub struct ReaderSignedIn {
    pub first_name: String,
}

#[derive(Debug, Object)]
#[oai(deny_unknown_fields)]
pub struct LinkRequest {
    pub email: Text<EmailAddress>,
}

#[derive(Debug, Object)]
#[oai(deny_unknown_fields)]
pub struct LinkToken {
    /// The token of the emailed link (`?token=…`).
    pub token: String,
}

#[derive(Debug, Object)]
#[oai(deny_unknown_fields)]
pub struct PasswordReset {
    pub token: String,
    pub password: Text<NewPassword>,
    /// The same password again.
    pub confirm_password: Text<NewPassword>,
}

#[derive(Debug, Object)]
pub struct Done {
    pub message: String,
}
