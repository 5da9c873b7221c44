//! Where form answers wait: a row each in `form_answers`, on either engine.

use std::sync::Arc;

use async_trait::async_trait;

use crate::Db;

crate::traced_store! {
pub trait FlashStore: Send + Sync, traced as TracedFlashStore {
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
}

macro_rules! sql_flash_store {
    ($name:ident, $db:ty, $pool:ty) => {
        pub struct $name {
            pub(crate) pool: $pool,
        }

        #[async_trait]
        impl FlashStore for $name {
            async fn put(
                &self,
                token_hash: &str,
                page: &str,
                answer: &str,
                expires_ms: i64,
            ) -> Result<(), sqlx::Error> {
                let mut qb = sqlx::QueryBuilder::<$db>::new(
                    "INSERT INTO form_answers (token_hash, page, answer, expires_ms) VALUES (",
                );
                let mut values = qb.separated(", ");
                values.push_bind(token_hash.to_string());
                values.push_bind(page.to_string());
                values.push_bind(answer.to_string());
                values.push_bind(expires_ms);
                qb.push(")");
                qb.build().execute(&self.pool).await?;
                Ok(())
            }

            async fn take(
                &self,
                token_hash: &str,
                page: &str,
                now_ms: i64,
            ) -> Result<Option<String>, sqlx::Error> {
                let mut qb =
                    sqlx::QueryBuilder::<$db>::new("DELETE FROM form_answers WHERE token_hash = ");
                qb.push_bind(token_hash.to_string());
                qb.push(" RETURNING page, answer, expires_ms");
                let row: Option<(String, String, i64)> =
                    qb.build_query_as().fetch_optional(&self.pool).await?;
                Ok(row
                    .filter(|(kept_for, _, expires)| kept_for == page && *expires > now_ms)
                    .map(|(_, answer, _)| answer))
            }

            async fn prune(&self, now_ms: i64) -> Result<(), sqlx::Error> {
                let mut qb =
                    sqlx::QueryBuilder::<$db>::new("DELETE FROM form_answers WHERE expires_ms <= ");
                qb.push_bind(now_ms);
                qb.build().execute(&self.pool).await?;
                Ok(())
            }
        }
    };
}

sql_flash_store!(SqliteFlashStore, sqlx::Sqlite, sqlx::SqlitePool);
sql_flash_store!(PgFlashStore, sqlx::Postgres, sqlx::PgPool);

pub fn flash_store_for(db: &Db) -> Arc<dyn FlashStore> {
    match db {
        Db::Sqlite(pool) => Arc::new(TracedFlashStore(SqliteFlashStore { pool: pool.clone() })),
        Db::Postgres(pool) => Arc::new(TracedFlashStore(PgFlashStore { pool: pool.clone() })),
    }
}
