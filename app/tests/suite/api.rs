//! The public content API over real HTTP, on every engine.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use common::{spawn_app, Engine, TestApp};
use content::{Category, NewArticle, Status};
use serde_json::{json, Value};

async fn seeded(engine: Engine) -> TestApp {
    let app = spawn_app(engine).await;
    agora::seed::demo(&app.services).await.unwrap();
    app
}

fn titles(v: &Value) -> Vec<String> {
    v["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["title"].as_str().unwrap().to_string())
        .collect()
}

async fn add(
    app: &TestApp,
    title: &str,
    category: Category,
    status: Status,
    featured: bool,
) -> String {
    let (_, slug) = app
        .services
        .content
        .create(NewArticle {
            title: title.into(),
            subtitle: None,
            content: format!("{title} body with **markdown** and Zanzibar."),
            category,
            cover_image: None,
            featured,
            status,
            author_id: None,
            created_at: None,
        })
        .await
        .unwrap();
    slug
}

on_both_engines! {
    async fn listing_is_newest_first_with_card_fields_and_totals(engine: Engine) {
        let app = seeded(engine).await;
        let (status, body) = app.json("/api/v1/articles?limit=50").await;
        assert_eq!(status, 200);
        assert_eq!(body["total"], 12);
        assert_eq!(body["published_total"], 12);
        let items = body["items"].as_array().unwrap();
        assert_eq!(items.len(), 12);
        let dates: Vec<&str> = items
            .iter()
            .map(|a| a["created_at"].as_str().unwrap())
            .collect();
        let mut sorted = dates.clone();
        sorted.sort_by(|a, b| b.cmp(a));
        assert_eq!(dates, sorted, "newest first");
        let first = &items[0];
        for field in [
            "id",
            "slug",
            "title",
            "excerpt",
            "category",
            "created_at",
            "read_time",
            "author_name",
            "cover_image",
        ] {
            assert!(first.get(field).is_some(), "card lacks {field}");
        }
        assert!(first["read_time"].as_str().unwrap().ends_with(" min"));
        assert!(!first["excerpt"].as_str().unwrap().contains("**"));
        assert!(
            first.get("content").is_none(),
            "cards do not carry the body"
        );
        // Default page size is 6.
        let (_, body) = app.json("/api/v1/articles").await;
        assert_eq!(body["items"].as_array().unwrap().len(), 6);
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn home_order_puts_featured_first(engine: Engine) {
        let app = seeded(engine).await;
        add(
            &app,
            "Brand New Piece",
            Category::HumanRights,
            Status::Published,
            false,
        )
        .await;
        let (_, body) = app.json("/api/v1/articles?sort=featured&limit=3").await;
        let items = body["items"].as_array().unwrap();
        assert_eq!(items.len(), 3);
        assert_eq!(items[0]["featured"], true);
        assert_eq!(items[1]["title"], "Brand New Piece");
        let (_, newest) = app.json("/api/v1/articles?limit=1").await;
        assert_eq!(titles(&newest), ["Brand New Piece"]);
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn drafts_are_never_public(engine: Engine) {
        let app = seeded(engine).await;
        let slug = add(
            &app,
            "Quetzalcoatlus Draft",
            Category::HumanRights,
            Status::Draft,
            true,
        )
        .await;
        let (_, body) = app.json("/api/v1/articles?limit=50&q=quetzalcoatlus").await;
        assert_eq!(body["total"], 0);
        let (status, body) = app.json(&format!("/api/v1/articles/{slug}")).await;
        assert_eq!(status, 404);
        assert_eq!(body["code"], "article_not_found");
        assert_eq!(app.get(&format!("/article/{slug}")).await.status(), 404);
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn search_and_category_filters(engine: Engine) {
        let app = seeded(engine).await;
        add(
            &app,
            "Zanzibar Notes",
            Category::CulturePolitics,
            Status::Published,
            false,
        )
        .await;
        // Case-insensitive, on title or content.
        let (_, body) = app.json("/api/v1/articles?q=ZANZIBAR").await;
        assert_eq!(titles(&body), ["Zanzibar Notes"]);
        assert_eq!(body["published_total"], 13);
        // Any-of categories, including one with an ampersand.
        let (_, body) = app
            .json("/api/v1/articles?limit=50&category=Culture%20%26%20Politics&category=Human%20Rights")
            .await;
        assert_eq!(body["total"], 5);
        for item in body["items"].as_array().unwrap() {
            let c = item["category"].as_str().unwrap();
            assert!(c == "Culture & Politics" || c == "Human Rights", "{c}");
        }
        // Nothing matches: empty list, but published_total still tells articles exist.
        let (status, body) = app.json("/api/v1/articles?q=no-such-words-anywhere").await;
        assert_eq!(status, 200);
        assert_eq!(body["total"], 0);
        assert_eq!(body["published_total"], 13);
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn pagination_walks_the_whole_list(engine: Engine) {
        let app = seeded(engine).await;
        let (_, all) = app.json("/api/v1/articles?limit=12").await;
        let mut walked = Vec::new();
        for offset in [0, 6] {
            let (_, page) = app
                .json(&format!("/api/v1/articles?limit=6&offset={offset}"))
                .await;
            assert_eq!(page["total"], 12);
            walked.extend(titles(&page));
        }
        assert_eq!(walked, titles(&all));
        let (_, past_end) = app.json("/api/v1/articles?offset=100").await;
        assert!(past_end["items"].as_array().unwrap().is_empty());
        app.shutdown().await;
    }
}

// Engine-independent: every parameter is refused before any query reaches the store.
#[tokio::test]
async fn bad_parameters_are_400_with_a_message() {
    let app = spawn_app(Engine::Sqlite).await;
    for (query, code) in [
        ("offset=-1", "invalid_offset"),
        ("limit=51", "invalid_limit"),
        ("limit=0", "invalid_limit"),
        ("category=Astrology", "invalid_request"),
        ("sort=random", "invalid_request"),
        ("limit=ten", "invalid_request"),
    ] {
        let (status, body) = app.json(&format!("/api/v1/articles?{query}")).await;
        assert_eq!(status, 400, "{query}");
        assert_eq!(body["code"], code, "{query}: {body}");
        assert!(!body["message"].as_str().unwrap().is_empty());
    }
    let (status, body) = app
        .json(&format!("/api/v1/articles?q={}", "x".repeat(201)))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("invalid_query"))
    );
    let (status, body) = app.json("/api/v1/nothing-here").await;
    assert_eq!(status, 404);
    assert_eq!(body["code"], "not_found");
    app.shutdown().await;
}

on_both_engines! {
    async fn one_article_by_slug_or_id(engine: Engine) {
        let app = seeded(engine).await;
        let (_, list) = app.json("/api/v1/articles?limit=1").await;
        let card = &list["items"][0];
        let slug = card["slug"].as_str().unwrap();
        let id = card["id"].as_str().unwrap();
        let (status, by_slug) = app.json(&format!("/api/v1/articles/{slug}")).await;
        assert_eq!(status, 200);
        assert_eq!(by_slug["title"], card["title"]);
        assert_eq!(
            by_slug["read_time"], card["read_time"],
            "one reading-time rule"
        );
        assert!(by_slug["content_html"].as_str().unwrap().contains("<p>"));
        assert!(!by_slug["description"].as_str().unwrap().is_empty());
        let (status, by_id) = app.json(&format!("/api/v1/articles/{id}")).await;
        assert_eq!(status, 200);
        assert_eq!(by_id["slug"], slug);
        let (status, missing) = app.json("/api/v1/articles/no-such-article").await;
        assert_eq!(status, 404);
        assert_eq!(missing["message"], "Article not found");
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn listing_cache_is_invalidated_by_a_change(engine: Engine) {
        let app = seeded(engine).await;
        let (_, before) = app.json("/api/v1/articles").await;
        let (_, again) = app.json("/api/v1/articles").await;
        assert_eq!(before, again);
        add(
            &app,
            "Fresh Off The Press",
            Category::YouthActivism,
            Status::Published,
            false,
        )
        .await;
        let (_, after) = app.json("/api/v1/articles").await;
        assert_eq!(titles(&after)[0], "Fresh Off The Press");
        assert_eq!(after["total"], 13);
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn contract_docs_and_health(engine: Engine) {
        let app = spawn_app(engine).await;
        let (status, spec) = app.json("/api/openapi.json").await;
        assert_eq!(status, 200);
        assert!(spec["paths"]["/v1/articles"].is_object());
        let committed: Value = serde_json::from_str(
            &std::fs::read_to_string(common::repo_root().join("openapi.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(spec, committed, "openapi.json is stale: run `make gen-api`");
        assert_eq!(app.get("/api/docs").await.status(), 200);
        assert_eq!(app.get("/healthz").await.status(), 200);
        // Ready while the database answers: a page the sidecar cannot render is served as
        // the client-rendered shell. This app's sidecar is unreachable, which readiness
        // reports once a render has failed, without being taken out.
        let (status, ready) = app.json("/readyz").await;
        assert_eq!((status, &ready["database"]), (200, &json!("ok")));
        assert_eq!(ready["storage"], "ok");
        assert_eq!(app.get("/articles?q=readiness").await.status(), 200);
        let (status, ready) = app.json("/readyz").await;
        assert_eq!((status, &ready["sidecar"]), (200, &json!("failing")));
        app.shutdown().await;
    }
}
