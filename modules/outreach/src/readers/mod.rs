//! Reader accounts once registered: sign-in with a password or an emailed one-time link,
//! password reset, the account page (profile, interests, subscriptions, password, data
//! download, deletion). Sessions, emailed tokens and the guard are identity's, which keeps
//! readers and staff apart (a cookie and a sessions table each).

mod account;
mod api;
mod error;
mod links;
mod model;
mod password;
mod sessions;
mod sign_in;
mod store;

use std::sync::Arc;
use std::time::Duration;

use identity::{Kind, Sessions};
use kernel::clock::SharedClock;
use kernel::limiter::Limiter;

pub use api::ReaderApi;
pub use error::ReaderError;
pub(crate) use links::checked_email;
pub(crate) use password::{hash as hash_password, new_password_problem, verify as verify_password};
pub use store::{reader_store_for, ReaderStore};

pub(crate) use model::{LinkRequest, LinkToken};

/// Where the emailed links lead (`?token=…`): pages of the site.
pub const SIGN_IN_LINK_PAGE: &str = "/email/sign-in";
pub const RESET_PAGE: &str = "/reset-password";

#[derive(Debug, Clone)]
pub struct ReaderSettings {
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

impl ReaderSettings {
    pub fn for_site(site_url: &str) -> Self {
        ReaderSettings {
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

pub struct Readers {
    store: Arc<dyn ReaderStore>,
    sessions: Arc<Sessions>,
    settings: ReaderSettings,
    limiter: Limiter,
    clock: SharedClock,
}

impl Readers {
    pub fn new(
        store: Arc<dyn ReaderStore>,
        sessions: Arc<Sessions>,
        settings: ReaderSettings,
        limiter: Limiter,
        clock: SharedClock,
    ) -> Self {
        Readers {
            store,
            sessions,
            settings,
            limiter,
            clock,
        }
    }

    pub fn settings(&self) -> &ReaderSettings {
        &self.settings
    }

    /// The reader session cookie: `Secure` over https, as long-lived as a session.
    pub fn cookie(&self) -> (kernel::http::SessionCookie, Duration) {
        (
            identity::cookie(Kind::Reader, self.settings.secure_cookie),
            self.sessions.lifetime(Kind::Reader).max,
        )
    }
}
