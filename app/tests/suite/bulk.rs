//! `agora seed --bulk`: generated articles and page views, searched through the engines' word
//! search and counted from the rollups exactly as they would be from the rows themselves.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use std::process::Command;

use common::{fresh_database_url, spawn_app_with, Options, TempDir};
use serde_json::Value;

on_both_engines! {
    async fn bulk_data_is_searched_and_counted_like_any_other(engine: Engine) {
        let dir = TempDir::new();
        let url = fresh_database_url(engine, &dir).await;
        let out = Command::new(env!("CARGO_BIN_EXE_agora"))
            .args(["seed", "--bulk", "1300", "--views", "3000", "--seed", "3"])
            .env("DATABASE_URL", &url)
            .env("DATA_DIR", dir.0.join("data"))
            .env("KEY_SECRET", "test-secret")
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(out.status.success(), "{said}{}", String::from_utf8_lossy(&out.stderr));
        assert!(said.contains("1300 articles") && said.contains("3000 page views"), "{said}");

        let app = spawn_app_with(engine, Options { database_url: Some(url.clone()), ..Options::default() }).await;
        let (_, all) = app.json("/api/v1/articles?limit=50").await;
        let published = all["total"].as_i64().unwrap();
        assert!((1150..1300).contains(&published), "about 95% published: {published}");
        let categories: std::collections::HashSet<&str> = all["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["category"].as_str().unwrap())
            .collect();
        assert!(categories.len() >= 4, "varied categories: {categories:?}");

        // Every published article's words, newest first, to check search against.
        let mut words_of: Vec<std::collections::HashSet<String>> = Vec::new();
        let mut slugs = Vec::new();
        let mut in_category = Vec::new();
        let mut offset = 0;
        while offset < published {
            let (_, page) = app.json(&format!("/api/v1/articles?limit=50&offset={offset}")).await;
            for item in page["items"].as_array().unwrap() {
                let slug = item["slug"].as_str().unwrap();
                slugs.push(slug.to_string());
                in_category.push(item["category"].as_str().unwrap() == "Climate Justice");
                let (_, article) = app.json(&format!("/api/v1/articles/{slug}")).await;
                let text = format!(
                    "{} {}",
                    article["title"].as_str().unwrap(),
                    article["content"].as_str().unwrap()
                );
                words_of.push(content::search::words(&text).collect());
            }
            offset += 50;
        }
        // Generated articles arrive in date order, as on a real site.
        let holding = |q: &[&str], only_category: bool| -> Vec<String> {
            slugs
                .iter()
                .zip(&words_of)
                .zip(&in_category)
                .filter(|((_, w), inside)| (**inside || !only_category) && q.iter().all(|q| w.contains(*q)))
                .map(|((slug, _), _)| slug.clone())
                .collect()
        };
        let rare = words_of[0]
            .iter()
            .filter(|w| w.len() >= 6 && words_of.iter().filter(|t| t.contains(*w)).count() < 40)
            .min()
            .unwrap()
            .clone();
        // A rare word, a common one, two words, upper case (each quoted: a whole word, not the
        // start of a longer one): newest first, each page the newest-first run of the articles
        // holding every word; totals exact up to the count cap (1,000, or the end of the page
        // asked for), and past it given as a lower bound.
        let mut past_cap = 0;
        for (q, words) in [
            (format!("\"{rare}\""), vec![rare.as_str()]),
            ("\"floods\"".to_string(), vec!["floods"]),
            ("\"vote\" \"election\"".to_string(), vec!["vote", "election"]),
            ("\"TAXES\"".to_string(), vec!["taxes"]),
        ] {
            let expected_all = holding(&words, false);
            for offset in [0usize, 12, 600, 996] {
                let (status, found) = app
                    .json(&format!(
                        "/api/v1/articles?limit=12&offset={offset}&sort=newest&q={}",
                        q.replace(' ', "%20").replace('"', "%22")
                    ))
                    .await;
                assert_eq!(status, 200);
                let page: Vec<&str> = found["items"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|a| a["slug"].as_str().unwrap())
                    .collect();
                let expected: Vec<&str> =
                    expected_all.iter().skip(offset).take(12).map(|s| s.as_str()).collect();
                assert_eq!(page, expected, "{q} at {offset}");
                let cap = 1000.max(offset + 12);
                let (total, exact) = (found["total"].as_i64().unwrap(), found["total_exact"].as_bool().unwrap());
                if expected_all.len() > cap {
                    assert_eq!((total, exact), (i64::try_from(cap).unwrap(), false), "{q} at {offset}");
                    past_cap += 1;
                } else {
                    assert_eq!((total, exact), (i64::try_from(expected_all.len()).unwrap(), true), "{q} at {offset}");
                }
            }
        }
        assert!(past_cap > 0, "some search matched more than the count cap");
        // Best match first finds the same articles, in another order, with a highlight each.
        let (_, best) = app.json("/api/v1/articles?limit=50&q=%22floods%22").await;
        let (_, newest) = app.json("/api/v1/articles?limit=50&q=%22floods%22&sort=newest").await;
        assert_eq!(best["total"], newest["total"]);
        for item in best["items"].as_array().unwrap() {
            let Some(parts) = item["highlight"].as_array() else {
                // Found by its title alone: the card keeps its excerpt.
                assert!(item["title"].as_str().unwrap().to_lowercase().contains("floods"), "{item}");
                continue;
            };
            let marked: Vec<&str> = parts
                .iter()
                .filter(|p| p["marked"] == true)
                .map(|p| p["text"].as_str().unwrap())
                .collect();
            assert!(!marked.is_empty() && marked.iter().all(|m| m.eq_ignore_ascii_case("floods")), "{item}");
        }
        // Past 200 matches (here over 1,000), a title match comes before a body match.
        let in_title: Vec<bool> = best["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["title"].as_str().unwrap().to_lowercase().split(' ').any(|w| w == "floods"))
            .collect();
        assert!(in_title[0], "a title holding the word comes first");
        assert!(in_title.windows(2).all(|w| w[0] || !w[1]), "{in_title:?}");
        // With a category, the same.
        for (q, words) in [("\"students\"", vec!["students"]), (&*format!("\"{rare}\""), vec![rare.as_str()])] {
            let expected_all = holding(&words, true);
            for offset in [0usize, 120] {
                let (_, found) = app
                    .json(&format!(
                        "/api/v1/articles?limit=12&offset={offset}&sort=newest&q={}&category=Climate%20Justice",
                        q.replace('"', "%22")
                    ))
                    .await;
                let page: Vec<&str> =
                    found["items"].as_array().unwrap().iter().map(|a| a["slug"].as_str().unwrap()).collect();
                let expected: Vec<&str> = expected_all.iter().skip(offset).take(12).map(|s| s.as_str()).collect();
                assert_eq!(page, expected, "{q} in a category at {offset}");
                assert_eq!(found["total"].as_i64().unwrap(), i64::try_from(expected_all.len().min(1000)).unwrap());
            }
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

        // Articles stored before search had their body text (migration 0030 leaves it empty)
        // are found by their title only until the app writes it, once: then by their text.
        let body_hits = |limit: u32| {
            let (app, rare) = (&app, &rare);
            // Each round asks with its own page size: no answer comes from the listing cache.
            async move { let (status, body) = app.json(&format!("/api/v1/articles?limit={limit}&q=%22{rare}%22")).await; body["total"].as_i64().unwrap_or_else(|| panic!("{status} {body}")) }
        };
        let before = body_hits(13).await;
        assert!(before > 0);
        match &app.services.db {
            kernel::Db::Sqlite(pool) => {
                sqlx::query("UPDATE articles SET body_text = NULL").execute(pool).await.unwrap();
            }
            kernel::Db::Postgres(pool) => {
                sqlx::query("UPDATE articles SET body_text = NULL").execute(pool).await.unwrap();
            }
        }
        let in_titles = slugs.iter().filter(|s| s.split('-').any(|w| w == rare)).count() as i64;
        assert_eq!(body_hits(14).await, in_titles, "found by title only");
        assert_eq!(app.services.content.fill_body_text().await.unwrap(), 1300);
        assert_eq!(app.services.content.fill_body_text().await.unwrap(), 0);
        assert_eq!(body_hits(15).await, before, "found by its text again");
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn imports_at_once_sharing_new_words_are_all_found(engine: Engine) {
        let app = common::spawn_app(engine).await;
        // Four batches written at once, every article holding 12 of 300 words no article held
        // before (so each batch numbers new words that the others number too).
        let words: Vec<String> = (0..300).map(|i| format!("qvx{i:03}zed")).collect();
        let batch = |b: usize| -> Vec<content::NewArticle> {
            (0..60)
                .map(|i| {
                    let mut picked: Vec<&str> =
                        (0..12).map(|k| words[(i * 7 + k * 13 + b * 31) % 300].as_str()).collect();
                    if b % 2 == 1 {
                        picked.reverse();
                    }
                    content::NewArticle {
                        title: format!("Batch {b} piece {i}"),
                        content: picked.join(" "),
                        ..common::published("unused")
                    }
                })
                .collect()
        };
        let texts: Vec<String> = (0..4).flat_map(batch).map(|a| a.content).collect();
        let content = &app.services.content;
        let (a, b, c, d) = tokio::join!(
            content.import(batch(0)),
            content.import(batch(1)),
            content.import(batch(2)),
            content.import(batch(3))
        );
        for written in [a, b, c, d] {
            assert_eq!(written.unwrap(), 60);
        }
        for word in &words {
            let holding = texts.iter().filter(|t| t.contains(word.as_str())).count();
            let (status, found) = app.json(&format!("/api/v1/articles?limit=50&q={word}")).await;
            assert_eq!(status, 200);
            assert_eq!(found["total"].as_u64(), Some(holding as u64), "{word}");
            assert_eq!(found["items"].as_array().map(Vec::len), Some(holding.min(50)), "{word}");
        }
        app.shutdown().await;
    }
}
