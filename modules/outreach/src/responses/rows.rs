//! What the response store reads and writes.

use chrono::{DateTime, Utc};

/// A response as sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewResponse {
    pub id: String,
    pub article_id: String,
    pub account_id: String,
    pub body: String,
    pub created_at: DateTime<Utc>,
}

/// A response as stored.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ResponseRow {
    pub id: String,
    pub article_id: String,
    pub account_id: String,
    pub body: String,
    /// `pending`, `approved` or `rejected`.
    pub status: String,
    pub reason: Option<String>,
    pub created_at: DateTime<Utc>,
    pub decided_at: Option<DateTime<Utc>>,
}

/// An approved response with its reader's name, as an article shows it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ShownRow {
    pub id: String,
    pub body: String,
    pub created_at: DateTime<Utc>,
    pub first_name: String,
    pub last_name: String,
}

/// A response waiting for the desk, with its reader and how many reported it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct QueuedRow {
    pub id: String,
    pub article_id: String,
    pub account_id: String,
    pub body: String,
    pub created_at: DateTime<Utc>,
    pub first_name: String,
    pub last_name: String,
    pub reports: i64,
}

/// What a reader's standing holds: their responses waiting, sent since a time, and whether
/// the desk blocked them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// The account's address is confirmed.
    pub confirmed: bool,
    pub pending: i64,
    pub since: i64,
    pub blocked: bool,
}

/// What a report did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reported {
    /// Counted; fewer than the threshold so far.
    Counted,
    /// This report reached the threshold: the response waits for the desk again.
    Requeued,
    /// This reader had reported it already: nothing changed.
    Already,
    /// No approved response has this id.
    NotShown,
}
