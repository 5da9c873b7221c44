//! Where hits are kept: one row each in `rate_hits`, on either engine.

use std::sync::Arc;

use async_trait::async_trait;

use crate::Db;

/// The outcome of [`LimiterStore::record_hit`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit {
    /// Whether the hit was recorded (false: the limit was reached).
    pub recorded: bool,
    /// Other hits in the bucket within the window.
    pub others: i64,
    /// When the oldest of those was made (Unix milliseconds).
    pub oldest_ms: Option<i64>,
}

/// Where hits are kept.
#[async_trait]
pub trait LimiterStore: Send + Sync {
    /// Records hit `id` in `bucket` at `at_ms` (Unix milliseconds, kept until `expires_ms`)
    /// unless `limit` hits later than `since_ms` are already recorded there; the check and
    /// the write are one atomic step. Without a limit the hit is always recorded.
    async fn record_hit(
        &self,
        id: &str,
        bucket: &str,
        at_ms: i64,
        expires_ms: i64,
        since_ms: i64,
        limit: Option<i64>,
    ) -> Result<Hit, sqlx::Error>;
    /// Removes recorded hits.
    async fn forget_hits(&self, ids: &[String]) -> Result<(), sqlx::Error>;
    /// Forgets hits whose time ran out at or before `now_ms`.
    async fn prune_hits(&self, now_ms: i64) -> Result<(), sqlx::Error>;
}

/// The store on either engine. A limited hit must not race another one of its bucket: SQLite
/// runs one write statement alone, under the database's single write lock; PostgreSQL, under
/// READ COMMITTED, needs a lock on the bucket, since two conditional writes of different rows
/// do not see each other.
pub struct SqlLimiterStore {
    db: Db,
}

/// Serializes the limited hits of one bucket on PostgreSQL (a transaction-level advisory lock
/// in a key space of its own: the two-integer form, first integer for this table).
const PG_LOCK_BUCKET: &str = "SELECT pg_advisory_xact_lock(hashtext('agora.rate_hits'), hashtext(";

#[async_trait]
impl LimiterStore for SqlLimiterStore {
    #[tracing::instrument(target = "trace_only", name = "LimiterStore.record_hit", skip_all)]
    async fn record_hit(
        &self,
        id: &str,
        bucket: &str,
        at_ms: i64,
        expires_ms: i64,
        since_ms: i64,
        limit: Option<i64>,
    ) -> Result<Hit, sqlx::Error> {
        let db = &self.db;
        let mut insert = db.sql("INSERT INTO rate_hits (id, bucket, at_ms, expires_ms) SELECT ");
        insert
            .bind(id.to_string())
            .push(", ")
            .bind(bucket.to_string())
            .push(", ")
            .bind(at_ms)
            .push(", ")
            .bind(expires_ms);
        let recorded = match limit {
            None => insert.execute(db).await? == 1,
            Some(limit) => {
                insert
                    .push(" WHERE (SELECT COUNT(*) FROM rate_hits WHERE bucket = ")
                    .bind(bucket.to_string())
                    .push(" AND at_ms > ")
                    .bind(since_ms)
                    .push(") < ")
                    .bind(limit);
                let mut tx = db.begin().await?;
                if db.is_postgres() {
                    let mut lock = db.sql(PG_LOCK_BUCKET);
                    lock.bind(bucket.to_string()).push("))");
                    lock.execute(&mut tx).await?;
                }
                let n = insert.execute(&mut tx).await?;
                tx.commit().await?;
                n == 1
            }
        };
        let mut others = db.sql("SELECT COUNT(*), MIN(at_ms) FROM rate_hits WHERE bucket = ");
        others
            .bind(bucket.to_string())
            .push(" AND at_ms > ")
            .bind(since_ms)
            .push(" AND id <> ")
            .bind(id.to_string());
        let (others, oldest_ms): (i64, Option<i64>) = others.fetch_one(db).await?;
        Ok(Hit {
            recorded,
            others,
            oldest_ms,
        })
    }

    #[tracing::instrument(target = "trace_only", name = "LimiterStore.forget_hits", skip_all)]
    async fn forget_hits(&self, ids: &[String]) -> Result<(), sqlx::Error> {
        if ids.is_empty() {
            return Ok(());
        }
        let mut q = self.db.sql("DELETE FROM rate_hits WHERE id IN (");
        q.bind_list(ids.to_vec()).push(")");
        q.execute(&self.db).await?;
        Ok(())
    }

    #[tracing::instrument(target = "trace_only", name = "LimiterStore.prune_hits", skip_all)]
    async fn prune_hits(&self, now_ms: i64) -> Result<(), sqlx::Error> {
        let mut q = self.db.sql("DELETE FROM rate_hits WHERE expires_ms <= ");
        q.bind(now_ms);
        q.execute(&self.db).await?;
        Ok(())
    }
}

pub fn limiter_store_for(db: &Db) -> Arc<dyn LimiterStore> {
    Arc::new(SqlLimiterStore { db: db.clone() })
}
