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
}

impl From<MagazineRow> for Magazine {
    fn from(r: MagazineRow) -> Self {
        Magazine {
            id: r.id,
            title: r.title,
            file_url: r.file_url,
            size_bytes: r.size_bytes,
            uploaded_at: r.uploaded_at,
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
}

const COLUMNS: &str = "id, title, file_key, file_url, size_bytes, uploaded_at, content_sha256";
type Tuple = (
    String,
    String,
    String,
    String,
    i64,
    DateTime<Utc>,
    Option<String>,
);

fn row(
    (id, title, file_key, file_url, size_bytes, uploaded_at, content_sha256): Tuple,
) -> MagazineRow {
    MagazineRow {
        id,
        title,
        file_key,
        file_url,
        size_bytes,
        uploaded_at,
        content_sha256,
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
                    .push_bind(r.content_sha256.clone());
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
        Db::Sqlite(pool) => Arc::new(sqlite::SqliteMagazineStore { pool: pool.clone() }),
        Db::Postgres(pool) => Arc::new(postgres::PgMagazineStore { pool: pool.clone() }),
    }
}
