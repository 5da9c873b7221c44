//! Every store passes the same suite on every engine, each engine a test case of its own.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use common::{fresh_db, TempDir};

on_both_engines! {
    async fn content_store_conforms(engine: Engine) {
        let dir = TempDir::new();
        let db = fresh_db(engine, &dir).await;
        let author = kernel::ids::new_id();
        identity::store_for(&db)
            .insert(&author, "Maya", "writer", kernel::ids::now())
            .await
            .unwrap();
        content::conformance::run(content::store_for(&db), &author).await;
        db.close().await;
    }
}

on_both_engines! {
    async fn identity_store_conforms(engine: Engine) {
        let dir = TempDir::new();
        let db = fresh_db(engine, &dir).await;
        identity::conformance::run(identity::store_for(&db)).await;
        db.close().await;
    }
}

on_both_engines! {
    async fn outreach_store_conforms(engine: Engine) {
        let dir = TempDir::new();
        let db = fresh_db(engine, &dir).await;
        outreach::conformance::run(
            outreach::store_for(&db),
            kernel::outbox::outbox_store_for(&db),
        )
        .await;
        db.close().await;
    }
}

on_both_engines! {
    async fn analytics_store_conforms(engine: Engine) {
        let dir = TempDir::new();
        let db = fresh_db(engine, &dir).await;
        analytics::conformance::run(analytics::store_for(&db)).await;
        db.close().await;
    }
}

on_both_engines! {
    async fn magazine_store_conforms(engine: Engine) {
        let dir = TempDir::new();
        let db = fresh_db(engine, &dir).await;
        media::conformance::run(&db).await;
        db.close().await;
    }
}

on_both_engines! {
    async fn rate_limiter_conforms(engine: Engine) {
        let dir = TempDir::new();
        let db = fresh_db(engine, &dir).await;
        kernel::limiter::conformance::run(&db).await;
        db.close().await;
    }
}

on_both_engines! {
    async fn form_answers_conform(engine: Engine) {
        let dir = TempDir::new();
        let db = fresh_db(engine, &dir).await;
        kernel::flash::conformance::run(&db).await;
        db.close().await;
    }
}

on_both_engines! {
    async fn outbox_store_conforms(engine: Engine) {
        let dir = TempDir::new();
        let db = fresh_db(engine, &dir).await;
        kernel::outbox::conformance::run(&db).await;
        db.close().await;
    }
}
