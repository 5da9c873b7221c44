//! Issue 9: page views cannot be inflated anonymously. The beacon counts only pages that exist
//! and takes a limited number of beacons per client address.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use common::{spawn_app_with, Engine, Options, TestApp};
use content::{Category, NewArticle, Status};
use reqwest::Method;
use serde_json::{json, Value};

/// A desktop browser; `n` makes each one a different reader (the reload window is per reader).
fn browser(n: usize) -> String {
    format!("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.{n} Safari/537.36")
}

async fn beacon(app: &TestApp, path: &str, from: &str, ua: &str) -> reqwest::Response {
    app.request(Method::POST, "/api/v1/views", None)
        .header("user-agent", ua)
        .header("x-forwarded-for", from)
        .json(&json!({ "path": path }))
        .send()
        .await
        .unwrap()
}

async fn total(app: &TestApp) -> i64 {
    assert!(app.services.views.flush().await);
    app.services.analytics.total().await.unwrap()
}

async fn article(app: &TestApp, title: &str, status: Status) -> (String, String) {
    app.services
        .content
        .create(NewArticle {
            title: title.into(),
            subtitle: None,
            content: format!("{title}: a piece worth reading."),
            category: Category::HumanRights,
            cover_image: None,
            featured: false,
            status,
            author_id: None,
            created_at: None,
        })
        .await
        .unwrap()
}

/// Beacons per address a minute in these tests: low enough that sending them all takes far
/// less than the time one beacon's allowance takes to come back (one second).
const LIMIT: u32 = 60;

async fn spawn(engine: Engine) -> TestApp {
    spawn_app_with(
        engine,
        Options {
            trust_proxy: true,
            beacons_per_minute: LIMIT,
            ..Options::default()
        },
    )
    .await
}

on_both_engines! {
    async fn a_thousand_beacons_for_made_up_paths_add_no_views(engine: Engine) {
        let app = spawn(engine).await;
        article(&app, "A Real Article", Status::Published).await;
        for i in 0..1000 {
            // Each from its own address and browser, so neither the limit nor the reload
            // window is what stops them.
            let path = match i % 3 {
                0 => format!("/article/made-up-{i}"),
                1 => format!("/made-up-page-{i}"),
                2 if i % 2 == 0 => format!("/category/made-up-{i}"),
                _ => format!("/about/{i}"),
            };
            let from = format!("10.{}.{}.{}", i / 65536, (i / 256) % 256, i % 256);
            let r = beacon(&app, &path, &from, &browser(i)).await;
            assert_eq!(r.status().as_u16(), 204, "{path}");
        }
        assert_eq!(total(&app).await, 0, "made-up paths are never counted");
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn beacons_from_one_address_are_capped_and_real_pages_still_count(engine: Engine) {
        let app = spawn(engine).await;
        let (id, slug) = article(&app, "Youth Climate Assemblies", Status::Published).await;
        let (_, draft) = article(&app, "Unfinished Draft", Status::Draft).await;
        let path = format!("/article/{slug}");

        // Real pages count: a published article, the home page, other public pages, a
        // category's page.
        for (i, p) in [path.as_str(), "/", "/about", "/articles", "/category/human-rights"]
            .iter()
            .enumerate()
        {
            let r = beacon(&app, p, "198.51.100.7", &browser(i)).await;
            assert_eq!(r.status().as_u16(), 204);
        }
        assert_eq!(total(&app).await, 5);
        // Pages that do not exist as such are not: a draft, an article by id (it redirects),
        // a dashboard.
        for (i, p) in [
            format!("/article/{draft}"),
            format!("/article/{id}"),
            "/dashboard/admin".to_string(),
        ]
        .iter()
        .enumerate()
        {
            let r = beacon(&app, p, "198.51.100.8", &browser(i)).await;
            assert_eq!(r.status().as_u16(), 204);
        }
        assert_eq!(total(&app).await, 5);

        // One address sending beacons for the real article, each as a "new reader".
        let limit = LIMIT as usize;
        let mut accepted = 0;
        let mut refused = Vec::new();
        for i in 0..limit + 20 {
            let r = beacon(&app, &path, "203.0.113.9", &browser(1000 + i)).await;
            match r.status().as_u16() {
                204 => accepted += 1,
                429 => {
                    let retry_after: u64 = r.headers()["retry-after"]
                        .to_str()
                        .unwrap()
                        .parse()
                        .unwrap();
                    let body: Value = r.json().await.unwrap();
                    refused.push((retry_after, body));
                }
                other => panic!("unexpected status {other}"),
            }
        }
        assert_eq!(accepted, limit, "the limit per address");
        assert_eq!(refused.len(), 20);
        for (retry_after, body) in &refused {
            assert!((1..=60).contains(retry_after), "{retry_after}");
            assert_eq!(body["code"], "too_many_requests");
            assert!(body["message"].as_str().unwrap().contains("Try again"));
        }
        assert_eq!(
            total(&app).await,
            5 + limit as i64,
            "views stop rising at the limit"
        );
        // Another address is not affected.
        let r = beacon(&app, &path, "203.0.113.10", &browser(5000)).await;
        assert_eq!(r.status().as_u16(), 204);
        assert_eq!(total(&app).await, 6 + limit as i64);
        app.shutdown().await;
    }
}
