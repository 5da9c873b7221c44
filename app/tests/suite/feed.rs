//! The Atom feed and the sitemap follow publishing: what feed readers and search engines see.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use atom_syndication::Feed;
use common::spawn_app;
use reqwest::Method;

async fn feed(app: &common::TestApp, etag: Option<&str>) -> (u16, Option<String>, String) {
    feed_at(app, "/feed.xml", etag).await
}

async fn feed_at(
    app: &common::TestApp,
    path: &str,
    etag: Option<&str>,
) -> (u16, Option<String>, String) {
    let mut r = app.request(Method::GET, path, None);
    if let Some(tag) = etag {
        r = r.header("if-none-match", tag);
    }
    let r = r.send().await.unwrap();
    let status = r.status().as_u16();
    if status == 200 {
        assert_eq!(
            r.headers()["content-type"],
            "application/atom+xml; charset=utf-8"
        );
    }
    let tag = r
        .headers()
        .get("etag")
        .map(|v| v.to_str().unwrap().to_string());
    (status, tag, r.text().await.unwrap())
}

on_both_engines! {
    async fn the_feed_lists_the_newest_published_articles(engine: Engine) {
        let app = spawn_app(engine).await;
        let (status, _, body) = feed(&app, None).await;
        assert_eq!(status, 200);
        let empty: Feed = body.parse().unwrap();
        assert!(empty.entries.is_empty(), "nothing published yet");
        assert_eq!(empty.title.value, "The Agora");

        let content = &app.services.content;
        for i in 0..22 {
            content
                .create(common::published(&format!("Piece number {i}")))
                .await
                .unwrap();
        }
        let mut draft = common::published("Not ready <yet> & unseen");
        draft.status = content::Status::Draft;
        content.create(draft).await.unwrap();
        content
            .create(common::published("Rights <b>& wrongs</b>"))
            .await
            .unwrap();

        let (status, etag, body) = feed(&app, None).await;
        assert_eq!(status, 200);
        let parsed: Feed = body.parse().unwrap();
        assert_eq!(parsed.entries.len(), 20, "the twenty newest");
        let first = &parsed.entries[0];
        assert_eq!(first.title.value, "Rights <b>& wrongs</b>", "newest first, text intact");
        assert!(!body.contains("<b>"), "markup in a title is escaped");
        assert!(parsed.entries.iter().all(|e| !e.title.value.contains("Not ready")));
        let href = &first.links[0].href;
        let path = href.strip_prefix("https://agora.test").unwrap();
        let slug = path.strip_prefix("/article/").unwrap();
        let (status, article) = app.json(&format!("/api/v1/articles/{slug}")).await;
        assert_eq!(status, 200, "the entry's link is the article's page");
        assert_eq!(article["title"], "Rights <b>& wrongs</b>");
        assert_eq!(first.id, format!("https://agora.test/article/{}", article["id"].as_str().unwrap()));
        assert_eq!(first.categories[0].term, "Human Rights");
        assert_eq!(parsed.updated, first.updated);

        // Unchanged: a feed reader's revalidation is a 304.
        let etag = etag.unwrap();
        let (status, _, body) = feed(&app, Some(&etag)).await;
        assert_eq!((status, body.as_str()), (304, ""));

        // Something new: a new tag, the new article first, in the sitemap too.
        content.create(common::published("Platypus Parliament")).await.unwrap();
        let (status, new_tag, body) = feed(&app, Some(&etag)).await;
        assert_eq!(status, 200);
        assert_ne!(new_tag.as_deref(), Some(etag.as_str()));
        let parsed: Feed = body.parse().unwrap();
        assert_eq!(parsed.entries[0].title.value, "Platypus Parliament");
        let sitemap = app.get("/sitemap.xml").await.text().await.unwrap();
        assert!(sitemap.contains("/article/platypus-parliament</loc>"), "{sitemap}");
        assert!(!sitemap.contains("not-ready"));

        // One feed per category, with that category's articles only.
        let mut climate = common::published("Glaciers and the vote");
        climate.category = content::Category::ClimateJustice;
        content.create(climate).await.unwrap();
        let (status, _, body) = feed_at(&app, "/feed/climate-justice.xml", None).await;
        assert_eq!(status, 200);
        let parsed: Feed = body.parse().unwrap();
        assert_eq!(parsed.title.value, "The Agora: Climate Justice");
        let titles: Vec<&str> = parsed.entries.iter().map(|e| e.title.value.as_str()).collect();
        assert_eq!(titles, ["Glaciers and the vote"]);
        assert_eq!(
            parsed.links.iter().find(|l| l.rel == "alternate").unwrap().href,
            "https://agora.test/category/climate-justice"
        );
        let (_, _, body) = feed_at(&app, "/feed/human-rights.xml", None).await;
        let parsed: Feed = body.parse().unwrap();
        assert_eq!(parsed.entries.len(), 20);
        assert!(parsed.entries.iter().all(|e| e.categories[0].term == "Human Rights"));
        for missing in ["/feed/sports.xml", "/feed/human-rights", "/feed/"] {
            assert_eq!(app.get(missing).await.status().as_u16(), 404, "{missing}");
        }
        app.shutdown().await;
    }
}
