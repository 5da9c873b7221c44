//! Readers' credentials: signing in with a password or an emailed one-time link, resetting
//! and changing the password, signing out. A reader's session is identity's (the `Reader`
//! kind); the account page, registration and lists are outreach's.

pub mod api;
mod error;
mod links;
mod model;
mod password;
mod sessions;
mod sign_in;
mod store;

use std::sync::Arc;
use std::time::Duration;

use kernel::clock::SharedClock;
use kernel::limiter::Limiter;
use kernel::Db;

use crate::principal::Kind;
use crate::sessions::Sessions;

pub use api::{failure, Failure, ReaderSignInApi, LINK_SENT};
pub use error::{invalid, ReaderError};
pub use links::checked_email;
pub use model::{
    Done, LinkRequest, LinkToken, NewPassword, PasswordReset, ReaderSignIn, ReaderSignedIn,
    MAX_PASSWORD_CHARS, MIN_PASSWORD_CHARS,
};
pub use password::{
    check_new_password, hash as hash_password, new_password_problem, verify as verify_password,
};
pub use store::LinkPurpose;

/// Where the emailed links lead (`?token=…`): pages of the site.
pub const SIGN_IN_LINK_PAGE: &str = "/email/sign-in";
pub const RESET_PAGE: &str = "/reset-password";

#[derive(Debug, Clone)]
pub struct ReaderAuthSettings {
    pub site_url: String,
    pub site_name: String,
    /// Mark the cookie `Secure` (the site is served over https).
    pub secure_cookie: bool,
    /// How long an emailed sign-in link works.
    pub sign_in_link_ttl: Duration,
    /// How long a password reset link works.
    pub reset_link_ttl: Duration,
    /// Failed sign-ins allowed per client address, and per account, within `failure_window`.
    pub failures_per_address: i64,
    pub failures_per_account: i64,
    pub failure_window: Duration,
}

impl ReaderAuthSettings {
    pub fn for_site(site_url: &str) -> Self {
        ReaderAuthSettings {
            site_url: site_url.trim_end_matches('/').to_string(),
            site_name: "The Agora".into(),
            secure_cookie: site_url.starts_with("https://"),
            sign_in_link_ttl: Duration::from_secs(20 * 60),
            reset_link_ttl: Duration::from_secs(3600),
            failures_per_address: 10,
            failures_per_account: 10,
            failure_window: Duration::from_secs(15 * 60),
        }
    }
}

fn span(d: Duration) -> chrono::Duration {
    chrono::Duration::from_std(d).unwrap_or(chrono::Duration::hours(1))
}

/// A new session: the cookie's token, and whose it is.
#[derive(Debug, Clone)]
pub struct SignedIn {
    pub token: String,
    pub first_name: String,
}

/// How readers prove who they are.
pub struct ReaderAuth {
    db: Db,
    sessions: Arc<Sessions>,
    settings: ReaderAuthSettings,
    limiter: Limiter,
    clock: SharedClock,
}

impl ReaderAuth {
    pub fn new(
        db: &Db,
        sessions: Arc<Sessions>,
        settings: ReaderAuthSettings,
        limiter: Limiter,
        clock: SharedClock,
    ) -> Self {
        ReaderAuth {
            db: db.clone(),
            sessions,
            settings,
            limiter,
            clock,
        }
    }

    pub fn settings(&self) -> &ReaderAuthSettings {
        &self.settings
    }

    pub fn sessions(&self) -> &Arc<Sessions> {
        &self.sessions
    }

    /// The reader session cookie (`Secure` over https) and how long a session can last.
    pub fn cookie(&self) -> (kernel::http::SessionCookie, Duration) {
        (
            crate::guard::cookie(Kind::Reader, self.settings.secure_cookie),
            self.sessions.lifetime(Kind::Reader).max,
        )
    }
}
