//! Page views on SQLite and PostgreSQL.

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use kernel::Db;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    pub path: String,
    pub at: DateTime<Utc>,
}

#[async_trait]
pub trait AnalyticsStore: Send + Sync {
    /// Writes a batch of views in one statement.
    async fn insert(&self, views: &[View]) -> Result<(), sqlx::Error>;
    async fn total(&self) -> Result<i64, sqlx::Error>;
    /// Views in `[from, to)`.
    async fn between(&self, from: DateTime<Utc>, to: DateTime<Utc>) -> Result<i64, sqlx::Error>;
    /// The most viewed paths starting with `prefix` since `since`, most viewed first.
    async fn top_paths(
        &self,
        prefix: &str,
        since: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<(String, i64)>, sqlx::Error>;
}

/// Rows per INSERT statement (well under either engine's parameter limit).
const CHUNK: usize = 400;

macro_rules! sql_analytics_store {
    ($name:ident, $db:ty, $pool:ty) => {
        pub struct $name {
            pub(super) pool: $pool,
        }

        #[async_trait]
        impl AnalyticsStore for $name {
            async fn insert(&self, views: &[View]) -> Result<(), sqlx::Error> {
                let mut tx = self.pool.begin().await?;
                for chunk in views.chunks(CHUNK) {
                    let mut qb: sqlx::QueryBuilder<$db> =
                        sqlx::QueryBuilder::new("INSERT INTO page_views (path, viewed_at) ");
                    qb.push_values(chunk, |mut row, v| {
                        row.push_bind(v.path.clone()).push_bind(v.at);
                    });
                    qb.build().execute(&mut *tx).await?;
                }
                tx.commit().await
            }

            async fn total(&self) -> Result<i64, sqlx::Error> {
                sqlx::query_scalar("SELECT COUNT(*) FROM page_views")
                    .fetch_one(&self.pool)
                    .await
            }

            async fn between(
                &self,
                from: DateTime<Utc>,
                to: DateTime<Utc>,
            ) -> Result<i64, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("SELECT COUNT(*) FROM page_views WHERE viewed_at >= ");
                qb.push_bind(from);
                qb.push(" AND viewed_at < ");
                qb.push_bind(to);
                qb.build_query_scalar().fetch_one(&self.pool).await
            }

            async fn top_paths(
                &self,
                prefix: &str,
                since: DateTime<Utc>,
                limit: i64,
            ) -> Result<Vec<(String, i64)>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "SELECT path, COUNT(*) AS views FROM page_views WHERE viewed_at >= ",
                );
                qb.push_bind(since);
                qb.push(" AND path LIKE ");
                qb.push_bind(format!("{prefix}%"));
                qb.push(" GROUP BY path ORDER BY views DESC, path LIMIT ");
                qb.push_bind(limit);
                qb.build_query_as().fetch_all(&self.pool).await
            }
        }
    };
}

mod sqlite {
    use super::*;
    sql_analytics_store!(SqliteAnalyticsStore, sqlx::Sqlite, sqlx::SqlitePool);
}

mod postgres {
    use super::*;
    sql_analytics_store!(PgAnalyticsStore, sqlx::Postgres, sqlx::PgPool);
}

pub fn store_for(db: &Db) -> Arc<dyn AnalyticsStore> {
    match db {
        Db::Sqlite(pool) => Arc::new(sqlite::SqliteAnalyticsStore { pool: pool.clone() }),
        Db::Postgres(pool) => Arc::new(postgres::PgAnalyticsStore { pool: pool.clone() }),
    }
}
