//! Where the packs' files and their launch are recorded: the same SQL on both engines.

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use kernel::Db;

#[derive(Debug, Clone)]
pub(crate) struct PackFile {
    pub pack_id: String,
    pub file_key: String,
    pub file_url: String,
    pub size_bytes: i64,
    pub uploaded_at: DateTime<Utc>,
}

kernel::traced_store! {
pub(crate) trait PackStore: Send + Sync, traced as TracedPackStore {
    async fn files(&self) -> Result<Vec<PackFile>, sqlx::Error>;
    /// Records the pack's file; the storage key of the file it replaced, if any.
    async fn put(&self, file: &PackFile) -> Result<Option<String>, sqlx::Error>;
    async fn launched_at(&self) -> Result<Option<DateTime<Utc>>, sqlx::Error>;
    /// Records the launch (the first one counts).
    async fn launch(&self, at: DateTime<Utc>) -> Result<(), sqlx::Error>;
    /// Counts a download of `pack` by staff member `user` on `day` (once a day each).
    async fn record_download(&self, pack: &str, user: &str, day: &str) -> Result<(), sqlx::Error>;
    /// Downloads per pack (packs never downloaded are left out).
    async fn download_counts(&self) -> Result<Vec<(String, i64)>, sqlx::Error>;
}
}

macro_rules! sql_pack_store {
    ($name:ident, $db:ty, $pool:ty) => {
        pub(super) struct $name {
            pub(super) pool: $pool,
        }

        #[async_trait]
        impl PackStore for $name {
            async fn files(&self) -> Result<Vec<PackFile>, sqlx::Error> {
                let rows: Vec<(String, String, String, i64, DateTime<Utc>)> = sqlx::query_as(
                    "SELECT pack_id, file_key, file_url, size_bytes, uploaded_at FROM pack_files \
                     ORDER BY pack_id",
                )
                .fetch_all(&self.pool)
                .await?;
                Ok(rows
                    .into_iter()
                    .map(|r| PackFile {
                        pack_id: r.0,
                        file_key: r.1,
                        file_url: r.2,
                        size_bytes: r.3,
                        uploaded_at: r.4,
                    })
                    .collect())
            }

            async fn put(&self, f: &PackFile) -> Result<Option<String>, sqlx::Error> {
                // Read, then one upsert (no transaction that would turn a read into a write).
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("SELECT file_key FROM pack_files WHERE pack_id = ");
                qb.push_bind(f.pack_id.clone());
                let old: Option<String> = qb.build_query_scalar().fetch_optional(&self.pool).await?;
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "INSERT INTO pack_files (pack_id, file_key, file_url, size_bytes, uploaded_at) \
                     VALUES (",
                );
                let mut sep = qb.separated(", ");
                sep.push_bind(f.pack_id.clone())
                    .push_bind(f.file_key.clone())
                    .push_bind(f.file_url.clone())
                    .push_bind(f.size_bytes)
                    .push_bind(f.uploaded_at);
                qb.push(
                    ") ON CONFLICT (pack_id) DO UPDATE SET file_key = excluded.file_key, \
                     file_url = excluded.file_url, size_bytes = excluded.size_bytes, \
                     uploaded_at = excluded.uploaded_at",
                );
                qb.build().execute(&self.pool).await?;
                Ok(old.filter(|old| *old != f.file_key))
            }

            async fn launched_at(&self) -> Result<Option<DateTime<Utc>>, sqlx::Error> {
                sqlx::query_scalar("SELECT launched_at FROM launches WHERE name = 'packs'")
                    .fetch_optional(&self.pool)
                    .await
            }

            async fn launch(&self, at: DateTime<Utc>) -> Result<(), sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "INSERT INTO launches (name, launched_at) VALUES ('packs', ",
                );
                qb.push_bind(at);
                qb.push(") ON CONFLICT (name) DO NOTHING");
                qb.build().execute(&self.pool).await?;
                Ok(())
            }

            async fn record_download(
                &self,
                pack: &str,
                user: &str,
                day: &str,
            ) -> Result<(), sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "INSERT INTO pack_downloads (pack_id, user_id, day) VALUES (",
                );
                let mut sep = qb.separated(", ");
                sep.push_bind(pack.to_string())
                    .push_bind(user.to_string())
                    .push_bind(day.to_string());
                qb.push(") ON CONFLICT DO NOTHING");
                qb.build().execute(&self.pool).await?;
                Ok(())
            }

            async fn download_counts(&self) -> Result<Vec<(String, i64)>, sqlx::Error> {
                sqlx::query_as(
                    "SELECT pack_id, COUNT(*) FROM pack_downloads GROUP BY pack_id ORDER BY pack_id",
                )
                .fetch_all(&self.pool)
                .await
            }
        }
    };
}

mod sqlite {
    use super::*;
    sql_pack_store!(SqlitePackStore, sqlx::Sqlite, sqlx::SqlitePool);
}

mod postgres {
    use super::*;
    sql_pack_store!(PgPackStore, sqlx::Postgres, sqlx::PgPool);
}

pub(crate) fn store_for(db: &Db) -> Arc<dyn PackStore> {
    match db {
        Db::Sqlite(pool) => Arc::new(TracedPackStore(sqlite::SqlitePackStore {
            pool: pool.clone(),
        })),
        Db::Postgres(pool) => Arc::new(TracedPackStore(postgres::PgPackStore {
            pool: pool.clone(),
        })),
    }
}
