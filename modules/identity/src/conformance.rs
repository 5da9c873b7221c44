//! The identity store conformance suite, run against every engine by the app's tests.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::sync::Arc;

use crate::store::{Attempt, Deactivation, IdentityStore};

pub async fn run(store: Arc<dyn IdentityStore>) {
    assert_eq!(store.count().await.unwrap(), 0);
    let now = kernel::ids::now();
    store.insert("u1", "Maya", "writer", now).await.unwrap();
    store.insert("u2", "Leo", "admin", now).await.unwrap();
    assert!(
        store.insert("u3", "Bad", "emperor", now).await.is_err(),
        "unknown roles are refused"
    );
    assert_eq!(store.count().await.unwrap(), 2);
    let mut names = store
        .names(&["u1".into(), "u2".into(), "missing".into()])
        .await
        .unwrap();
    names.sort();
    assert_eq!(
        names,
        vec![("u1".into(), "Maya".into()), ("u2".into(), "Leo".into())]
    );
    assert!(store.names(&[]).await.unwrap().is_empty());
    assert_eq!(
        store
            .find_by_name_role("Maya", "writer")
            .await
            .unwrap()
            .as_deref(),
        Some("u1")
    );
    assert!(store
        .find_by_name_role("Maya", "admin")
        .await
        .unwrap()
        .is_none());

    // The last active admin stays; other roles and already-disabled members are no obstacle.
    assert_eq!(
        store.deactivate("u2").await.unwrap(),
        Deactivation::LastAdmin
    );
    assert_eq!(store.deactivate("u1").await.unwrap(), Deactivation::Done);
    assert_eq!(store.deactivate("u1").await.unwrap(), Deactivation::Done);
    assert_eq!(
        store.deactivate("nobody").await.unwrap(),
        Deactivation::NotFound
    );
    store.insert("u4", "Ada", "admin", now).await.unwrap();
    assert_eq!(store.deactivate("u2").await.unwrap(), Deactivation::Done);
    assert_eq!(
        store.deactivate("u4").await.unwrap(),
        Deactivation::LastAdmin
    );
    assert_eq!(store.deactivate("u2").await.unwrap(), Deactivation::Done);
    assert!(store.user("u4").await.unwrap().unwrap().active);

    // Sign-in attempts: a limited insert refuses at the limit; older attempts do not count.
    let at = 1_000_000;
    let a = store
        .record_attempt("a1", "ip:x", at - 5_000, at - 60_000, Some(2))
        .await
        .unwrap();
    assert_eq!(
        a,
        Attempt {
            recorded: true,
            others: 0,
            oldest_ms: None
        }
    );
    let a = store
        .record_attempt("a2", "ip:x", at - 1_000, at - 60_000, Some(2))
        .await
        .unwrap();
    assert_eq!(
        a,
        Attempt {
            recorded: true,
            others: 1,
            oldest_ms: Some(at - 5_000)
        }
    );
    let a = store
        .record_attempt("a3", "ip:x", at, at - 60_000, Some(2))
        .await
        .unwrap();
    assert_eq!(
        a,
        Attempt {
            recorded: false,
            others: 2,
            oldest_ms: Some(at - 5_000)
        }
    );
    // Another bucket and an unlimited insert are independent.
    let a = store
        .record_attempt("a4", "ip:y", at, at - 60_000, Some(2))
        .await
        .unwrap();
    assert!(a.recorded && a.others == 0);
    let a = store
        .record_attempt("a5", "ip:x", at, at - 60_000, None)
        .await
        .unwrap();
    assert!(a.recorded && a.others == 2);
    // A sliding window: once a1 is older than the window, there is room again.
    store.forget_attempts(&["a5".into()]).await.unwrap();
    let a = store
        .record_attempt("a6", "ip:x", at + 56_000, at - 4_000, Some(2))
        .await
        .unwrap();
    assert_eq!(
        a,
        Attempt {
            recorded: true,
            others: 1,
            oldest_ms: Some(at - 1_000)
        }
    );
    store.prune_attempts(at - 1_000).await.unwrap();
    let a = store
        .record_attempt("a7", "ip:x", at + 57_000, 0, Some(10))
        .await
        .unwrap();
    assert_eq!(
        a,
        Attempt {
            recorded: true,
            others: 1,
            oldest_ms: Some(at + 56_000)
        }
    );
    store.forget_attempts(&[]).await.unwrap();
}
