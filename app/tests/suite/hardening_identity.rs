//! Identity rules that must hold under concurrency and over time: the last active admin, and the
//! sign-in limiter (record-then-check, sliding window), on every engine.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use common::{spawn_app, spawn_app_with, Options, TestApp};
use identity::Role;
use kernel::clock::{Clock as _, ManualClock};
use reqwest::Method;
use serde_json::{json, Value};

async fn active_admins(app: &TestApp) -> Vec<String> {
    app.services
        .identity
        .staff()
        .await
        .unwrap()
        .into_iter()
        .filter(|s| s.active && s.role == Role::Admin)
        .map(|s| s.id)
        .collect()
}

async fn disable(app: &TestApp, cookie: &str, id: &str) -> u16 {
    app.request(
        Method::PUT,
        &format!("/api/v1/staff/members/{id}/active"),
        Some(cookie),
    )
    .json(&json!({"active": false}))
    .send()
    .await
    .unwrap()
    .status()
    .as_u16()
}

on_both_engines! {
    async fn two_admins_disabling_each_other_at_once_leave_exactly_one_active(engine: Engine) {
        let app = spawn_app(engine).await;
        let identity = &app.services.identity;
        let mut keys: HashMap<String, String> = HashMap::new();
        let (first, key) = identity.add_staff("Admin 0", Role::Admin).await.unwrap();
        keys.insert(first.id.clone(), key);
        let mut survivor = first.id;
        for trial in 1..=20 {
            // Exactly two active admins: the survivor of the last trial and a new one.
            let (new, key) = identity
                .add_staff(&format!("Admin {trial}"), Role::Admin)
                .await
                .unwrap();
            keys.insert(new.id.clone(), key);
            let a = app.login(&keys[&survivor]).await;
            let b = app.login(&keys[&new.id]).await;
            let (sa, sb) = tokio::join!(disable(&app, &a, &new.id), disable(&app, &b, &survivor));
            let active = active_admins(&app).await;
            assert_eq!(
                active.len(),
                1,
                "{engine:?} trial {trial}: answers {sa} and {sb} left {} active admins",
                active.len()
            );
            // One change wins; the other is refused (or its session already ended).
            let mut answers = [sa, sb];
            answers.sort_unstable();
            assert!(
                answers == [200, 401] || answers == [200, 409],
                "{engine:?} trial {trial}: answers {answers:?}"
            );
            survivor = active[0].clone();
        }
        // The survivor still signs in and the rule still answers 409 for them.
        let cookie = app.login(&keys[&survivor]).await;
        assert_eq!(disable(&app, &cookie, &survivor).await, 409);
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn disabling_admins_keeps_the_rule_and_other_roles_are_unaffected(engine: Engine) {
        let app = spawn_app(engine).await;
        let identity = &app.services.identity;
        let (a, _) = identity.add_staff("Ann", Role::Admin).await.unwrap();
        let (b, _) = identity.add_staff("Bob", Role::Admin).await.unwrap();
        let (w, _) = identity.add_staff("Wes", Role::Writer).await.unwrap();
        identity.set_active(&w.id, false).await.unwrap();
        identity.set_active(&w.id, false).await.unwrap();
        identity.set_active(&a.id, false).await.unwrap();
        // Disabling an admin who is already disabled is not refused.
        identity.set_active(&a.id, false).await.unwrap();
        assert!(matches!(
            identity.set_active(&b.id, false).await,
            Err(identity::IdentityError::LastAdmin)
        ));
        assert!(matches!(
            identity.set_active("no-such-id", false).await,
            Err(identity::IdentityError::NotFound)
        ));
        assert!(matches!(
            identity.set_active("no-such-id", true).await,
            Err(identity::IdentityError::NotFound)
        ));
        identity.set_active(&a.id, true).await.unwrap();
        identity.set_active(&b.id, false).await.unwrap();
        assert_eq!(active_admins(&app).await, vec![a.id.clone()]);
        app.shutdown().await;
    }
}

async fn attempt(app: &TestApp, from: &str, key: &str) -> reqwest::Response {
    app.request(Method::POST, "/api/v1/session", None)
        .header("x-forwarded-for", from)
        .json(&json!({ "access_key": key }))
        .send()
        .await
        .unwrap()
}

fn behind_proxy(window: Duration) -> Options {
    let mut options = Options {
        trust_proxy: true,
        ..Options::default()
    };
    options.identity.failure_window = window;
    options
}

on_both_engines! {
    async fn concurrent_bad_sign_ins_from_one_address_get_at_most_five_answers_of_401(engine: Engine) {
        let app = spawn_app_with(engine, behind_proxy(Duration::from_secs(60))).await;
        let (_, key) = app
            .services
            .identity
            .add_staff("Real", Role::Writer)
            .await
            .unwrap();
        let mut tasks = tokio::task::JoinSet::new();
        for i in 0..20 {
            let request = app
                .request(Method::POST, "/api/v1/session", None)
                .header("x-forwarded-for", "203.0.113.50")
                .json(&json!({ "access_key": format!("agora_wrong_{i}") }));
            tasks.spawn(async move {
                let r = request.send().await.unwrap();
                let status = r.status().as_u16();
                let retry = r
                    .headers()
                    .get("retry-after")
                    .map(|v| v.to_str().unwrap().parse::<u64>().unwrap());
                let body: Value = r.json().await.unwrap();
                (status, retry, body)
            });
        }
        let mut unauthorized = 0;
        let mut limited = 0;
        while let Some(done) = tasks.join_next().await {
            let (status, retry, body) = done.unwrap();
            match status {
                401 => {
                    unauthorized += 1;
                    assert_eq!(body["code"], "invalid_key");
                }
                429 => {
                    limited += 1;
                    assert_eq!(body["code"], "too_many_attempts");
                    assert!(retry.is_some_and(|s| (1..=60).contains(&s)), "{retry:?}");
                }
                other => panic!("{engine:?}: unexpected answer {other}: {body}"),
            }
        }
        // Exactly the limit: no more (the count and the record are one step), and no fewer
        // (a refused attempt does not count).
        assert_eq!(
            unauthorized, 5,
            "{engine:?}: {unauthorized} answers of 401 (limit 5), {limited} of 429"
        );
        assert_eq!(unauthorized + limited, 20);
        // The address is now limited even with the right key; another address is not.
        assert_eq!(attempt(&app, "203.0.113.50", &key).await.status(), 429);
        assert_eq!(attempt(&app, "198.51.100.50", &key).await.status(), 200);
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn bad_keys_straddling_a_window_boundary_are_still_limited(engine: Engine) {
        let window = Duration::from_secs(60);
        let clock = Arc::new(ManualClock::new());
        let mut options = behind_proxy(window);
        options.clock = Some(clock.clone());
        let app = spawn_app_with(engine, options).await;
        let from = "203.0.113.77";
        // 700 ms before a multiple of the window on the clock, where a calendar-aligned
        // window would start afresh.
        // (Within the last 700 ms of a window already: aim at the next boundary.)
        let into = u64::try_from(clock.now().timestamp_millis()).unwrap() % 60_000;
        let to_boundary = 60_000 - into;
        let wait = if to_boundary > 700 { to_boundary } else { to_boundary + 60_000 };
        clock.advance(Duration::from_millis(wait - 700));
        let mut answers = Vec::new();
        for _ in 0..5 {
            answers.push(attempt(&app, from, "agora_wrong").await.status().as_u16());
        }
        // Cross the boundary where a fixed calendar window would start counting from zero.
        clock.advance(Duration::from_millis(900));
        let mut retry_after = Vec::new();
        for _ in 0..5 {
            let r = attempt(&app, from, "agora_wrong").await;
            answers.push(r.status().as_u16());
            if let Some(v) = r.headers().get("retry-after") {
                retry_after.push(v.to_str().unwrap().parse::<u64>().unwrap());
            }
        }
        assert_eq!(&answers[..5], &[401; 5], "{engine:?}: {answers:?}");
        assert_eq!(&answers[5..], &[429; 5], "{engine:?}: {answers:?}");
        // Retry-After points at when the oldest failure leaves the window: 59.1 s.
        assert_eq!(retry_after, vec![60; 5]);
        // A sliding window: not before the first failures are older than the window (the
        // refused attempts never counted), then the address may try again.
        clock.advance(Duration::from_millis(59_000));
        assert_eq!(attempt(&app, from, "agora_wrong").await.status(), 429);
        clock.advance(Duration::from_millis(200));
        assert_eq!(attempt(&app, from, "agora_wrong").await.status(), 401);
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn a_correct_key_frees_its_place_and_the_global_cap_still_applies(engine: Engine) {
        let mut options = behind_proxy(Duration::from_secs(60));
        options.identity.failures_global = 8;
        let app = spawn_app_with(engine, options).await;
        let (_, key) = app
            .services
            .identity
            .add_staff("Real", Role::Writer)
            .await
            .unwrap();
        // Successful sign-ins are not failures.
        for _ in 0..8 {
            assert_eq!(attempt(&app, "192.0.2.1", &key).await.status(), 200);
        }
        for _ in 0..4 {
            assert_eq!(
                attempt(&app, "192.0.2.1", "agora_wrong").await.status(),
                401
            );
        }
        assert_eq!(attempt(&app, "192.0.2.1", &key).await.status(), 200);
        // Four more failures from other addresses reach the global cap of 8.
        for i in 0..4 {
            let from = format!("192.0.2.{}", 10 + i);
            assert_eq!(attempt(&app, &from, "agora_wrong").await.status(), 401);
        }
        // An address that already failed now waits, even with a correct key…
        let r = attempt(&app, "192.0.2.1", &key).await;
        assert_eq!(r.status(), 429);
        assert!(r.headers().contains_key("retry-after"));
        // …while a clean address still gets in.
        assert_eq!(attempt(&app, "192.0.2.99", &key).await.status(), 200);
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn a_session_that_cannot_be_checked_is_unavailable_not_signed_out(engine: Engine) {
        let app = spawn_app(engine).await;
        let (_, key) = app.services.identity.add_staff("Writer", Role::Writer).await.unwrap();
        let cookie = app.login(&key).await;
        let articles = |cookie: String| {
            let app = &app;
            async move { app.request(Method::GET, "/api/v1/staff/articles", Some(&cookie)).send().await.unwrap() }
        };
        assert_eq!(articles(cookie.clone()).await.status().as_u16(), 200);
        // The database goes away (a restart, a network fault): the guards cannot check a
        // session, and say so; the dashboard must not take the writer for signed out.
        match &app.services.db {
            kernel::Db::Sqlite(p) => p.close().await,
            kernel::Db::Postgres(p) => p.close().await,
        }
        for r in [
            articles(cookie.clone()).await,
            app.request(Method::GET, "/api/v1/reader/account", Some("agora_reader=some-token")).send().await.unwrap(),
        ] {
            assert_eq!(r.status().as_u16(), 503, "{}", r.url());
            assert_eq!(r.headers()["retry-after"], "5");
            let body: Value = r.json().await.unwrap();
            assert_eq!(body["code"], "service_unavailable", "{body}");
        }
        // Without a session cookie, still 401: nothing needed the database.
        let r = app.request(Method::GET, "/api/v1/staff/articles", None).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 401);
        // What readers ask for fails because of the outage, and says so: 503 with
        // Retry-After (a CDN or a crawler tries again), never a 500.
        for path in ["/api/v1/articles?limit=5&category=Human%20Rights", "/articles?category=Climate%20Justice"] {
            let r = app.request(Method::GET, path, None).send().await.unwrap();
            assert_eq!(r.status().as_u16(), 503, "{path}");
            assert_eq!(r.headers()["retry-after"], "5", "{path}");
        }
        app.shutdown().await;
    }
}
