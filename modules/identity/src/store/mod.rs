//! Persistence of staff users, their keys and notice settings: one trait, one implementation
//! for both engines (the SQL is shared; the one engine-specific lock is chosen at run time).
//! Sessions of every kind are [`crate::sessions`]'.

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use kernel::Db;

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct UserRow {
    pub id: String,
    pub name: String,
    pub role: String,
    pub active: bool,
    pub created_at: DateTime<Utc>,
    pub last_login_at: Option<DateTime<Utc>>,
}

/// The outcome of [`IdentityStore::deactivate`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Deactivation {
    Done,
    NotFound,
    /// Refused: the member is the last active admin.
    LastAdmin,
}

#[async_trait]
pub trait IdentityStore: Send + Sync {
    async fn names(&self, ids: &[String]) -> Result<Vec<(String, String)>, sqlx::Error>;
    async fn find_by_name_role(
        &self,
        name: &str,
        role: &str,
    ) -> Result<Option<String>, sqlx::Error>;
    async fn insert(
        &self,
        id: &str,
        name: &str,
        role: &str,
        created_at: DateTime<Utc>,
    ) -> Result<(), sqlx::Error>;
    async fn count(&self) -> Result<i64, sqlx::Error>;
    async fn user(&self, id: &str) -> Result<Option<UserRow>, sqlx::Error>;
    async fn users(&self) -> Result<Vec<UserRow>, sqlx::Error>;
    /// The active user whose key hashes to `key_hash`.
    async fn user_by_key(&self, key_hash: &str) -> Result<Option<UserRow>, sqlx::Error>;
    async fn set_key_hash(&self, id: &str, key_hash: &str) -> Result<bool, sqlx::Error>;
    async fn set_active(&self, id: &str, active: bool) -> Result<bool, sqlx::Error>;
    async fn touch_login(&self, id: &str, at: DateTime<Utc>) -> Result<(), sqlx::Error>;
    /// A member's address for newsroom notices and whether they want them; `None`: no such
    /// member.
    async fn notices(&self, id: &str) -> Result<Option<(Option<String>, bool)>, sqlx::Error>;
    async fn set_notices(
        &self,
        id: &str,
        email: Option<&str>,
        notify: bool,
    ) -> Result<bool, sqlx::Error>;

    /// Disables a staff member unless they are the last active admin, as one atomic change
    /// (concurrent calls cannot leave no active admin).
    async fn deactivate(&self, id: &str) -> Result<Deactivation, sqlx::Error>;
}

mod sql;

pub fn store_for(db: &Db) -> Arc<dyn IdentityStore> {
    Arc::new(sql::SqlIdentityStore { db: db.clone() })
}
