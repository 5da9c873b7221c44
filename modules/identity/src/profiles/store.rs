//! Where profiles are kept: one table, the same statements on both engines.

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use kernel::Db;

/// What a profile shows, as its member last set it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Shown {
    pub full_name_shown: bool,
    pub bio: String,
    pub photo: Option<String>,
}

/// A profile as stored.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ProfileRow {
    pub user_id: String,
    pub slug: String,
    pub full_name_shown: bool,
    pub bio: String,
    pub photo: Option<String>,
    pub updated_at: DateTime<Utc>,
}

#[async_trait]
pub trait ProfileStore: Send + Sync {
    async fn profile(&self, user_id: &str) -> Result<Option<ProfileRow>, sqlx::Error>;
    async fn profile_by_slug(&self, slug: &str) -> Result<Option<ProfileRow>, sqlx::Error>;
    /// The profiles of the members `user_ids` that have one.
    async fn profiles(&self, user_ids: &[String]) -> Result<Vec<ProfileRow>, sqlx::Error>;
    /// Makes the member's profile at `slug`; false when the member has one or the address is
    /// taken (nothing is changed then).
    async fn create(
        &self,
        user_id: &str,
        slug: &str,
        at: DateTime<Utc>,
    ) -> Result<bool, sqlx::Error>;
    /// False when the member has no profile.
    async fn update(
        &self,
        user_id: &str,
        shown: &Shown,
        at: DateTime<Utc>,
    ) -> Result<bool, sqlx::Error>;
}

const COLUMNS: &str = "user_id, slug, full_name_shown, bio, photo, updated_at";

struct SqlProfileStore {
    db: Db,
}

impl SqlProfileStore {
    /// The profile whose `column` (a unique one, named here, never by a caller) is `value`.
    async fn one_where(
        &self,
        column: &'static str,
        value: &str,
    ) -> Result<Option<ProfileRow>, sqlx::Error> {
        let mut q = self.db.sql(&format!(
            "SELECT {COLUMNS} FROM contributor_profiles WHERE {column} = "
        ));
        q.bind(value.to_string());
        q.fetch_optional(&self.db).await
    }
}

pub fn profile_store_for(db: &Db) -> Arc<dyn ProfileStore> {
    Arc::new(SqlProfileStore { db: db.clone() })
}

#[async_trait]
impl ProfileStore for SqlProfileStore {
    #[tracing::instrument(target = "trace_only", name = "ProfileStore.profile", skip_all)]
    async fn profile(&self, user_id: &str) -> Result<Option<ProfileRow>, sqlx::Error> {
        self.one_where("user_id", user_id).await
    }

    #[tracing::instrument(target = "trace_only", name = "ProfileStore.profile_by_slug", skip_all)]
    async fn profile_by_slug(&self, slug: &str) -> Result<Option<ProfileRow>, sqlx::Error> {
        self.one_where("slug", slug).await
    }

    #[tracing::instrument(target = "trace_only", name = "ProfileStore.profiles", skip_all)]
    async fn profiles(&self, user_ids: &[String]) -> Result<Vec<ProfileRow>, sqlx::Error> {
        if user_ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut q = self.db.sql(&format!(
            "SELECT {COLUMNS} FROM contributor_profiles WHERE user_id IN ("
        ));
        q.bind_list(user_ids.to_vec()).push(")");
        q.fetch_all(&self.db).await
    }

    #[tracing::instrument(target = "trace_only", name = "ProfileStore.create", skip_all)]
    async fn create(
        &self,
        user_id: &str,
        slug: &str,
        at: DateTime<Utc>,
    ) -> Result<bool, sqlx::Error> {
        let mut q = self
            .db
            .sql("INSERT INTO contributor_profiles (user_id, slug, updated_at) VALUES (");
        q.separated()
            .bind(user_id.to_string())
            .bind(slug.to_string())
            .bind(at);
        // Either constraint (one profile per member, one member per address) says no.
        q.push(") ON CONFLICT DO NOTHING");
        Ok(q.execute(&self.db).await? == 1)
    }

    #[tracing::instrument(target = "trace_only", name = "ProfileStore.update", skip_all)]
    async fn update(
        &self,
        user_id: &str,
        shown: &Shown,
        at: DateTime<Utc>,
    ) -> Result<bool, sqlx::Error> {
        let mut q = self
            .db
            .sql("UPDATE contributor_profiles SET full_name_shown = ");
        q.bind(shown.full_name_shown);
        q.push(", bio = ");
        q.bind(shown.bio.clone());
        q.push(", photo = ");
        q.bind(shown.photo.clone());
        q.push(", updated_at = ");
        q.bind(at);
        q.push(" WHERE user_id = ");
        q.bind(user_id.to_string());
        Ok(q.execute(&self.db).await? == 1)
    }
}
