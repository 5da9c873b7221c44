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
    /// Rebuilds the per-path totals of the [`WINDOW_DAYS`] whole UTC days before `today` (a
    /// UTC day number) unless they already end there; true when this call rebuilt them (one
    /// caller does, however many race).
    async fn refresh_window(&self, today: i64) -> Result<bool, sqlx::Error>;
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

/// The store on either engine.
pub struct SqlAnalyticsStore {
    db: Db,
}

#[async_trait]
impl AnalyticsStore for SqlAnalyticsStore {
    #[tracing::instrument(target = "trace_only", name = "AnalyticsStore.insert", skip_all)]
    async fn insert(&self, views: &[View]) -> Result<(), sqlx::Error> {
        let (quarters, days) = rollups(views);
        let mut tx = self.db.begin().await?;
        for chunk in views.chunks(CHUNK) {
            let mut q = self.db.sql("INSERT INTO page_views (path, viewed_at) ");
            q.push_values(chunk, |row, v| {
                row.bind(v.path.clone()).bind(v.at);
            });
            q.execute(&mut tx).await?;
        }
        for chunk in quarters.chunks(CHUNK) {
            let mut q = self
                .db
                .sql("INSERT INTO page_view_quarters (start, views) ");
            q.push_values(chunk, |row, (start, n)| {
                row.bind(*start).bind(*n);
            });
            q.push(
                " ON CONFLICT (start) DO UPDATE SET \
                 views = page_view_quarters.views + excluded.views",
            );
            q.execute(&mut tx).await?;
        }
        for chunk in days.chunks(CHUNK) {
            let mut q = self
                .db
                .sql("INSERT INTO page_view_path_days (day, path, views) ");
            q.push_values(chunk, |row, (day, path, n)| {
                row.bind(*day).bind(path.clone()).bind(*n);
            });
            q.push(
                " ON CONFLICT (day, path) DO UPDATE SET \
                 views = page_view_path_days.views + excluded.views",
            );
            q.execute(&mut tx).await?;
        }
        // Which days the window holds; shared-locked, so a rebuild waits for this
        // batch (and sees it) or this batch waits for the rebuild (and tops it up).
        // Read after the first writes: on SQLite a transaction that reads first cannot
        // wait for another writer.
        let mut through = self
            .db
            .sql("SELECT through FROM page_view_window_state WHERE id = 1");
        if self.db.is_postgres() {
            through.push(" FOR SHARE");
        }
        let through: i64 = through.scalar(&mut tx).await?;
        let mut late: BTreeMap<&str, i64> = BTreeMap::new();
        for (day, path, n) in &days {
            if (through - WINDOW_DAYS..through).contains(day) {
                *late.entry(path.as_str()).or_default() += n;
            }
        }
        let late: Vec<(&str, i64)> = late.into_iter().collect();
        for chunk in late.chunks(CHUNK) {
            let mut q = self
                .db
                .sql("INSERT INTO page_view_path_window (path, views) ");
            q.push_values(chunk, |row, (path, n)| {
                row.bind(path.to_string()).bind(*n);
            });
            q.push(
                " ON CONFLICT (path) DO UPDATE SET \
                 views = page_view_path_window.views + excluded.views",
            );
            q.execute(&mut tx).await?;
        }
        tx.commit().await
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "AnalyticsStore.refresh_window",
        skip_all
    )]
    async fn refresh_window(&self, today: i64) -> Result<bool, sqlx::Error> {
        let mut tx = self.db.begin().await?;
        let mut claim = self.db.sql("UPDATE page_view_window_state SET through = ");
        claim
            .bind(today)
            .push(" WHERE id = 1 AND through < ")
            .bind(today);
        if claim.execute(&mut tx).await? == 0 {
            return Ok(false);
        }
        self.db
            .sql("DELETE FROM page_view_path_window")
            .execute(&mut tx)
            .await?;
        let mut rebuild = self.db.sql(
            "INSERT INTO page_view_path_window (path, views) \
             SELECT path, CAST(SUM(views) AS BIGINT) FROM page_view_path_days \
             WHERE day >= ",
        );
        rebuild
            .bind(today - WINDOW_DAYS)
            .push(" AND day < ")
            .bind(today)
            .push(" GROUP BY path");
        rebuild.execute(&mut tx).await?;
        tx.commit().await?;
        Ok(true)
    }

    #[tracing::instrument(target = "trace_only", name = "AnalyticsStore.total", skip_all)]
    async fn total(&self) -> Result<i64, sqlx::Error> {
        self.db
            .sql("SELECT CAST(COALESCE(SUM(views), 0) AS BIGINT) FROM page_view_quarters")
            .scalar(&self.db)
            .await
    }

    #[tracing::instrument(target = "trace_only", name = "AnalyticsStore.between", skip_all)]
    async fn between(&self, from: DateTime<Utc>, to: DateTime<Utc>) -> Result<i64, sqlx::Error> {
        let (f, t) = (from.timestamp(), to.timestamp());
        let aligned = from.timestamp_subsec_nanos() == 0
            && to.timestamp_subsec_nanos() == 0
            && f.rem_euclid(QUARTER) == 0
            && t.rem_euclid(QUARTER) == 0;
        let q = if aligned {
            let mut q = self.db.sql(
                "SELECT CAST(COALESCE(SUM(views), 0) AS BIGINT) FROM page_view_quarters \
                 WHERE start >= ",
            );
            q.bind(f).push(" AND start < ").bind(t);
            q
        } else {
            let mut q = self
                .db
                .sql("SELECT COUNT(*) FROM page_views WHERE viewed_at >= ");
            q.bind(from).push(" AND viewed_at < ").bind(to);
            q
        };
        q.scalar(&self.db).await
    }

    #[tracing::instrument(target = "trace_only", name = "AnalyticsStore.top_paths", skip_all)]
    async fn top_paths(
        &self,
        prefix: &str,
        since: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<(String, i64)>, sqlx::Error> {
        let first_day = (since.timestamp() + DAY - 1).div_euclid(DAY);
        let today = Utc::now().timestamp().div_euclid(DAY).max(first_day);
        let first_day_start = DateTime::<Utc>::from_timestamp(first_day * DAY, 0).unwrap_or(since);
        let pattern = format!("{prefix}%");
        let through: i64 = self
            .db
            .sql("SELECT through FROM page_view_window_state WHERE id = 1")
            .scalar(&self.db)
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
        let mut q = self.db.sql(
            "WITH delta AS MATERIALIZED (SELECT path, SUM(views) AS views FROM (\
             SELECT path, views FROM page_view_path_days WHERE ((day >= ",
        );
        q.bind(first_day);
        q.push(" AND day < ").bind(window_start);
        q.push(") OR day >= ").bind(today);
        q.push(") AND path LIKE ").bind(pattern.clone());
        q.push(" UNION ALL SELECT path, 1 AS views FROM page_views WHERE viewed_at >= ");
        q.bind(since)
            .push(" AND viewed_at < ")
            .bind(first_day_start);
        q.push(" AND path LIKE ").bind(pattern.clone());
        q.push(
            ") edges GROUP BY path), \
             top AS MATERIALIZED (SELECT path, views FROM page_view_path_window \
             WHERE 1 = ",
        );
        q.bind(window);
        q.push(" AND path LIKE ").bind(pattern);
        q.push(" ORDER BY views DESC, path LIMIT ").bind(limit);
        // The window's top few hold at least their smallest total, and any other path
        // at most the smallest window count among them plus its edge views: a path
        // whose edge views are fewer than the gap cannot place.
        q.push("), bound AS (SELECT CASE WHEN COUNT(*) = ");
        q.bind(limit);
        q.push(
            " THEN MIN(t.views + COALESCE(d.views, 0)) - MIN(t.views) ELSE 0 END AS need \
             FROM top t LEFT JOIN delta d ON d.path = t.path) \
             SELECT path, CAST(views AS BIGINT) AS views FROM (\
             SELECT d.path, d.views + COALESCE(w.views, 0) AS views FROM delta d \
             LEFT JOIN page_view_path_window w ON w.path = d.path AND 1 = ",
        );
        q.bind(window);
        q.push(
            " WHERE d.views >= (SELECT need FROM bound) OR d.path IN (SELECT path FROM top) \
             UNION ALL SELECT path, views FROM top \
             WHERE path NOT IN (SELECT path FROM delta)) counted \
             ORDER BY views DESC, path LIMIT ",
        );
        q.bind(limit);
        q.fetch_all(&self.db).await
    }
}

pub fn store_for(db: &Db) -> Arc<dyn AnalyticsStore> {
    Arc::new(SqlAnalyticsStore { db: db.clone() })
}
