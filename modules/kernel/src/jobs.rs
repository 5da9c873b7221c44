//! Background jobs that run once per period across every instance sharing the database.
//!
//! Each job's time is cut into periods (`every` long, counted from the Unix epoch); an
//! instance runs a period only after taking it, and one instance takes each period: the row of
//! the job in `job_runs` moves to a period only from an older one. One instance on SQLite has
//! nobody to share with, and takes every period without writing.

use std::time::Duration;

use chrono::{DateTime, Utc};

use crate::Db;

/// A job's last run, as `job_runs` records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobRun {
    pub job: String,
    pub period: i64,
    pub instance: String,
    pub runs: i64,
}

#[derive(Clone, Debug)]
pub struct Leases {
    db: Db,
    instance: String,
    /// Whether other instances may run the same jobs (PostgreSQL).
    shared: bool,
}

/// The period of `now` for a job run every `every`.
pub fn period_of(now: DateTime<Utc>, every: Duration) -> i64 {
    let every_ms = i64::try_from(every.as_millis()).unwrap_or(i64::MAX).max(1);
    now.timestamp_millis().div_euclid(every_ms)
}

impl Leases {
    /// Leases for `instance` (a name unique to this process) on `db`.
    pub fn new(db: &Db, instance: impl Into<String>) -> Self {
        Self {
            db: db.clone(),
            instance: instance.into(),
            shared: matches!(db, Db::Postgres(_)),
        }
    }

    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// Takes the period of `now` for `job`: true when this instance is to run it (no other
    /// instance took it, and it is later than the last one run).
    pub async fn take(
        &self,
        job: &str,
        every: Duration,
        now: DateTime<Utc>,
    ) -> Result<bool, sqlx::Error> {
        if !self.shared {
            return Ok(true);
        }
        self.claim(job, period_of(now, every), now).await
    }

    /// The claim itself, on either engine (tests use it on SQLite too).
    pub async fn claim(
        &self,
        job: &str,
        period: i64,
        now: DateTime<Utc>,
    ) -> Result<bool, sqlx::Error> {
        let mut upsert = self
            .db
            .sql("INSERT INTO job_runs (job, period, instance, ran_at, runs) VALUES (");
        upsert
            .bind(job.to_string())
            .push(", ")
            .bind(period)
            .push(", ")
            .bind(self.instance.clone())
            .push(", ")
            .bind(now)
            .push(
                ", 1) ON CONFLICT (job) DO UPDATE SET period = excluded.period, \
                 instance = excluded.instance, ran_at = excluded.ran_at, \
                 runs = job_runs.runs + 1 WHERE job_runs.period < excluded.period",
            );
        Ok(upsert.execute(&self.db).await? == 1)
    }

    /// Every job's last run.
    pub async fn runs(&self) -> Result<Vec<JobRun>, sqlx::Error> {
        let rows: Vec<(String, i64, String, i64)> = self
            .db
            .sql("SELECT job, period, instance, runs FROM job_runs ORDER BY job")
            .fetch_all(&self.db)
            .await?;
        Ok(rows
            .into_iter()
            .map(|(job, period, instance, runs)| JobRun {
                job,
                period,
                instance,
                runs,
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::period_of;
    use chrono::TimeZone;
    use std::time::Duration;

    #[test]
    fn periods_are_cut_from_the_epoch() {
        let t = chrono::Utc.timestamp_millis_opt(125_000).single().unwrap();
        assert_eq!(period_of(t, Duration::from_secs(60)), 2);
        assert_eq!(period_of(t, Duration::from_secs(1)), 125);
        assert_eq!(period_of(t, Duration::ZERO), 125_000);
    }
}
