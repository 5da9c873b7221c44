//! The identity store conformance suite, run against every engine by the app's tests.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::sync::Arc;

use crate::store::IdentityStore;

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
}
