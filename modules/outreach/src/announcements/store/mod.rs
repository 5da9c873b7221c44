//! What announcements keep: the announcement, and one delivery row per address it was queued
//! for, written in the transaction that queues its email (the primary key refuses a second).

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use kernel::outbox::Email;
use kernel::Db;

use crate::model::NotifyList;

#[derive(Debug, Clone)]
pub struct AnnouncementRow {
    pub id: String,
    pub list: NotifyList,
    /// What is announced (a magazine issue's id, or "launch" for the packs).
    pub subject_ref: String,
    pub subject: String,
    /// The body, with `{greeting}` and `{unsubscribe}` where each recipient's own greeting
    /// and unsubscribe link go.
    pub body: String,
    /// The HTML part, with the same places (none for announcements sent before it existed).
    pub html: Option<String>,
    pub created_by: Option<String>,
    pub created_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
}

/// An address on a list, and the first name of the confirmed reader account it belongs to.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Recipient {
    pub email: String,
    pub first_name: Option<String>,
}

/// One recipient's email, ready to queue.
pub struct Delivery {
    pub email: String,
    pub unsubscribe_hash: String,
    pub message: Email,
}

/// How far an announcement got.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub queued: i64,
    pub sent: i64,
    pub failed: i64,
}

#[async_trait]
pub trait AnnouncementStore: Send + Sync {
    /// Stores a new announcement; false when `(list, subject_ref)` already has one.
    async fn create(&self, row: &AnnouncementRow) -> Result<bool, sqlx::Error>;
    async fn by_ref(
        &self,
        list: NotifyList,
        subject_ref: &str,
    ) -> Result<Option<AnnouncementRow>, sqlx::Error>;
    /// Announcements still queueing.
    async fn unfinished(&self) -> Result<Vec<AnnouncementRow>, sqlx::Error>;
    async fn finish(&self, id: &str, at: DateTime<Utc>) -> Result<(), sqlx::Error>;
    /// Addresses on `list` (subscribed now) this announcement was not queued for yet.
    async fn pending(
        &self,
        id: &str,
        list: NotifyList,
        limit: i64,
    ) -> Result<Vec<Recipient>, sqlx::Error>;
    /// How many addresses `pending` would give without a limit.
    async fn pending_count(&self, id: &str, list: NotifyList) -> Result<i64, sqlx::Error>;
    /// Addresses subscribed to `list` now.
    async fn subscribers(&self, list: NotifyList) -> Result<i64, sqlx::Error>;
    /// Queues each delivery with its email in one transaction; an address already queued
    /// for this announcement (by another instance, a moment ago) is skipped. Returns how many
    /// were queued.
    async fn queue(
        &self,
        id: &str,
        deliveries: &[Delivery],
        now: DateTime<Utc>,
    ) -> Result<usize, sqlx::Error>;
    async fn counts(&self, id: &str) -> Result<Counts, sqlx::Error>;
}

mod sql;

pub fn announcement_store_for(db: &Db) -> Arc<dyn AnnouncementStore> {
    Arc::new(sql::SqlAnnouncementStore { db: db.clone() })
}
