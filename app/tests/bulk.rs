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

        // Every published article's text, newest first, to check search against.
        let mut texts = Vec::new();
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
        // Each page of matches is the newest-first run of the articles holding the text, however
        // the store finds it; totals are exact up to the count cap (1,000, or the end of the
        // page asked for), and past it are given as a lower bound.
        let mut past_cap = 0;
        for q in [rare.as_str(), "floods", "ood", "vote election", "ote elec", "ba", "TAXES", "the", "e t"] {
            let holding: Vec<&String> = slugs
                .iter()
                .zip(&texts)
                .filter(|(_, t)| t.contains(&q.to_lowercase()))
                .map(|(slug, _)| slug)
                .collect();
            for offset in [0usize, 12, 600, 996] {
                let (status, found) = app
                    .json(&format!(
                        "/api/v1/articles?limit=12&offset={offset}&q={}",
                        q.replace(' ', "%20")
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
                    holding.iter().skip(offset).take(12).map(|s| s.as_str()).collect();
                assert_eq!(page, expected, "{q} at {offset}");
                let cap = 1000.max(offset + 12);
                let (total, exact) = (found["total"].as_i64().unwrap(), found["total_exact"].as_bool().unwrap());
                if holding.len() > cap {
                    assert_eq!((total, exact), (i64::try_from(cap).unwrap(), false), "{q} at {offset}");
                    past_cap += 1;
                } else {
                    assert_eq!((total, exact), (i64::try_from(holding.len()).unwrap(), true), "{q} at {offset}");
                }
            }
        }
        assert!(past_cap > 0, "some search matched more than the count cap");
        // With a category, the same.
        for q in ["the", "ood", rare.as_str()] {
            let holding: Vec<&str> = slugs
                .iter()
                .zip(&texts)
                .zip(&in_category)
                .filter(|((_, t), inside)| **inside && t.contains(q))
                .map(|((slug, _), _)| slug.as_str())
                .collect();
            for offset in [0usize, 120] {
                let (_, found) = app
                    .json(&format!(
                        "/api/v1/articles?limit=12&offset={offset}&q={q}&category=Climate%20Justice"
                    ))
                    .await;
                let page: Vec<&str> =
                    found["items"].as_array().unwrap().iter().map(|a| a["slug"].as_str().unwrap()).collect();
                let expected: Vec<&str> = holding.iter().skip(offset).take(12).copied().collect();
                assert_eq!(page, expected, "{q} in a category at {offset}");
                assert_eq!(found["total"].as_i64().unwrap(), i64::try_from(holding.len().min(1000)).unwrap());
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

        // PostgreSQL numbers each article's tokens in the app as it inserts them, and in SQL
        // when anything else writes the text: the two must cut the same tokens.
        if url.starts_with("postgres") {
            let mut odd = common::published("Odd Spaces");
            odd.content = "a\tb\u{b}c\u{c}d\u{a0}e\u{2003}f  g\r\nh \u{85}i".into();
            app.services.content.create(odd).await.unwrap();
            let pool = sqlx::PgPool::connect(&url).await.unwrap();
            let (stored, differing): (i64, i64) = sqlx::query_as(
                "SELECT COUNT(*), COUNT(*) FILTER (WHERE a.search_terms \
                 <> agora_search_term_ids(agora_search_tokens(a.search_text)) \
                 OR d.pairs <> agora_search_pairs(a.search_text) \
                 OR a.search_words <> agora_search_words(a.search_text)) \
                 FROM articles a JOIN article_search_docs d ON d.article_id = a.id",
            )
            .fetch_one(&pool)
            .await
            .unwrap();
            assert_eq!((stored, differing), (1301, 0));
            // The load dropped the search's GIN indexes and built them again once done, each
            // without a pending list for searches to read through (migration 0025).
            let indexes: Vec<(String, String)> = sqlx::query_as(
                "SELECT indexname, indexdef FROM pg_indexes WHERE indexdef LIKE '%USING gin%' \
                 AND schemaname = current_schema() ORDER BY 1",
            )
            .fetch_all(&pool)
            .await
            .unwrap();
            let names: Vec<&str> = indexes.iter().map(|(name, _)| name.as_str()).collect();
            assert_eq!(
                names,
                ["article_search_docs_pairs", "articles_search_terms", "articles_search_words", "search_vocabulary_trgm"]
            );
            for (name, definition) in &indexes {
                assert!(definition.contains("fastupdate=off"), "{name}: {definition}");
            }
            let deferred: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM deferred_indexes")
                .fetch_one(&pool)
                .await
                .unwrap();
            assert_eq!(deferred, 0);
            // A load that stops half way leaves its indexes to the next start's migrations.
            app.services.db.defer_indexes(&["article_search_docs_pairs", "no_such_index"]).await.unwrap();
            let count_pairs = "SELECT COUNT(*) FROM pg_indexes WHERE indexname = 'article_search_docs_pairs'";
            let present: i64 = sqlx::query_scalar(count_pairs).fetch_one(&pool).await.unwrap();
            assert_eq!(present, 0);
            // Two starts at once (two instances): each index is built once, and neither fails.
            let (a, b) = tokio::join!(app.services.db.migrate(), app.services.db.build_deferred_indexes());
            a.unwrap();
            b.unwrap();
            let present: i64 = sqlx::query_scalar(count_pairs).fetch_one(&pool).await.unwrap();
            assert_eq!(present, 1);
            let hits: i64 = app
                .request(reqwest::Method::GET, "/api/v1/articles?q=odd%20spaces", None)
                .send()
                .await
                .unwrap()
                .json::<Value>()
                .await
                .unwrap()["total"]
                .as_i64()
                .unwrap_or(-1);
            assert_eq!(hits, 1, "the phrase is found through the rebuilt index");
            let odd_tokens: Vec<String> = sqlx::query_scalar(
                "SELECT v.term FROM articles a JOIN search_vocabulary v \
                 ON v.id = ANY(a.search_terms) WHERE a.title = 'Odd Spaces' ORDER BY v.term",
            )
            .fetch_all(&pool)
            .await
            .unwrap();
            // Cut at the six ASCII separators only (other spaces are part of a token).
            for token in ["a", "b", "c", "d\u{a0}e\u{2003}f", "g", "h", "\u{85}i", "odd", "spaces"] {
                assert!(odd_tokens.iter().any(|t| t == token), "{token:?} in {odd_tokens:?}");
            }
            assert!(
                odd_tokens.iter().all(|t| !t.is_empty() && !t.contains([' ', '\t', '\n', '\r', '\u{b}', '\u{c}'])),
                "{odd_tokens:?}"
            );
            // A deferred definition changed while a build is about to claim it (as migration
            // 0025 changes them): the build waits for the change and builds what it claims.
            app.services.db.defer_indexes(&["article_search_docs_pairs"]).await.unwrap();
            let mut change = pool.begin().await.unwrap();
            sqlx::query(
                "UPDATE deferred_indexes SET definition = \
                 replace(definition, 'fastupdate=off', 'fastupdate=off, gin_pending_list_limit=128')",
            )
            .execute(&mut *change)
            .await
            .unwrap();
            let db = app.services.db.clone();
            let build = tokio::spawn(async move { db.build_deferred_indexes().await });
            // Until the build waits on the changed row.
            for _ in 0..500 {
                let waiting: i64 = sqlx::query_scalar(
                    "SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' \
                     AND query LIKE 'DELETE FROM deferred_indexes%'",
                )
                .fetch_one(&pool)
                .await
                .unwrap();
                if waiting > 0 {
                    break;
                }
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
            change.commit().await.unwrap();
            build.await.unwrap().unwrap();
            let built: String = sqlx::query_scalar(
                "SELECT indexdef FROM pg_indexes WHERE indexname = 'article_search_docs_pairs'",
            )
            .fetch_one(&pool)
            .await
            .unwrap();
            assert!(built.contains("gin_pending_list_limit='128'"), "{built}");
            pool.close().await;
        }

        // SQLite's app writes its search indexes' rows. A migration that changes what they
        // hold leaves every row unwritten (as 0024 does): searches read the texts meanwhile,
        // and the next start writes them all.
        if url.starts_with("sqlite") {
            let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
            for emptied in [
                "INSERT INTO article_search (article_search) VALUES ('delete-all')",
                "INSERT INTO article_phrases (article_phrases) VALUES ('delete-all')",
                "UPDATE article_search_docs SET indexed = 0",
            ] {
                sqlx::query(emptied).execute(&pool).await.unwrap();
            }
            // Each round asks with its own page size: no answer comes from the listing cache.
            let (app, rare) = (&app, &rare);
            let totals = |limit: u32| async move {
                let mut totals = Vec::new();
                for q in ["vote%20election", "ood", rare.as_str()] {
                    let (_, found) = app.json(&format!("/api/v1/articles?limit={limit}&q={q}")).await;
                    totals.push(found["total"].as_i64().unwrap());
                }
                totals
            };
            let expected: Vec<i64> = ["vote election", "ood", rare.as_str()]
                .iter()
                .map(|q| i64::try_from(texts.iter().filter(|t| t.contains(q)).count().min(1000)).unwrap())
                .collect();
            assert_eq!(totals(13).await, expected, "while unwritten");
            assert_eq!(app.services.content.catch_up_search().await.unwrap(), 1300);
            assert_eq!(app.services.content.catch_up_search().await.unwrap(), 0);
            assert_eq!(totals(14).await, expected, "written again");
            pool.close().await;
        }
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
