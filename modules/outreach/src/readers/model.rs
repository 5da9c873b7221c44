//! What the account page's endpoints take and give.

use chrono::{DateTime, Utc};
use identity::readers::NewPassword;
use kernel::text::{Optional, Required, Text};
use poem_openapi::Object;

use crate::limits::Interest;

#[derive(Debug, Object)]
#[oai(deny_unknown_fields)]
pub struct PasswordChange {
    pub current_password: String,
    pub password: Text<NewPassword>,
    /// The same password again.
    pub confirm_password: Text<NewPassword>,
}

#[derive(Debug, Object)]
#[oai(deny_unknown_fields)]
pub struct AccountDeletion {
    /// The account's password, asked again.
    pub password: String,
}

/// The emails a reader gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Object)]
#[oai(deny_unknown_fields)]
pub struct Subscriptions {
    /// When a magazine issue is published.
    pub magazine: bool,
    /// When the educational packs launch.
    pub packs: bool,
    /// A weekly digest of new articles in the reader's interests.
    pub digest: bool,
}

/// A reader's account as they see it.
#[derive(Debug, Object)]
pub struct Account {
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    #[oai(skip_serializing_if_is_none)]
    pub age: Option<i64>,
    #[oai(skip_serializing_if_is_none)]
    pub country: Option<String>,
    pub interests: Vec<String>,
    pub created_at: DateTime<Utc>,
    pub subscriptions: Subscriptions,
}

/// What a reader may change about themselves (the email address is their sign-in).
#[derive(Debug, Object)]
#[oai(deny_unknown_fields)]
pub struct ProfileInput {
    pub first_name: Text<Required<100>>,
    pub last_name: Text<Required<100>>,
    #[oai(default)]
    pub country: Text<Optional<100>>,
    pub interests: Vec<Text<Interest>>,
}
