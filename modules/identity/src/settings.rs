//! Identity settings: the key secret, session lifetimes of each kind and sign-in limits.

use std::time::Duration;

use kernel::secret::Secret;

use crate::sessions::Lifetime;

/// A reader stays signed in for two weeks without a visit, two months at most.
pub const READER_SESSIONS: Lifetime = Lifetime {
    idle: Duration::from_secs(14 * 24 * 3600),
    max: Duration::from_secs(60 * 24 * 3600),
};

#[derive(Clone, Debug)]
pub struct IdentitySettings {
    /// Secret of the keyed hash of access keys (shared by every instance).
    pub key_secret: Secret<String>,
    /// How long a staff member's session lasts.
    pub staff_sessions: Lifetime,
    /// How long a reader's session lasts.
    pub reader_sessions: Lifetime,
    /// Mark the cookie `Secure` (the site is served over https).
    pub secure_cookie: bool,
    /// Failed sign-ins allowed per client address within any `failure_window`.
    pub failures_per_address: i64,
    /// Failed sign-ins allowed across all addresses within any `failure_window`, for addresses
    /// that already failed.
    pub failures_global: i64,
    /// The sliding window failed sign-ins are counted over (a minute in production).
    pub failure_window: Duration,
}

impl IdentitySettings {
    /// Defaults around a given secret (tests and tools).
    pub fn with_secret(secret: impl Into<String>) -> Self {
        IdentitySettings {
            key_secret: Secret::new(secret.into()),
            staff_sessions: Lifetime {
                idle: Duration::from_secs(8 * 3600),
                max: Duration::from_secs(7 * 24 * 3600),
            },
            reader_sessions: READER_SESSIONS,
            secure_cookie: false,
            failures_per_address: 5,
            failures_global: 100,
            failure_window: Duration::from_secs(60),
        }
    }
}
