//! Every store passes the same suite on every engine, each engine a test case of its own.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

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
    async fn sessions_of_both_kinds_conform(engine: Engine) {
        let dir = TempDir::new();
        let db = fresh_db(engine, &dir).await;
        identity::conformance::sessions(&db).await;
        db.close().await;
    }
}

on_both_engines! {
    async fn single_use_tokens_conform(engine: Engine) {
        let dir = TempDir::new();
        let db = fresh_db(engine, &dir).await;
        identity::conformance::tokens(&db).await;
        db.close().await;
    }
}

on_both_engines! {
    async fn contributor_profiles_conform(engine: Engine) {
        let dir = TempDir::new();
        let db = fresh_db(engine, &dir).await;
        identity::conformance::profiles(&db).await;
        db.close().await;
    }
}

on_both_engines! {
    async fn article_responses_conform(engine: Engine) {
        let app = common::spawn_app(engine).await;
        let mut ids = Vec::new();
        for title in ["The veto, explained", "Climate talks, explained"] {
            let (id, _) = app.services.content.create(common::published(title)).await.unwrap();
            ids.push(id);
        }
        outreach::conformance::responses(&app.services.db, [&ids[0], &ids[1]]).await;
        app.shutdown().await;
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
    async fn analytics_window_rebuild_races_view_batches(engine: Engine) {
        let dir = TempDir::new();
        let db = fresh_db(engine, &dir).await;
        analytics::conformance::window_race(analytics::store_for(&db)).await;
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

on_both_engines! {
    async fn each_job_period_is_taken_once(engine: Engine) {
        let dir = TempDir::new();
        let db = fresh_db(engine, &dir).await;
        let now = kernel::ids::now();
        // Three instances race for the same ten periods: each period goes to exactly one.
        let racer = |name: &'static str| {
            let leases = kernel::jobs::Leases::new(&db, name);
            async move {
                let mut won = Vec::new();
                for period in 1..=10 {
                    if leases.claim("outbox", period, now).await.unwrap() {
                        won.push(period);
                    }
                }
                won
            }
        };
        let (a, b, c) = tokio::join!(racer("a"), racer("b"), racer("c"));
        let mut all = [a, b, c].concat();
        all.sort_unstable();
        assert!(all.windows(2).all(|w| w[0] < w[1]), "no period run twice: {all:?}");
        assert_eq!(all.last(), Some(&10), "the newest period ran");
        // A period older than the last one run is never run (a late instance, a slow clock).
        let late = kernel::jobs::Leases::new(&db, "late");
        assert!(!late.claim("outbox", 10, now).await.unwrap());
        assert!(!late.claim("outbox", 3, now).await.unwrap());
        assert!(late.claim("outbox", 11, now).await.unwrap());
        assert!(late.claim("digest", 11, now).await.unwrap(), "jobs are counted apart");
        let runs = late.runs().await.unwrap();
        let outbox = runs.iter().find(|r| r.job == "outbox").unwrap();
        assert_eq!((outbox.period, outbox.instance.as_str()), (11, "late"));
        assert_eq!(outbox.runs, i64::try_from(all.len()).unwrap() + 1);
        db.close().await;
    }
}

on_both_engines! {
    async fn statements_conform(engine: Engine) {
        let dir = TempDir::new();
        let db = fresh_db(engine, &dir).await;
        // Another engine's database (on the PostgreSQL run), which refuses its statements.
        let other_dir = TempDir::new();
        let other = fresh_db(common::Engine::Sqlite, &other_dir).await;
        kernel::sql::conformance::run(&db, &other).await;
        db.close().await;
        other.close().await;
    }
}

/// Every store call is a span of its own, named `Store.method` (target `trace_only`: exported
/// with the traces, never a log line).
#[tokio::test]
async fn store_calls_are_spans() {
    use std::sync::{Arc, Mutex};
    use tracing_subscriber::layer::{Context, SubscriberExt};

    #[derive(Clone, Default)]
    struct Spans(Arc<Mutex<Vec<String>>>);
    impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for Spans {
        fn on_new_span(
            &self,
            attrs: &tracing::span::Attributes<'_>,
            _: &tracing::span::Id,
            _: Context<'_, S>,
        ) {
            let meta = attrs.metadata();
            self.0
                .lock()
                .unwrap()
                .push(format!("{} {}", meta.target(), meta.name()));
        }
    }
    let spans = Spans::default();
    let _recording =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(spans.clone()));
    let dir = TempDir::new();
    let db = fresh_db(common::Engine::Sqlite, &dir).await;
    content::store_for(&db).count_all().await.unwrap();
    identity::store_for(&db).count().await.unwrap();
    kernel::outbox::outbox_store_for(&db)
        .pending()
        .await
        .unwrap();
    analytics::store_for(&db).total().await.unwrap();
    let seen = spans.0.lock().unwrap().clone();
    for span in [
        "trace_only ContentStore.count_all",
        "trace_only IdentityStore.count",
        "trace_only OutboxStore.pending",
        "trace_only AnalyticsStore.total",
    ] {
        assert!(seen.iter().any(|s| s == span), "{span} in {seen:?}");
    }
    db.close().await;
}
