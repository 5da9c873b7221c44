//! Where form answers wait: a row each in `form_answers`, on either engine.

use std::sync::Arc;

use async_trait::async_trait;

use crate::Db;

/// Where answers wait.
#[async_trait]
pub trait FlashStore: Send + Sync {
    /// Keeps `answer` for `page` under `token_hash` until `expires_ms` (Unix milliseconds).
    async fn put(
        &self,
        token_hash: &str,
        page: &str,
        answer: &str,
        expires_ms: i64,
    ) -> Result<(), sqlx::Error>;
    /// Removes the answer under `token_hash` and returns it when it is for `page` and still
    /// in time at `now_ms` (one statement: two readers cannot both have it).
    async fn take(
        &self,
        token_hash: &str,
        page: &str,
        now_ms: i64,
    ) -> Result<Option<String>, sqlx::Error>;
    /// Forgets answers whose time ran out at or before `now_ms`.
    async fn prune(&self, now_ms: i64) -> Result<(), sqlx::Error>;
}

/// The store on either engine.
pub struct SqlFlashStore {
    db: Db,
}

#[async_trait]
impl FlashStore for SqlFlashStore {
    #[tracing::instrument(target = "trace_only", name = "FlashStore.put", skip_all)]
    async fn put(
        &self,
        token_hash: &str,
        page: &str,
        answer: &str,
        expires_ms: i64,
    ) -> Result<(), sqlx::Error> {
        let mut q = self
            .db
            .sql("INSERT INTO form_answers (token_hash, page, answer, expires_ms) VALUES (");
        q.separated()
            .bind(token_hash.to_string())
            .bind(page.to_string())
            .bind(answer.to_string())
            .bind(expires_ms);
        q.push(")");
        q.execute(&self.db).await?;
        Ok(())
    }

    #[tracing::instrument(target = "trace_only", name = "FlashStore.take", skip_all)]
    async fn take(
        &self,
        token_hash: &str,
        page: &str,
        now_ms: i64,
    ) -> Result<Option<String>, sqlx::Error> {
        let mut q = self.db.sql("DELETE FROM form_answers WHERE token_hash = ");
        q.bind(token_hash.to_string())
            .push(" RETURNING page, answer, expires_ms");
        let row: Option<(String, String, i64)> = q.fetch_optional(&self.db).await?;
        Ok(row
            .filter(|(kept_for, _, expires)| kept_for == page && *expires > now_ms)
            .map(|(_, answer, _)| answer))
    }

    #[tracing::instrument(target = "trace_only", name = "FlashStore.prune", skip_all)]
    async fn prune(&self, now_ms: i64) -> Result<(), sqlx::Error> {
        let mut q = self.db.sql("DELETE FROM form_answers WHERE expires_ms <= ");
        q.bind(now_ms);
        q.execute(&self.db).await?;
        Ok(())
    }
}

pub fn flash_store_for(db: &Db) -> Arc<dyn FlashStore> {
    Arc::new(SqlFlashStore { db: db.clone() })
}
