//! Article slugs under concurrency: concurrent creates and renames to the same slug all succeed
//! with distinct slugs, and a rename with its slug history is one change, on every engine.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use std::collections::HashSet;

use common::{spawn_app, TestApp};
use identity::Role;
use reqwest::Method;
use serde_json::{json, Value};

async fn writer(app: &TestApp) -> String {
    let (_, key) = app
        .services
        .identity
        .add_staff("Wanda Writer", Role::Writer)
        .await
        .unwrap();
    app.login(&key).await
}

/// Sends `n` requests at once; returns every (status, body).
async fn all_at_once(requests: Vec<reqwest::RequestBuilder>) -> Vec<(u16, Value)> {
    let mut tasks = tokio::task::JoinSet::new();
    for (i, r) in requests.into_iter().enumerate() {
        tasks.spawn(async move {
            let r = r.send().await.unwrap();
            let status = r.status().as_u16();
            (i, status, r.json::<Value>().await.unwrap_or(Value::Null))
        });
    }
    let mut out = Vec::new();
    while let Some(done) = tasks.join_next().await {
        out.push(done.unwrap());
    }
    out.sort_by_key(|(i, _, _)| *i);
    out.into_iter().map(|(_, s, b)| (s, b)).collect()
}

async fn staff_articles(app: &TestApp, cookie: &str) -> Vec<Value> {
    app.request(Method::GET, "/api/v1/staff/articles", Some(cookie))
        .send()
        .await
        .unwrap()
        .json::<Vec<Value>>()
        .await
        .unwrap()
}

on_both_engines! {
    async fn concurrent_creates_with_the_same_title_all_succeed_with_distinct_slugs(engine: Engine) {
        let app = spawn_app(engine).await;
        let w = writer(&app).await;
        for round in 0..3 {
            let title = format!("Town Hall Round {round}");
            let requests = (0..12)
                .map(|_| {
                    app.request(Method::POST, "/api/v1/staff/articles", Some(&w))
                        .json(&json!({"title": title, "content": "Body", "status": "published"}))
                })
                .collect();
            let answers = all_at_once(requests).await;
            let slugs: HashSet<String> = answers
                .iter()
                .map(|(status, body)| {
                    assert_eq!(*status, 201, "{engine:?}: {body}");
                    body["slug"].as_str().unwrap().to_string()
                })
                .collect();
            assert_eq!(slugs.len(), 12, "{engine:?}: {slugs:?}");
            let base = format!("town-hall-round-{round}");
            assert!(slugs.contains(&base), "{slugs:?}");
            assert!(slugs.iter().all(|s| s.starts_with(&base)), "{slugs:?}");
            for slug in &slugs {
                assert_eq!(
                    app.get(&format!("/api/v1/articles/{slug}")).await.status(),
                    200,
                    "{engine:?}: {slug}"
                );
            }
        }
        assert_eq!(staff_articles(&app, &w).await.len(), 36, "{engine:?}");
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn concurrent_renames_to_the_same_slug_all_succeed_and_lose_nothing(engine: Engine) {
        let app = spawn_app(engine).await;
        let w = writer(&app).await;
        let mut ids = Vec::new();
        for i in 0..10 {
            let r = app
                .request(Method::POST, "/api/v1/staff/articles", Some(&w))
                .json(
                    &json!({"title": format!("Draft {i}"), "content": format!("Body {i}"),
                              "status": "published"}),
                )
                .send()
                .await
                .unwrap();
            assert_eq!(r.status().as_u16(), 201);
            ids.push(
                r.json::<Value>().await.unwrap()["id"]
                    .as_str()
                    .unwrap()
                    .to_string(),
            );
        }
        let requests = ids
            .iter()
            .enumerate()
            .map(|(i, id)| {
                app.request(
                    Method::PUT,
                    &format!("/api/v1/staff/articles/{id}"),
                    Some(&w),
                )
                .json(
                    &json!({"title": "The Same Headline", "content": format!("Body {i}"),
                                  "status": "published"}),
                )
            })
            .collect();
        let answers = all_at_once(requests).await;
        let mut slugs = HashSet::new();
        for (i, (status, body)) in answers.iter().enumerate() {
            assert_eq!(*status, 200, "{engine:?}: {body}");
            assert_eq!(body["id"], ids[i]);
            assert_eq!(body["content"], format!("Body {i}"));
            slugs.insert(body["slug"].as_str().unwrap().to_string());
            // The old slug redirects to the new one.
            let r = app.get(&format!("/article/draft-{i}")).await;
            assert_eq!(r.status().as_u16(), 301, "{engine:?}: draft-{i}");
            assert_eq!(
                r.headers()["location"],
                format!("/article/{}", body["slug"].as_str().unwrap())
            );
        }
        assert_eq!(slugs.len(), 10, "{engine:?}: {slugs:?}");
        assert!(slugs.contains("the-same-headline"));
        assert_eq!(staff_articles(&app, &w).await.len(), 10);
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn a_rename_racing_a_delete_is_all_or_nothing(engine: Engine) {
        let app = spawn_app(engine).await;
        let w = writer(&app).await;
        for trial in 0..15 {
            let r = app
                .request(Method::POST, "/api/v1/staff/articles", Some(&w))
                .json(&json!({"title": format!("Race {trial}"), "content": "Body",
                              "status": "published"}))
                .send()
                .await
                .unwrap();
            assert_eq!(r.status().as_u16(), 201);
            let id = r.json::<Value>().await.unwrap()["id"]
                .as_str()
                .unwrap()
                .to_string();
            let path = format!("/api/v1/staff/articles/{id}");
            let answers = all_at_once(vec![
                app.request(Method::PUT, &path, Some(&w)).json(
                    &json!({"title": format!("Renamed {trial}"), "content": "Body",
                            "status": "published"}),
                ),
                app.request(Method::DELETE, &path, Some(&w)),
            ])
            .await;
            let (rename, delete) = (answers[0].0, answers[1].0);
            assert_eq!(delete, 204, "{engine:?} trial {trial}: {answers:?}");
            assert!(
                rename == 200 || rename == 404,
                "{engine:?} trial {trial}: rename answered {rename}: {}",
                answers[0].1
            );
            // Nothing is left behind: neither the article nor a redirect to it.
            for slug in [format!("race-{trial}"), format!("renamed-{trial}")] {
                assert_eq!(
                    app.get(&format!("/article/{slug}")).await.status(),
                    404,
                    "{engine:?} trial {trial}: {slug}"
                );
            }
        }
        assert!(staff_articles(&app, &w).await.is_empty());
        app.shutdown().await;
    }
}
