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

#[async_trait]
pub(crate) trait PackStore: Send + Sync {
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

/// The store on either engine.
struct SqlPackStore {
    db: Db,
}

#[async_trait]
impl PackStore for SqlPackStore {
    #[tracing::instrument(target = "trace_only", name = "PackStore.files", skip_all)]
    async fn files(&self) -> Result<Vec<PackFile>, sqlx::Error> {
        let rows: Vec<(String, String, String, i64, DateTime<Utc>)> = self
            .db
            .sql(
                "SELECT pack_id, file_key, file_url, size_bytes, uploaded_at FROM pack_files \
                 ORDER BY pack_id",
            )
            .fetch_all(&self.db)
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

    #[tracing::instrument(target = "trace_only", name = "PackStore.put", skip_all)]
    async fn put(&self, f: &PackFile) -> Result<Option<String>, sqlx::Error> {
        // Read, then one upsert (no transaction that would turn a read into a write).
        let mut old = self
            .db
            .sql("SELECT file_key FROM pack_files WHERE pack_id = ");
        old.bind(f.pack_id.clone());
        let old: Option<String> = old.scalar_optional(&self.db).await?;
        let mut upsert = self.db.sql(
            "INSERT INTO pack_files (pack_id, file_key, file_url, size_bytes, uploaded_at) \
             VALUES (",
        );
        upsert
            .bind(f.pack_id.clone())
            .push(", ")
            .bind(f.file_key.clone())
            .push(", ")
            .bind(f.file_url.clone())
            .push(", ")
            .bind(f.size_bytes)
            .push(", ")
            .bind(f.uploaded_at)
            .push(
                ") ON CONFLICT (pack_id) DO UPDATE SET file_key = excluded.file_key, \
                 file_url = excluded.file_url, size_bytes = excluded.size_bytes, \
                 uploaded_at = excluded.uploaded_at",
            );
        upsert.execute(&self.db).await?;
        Ok(old.filter(|old| *old != f.file_key))
    }

    #[tracing::instrument(target = "trace_only", name = "PackStore.launched_at", skip_all)]
    async fn launched_at(&self) -> Result<Option<DateTime<Utc>>, sqlx::Error> {
        self.db
            .sql("SELECT launched_at FROM launches WHERE name = 'packs'")
            .scalar_optional(&self.db)
            .await
    }

    #[tracing::instrument(target = "trace_only", name = "PackStore.launch", skip_all)]
    async fn launch(&self, at: DateTime<Utc>) -> Result<(), sqlx::Error> {
        let mut q = self
            .db
            .sql("INSERT INTO launches (name, launched_at) VALUES ('packs', ");
        q.bind(at).push(") ON CONFLICT (name) DO NOTHING");
        q.execute(&self.db).await?;
        Ok(())
    }

    #[tracing::instrument(target = "trace_only", name = "PackStore.record_download", skip_all)]
    async fn record_download(&self, pack: &str, user: &str, day: &str) -> Result<(), sqlx::Error> {
        let mut q = self
            .db
            .sql("INSERT INTO pack_downloads (pack_id, user_id, day) VALUES (");
        q.bind_list([pack.to_string(), user.to_string(), day.to_string()])
            .push(") ON CONFLICT DO NOTHING");
        q.execute(&self.db).await?;
        Ok(())
    }

    #[tracing::instrument(target = "trace_only", name = "PackStore.download_counts", skip_all)]
    async fn download_counts(&self) -> Result<Vec<(String, i64)>, sqlx::Error> {
        self.db
            .sql("SELECT pack_id, COUNT(*) FROM pack_downloads GROUP BY pack_id ORDER BY pack_id")
            .fetch_all(&self.db)
            .await
    }
}

pub(crate) fn store_for(db: &Db) -> Arc<dyn PackStore> {
    Arc::new(SqlPackStore { db: db.clone() })
}
