//! Signups and contact messages, each written in one transaction with its queued email.

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use kernel::outbox::Email;
use kernel::Db;

use crate::model::NotifyList;

#[derive(Debug, Clone)]
pub struct ContactRow {
    pub id: String,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub subject: String,
    pub inquiry_type: &'static str,
    pub message: String,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Clone)]
pub struct ApplicationRow {
    pub id: String,
    pub full_name: String,
    pub age: i64,
    pub country: String,
    pub email: String,
    pub time_zone: String,
    pub weekly_availability: i64,
    pub english_level: String,
    pub how_did_you_hear: Option<String>,
    pub previous_experience: Option<String>,
    /// JSON list of role ids.
    pub roles: String,
    pub portfolio_url: Option<String>,
    pub writing_samples_url: Option<String>,
    pub research_samples_url: Option<String>,
    pub why_join: String,
    pub contribution: String,
    pub additional: Option<String>,
    /// JSON list of the stored files.
    pub files: String,
    pub created_at: DateTime<Utc>,
    /// Documents too large to attach are linked from the team's email instead, and kept
    /// until then (`None`: attached, or no documents).
    pub documents_until: Option<DateTime<Utc>>,
}

/// An application's documents, as a download finds them.
#[derive(Debug, Clone)]
pub struct LinkedDocuments {
    /// JSON list of the stored files.
    pub files: String,
    pub documents_until: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone)]
pub struct AccountRow {
    pub id: String,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub password_hash: String,
    pub age: Option<i64>,
    pub country: Option<String>,
    /// JSON list of interests.
    pub interests: String,
    pub created_at: DateTime<Utc>,
    /// JSON list of what the reader asked to hear about ("magazine", "packs", "digest"),
    /// applied when they confirm.
    pub signup_lists: String,
}

/// Fresh unsubscribe-link hashes for the subscriptions a confirmation may start.
#[derive(Debug, Clone)]
pub struct SignupHashes {
    pub magazine: String,
    pub packs: String,
    pub digest: String,
}

/// An account found by email address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExistingAccount {
    pub id: String,
    pub confirmed: bool,
}

/// What following a confirmation link did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirmation {
    Confirmed,
    /// The link was used before (the account is confirmed).
    AlreadyUsed,
    Expired,
    Unknown,
}

#[async_trait]
pub trait OutreachStore: Send + Sync {
    /// Stores an application and queues its emails in one transaction; `linked` are the
    /// storage keys of documents the emails link to (not attached), kept until
    /// `row.documents_until`.
    async fn save_application(
        &self,
        row: &ApplicationRow,
        emails: &[Email],
        linked: &[String],
    ) -> Result<(), sqlx::Error>;
    /// The documents of application `id` (`None`: no such application).
    async fn linked_documents(&self, id: &str) -> Result<Option<LinkedDocuments>, sqlx::Error>;
    /// Records that staff member `user` downloaded document `field` of application `id`;
    /// returns how many times that document has been downloaded.
    async fn record_download(
        &self,
        id: &str,
        field: &str,
        user: &str,
        at: DateTime<Utc>,
    ) -> Result<i64, sqlx::Error>;
    /// Storage keys of linked documents due for deletion before `now`.
    async fn expired_documents(&self, now: DateTime<Utc>) -> Result<Vec<String>, sqlx::Error>;
    /// Forgets a linked document once its file is deleted.
    async fn forget_document(&self, key: &str) -> Result<(), sqlx::Error>;
    async fn account_by_email(&self, email: &str) -> Result<Option<ExistingAccount>, sqlx::Error>;
    /// Creates the account with its first confirmation link and queues `email`; false (and
    /// nothing written) when the address already has an account.
    async fn create_account(
        &self,
        row: &AccountRow,
        token_hash: &str,
        expires_at: DateTime<Utc>,
        email: &Email,
    ) -> Result<bool, sqlx::Error>;
    /// Adds another confirmation link for an unconfirmed account and queues `email`; with
    /// `signup_lists`, what the reader asks to hear about now replaces what they asked before.
    async fn add_confirmation(
        &self,
        account_id: &str,
        token_hash: &str,
        expires_at: DateTime<Utc>,
        email: &Email,
        signup_lists: Option<&str>,
    ) -> Result<(), sqlx::Error>;
    /// Queues an email that goes with no other data.
    async fn enqueue(&self, email: &Email) -> Result<(), sqlx::Error>;
    /// Uses the confirmation link with this token hash (once), and starts the subscriptions the
    /// reader asked for at signup (in the same transaction; asked for once).
    async fn confirm(
        &self,
        token_hash: &str,
        now: DateTime<Utc>,
        hashes: &SignupHashes,
    ) -> Result<Confirmation, sqlx::Error>;

    /// Adds `email` to `list` (or renews an unsubscribed entry) and queues `confirmation` in the
    /// same transaction. Returns false, queuing nothing, when the address is already subscribed.
    async fn subscribe(
        &self,
        list: NotifyList,
        email: &str,
        unsubscribe_hash: &str,
        now: DateTime<Utc>,
        confirmation: &Email,
    ) -> Result<bool, sqlx::Error>;
    /// Marks the signup with this token hash unsubscribed; false when no list has it.
    async fn unsubscribe(
        &self,
        unsubscribe_hash: &str,
        now: DateTime<Utc>,
    ) -> Result<bool, sqlx::Error>;
    /// What the unsubscribe link with this token hash is for ("magazine", "packs" or
    /// "digest") and whether its reader is on that list now; `None` for an unknown link.
    async fn unsubscribe_target(
        &self,
        unsubscribe_hash: &str,
    ) -> Result<Option<(String, bool)>, sqlx::Error>;
    /// Puts the reader of this unsubscribe link back on its list (`digest_hash`: the digest's
    /// new unsubscribe hash, when it is the digest); false for an unknown link.
    async fn resubscribe(
        &self,
        unsubscribe_hash: &str,
        now: DateTime<Utc>,
        digest_hash: &str,
    ) -> Result<bool, sqlx::Error>;
    async fn is_subscribed(&self, list: NotifyList, email: &str) -> Result<bool, sqlx::Error>;
    async fn save_contact(&self, row: &ContactRow, email: &Email) -> Result<(), sqlx::Error>;
}

mod sql;

pub(crate) use sql::{join_list, set_unsubscribed};

pub fn store_for(db: &Db) -> Arc<dyn OutreachStore> {
    Arc::new(sql::SqlOutreachStore { db: db.clone() })
}
