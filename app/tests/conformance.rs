//! Every store passes the same suite on every engine.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use common::{engines, fresh_db, TempDir};

#[tokio::test]
async fn content_store_conforms_on_every_engine() {
    for engine in engines() {
        let dir = TempDir::new();
        let db = fresh_db(engine, &dir).await;
        content::conformance::run(content::store_for(&db)).await;
        db.close().await;
    }
}

#[tokio::test]
async fn identity_store_conforms_on_every_engine() {
    for engine in engines() {
        let dir = TempDir::new();
        let db = fresh_db(engine, &dir).await;
        identity::conformance::run(identity::store_for(&db)).await;
        db.close().await;
    }
}
