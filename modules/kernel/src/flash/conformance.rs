//! The form answers' conformance suite, run against every engine by the app's tests.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::sync::Arc;

use super::{flash_store_for, Flash, KEEP_FOR};
use crate::clock::ManualClock;
use crate::Db;

pub async fn run(db: &Db) {
    let store = flash_store_for(db);
    store
        .put("h1", "/contact-us", "{\"a\":1}", 2_000)
        .await
        .unwrap();
    // Another page's token is nothing, and it is gone after that try.
    assert_eq!(store.take("h1", "/signup", 1_000).await.unwrap(), None);
    assert_eq!(store.take("h1", "/contact-us", 1_000).await.unwrap(), None);
    // Read once.
    store
        .put("h2", "/contact-us", "{\"b\":2}", 2_000)
        .await
        .unwrap();
    assert_eq!(
        store
            .take("h2", "/contact-us", 1_000)
            .await
            .unwrap()
            .as_deref(),
        Some("{\"b\":2}")
    );
    assert_eq!(store.take("h2", "/contact-us", 1_000).await.unwrap(), None);
    // Past its time: nothing, and pruned.
    store.put("h3", "/signup", "{}", 2_000).await.unwrap();
    assert_eq!(store.take("h3", "/signup", 2_000).await.unwrap(), None);
    store.put("h4", "/signup", "{}", 2_000).await.unwrap();
    store.prune(2_000).await.unwrap();
    assert_eq!(store.take("h4", "/signup", 1_000).await.unwrap(), None);

    // Through the service: a token, not the stored key, and the clock decides.
    let clock = Arc::new(ManualClock::new());
    let flash = Flash::new(db, clock.clone());
    let token = flash.keep("/login", "{\"done\":true}").await.unwrap();
    assert_eq!(
        flash.take(&token, "/login").await.unwrap().as_deref(),
        Some("{\"done\":true}")
    );
    let late = flash.keep("/login", "{}").await.unwrap();
    clock.advance(KEEP_FOR);
    assert_eq!(flash.take(&late, "/login").await.unwrap(), None);
}
