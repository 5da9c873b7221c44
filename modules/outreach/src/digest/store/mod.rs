//! What the weekly digest keeps: its runs (one per period, claimed by one instance) and one
//! delivery per reader and period, written with its email.

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use kernel::Db;

pub(crate) use crate::announcements::Delivery;

/// A reader who wants the digest.
#[derive(Debug, Clone)]
pub struct DigestReader {
    pub account_id: String,
    pub email: String,
    pub first_name: String,
    /// JSON list of interests.
    pub interests: String,
}

#[async_trait]
pub trait DigestStore: Send + Sync {
    /// Takes the run of `period`: true when it is this caller's to do (new, or left unfinished
    /// and started before `stale_before`).
    async fn claim(
        &self,
        period: &str,
        now: DateTime<Utc>,
        stale_before: DateTime<Utc>,
    ) -> Result<bool, sqlx::Error>;
    /// Says the run of `period` is still going (at `at`), so that no instance takes it over.
    async fn touch(&self, period: &str, at: DateTime<Utc>) -> Result<(), sqlx::Error>;
    async fn finish(&self, period: &str, at: DateTime<Utc>) -> Result<(), sqlx::Error>;
    /// Confirmed readers subscribed to the digest, with nothing queued for `period` yet.
    async fn readers(&self, period: &str) -> Result<Vec<DigestReader>, sqlx::Error>;
    /// Queues the reader's digest with its delivery row (once per period and reader).
    async fn queue(
        &self,
        period: &str,
        account_id: &str,
        delivery: &Delivery,
        now: DateTime<Utc>,
    ) -> Result<bool, sqlx::Error>;
}

mod sql;

pub fn digest_store_for(db: &Db) -> Arc<dyn DigestStore> {
    Arc::new(sql::SqlDigestStore { db: db.clone() })
}
