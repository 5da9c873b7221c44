//! What follows an article: three to read next (its category's first), and the author's box
//! with their role and other articles — the same on both engines.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use common::spawn_app;
use serde_json::Value;

on_both_engines! {
    async fn read_next_and_the_author(engine: Engine) {
        let app = spawn_app(engine).await;
        agora::seed::demo(&app.services).await.unwrap();
        let (_, all) = app.json("/api/v1/articles?limit=50").await;
        let items = all["items"].as_array().unwrap().clone();
        let me = items
            .iter()
            .find(|a| a["author_name"] == "Maya Okafor" && a["category"] == "Youth Activism")
            .expect("a demo article by Maya Okafor in Youth Activism");
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
        assert_eq!(author["name"], "Maya Okafor");
        assert_eq!(author["role"], "Writer");
        let theirs = author["articles"].as_array().unwrap();
        let expected: Vec<&Value> = items
            .iter()
            .filter(|a| a["author_name"] == "Maya Okafor" && a["slug"] != slug)
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
