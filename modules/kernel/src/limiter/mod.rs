//! One rate limiter for every module: a sliding window over hits recorded in the database, so
//! every app instance shares the counts. A hit is recorded *before* the work it guards, by a
//! conditional insert that refuses once the bucket is full (concurrent requests cannot slip
//! past the count); a caller that decides afterwards the hit should not count (a sign-in that
//! succeeded) forgets it.

use std::sync::Arc;
use std::time::Duration;

use crate::clock::SharedClock;
use crate::Db;

mod store;
pub use store::{limiter_store_for, Hit, LimiterStore};

#[cfg(feature = "conformance")]
pub mod conformance;

/// What [`Limiter::hit`] decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Admission {
    /// Recorded as `hit` (to [`Limiter::forget`] it); `others` hits of the bucket lie within
    /// the window besides it.
    Admitted { hit: String, others: u64 },
    /// The bucket is full; the oldest hit leaves the window in `retry_after` seconds.
    Refused { retry_after: u64 },
}

/// A hit to record: in `bucket`, limited to `limit` hits within `window` (no limit: always
/// recorded, still counted by limited hits of the same bucket).
#[derive(Debug, Clone, Copy)]
pub struct Rule<'a> {
    pub bucket: &'a str,
    pub window: Duration,
    pub limit: Option<i64>,
}

#[derive(Clone)]
pub struct Limiter {
    store: Arc<dyn LimiterStore>,
    clock: SharedClock,
}

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX).max(1)
}

impl Limiter {
    pub fn new(db: &Db, clock: SharedClock) -> Self {
        Self {
            store: limiter_store_for(db),
            clock,
        }
    }

    /// Records a hit unless the rule's bucket is full. Expired hits of every bucket are
    /// forgotten on the way.
    pub async fn hit(&self, rule: Rule<'_>) -> Result<Admission, sqlx::Error> {
        let now_ms = self.clock.now().timestamp_millis();
        let window = millis(rule.window);
        let since_ms = now_ms.saturating_sub(window);
        let id = crate::ids::new_id();
        let hit = self
            .store
            .record_hit(
                &id,
                rule.bucket,
                now_ms,
                now_ms.saturating_add(window),
                since_ms,
                rule.limit,
            )
            .await?;
        self.store.prune_hits(now_ms).await?;
        if !hit.recorded {
            return Ok(Admission::Refused {
                retry_after: retry_after(now_ms, window, hit.oldest_ms),
            });
        }
        Ok(Admission::Admitted {
            hit: id,
            others: u64::try_from(hit.others).unwrap_or(0),
        })
    }

    /// Removes recorded hits (they turned out not to count).
    /// Deletes every hit whose window has passed (each hit also prunes its own; this catches
    /// the buckets nobody hits any more). Run by housekeeping.
    pub async fn prune(&self) -> Result<(), sqlx::Error> {
        self.store
            .prune_hits(self.clock.now().timestamp_millis())
            .await
    }

    pub async fn forget(&self, hits: &[String]) -> Result<(), sqlx::Error> {
        self.store.forget_hits(hits).await
    }
}

/// Seconds (at least one) until the oldest counted hit, made at `oldest_ms`, leaves the
/// window.
fn retry_after(now_ms: i64, window_ms: i64, oldest_ms: Option<i64>) -> u64 {
    let left = oldest_ms.map_or(window_ms, |o| o.saturating_add(window_ms) - now_ms);
    let secs = (left.clamp(1, window_ms) + 999) / 1000;
    u64::try_from(secs).unwrap_or(1).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_counts_whole_seconds_until_the_oldest_hit_leaves() {
        assert_eq!(retry_after(10_000, 60_000, Some(9_000)), 59);
        assert_eq!(retry_after(10_000, 60_000, Some(-49_999)), 1);
        assert_eq!(retry_after(10_000, 60_000, None), 60);
        assert_eq!(retry_after(10_000, 3_000, Some(8_500)), 2);
    }
}
