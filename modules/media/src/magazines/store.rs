//! Where issues are recorded: one table, the same SQL on both engines.

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use kernel::Db;

use super::Magazine;

#[derive(Debug, Clone, sqlx::FromRow)]
pub(crate) struct MagazineRow {
    pub id: String,
    pub title: String,
    pub file_key: String,
    pub file_url: String,
    pub size_bytes: i64,
    pub uploaded_at: DateTime<Utc>,
    /// SHA-256 of the file (hex); `None` for issues uploaded before it was kept.
    pub content_sha256: Option<String>,
    pub slug: Option<String>,
    pub issue_date: Option<String>,
    pub description: Option<String>,
    pub cover_url: Option<String>,
    pub published_at: Option<DateTime<Utc>>,
}

impl MagazineRow {
    /// The issue as readers see it, when it is published.
    pub(crate) fn issue(&self) -> Option<super::MagazineIssue> {
        Some(super::MagazineIssue {
            slug: self.slug.clone()?,
            title: self.title.clone(),
            issue_date: self.issue_date.clone()?,
            description: self.description.clone()?,
            cover_url: self.cover_url.clone()?,
            file_url: self.file_url.clone(),
            size_bytes: self.size_bytes,
            published_at: self.published_at?,
        })
    }
}

/// The fields of a publication, checked.
#[derive(Debug, Clone)]
pub(crate) struct Publication {
    pub title: String,
    pub issue_date: String,
    pub description: String,
    pub cover_url: String,
}

impl From<MagazineRow> for Magazine {
    fn from(r: MagazineRow) -> Self {
        Magazine {
            id: r.id,
            title: r.title,
            file_url: r.file_url,
            size_bytes: r.size_bytes,
            uploaded_at: r.uploaded_at,
            published_at: r.published_at,
            slug: r.slug,
            issue_date: r.issue_date,
            description: r.description,
            cover_url: r.cover_url,
        }
    }
}

#[async_trait]
pub(crate) trait MagazineStore: Send + Sync {
    async fn insert(&self, row: &MagazineRow) -> Result<(), sqlx::Error>;
    async fn list(&self) -> Result<Vec<MagazineRow>, sqlx::Error>;
    /// The issue whose file has this SHA-256, if any.
    async fn by_hash(&self, sha256: &str) -> Result<Option<MagazineRow>, sqlx::Error>;
    async fn rename(&self, id: &str, title: &str) -> Result<Option<MagazineRow>, sqlx::Error>;
    /// Removes the row and returns it (for its file).
    async fn delete(&self, id: &str) -> Result<Option<MagazineRow>, sqlx::Error>;
    async fn by_slug(&self, slug: &str) -> Result<Option<MagazineRow>, sqlx::Error>;
    async fn by_id(&self, id: &str) -> Result<Option<MagazineRow>, sqlx::Error>;
    /// Published issues, the latest issue date first.
    async fn published(&self) -> Result<Vec<MagazineRow>, sqlx::Error>;
    /// Publishes the issue (or changes a published one) with `slug` unless it has one; `None`
    /// when there is no such issue. A slug another issue has is a unique-index error.
    async fn publish(
        &self,
        id: &str,
        p: &Publication,
        slug: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<MagazineRow>, sqlx::Error>;
    /// Takes the issue back to a private draft (its slug is kept for a later publication).
    async fn unpublish(&self, id: &str) -> Result<Option<MagazineRow>, sqlx::Error>;
}

const COLUMNS: &str = "id, title, file_key, file_url, size_bytes, uploaded_at, content_sha256, \
                       slug, issue_date, description, cover_url, published_at";
/// The store on either engine.
struct SqlMagazineStore {
    db: Db,
}

impl SqlMagazineStore {
    async fn one(&self, id: &str) -> Result<Option<MagazineRow>, sqlx::Error> {
        self.find("id", id).await
    }

    async fn find(&self, column: &str, value: &str) -> Result<Option<MagazineRow>, sqlx::Error> {
        let mut q = self.db.sql(&format!(
            "SELECT {COLUMNS} FROM magazines WHERE {column} = "
        ));
        q.bind(value.to_string());
        q.fetch_optional(&self.db).await
    }
}

#[async_trait]
impl MagazineStore for SqlMagazineStore {
    #[tracing::instrument(target = "trace_only", name = "MagazineStore.insert", skip_all)]
    async fn insert(&self, r: &MagazineRow) -> Result<(), sqlx::Error> {
        let mut q = self
            .db
            .sql(&format!("INSERT INTO magazines ({COLUMNS}) VALUES ("));
        q.bind_list([
            r.id.clone(),
            r.title.clone(),
            r.file_key.clone(),
            r.file_url.clone(),
        ])
        .push(", ")
        .bind(r.size_bytes)
        .push(", ")
        .bind(r.uploaded_at)
        .push(", ")
        .bind_list([
            r.content_sha256.clone(),
            r.slug.clone(),
            r.issue_date.clone(),
            r.description.clone(),
            r.cover_url.clone(),
        ])
        .push(", ")
        .bind(r.published_at)
        .push(")");
        q.execute(&self.db).await?;
        Ok(())
    }

    #[tracing::instrument(target = "trace_only", name = "MagazineStore.list", skip_all)]
    async fn list(&self) -> Result<Vec<MagazineRow>, sqlx::Error> {
        self.db
            .sql(&format!(
                "SELECT {COLUMNS} FROM magazines ORDER BY uploaded_at DESC, id DESC"
            ))
            .fetch_all(&self.db)
            .await
    }

    #[tracing::instrument(target = "trace_only", name = "MagazineStore.by_hash", skip_all)]
    async fn by_hash(&self, sha256: &str) -> Result<Option<MagazineRow>, sqlx::Error> {
        self.find("content_sha256", sha256).await
    }

    #[tracing::instrument(target = "trace_only", name = "MagazineStore.rename", skip_all)]
    async fn rename(&self, id: &str, title: &str) -> Result<Option<MagazineRow>, sqlx::Error> {
        let mut q = self.db.sql("UPDATE magazines SET title = ");
        q.bind(title.to_string())
            .push(" WHERE id = ")
            .bind(id.to_string());
        q.execute(&self.db).await?;
        self.one(id).await
    }

    #[tracing::instrument(target = "trace_only", name = "MagazineStore.delete", skip_all)]
    async fn delete(&self, id: &str) -> Result<Option<MagazineRow>, sqlx::Error> {
        let Some(found) = self.one(id).await? else {
            return Ok(None);
        };
        let mut q = self.db.sql("DELETE FROM magazines WHERE id = ");
        q.bind(id.to_string());
        q.execute(&self.db).await?;
        Ok(Some(found))
    }

    #[tracing::instrument(target = "trace_only", name = "MagazineStore.by_slug", skip_all)]
    async fn by_slug(&self, slug: &str) -> Result<Option<MagazineRow>, sqlx::Error> {
        self.find("slug", slug).await
    }

    #[tracing::instrument(target = "trace_only", name = "MagazineStore.by_id", skip_all)]
    async fn by_id(&self, id: &str) -> Result<Option<MagazineRow>, sqlx::Error> {
        self.one(id).await
    }

    #[tracing::instrument(target = "trace_only", name = "MagazineStore.published", skip_all)]
    async fn published(&self) -> Result<Vec<MagazineRow>, sqlx::Error> {
        self.db
            .sql(&format!(
                "SELECT {COLUMNS} FROM magazines WHERE published_at IS NOT NULL \
                 ORDER BY issue_date DESC, published_at DESC, id DESC"
            ))
            .fetch_all(&self.db)
            .await
    }

    #[tracing::instrument(target = "trace_only", name = "MagazineStore.publish", skip_all)]
    async fn publish(
        &self,
        id: &str,
        p: &Publication,
        slug: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<MagazineRow>, sqlx::Error> {
        let mut q = self.db.sql("UPDATE magazines SET title = ");
        q.bind(p.title.clone())
            .push(", issue_date = ")
            .bind(p.issue_date.clone())
            .push(", description = ")
            .bind(p.description.clone())
            .push(", cover_url = ")
            .bind(p.cover_url.clone())
            .push(", slug = COALESCE(slug, ")
            .bind(slug.to_string())
            .push("), published_at = COALESCE(published_at, ")
            .bind(now)
            .push(") WHERE id = ")
            .bind(id.to_string());
        q.execute(&self.db).await?;
        self.one(id).await
    }

    #[tracing::instrument(target = "trace_only", name = "MagazineStore.unpublish", skip_all)]
    async fn unpublish(&self, id: &str) -> Result<Option<MagazineRow>, sqlx::Error> {
        let mut q = self
            .db
            .sql("UPDATE magazines SET published_at = NULL WHERE id = ");
        q.bind(id.to_string());
        q.execute(&self.db).await?;
        self.one(id).await
    }
}

pub(crate) fn store_for(db: &Db) -> Arc<dyn MagazineStore> {
    Arc::new(SqlMagazineStore { db: db.clone() })
}
