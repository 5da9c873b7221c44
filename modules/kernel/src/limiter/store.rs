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

crate::traced_store! {
pub trait LimiterStore: Send + Sync, traced as TracedLimiterStore {
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
}

/// One implementation for both engines. A limited hit must not race another one of its bucket:
/// SQLite runs one write statement alone, under the database's single write lock; PostgreSQL,
/// under READ COMMITTED, needs a lock on the bucket, since two conditional writes of different
/// rows do not see each other.
macro_rules! sql_limiter_store {
    ($name:ident, $db:ty, $pool:ty, $lock_bucket:expr) => {
        pub struct $name {
            pub(crate) pool: $pool,
        }

        #[async_trait]
        impl LimiterStore for $name {
            async fn record_hit(
                &self,
                id: &str,
                bucket: &str,
                at_ms: i64,
                expires_ms: i64,
                since_ms: i64,
                limit: Option<i64>,
            ) -> Result<Hit, sqlx::Error> {
                let mut qb = sqlx::QueryBuilder::<$db>::new(
                    "INSERT INTO rate_hits (id, bucket, at_ms, expires_ms) SELECT ",
                );
                qb.push_bind(id.to_string());
                qb.push(", ");
                qb.push_bind(bucket.to_string());
                qb.push(", ");
                qb.push_bind(at_ms);
                qb.push(", ");
                qb.push_bind(expires_ms);
                let recorded = match limit {
                    None => qb.build().execute(&self.pool).await?.rows_affected() == 1,
                    Some(limit) => {
                        qb.push(" WHERE (SELECT COUNT(*) FROM rate_hits WHERE bucket = ");
                        qb.push_bind(bucket.to_string());
                        qb.push(" AND at_ms > ");
                        qb.push_bind(since_ms);
                        qb.push(") < ");
                        qb.push_bind(limit);
                        let mut tx = self.pool.begin().await?;
                        if let Some(lock) = $lock_bucket {
                            sqlx::query(lock)
                                .bind(bucket.to_string())
                                .execute(&mut *tx)
                                .await?;
                        }
                        let n = qb.build().execute(&mut *tx).await?.rows_affected();
                        tx.commit().await?;
                        n == 1
                    }
                };
                let mut qb = sqlx::QueryBuilder::<$db>::new(
                    "SELECT COUNT(*), MIN(at_ms) FROM rate_hits WHERE bucket = ",
                );
                qb.push_bind(bucket.to_string());
                qb.push(" AND at_ms > ");
                qb.push_bind(since_ms);
                qb.push(" AND id <> ");
                qb.push_bind(id.to_string());
                let (others, oldest_ms): (i64, Option<i64>) =
                    qb.build_query_as().fetch_one(&self.pool).await?;
                Ok(Hit {
                    recorded,
                    others,
                    oldest_ms,
                })
            }

            async fn forget_hits(&self, ids: &[String]) -> Result<(), sqlx::Error> {
                if ids.is_empty() {
                    return Ok(());
                }
                let mut qb = sqlx::QueryBuilder::<$db>::new("DELETE FROM rate_hits WHERE id IN (");
                let mut sep = qb.separated(", ");
                for id in ids {
                    sep.push_bind(id.clone());
                }
                qb.push(")");
                qb.build().execute(&self.pool).await?;
                Ok(())
            }

            async fn prune_hits(&self, now_ms: i64) -> Result<(), sqlx::Error> {
                let mut qb =
                    sqlx::QueryBuilder::<$db>::new("DELETE FROM rate_hits WHERE expires_ms <= ");
                qb.push_bind(now_ms);
                qb.build().execute(&self.pool).await?;
                Ok(())
            }
        }
    };
}

sql_limiter_store!(
    SqliteLimiterStore,
    sqlx::Sqlite,
    sqlx::SqlitePool,
    None::<&'static str>
);

/// Serializes the limited hits of one bucket (a transaction-level advisory lock in a key
/// space of its own: the two-integer form, first integer for this table).
const PG_LOCK_BUCKET: &str =
    "SELECT pg_advisory_xact_lock(hashtext('agora.rate_hits'), hashtext($1))";
sql_limiter_store!(
    PgLimiterStore,
    sqlx::Postgres,
    sqlx::PgPool,
    Some(PG_LOCK_BUCKET)
);

pub fn limiter_store_for(db: &Db) -> Arc<dyn LimiterStore> {
    match db {
        Db::Sqlite(pool) => Arc::new(TracedLimiterStore(SqliteLimiterStore {
            pool: pool.clone(),
        })),
        Db::Postgres(pool) => Arc::new(TracedLimiterStore(PgLimiterStore { pool: pool.clone() })),
    }
}
