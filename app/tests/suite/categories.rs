//! Category pages (`/category/{slug}`): each category's pieces newest first, with its line,
//! its feed and a `CollectionPage`, through the real sidecar; and what links there.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use std::time::Duration;

use common::pages::{demo_ssr_app as ssr_app, json_ld, page, root_markup};
use common::TestApp;

/// The titles the API lists for `category`, newest first.
async fn newest_titles(app: &TestApp, category: &str, limit: usize) -> Vec<String> {
    let (_, list) = app
        .json(&format!(
            "/api/v1/articles?category={category}&limit={limit}"
        ))
        .await;
    list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["title"].as_str().unwrap().to_string())
        .collect()
}

// Engine-independent: rendering; the listing underneath is checked on both engines in api.rs.
#[tokio::test]
async fn a_category_page_lists_its_pieces_with_its_line_feed_and_collection() {
    let app = ssr_app().await;
    // Two from the demo and twelve more: more than two pages of six.
    for i in 0..12 {
        let piece = common::published(&format!("Rights piece number {i}"));
        app.services.content.create(piece).await.unwrap();
    }
    let (status, html) = page(&app, "/category/human-rights").await;
    assert_eq!(status, 200);
    assert!(
        html.contains("<title>Human Rights | The Agora</title>"),
        "title"
    );
    assert!(html.contains(
        "<meta name=\"description\" content=\"Dignity, freedom and justice — at home and around the world.\">"
    ));
    assert!(
        html.contains("<link rel=\"canonical\" href=\"https://agora.test/category/human-rights\">")
    );
    assert!(html.contains(
        "title=\"The Agora: Human Rights\" href=\"https://agora.test/feed/human-rights.xml\">"
    ));
    assert!(!html.contains("noindex"));

    // The newest six, in order, in the markup and in the structured data.
    let titles = newest_titles(&app, "Human%20Rights", 6).await;
    assert_eq!(titles.len(), 6);
    let markup = root_markup(&html);
    assert!(markup.contains("<h1 class=\"hero-title\">Human Rights</h1>"));
    let mut at = 0;
    for title in &titles {
        let escaped = title.replace('\'', "&#x27;");
        let found = markup[at..]
            .find(&escaped)
            .unwrap_or_else(|| panic!("{title} in order"));
        at += found;
    }
    assert!(
        markup.contains("href=\"/feed/human-rights.xml\""),
        "a visible feed link"
    );
    let data = json_ld(&html);
    let collection = data
        .iter()
        .find(|d| d["@type"] == "CollectionPage")
        .unwrap();
    assert_eq!(collection["name"], "Human Rights");
    assert_eq!(
        collection["url"],
        "https://agora.test/category/human-rights"
    );
    let listed: Vec<&str> = collection["mainEntity"]["itemListElement"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        listed,
        titles.iter().map(String::as_str).collect::<Vec<_>>()
    );
    let crumbs = data
        .iter()
        .find(|d| d["@type"] == "BreadcrumbList")
        .unwrap();
    assert_eq!(
        crumbs["itemListElement"][2]["item"],
        "https://agora.test/category/human-rights"
    );

    // Only that category: no piece of another one is on the page.
    let others = newest_titles(&app, "Climate%20Justice", 3).await;
    for other in &others {
        assert!(
            !markup.contains(other.as_str()),
            "{other} is not Human Rights"
        );
    }

    // A shared link's tracking parameters get the same stored page, not a render of their own.
    let etag = |r: &reqwest::Response| r.headers()["etag"].to_str().unwrap().to_string();
    let plain = app.get("/category/human-rights").await;
    let tracked = app
        .get("/category/human-rights?utm_source=class&limit=6")
        .await;
    assert_eq!(etag(&tracked), etag(&plain));
    assert!(!tracked.text().await.unwrap().contains("utm_source"));

    // "Load More" without JavaScript: twelve, under the same canonical address.
    let (status, more) = page(&app, "/category/human-rights?limit=12").await;
    assert_eq!(status, 200);
    let twelve = newest_titles(&app, "Human%20Rights", 12).await;
    let last = twelve[11].replace('\'', "&#x27;");
    assert!(root_markup(&more).contains(&last), "the twelfth piece");
    assert!(!markup.contains(&last), "not on the first page");
    assert!(
        more.contains("<link rel=\"canonical\" href=\"https://agora.test/category/human-rights\">")
    );
    app.shutdown().await;
}

#[tokio::test]
async fn unknown_categories_are_404_pages_and_every_category_is_in_the_sitemap() {
    let app = ssr_app().await;
    for path in [
        "/category/sports",
        "/category/Human%20Rights",
        "/category/human-rights/x",
    ] {
        let (status, html) = page(&app, path).await;
        assert_eq!(status, 404, "{path}");
        assert!(
            html.contains("<meta name=\"robots\" content=\"noindex\">"),
            "{path}"
        );
    }
    let sitemap = app.get("/sitemap.xml").await.text().await.unwrap();
    for slug in [
        "international-affairs",
        "climate-justice",
        "culture-politics",
        "human-rights",
        "youth-activism",
        "digital-democracy",
    ] {
        assert!(
            sitemap.contains(&format!("<loc>https://agora.test/category/{slug}</loc>")),
            "{slug} in the sitemap"
        );
        let (status, _) = page(&app, &format!("/category/{slug}")).await;
        assert_eq!(status, 200, "{slug}");
    }
    app.shutdown().await;
}

// Engine-independent: the page cache is told of changes by the change event, not by the store.
#[tokio::test]
async fn a_piece_published_in_a_category_reaches_its_page_and_links_lead_there() {
    let app = ssr_app().await;
    let (_, before) = page(&app, "/category/youth-activism").await;
    assert!(!before.contains("Walkout in the rain"));
    let mut piece = common::published("Walkout in the rain");
    piece.category = content::Category::YouthActivism;
    let (_, slug) = app.services.content.create(piece).await.unwrap();
    common::eventually(
        "the category page rendered again",
        Duration::from_secs(10),
        || async {
            root_markup(&page(&app, "/category/youth-activism").await.1)
                .contains("Walkout in the rain")
        },
    )
    .await;

    // The home page's tiles and the article's category lead to the category's page.
    let (_, home) = page(&app, "/").await;
    assert!(root_markup(&home).contains("href=\"/category/youth-activism\""));
    let (_, article) = page(&app, &format!("/article/{slug}")).await;
    assert!(root_markup(&article).contains("href=\"/category/youth-activism\""));
    app.shutdown().await;
}
