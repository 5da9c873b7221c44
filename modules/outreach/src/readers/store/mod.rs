//! What reader sign-in keeps beside identity's sessions and tokens: credentials, profile and
//! subscriptions, each change
//! that sends an email written in one transaction with it.

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use identity::tokens::Purpose;
use kernel::outbox::Email;
use kernel::Db;

use crate::model::NotifyList;

/// What a sign-in checks an account against.
#[derive(Debug, Clone)]
pub struct Credentials {
    pub id: String,
    pub password_hash: String,
    pub confirmed: bool,
}

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

/// What an emailed link is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkPurpose {
    SignIn,
    Reset,
}

impl LinkPurpose {
    /// The purpose of the token the link carries.
    pub fn token(self) -> Purpose {
        match self {
            LinkPurpose::SignIn => Purpose::SignIn,
            LinkPurpose::Reset => Purpose::Reset,
        }
    }
}

/// What using an emailed link did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkUse {
    /// Used now, for this account (which is confirmed from now on: the link proved the
    /// address).
    Used(String),
    /// Unknown, used before, or expired: all the same to whoever holds it.
    Invalid,
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
    async fn credentials(&self, email: &str) -> Result<Option<Credentials>, sqlx::Error>;
    /// Stores a link and queues the email that carries it, in one transaction; the account's
    /// unused links of the same purpose are void from then on.
    async fn add_link(
        &self,
        account_id: &str,
        purpose: LinkPurpose,
        token_hash: &str,
        expires_at: DateTime<Utc>,
        email: &Email,
    ) -> Result<(), sqlx::Error>;
    /// Uses a link once (a conditional update: two uses at the same moment cannot both win);
    /// confirms its account.
    async fn use_link(
        &self,
        purpose: LinkPurpose,
        token_hash: &str,
        now: DateTime<Utc>,
    ) -> Result<LinkUse, sqlx::Error>;
    async fn account(&self, id: &str) -> Result<Option<AccountRecord>, sqlx::Error>;
    async fn password_hash(&self, id: &str) -> Result<Option<String>, sqlx::Error>;
    async fn update_profile(&self, id: &str, profile: &Profile) -> Result<(), sqlx::Error>;
    /// Sets the password and voids every unused sign-in and reset link of the account.
    async fn set_password(&self, id: &str, password_hash: &str) -> Result<(), sqlx::Error>;
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
