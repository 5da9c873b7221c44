//! Where issues are recorded: one table, the same SQL on both engines.

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use kernel::Db;

use super::Magazine;

#[derive(Debug, Clone)]
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

kernel::traced_store! {
pub(crate) trait MagazineStore: Send + Sync, traced as TracedMagazineStore {
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
}

const COLUMNS: &str = "id, title, file_key, file_url, size_bytes, uploaded_at, content_sha256, \
                       slug, issue_date, description, cover_url, published_at";
type Tuple = (
    String,
    String,
    String,
    String,
    i64,
    DateTime<Utc>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<DateTime<Utc>>,
);

fn row(t: Tuple) -> MagazineRow {
    MagazineRow {
        id: t.0,
        title: t.1,
        file_key: t.2,
        file_url: t.3,
        size_bytes: t.4,
        uploaded_at: t.5,
        content_sha256: t.6,
        slug: t.7,
        issue_date: t.8,
        description: t.9,
        cover_url: t.10,
        published_at: t.11,
    }
}

macro_rules! sql_magazine_store {
    ($name:ident, $db:ty, $pool:ty) => {
        pub(super) struct $name {
            pub(super) pool: $pool,
        }

        impl $name {
            async fn one(&self, id: &str) -> Result<Option<MagazineRow>, sqlx::Error> {
                self.find("id", id).await
            }

            async fn find(
                &self,
                column: &str,
                value: &str,
            ) -> Result<Option<MagazineRow>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                    "SELECT {COLUMNS} FROM magazines WHERE {column} = "
                ));
                qb.push_bind(value.to_string());
                let r: Option<Tuple> = qb.build_query_as().fetch_optional(&self.pool).await?;
                Ok(r.map(row))
            }
        }

        #[async_trait]
        impl MagazineStore for $name {
            async fn insert(&self, r: &MagazineRow) -> Result<(), sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new(format!("INSERT INTO magazines ({COLUMNS}) VALUES ("));
                let mut sep = qb.separated(", ");
                sep.push_bind(r.id.clone())
                    .push_bind(r.title.clone())
                    .push_bind(r.file_key.clone())
                    .push_bind(r.file_url.clone())
                    .push_bind(r.size_bytes)
                    .push_bind(r.uploaded_at)
                    .push_bind(r.content_sha256.clone())
                    .push_bind(r.slug.clone())
                    .push_bind(r.issue_date.clone())
                    .push_bind(r.description.clone())
                    .push_bind(r.cover_url.clone())
                    .push_bind(r.published_at);
                qb.push(")");
                qb.build().execute(&self.pool).await?;
                Ok(())
            }

            async fn list(&self) -> Result<Vec<MagazineRow>, sqlx::Error> {
                let rows: Vec<Tuple> = sqlx::query_as(&format!(
                    "SELECT {COLUMNS} FROM magazines ORDER BY uploaded_at DESC, id DESC"
                ))
                .fetch_all(&self.pool)
                .await?;
                Ok(rows.into_iter().map(row).collect())
            }

            async fn by_hash(&self, sha256: &str) -> Result<Option<MagazineRow>, sqlx::Error> {
                self.find("content_sha256", sha256).await
            }

            async fn rename(
                &self,
                id: &str,
                title: &str,
            ) -> Result<Option<MagazineRow>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("UPDATE magazines SET title = ");
                qb.push_bind(title.to_string());
                qb.push(" WHERE id = ");
                qb.push_bind(id.to_string());
                qb.build().execute(&self.pool).await?;
                self.one(id).await
            }

            async fn delete(&self, id: &str) -> Result<Option<MagazineRow>, sqlx::Error> {
                let Some(found) = self.one(id).await? else {
                    return Ok(None);
                };
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("DELETE FROM magazines WHERE id = ");
                qb.push_bind(id.to_string());
                qb.build().execute(&self.pool).await?;
                Ok(Some(found))
            }

            async fn by_slug(&self, slug: &str) -> Result<Option<MagazineRow>, sqlx::Error> {
                self.find("slug", slug).await
            }

            async fn by_id(&self, id: &str) -> Result<Option<MagazineRow>, sqlx::Error> {
                self.one(id).await
            }

            async fn published(&self) -> Result<Vec<MagazineRow>, sqlx::Error> {
                let rows: Vec<Tuple> = sqlx::query_as(&format!(
                    "SELECT {COLUMNS} FROM magazines WHERE published_at IS NOT NULL \
                     ORDER BY issue_date DESC, published_at DESC, id DESC"
                ))
                .fetch_all(&self.pool)
                .await?;
                Ok(rows.into_iter().map(row).collect())
            }

            async fn publish(
                &self,
                id: &str,
                p: &Publication,
                slug: &str,
                now: DateTime<Utc>,
            ) -> Result<Option<MagazineRow>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("UPDATE magazines SET title = ");
                qb.push_bind(p.title.clone());
                qb.push(", issue_date = ");
                qb.push_bind(p.issue_date.clone());
                qb.push(", description = ");
                qb.push_bind(p.description.clone());
                qb.push(", cover_url = ");
                qb.push_bind(p.cover_url.clone());
                qb.push(", slug = COALESCE(slug, ");
                qb.push_bind(slug.to_string());
                qb.push("), published_at = COALESCE(published_at, ");
                qb.push_bind(now);
                qb.push(") WHERE id = ");
                qb.push_bind(id.to_string());
                qb.build().execute(&self.pool).await?;
                self.one(id).await
            }

            async fn unpublish(&self, id: &str) -> Result<Option<MagazineRow>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("UPDATE magazines SET published_at = NULL WHERE id = ");
                qb.push_bind(id.to_string());
                qb.build().execute(&self.pool).await?;
                self.one(id).await
            }
        }
    };
}

mod sqlite {
    use super::*;
    sql_magazine_store!(SqliteMagazineStore, sqlx::Sqlite, sqlx::SqlitePool);
}

mod postgres {
    use super::*;
    sql_magazine_store!(PgMagazineStore, sqlx::Postgres, sqlx::PgPool);
}

pub(crate) fn store_for(db: &Db) -> Arc<dyn MagazineStore> {
    match db {
        Db::Sqlite(pool) => Arc::new(TracedMagazineStore(sqlite::SqliteMagazineStore {
            pool: pool.clone(),
        })),
        Db::Postgres(pool) => Arc::new(TracedMagazineStore(postgres::PgMagazineStore {
            pool: pool.clone(),
        })),
    }
}
