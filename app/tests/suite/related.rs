//! What follows an article: three to read next (its category's first), and the author's box
//! with their role and other articles — the same on both engines.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use common::spawn_app;
use identity::Role;
use reqwest::Method;
use serde_json::{json, Value};

on_both_engines! {
    async fn read_next_and_the_author(engine: Engine) {
        let app = spawn_app(engine).await;
        agora::seed::demo(&app.services).await.unwrap();
        let (_, all) = app.json("/api/v1/articles?limit=50").await;
        let items = all["items"].as_array().unwrap().clone();
        let me = items
            .iter()
            .find(|a| a["author_name"] == "Maya O." && a["category"] == "Youth Activism")
            .expect("a demo article by Maya O. in Youth Activism");
        let slug = me["slug"].as_str().unwrap();

        let (status, related) = app.json(&format!("/api/v1/articles/{slug}/related")).await;
        assert_eq!(status, 200, "{related}");
        let next = related["read_next"].as_array().unwrap();
        assert_eq!(next.len(), 3);
        assert!(next.iter().all(|a| a["slug"] != slug), "never the article itself");
        // The other Youth Activism article comes first; then the newest of the rest.
        let same: Vec<&Value> = items
            .iter()
            .filter(|a| a["category"] == "Youth Activism" && a["slug"] != slug)
            .collect();
        assert_eq!(same.len(), 1);
        assert_eq!(next[0]["slug"], same[0]["slug"]);
        let newest_others: Vec<&Value> = items
            .iter()
            .filter(|a| a["slug"] != slug && a["slug"] != same[0]["slug"])
            .take(2)
            .collect();
        assert_eq!(next[1]["slug"], newest_others[0]["slug"]);
        assert_eq!(next[2]["slug"], newest_others[1]["slug"]);

        let author = &related["author"];
        assert_eq!(author["name"], "Maya O.");
        assert_eq!(author["role"], "Writer");
        let theirs = author["articles"].as_array().unwrap();
        let expected: Vec<&Value> = items
            .iter()
            .filter(|a| a["author_name"] == "Maya O." && a["slug"] != slug)
            .take(3)
            .map(|a| &a["slug"])
            .collect();
        assert!(!expected.is_empty());
        assert_eq!(theirs.iter().map(|a| &a["slug"]).collect::<Vec<_>>(), expected);

        let (status, body) = app.json("/api/v1/articles/no-such-article/related").await;
        assert_eq!(status, 404);
        assert_eq!(body["code"], "article_not_found");
    }
}

on_both_engines! {
    async fn read_next_follows_a_publish_and_a_delete(engine: Engine) {
        let app = spawn_app(engine).await;
        agora::seed::demo(&app.services).await.unwrap();
        let (_, all) = app.json("/api/v1/articles?limit=50").await;
        let slug = all["items"][0]["slug"].as_str().unwrap().to_string();
        let category = all["items"][0]["category"].as_str().unwrap().to_string();
        let read_next = |related: &Value| -> Vec<String> {
            related["read_next"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a["title"].as_str().unwrap().to_string())
                .collect()
        };
        let url = format!("/api/v1/articles/{slug}/related");
        let (_, before) = app.json(&url).await;
        assert!(!read_next(&before).contains(&"A Fresh Piece Next Door".to_string()));

        let writer = all["items"][0]["author_id"].clone();
        let (_, key) = app
            .services
            .identity
            .add_staff("Dee Director", Role::ContentDirector)
            .await
            .unwrap();
        let director = app.login(&key).await;
        let r = app
            .request(Method::POST, "/api/v1/staff/articles", Some(&director))
            .json(&json!({"title": "A Fresh Piece Next Door", "content": "Body of it.",
                          "category": category, "status": "published",
                          "author_id": writer}))
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        let created = r.json::<Value>().await.unwrap();
        assert_eq!(status, 201, "{created}");
        let id = created["id"].as_str().unwrap().to_string();
        // The newest piece of the same category comes first, from the next read on.
        let (_, after) = app.json(&url).await;
        assert_eq!(read_next(&after)[0], "A Fresh Piece Next Door", "{after}");

        let r = app
            .request(Method::DELETE, &format!("/api/v1/staff/articles/{id}"), Some(&director))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 204);
        let (_, gone) = app.json(&url).await;
        assert_eq!(read_next(&gone), read_next(&before), "{gone}");
        app.shutdown().await;
    }
}
