//! Page views on SQLite and PostgreSQL.

use std::collections::BTreeMap;
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
    /// Rebuilds the per-path totals of the [`WINDOW_DAYS`] whole UTC days before `today` (a
    /// UTC day number) unless they already end there; true when this call rebuilt them (one
    /// caller does, however many race).
    async fn refresh_window(&self, today: i64) -> Result<bool, sqlx::Error>;
}
}

/// Whole UTC days in the per-path window (`page_view_path_window`): the chart's 30 local
/// days always hold the 28 before today's UTC day, whatever the time zone.
pub const WINDOW_DAYS: i64 = 28;

/// Rows per INSERT statement (well under either engine's parameter limit).
const CHUNK: usize = 400;
/// The rollups' buckets: a quarter hour (every time zone's midnight falls on one) and a day.
pub const QUARTER: i64 = 15 * 60;
pub const DAY: i64 = 24 * 3600;

/// Views per quarter hour: (its start, views).
type Quarters = Vec<(i64, i64)>;
/// Views per UTC day and path: (day, path, views).
type PathDays = Vec<(i64, String, i64)>;

/// A batch of views counted per quarter hour and per (UTC day, path), each in key order:
/// batches written at once then lock the rows they share in the same order (in any other
/// order, two batches can each hold a row the other waits for).
fn rollups(views: &[View]) -> (Quarters, PathDays) {
    let mut quarters: BTreeMap<i64, i64> = BTreeMap::new();
    let mut days: BTreeMap<(i64, &str), i64> = BTreeMap::new();
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
    ($name:ident, $db:ty, $pool:ty, $share:expr) => {
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
                // Which days the window holds; shared-locked, so a rebuild waits for this
                // batch (and sees it) or this batch waits for the rebuild (and tops it up).
                // Read after the first writes: on SQLite a transaction that reads first cannot
                // wait for another writer.
                let through: i64 = sqlx::query_scalar(concat!(
                    "SELECT through FROM page_view_window_state WHERE id = 1",
                    $share
                ))
                .fetch_one(&mut *tx)
                .await?;
                let mut late: BTreeMap<&str, i64> = BTreeMap::new();
                for (day, path, n) in &days {
                    if (through - WINDOW_DAYS..through).contains(day) {
                        *late.entry(path.as_str()).or_default() += n;
                    }
                }
                let late: Vec<(&str, i64)> = late.into_iter().collect();
                for chunk in late.chunks(CHUNK) {
                    let mut qb: sqlx::QueryBuilder<$db> =
                        sqlx::QueryBuilder::new("INSERT INTO page_view_path_window (path, views) ");
                    qb.push_values(chunk, |mut row, (path, n)| {
                        row.push_bind(path.to_string()).push_bind(*n);
                    });
                    qb.push(
                        " ON CONFLICT (path) DO UPDATE SET \
                         views = page_view_path_window.views + excluded.views",
                    );
                    qb.build().execute(&mut *tx).await?;
                }
                tx.commit().await
            }

            async fn refresh_window(&self, today: i64) -> Result<bool, sqlx::Error> {
                let mut tx = self.pool.begin().await?;
                let claimed = sqlx::query(
                    "UPDATE page_view_window_state SET through = $1 WHERE id = 1 AND through < $1",
                )
                .bind(today)
                .execute(&mut *tx)
                .await?
                .rows_affected();
                if claimed == 0 {
                    return Ok(false);
                }
                sqlx::query("DELETE FROM page_view_path_window")
                    .execute(&mut *tx)
                    .await?;
                sqlx::query(
                    "INSERT INTO page_view_path_window (path, views) \
                     SELECT path, CAST(SUM(views) AS BIGINT) FROM page_view_path_days \
                     WHERE day >= $1 AND day < $2 GROUP BY path",
                )
                .bind(today - WINDOW_DAYS)
                .bind(today)
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok(true)
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
                let first_day = (since.timestamp() + DAY - 1).div_euclid(DAY);
                let today = Utc::now().timestamp().div_euclid(DAY).max(first_day);
                let first_day_start =
                    DateTime::<Utc>::from_timestamp(first_day * DAY, 0).unwrap_or(since);
                let pattern = format!("{prefix}%");
                let through: i64 =
                    sqlx::query_scalar("SELECT through FROM page_view_window_state WHERE id = 1")
                        .fetch_one(&self.pool)
                        .await?;
                // Whole UTC days from the window when it is current (it then lies inside the
                // asked days), the other whole days from the per-day rows (today's included),
                // the hours before the first whole day from the views. A path the edges do not
                // touch counts what the window says, so only the window's own top few can
                // join those they do.
                let window = i64::from(through == today && first_day <= today - WINDOW_DAYS);
                let window_start = if window == 1 {
                    today - WINDOW_DAYS
                } else {
                    today
                };
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "WITH delta AS MATERIALIZED (SELECT path, SUM(views) AS views FROM (\
                     SELECT path, views FROM page_view_path_days WHERE ((day >= ",
                );
                qb.push_bind(first_day);
                qb.push(" AND day < ").push_bind(window_start);
                qb.push(") OR day >= ").push_bind(today);
                qb.push(") AND path LIKE ").push_bind(pattern.clone());
                qb.push(" UNION ALL SELECT path, 1 AS views FROM page_views WHERE viewed_at >= ");
                qb.push_bind(since)
                    .push(" AND viewed_at < ")
                    .push_bind(first_day_start);
                qb.push(" AND path LIKE ").push_bind(pattern.clone());
                qb.push(
                    ") edges GROUP BY path), \
                     top AS MATERIALIZED (SELECT path, views FROM page_view_path_window \
                     WHERE 1 = ",
                );
                qb.push_bind(window);
                qb.push(" AND path LIKE ").push_bind(pattern);
                qb.push(" ORDER BY views DESC, path LIMIT ").push_bind(limit);
                // The window's top few hold at least their smallest total, and any other path
                // at most the smallest window count among them plus its edge views: a path
                // whose edge views are fewer than the gap cannot place.
                qb.push("), bound AS (SELECT CASE WHEN COUNT(*) = ");
                qb.push_bind(limit);
                qb.push(
                    " THEN MIN(t.views + COALESCE(d.views, 0)) - MIN(t.views) ELSE 0 END AS need \
                     FROM top t LEFT JOIN delta d ON d.path = t.path) \
                     SELECT path, CAST(views AS BIGINT) AS views FROM (\
                     SELECT d.path, d.views + COALESCE(w.views, 0) AS views FROM delta d \
                     LEFT JOIN page_view_path_window w ON w.path = d.path AND 1 = ",
                );
                qb.push_bind(window);
                qb.push(
                    " WHERE d.views >= (SELECT need FROM bound) OR d.path IN (SELECT path FROM top) \
                     UNION ALL SELECT path, views FROM top \
                     WHERE path NOT IN (SELECT path FROM delta)) counted \
                     ORDER BY views DESC, path LIMIT ",
                );
                qb.push_bind(limit);
                qb.build_query_as().fetch_all(&self.pool).await
            }
        }
    };
}

mod sqlite {
    use super::*;
    sql_analytics_store!(SqliteAnalyticsStore, sqlx::Sqlite, sqlx::SqlitePool, "");
}

mod postgres {
    use super::*;
    sql_analytics_store!(PgAnalyticsStore, sqlx::Postgres, sqlx::PgPool, " FOR SHARE");
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
