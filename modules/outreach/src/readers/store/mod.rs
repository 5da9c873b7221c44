//! What the account page keeps: the profile and subscriptions, and deletion with everything
//! the address left, each change that sends an email written in one transaction with it.
//! Credentials, sessions and emailed links are identity's.

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use kernel::Db;

use crate::model::NotifyList;

/// An account as its owner sees it.
#[derive(Debug, Clone)]
pub struct AccountRecord {
    pub id: String,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub age: Option<i64>,
    pub country: Option<String>,
    /// JSON list of interests.
    pub interests: String,
    pub created_at: DateTime<Utc>,
    pub confirmed_at: Option<DateTime<Utc>>,
    pub digest_since: Option<DateTime<Utc>>,
    /// When the address signed up for each launch list (and is still on it).
    pub magazine_since: Option<DateTime<Utc>>,
    pub packs_since: Option<DateTime<Utc>>,
}

/// A profile change.
#[derive(Debug, Clone)]
pub struct Profile {
    pub first_name: String,
    pub last_name: String,
    pub country: Option<String>,
    /// JSON list of interests.
    pub interests: String,
}

#[async_trait]
pub trait ReaderStore: Send + Sync {
    async fn account(&self, id: &str) -> Result<Option<AccountRecord>, sqlx::Error>;
    async fn update_profile(&self, id: &str, profile: &Profile) -> Result<(), sqlx::Error>;
    /// Puts `email` on `list` (or takes it off), sending nothing: the address is the
    /// account's, already proven.
    async fn set_list(
        &self,
        list: NotifyList,
        email: &str,
        on: bool,
        unsubscribe_hash: &str,
        now: DateTime<Utc>,
    ) -> Result<(), sqlx::Error>;
    async fn set_digest(
        &self,
        id: &str,
        on: bool,
        unsubscribe_hash: &str,
        now: DateTime<Utc>,
    ) -> Result<(), sqlx::Error>;
    /// Removes the account, its sessions and links, and the address from every list, from the
    /// outbox (messages not yet sent are given up), from the forms it sent and from the record
    /// of announcements, in one transaction.
    async fn delete_account(
        &self,
        id: &str,
        email: &str,
        now: DateTime<Utc>,
    ) -> Result<(), sqlx::Error>;
}

mod sql;

pub fn reader_store_for(db: &Db) -> Arc<dyn ReaderStore> {
    Arc::new(sql::SqlReaderStore { db: db.clone() })
}
