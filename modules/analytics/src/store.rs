//! Page views on SQLite and PostgreSQL.

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use kernel::Db;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    pub path: String,
    pub at: DateTime<Utc>,
}

kernel::traced_store! {
pub trait AnalyticsStore: Send + Sync, traced as TracedAnalyticsStore {
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
}

/// Rows per INSERT statement (well under either engine's parameter limit).
const CHUNK: usize = 400;
/// The rollups' buckets: a quarter hour (every time zone's midnight falls on one) and a day.
pub const QUARTER: i64 = 15 * 60;
pub const DAY: i64 = 24 * 3600;

/// Views per quarter hour: (its start, views).
type Quarters = Vec<(i64, i64)>;
/// Views per UTC day and path: (day, path, views).
type PathDays = Vec<(i64, String, i64)>;

/// A batch of views counted per quarter hour and per (UTC day, path).
fn rollups(views: &[View]) -> (Quarters, PathDays) {
    let mut quarters: HashMap<i64, i64> = HashMap::new();
    let mut days: HashMap<(i64, &str), i64> = HashMap::new();
    for v in views {
        let t = v.at.timestamp();
        *quarters.entry(t.div_euclid(QUARTER) * QUARTER).or_default() += 1;
        *days
            .entry((t.div_euclid(DAY), v.path.as_str()))
            .or_default() += 1;
    }
    (
        quarters.into_iter().collect(),
        days.into_iter()
            .map(|((d, p), n)| (d, p.to_string(), n))
            .collect(),
    )
}

macro_rules! sql_analytics_store {
    ($name:ident, $db:ty, $pool:ty) => {
        pub struct $name {
            pub(super) pool: $pool,
        }

        #[async_trait]
        impl AnalyticsStore for $name {
            async fn insert(&self, views: &[View]) -> Result<(), sqlx::Error> {
                let (quarters, days) = rollups(views);
                let mut tx = self.pool.begin().await?;
                for chunk in views.chunks(CHUNK) {
                    let mut qb: sqlx::QueryBuilder<$db> =
                        sqlx::QueryBuilder::new("INSERT INTO page_views (path, viewed_at) ");
                    qb.push_values(chunk, |mut row, v| {
                        row.push_bind(v.path.clone()).push_bind(v.at);
                    });
                    qb.build().execute(&mut *tx).await?;
                }
                for chunk in quarters.chunks(CHUNK) {
                    let mut qb: sqlx::QueryBuilder<$db> =
                        sqlx::QueryBuilder::new("INSERT INTO page_view_quarters (start, views) ");
                    qb.push_values(chunk, |mut row, (start, n)| {
                        row.push_bind(*start).push_bind(*n);
                    });
                    qb.push(
                        " ON CONFLICT (start) DO UPDATE SET \
                         views = page_view_quarters.views + excluded.views",
                    );
                    qb.build().execute(&mut *tx).await?;
                }
                for chunk in days.chunks(CHUNK) {
                    let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                        "INSERT INTO page_view_path_days (day, path, views) ",
                    );
                    qb.push_values(chunk, |mut row, (day, path, n)| {
                        row.push_bind(*day).push_bind(path.clone()).push_bind(*n);
                    });
                    qb.push(
                        " ON CONFLICT (day, path) DO UPDATE SET \
                         views = page_view_path_days.views + excluded.views",
                    );
                    qb.build().execute(&mut *tx).await?;
                }
                tx.commit().await
            }

            async fn total(&self) -> Result<i64, sqlx::Error> {
                sqlx::query_scalar(
                    "SELECT CAST(COALESCE(SUM(views), 0) AS BIGINT) FROM page_view_quarters",
                )
                .fetch_one(&self.pool)
                .await
            }

            async fn between(
                &self,
                from: DateTime<Utc>,
                to: DateTime<Utc>,
            ) -> Result<i64, sqlx::Error> {
                let (f, t) = (from.timestamp(), to.timestamp());
                let aligned = from.timestamp_subsec_nanos() == 0
                    && to.timestamp_subsec_nanos() == 0
                    && f.rem_euclid(QUARTER) == 0
                    && t.rem_euclid(QUARTER) == 0;
                let mut qb: sqlx::QueryBuilder<$db> = if aligned {
                    let mut qb = sqlx::QueryBuilder::new(
                        "SELECT CAST(COALESCE(SUM(views), 0) AS BIGINT) FROM page_view_quarters \
                         WHERE start >= ",
                    );
                    qb.push_bind(f).push(" AND start < ").push_bind(t);
                    qb
                } else {
                    let mut qb = sqlx::QueryBuilder::new(
                        "SELECT COUNT(*) FROM page_views WHERE viewed_at >= ",
                    );
                    qb.push_bind(from).push(" AND viewed_at < ").push_bind(to);
                    qb
                };
                qb.build_query_scalar().fetch_one(&self.pool).await
            }

            async fn top_paths(
                &self,
                prefix: &str,
                since: DateTime<Utc>,
                limit: i64,
            ) -> Result<Vec<(String, i64)>, sqlx::Error> {
                // Whole UTC days from the rollup; the hours before the first of them and
                // today's from the views themselves.
                let first_day = (since.timestamp() + DAY - 1).div_euclid(DAY);
                let today = Utc::now().timestamp().div_euclid(DAY).max(first_day);
                let first_day_start =
                    DateTime::<Utc>::from_timestamp(first_day * DAY, 0).unwrap_or(since);
                let today_start = DateTime::<Utc>::from_timestamp(today * DAY, 0).unwrap_or(since);
                let pattern = format!("{prefix}%");
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "SELECT path, CAST(SUM(views) AS BIGINT) AS views FROM (\
                     SELECT path, views FROM page_view_path_days WHERE day >= ",
                );
                qb.push_bind(first_day);
                qb.push(" AND day < ").push_bind(today);
                qb.push(" AND path LIKE ").push_bind(pattern.clone());
                qb.push(" UNION ALL SELECT path, 1 AS views FROM page_views WHERE ((viewed_at >= ");
                qb.push_bind(since)
                    .push(" AND viewed_at < ")
                    .push_bind(first_day_start);
                qb.push(") OR viewed_at >= ").push_bind(today_start);
                qb.push(") AND path LIKE ").push_bind(pattern);
                qb.push(") counted GROUP BY path ORDER BY views DESC, path LIMIT ");
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
        Db::Sqlite(pool) => Arc::new(TracedAnalyticsStore(sqlite::SqliteAnalyticsStore {
            pool: pool.clone(),
        })),
        Db::Postgres(pool) => Arc::new(TracedAnalyticsStore(postgres::PgAnalyticsStore {
            pool: pool.clone(),
        })),
    }
}
