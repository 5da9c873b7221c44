//! What the reader endpoints take and give.

use chrono::{DateTime, Utc};
use poem_openapi::Object;

#[derive(Debug, Object)]
pub struct ReaderSignIn {
    pub email: String,
    pub password: String,
}

/// A reader who just signed in.
#[derive(Debug, Object)]
pub struct ReaderSignedIn {
    pub first_name: String,
}

#[derive(Debug, Object)]
pub struct LinkRequest {
    pub email: String,
}

#[derive(Debug, Object)]
pub struct LinkToken {
    /// The token of the emailed link (`?token=…`).
    pub token: String,
}

#[derive(Debug, Object)]
pub struct PasswordReset {
    pub token: String,
    pub password: String,
    pub confirm_password: String,
}

#[derive(Debug, Object)]
pub struct PasswordChange {
    pub current_password: String,
    pub password: String,
    pub confirm_password: String,
}

#[derive(Debug, Object)]
pub struct AccountDeletion {
    /// The account's password, asked again.
    pub password: String,
}

/// The emails a reader gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Object)]
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
pub struct ProfileInput {
    pub first_name: String,
    pub last_name: String,
    pub country: Option<String>,
    pub interests: Vec<String>,
}

#[derive(Debug, Object)]
pub struct Done {
    pub message: String,
}
