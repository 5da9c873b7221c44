//! Identifiers and timestamps in their stored form.

use chrono::{DateTime, SubsecRound, Utc};

/// A new time-ordered identifier (UUID v7, as text).
pub fn new_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

/// Now, truncated to microseconds so both engines store and return the same instant.
pub fn now() -> DateTime<Utc> {
    Utc::now().trunc_subsecs(6)
}
