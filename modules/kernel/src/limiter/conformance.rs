//! The limiter's conformance suite: every method of [`LimiterStore`], and the sliding window
//! as [`Limiter`] applies it, run against every engine by the app's tests.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::sync::Arc;
use std::time::Duration;

use super::{limiter_store_for, Admission, Hit, Limiter, Rule};
use crate::clock::ManualClock;
use crate::Db;

/// Runs every check over a database with no hits recorded.
pub async fn run(db: &Db) {
    store(db).await;
    limiter(db).await;
}

async fn store(db: &Db) {
    let store = limiter_store_for(db);
    // A limited insert refuses at the limit; older hits do not count.
    let at = 1_000_000;
    let keep = at + 600_000;
    let a = store
        .record_hit("a1", "ip:x", at - 5_000, keep, at - 60_000, Some(2))
        .await
        .unwrap();
    assert_eq!(
        a,
        Hit {
            recorded: true,
            others: 0,
            oldest_ms: None
        }
    );
    let a = store
        .record_hit("a2", "ip:x", at - 1_000, keep, at - 60_000, Some(2))
        .await
        .unwrap();
    assert_eq!(
        a,
        Hit {
            recorded: true,
            others: 1,
            oldest_ms: Some(at - 5_000)
        }
    );
    let a = store
        .record_hit("a3", "ip:x", at, keep, at - 60_000, Some(2))
        .await
        .unwrap();
    assert_eq!(
        a,
        Hit {
            recorded: false,
            others: 2,
            oldest_ms: Some(at - 5_000)
        }
    );
    // Another bucket and an unlimited insert are independent.
    let a = store
        .record_hit("a4", "ip:y", at, keep, at - 60_000, Some(2))
        .await
        .unwrap();
    assert!(a.recorded && a.others == 0);
    let a = store
        .record_hit("a5", "ip:x", at, keep, at - 60_000, None)
        .await
        .unwrap();
    assert!(a.recorded && a.others == 2);
    // A sliding window: once a1 is older than the window, there is room again.
    store.forget_hits(&["a5".into()]).await.unwrap();
    let a = store
        .record_hit("a6", "ip:x", at + 56_000, keep, at - 4_000, Some(2))
        .await
        .unwrap();
    assert_eq!(
        a,
        Hit {
            recorded: true,
            others: 1,
            oldest_ms: Some(at - 1_000)
        }
    );
    // Pruning forgets what expired, whatever its bucket; a1 and a2 expire first.
    store
        .record_hit("short", "ip:z", at, at + 10, 0, None)
        .await
        .unwrap();
    store.prune_hits(at + 10).await.unwrap();
    let a = store
        .record_hit("a7", "ip:z", at, keep, 0, Some(10))
        .await
        .unwrap();
    assert_eq!(a.others, 0, "the expired hit of ip:z is gone");
    let a = store
        .record_hit("a8", "ip:x", at + 57_000, keep, 0, Some(10))
        .await
        .unwrap();
    assert_eq!(a.others, 3, "a1, a2 and a6 are kept until they expire");
    store.prune_hits(keep).await.unwrap();
    let a = store
        .record_hit("a9", "ip:x", keep, keep + 1, 0, Some(10))
        .await
        .unwrap();
    assert_eq!(a.others, 0);
    store.forget_hits(&[]).await.unwrap();
    store.prune_hits(i64::MAX).await.unwrap();
}

async fn limiter(db: &Db) {
    let clock = Arc::new(ManualClock::new());
    let limiter = Limiter::new(db, clock.clone());
    let rule = Rule {
        bucket: "form:a",
        window: Duration::from_secs(60),
        limit: Some(2),
    };
    let Admission::Admitted { hit: first, others } = limiter.hit(rule).await.unwrap() else {
        panic!("the first hit is admitted");
    };
    assert_eq!(others, 0);
    clock.advance(Duration::from_secs(20));
    assert!(matches!(
        limiter.hit(rule).await.unwrap(),
        Admission::Admitted { others: 1, .. }
    ));
    clock.advance(Duration::from_secs(10));
    // Full: the first hit leaves the window 30 s from now.
    assert_eq!(
        limiter.hit(rule).await.unwrap(),
        Admission::Refused { retry_after: 30 }
    );
    // Other buckets are not affected.
    let other = Rule {
        bucket: "form:b",
        ..rule
    };
    assert!(matches!(
        limiter.hit(other).await.unwrap(),
        Admission::Admitted { others: 0, .. }
    ));
    // A forgotten hit frees its place.
    limiter.forget(&[first]).await.unwrap();
    assert!(matches!(
        limiter.hit(rule).await.unwrap(),
        Admission::Admitted { others: 1, .. }
    ));
    // Sliding: a minute after the second hit, only the last one is left in the window.
    clock.advance(Duration::from_secs(51));
    assert!(matches!(
        limiter.hit(rule).await.unwrap(),
        Admission::Admitted { others: 1, .. }
    ));
}
