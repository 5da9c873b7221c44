//! `agora seed --bulk`: generated articles and page views, searched through the index and
//! counted from the rollups exactly as they would be from the rows themselves.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use std::process::Command;

use common::{fresh_database_url, spawn_app_with, Options, TempDir};
use serde_json::Value;

on_both_engines! {
    async fn bulk_data_is_searched_and_counted_like_any_other(engine: Engine) {
        let dir = TempDir::new();
        let url = fresh_database_url(engine, &dir).await;
        let out = Command::new(env!("CARGO_BIN_EXE_agora"))
            .args(["seed", "--bulk", "400", "--views", "3000", "--seed", "3"])
            .env("DATABASE_URL", &url)
            .env("DATA_DIR", dir.0.join("data"))
            .env("KEY_SECRET", "test-secret")
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(out.status.success(), "{said}{}", String::from_utf8_lossy(&out.stderr));
        assert!(said.contains("400 articles") && said.contains("3000 page views"), "{said}");

        let app = spawn_app_with(engine, Options { database_url: Some(url), ..Options::default() }).await;
        let (_, all) = app.json("/api/v1/articles?limit=50").await;
        let published = all["total"].as_i64().unwrap();
        assert!((300..400).contains(&published), "about 95% published: {published}");
        let categories: std::collections::HashSet<&str> = all["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["category"].as_str().unwrap())
            .collect();
        assert!(categories.len() >= 4, "varied categories: {categories:?}");

        // Every published article's text, to check search against.
        let mut texts = Vec::new();
        let mut offset = 0;
        while offset < published {
            let (_, page) = app.json(&format!("/api/v1/articles?limit=50&offset={offset}")).await;
            for item in page["items"].as_array().unwrap() {
                let slug = item["slug"].as_str().unwrap();
                let (_, article) = app.json(&format!("/api/v1/articles/{slug}")).await;
                texts.push(format!(
                    "{}\n{}",
                    article["title"].as_str().unwrap(),
                    article["content"].as_str().unwrap()
                ).to_lowercase());
            }
            offset += 50;
        }
        // A rare term, a common word, a piece of one, two words, a short one, upper case:
        // found exactly where the text holds it.
        let rare = texts[0]
            .split(|c: char| !c.is_alphanumeric())
            .find(|w| w.len() >= 6 && w.chars().all(|c| c.is_ascii_lowercase())
                && texts.iter().filter(|t| t.contains(*w)).count() < 40)
            .unwrap()
            .to_string();
        for q in [rare.as_str(), "floods", "ood", "vote election", "ba", "TAXES"] {
            let expected = texts.iter().filter(|t| t.contains(&q.to_lowercase())).count();
            let (status, found) = app
                .json(&format!("/api/v1/articles?limit=1&q={}", q.replace(' ', "%20")))
                .await;
            assert_eq!(status, 200);
            assert_eq!(found["total"].as_i64().unwrap(), i64::try_from(expected).unwrap(), "{q}");
        }

        // The admin's figures, read from the rollups, count every generated view.
        let (_, key) = app.services.identity.add_staff("Ada Admin", identity::Role::Admin).await.unwrap();
        let cookie = app.login(&key).await;
        let stats: Value = app
            .request(reqwest::Method::GET, "/api/v1/staff/stats", Some(&cookie))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(stats["total_views"], 3000, "{stats}");
        let chart: i64 = stats["days"]
            .as_array()
            .map(|days| days.iter().map(|d| d["views"].as_i64().unwrap_or(0)).sum())
            .unwrap_or(-1);
        let raw = app.services.analytics.between(
            kernel::ids::now() - chrono::Duration::days(40), kernel::ids::now() + chrono::Duration::days(1)).await.unwrap();
        assert!(chart > 0 && chart <= raw, "the chart's 30 days: {chart} of {raw} in 40 days");
        app.shutdown().await;
    }
}
