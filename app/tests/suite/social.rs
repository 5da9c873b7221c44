//! What a shared link shows: a raster card of the declared size behind every page's og:image,
//! and structured data that parses with the properties search engines require.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use common::pages::json_ld;
use common::{spawn_app_with, Engine, Options, TestApp};
use serde_json::Value;

async fn demo_app() -> TestApp {
    let app = spawn_app_with(Engine::Sqlite, Options::default()).await;
    agora::seed::demo(&app.services).await.unwrap();
    app
}

fn meta<'a>(html: &'a str, property: &str) -> &'a str {
    let tag = format!("property=\"{property}\" content=\"");
    let start = html
        .find(&tag)
        .unwrap_or_else(|| panic!("no {property} in the page"))
        + tag.len();
    &html[start..start + html[start..].find('"').unwrap()]
}

fn of_type<'a>(data: &'a [Value], kind: &str) -> &'a Value {
    data.iter()
        .find(|d| d["@type"] == kind)
        .unwrap_or_else(|| panic!("no {kind} in {data:?}"))
}

/// Fetches the card behind `url` (absolute, on the test site) and checks it is a JPEG of
/// the size the page declares.
async fn check_card(app: &TestApp, url: &str) {
    let path = url.strip_prefix("https://agora.test").expect("a site URL");
    let r = app.get(path).await;
    assert_eq!(r.status(), 200, "{path}");
    assert_eq!(
        r.headers()["content-type"].to_str().unwrap(),
        "image/jpeg",
        "{path}"
    );
    let bytes = r.bytes().await.unwrap();
    let picture =
        image::load_from_memory_with_format(&bytes, image::ImageFormat::Jpeg).expect("a JPEG");
    assert_eq!((picture.width(), picture.height()), (1200, 630), "{path}");
}

#[tokio::test]
async fn articles_share_a_raster_card_and_describe_themselves() {
    let app = demo_app().await;
    let (_, list) = app.json("/api/v1/articles?limit=1").await;
    let slug = list["items"][0]["slug"].as_str().unwrap().to_string();
    let title = list["items"][0]["title"].as_str().unwrap().to_string();
    let author = list["items"][0]["author_name"]
        .as_str()
        .unwrap()
        .to_string();
    let html = app
        .get(&format!("/article/{slug}"))
        .await
        .text()
        .await
        .unwrap();

    // The demo covers are SVG, which social networks do not show: the card is a JPEG made
    // from the cover, at the declared size.
    let image = meta(&html, "og:image");
    assert!(
        image.starts_with(&format!("https://agora.test/social/article/{slug}.jpg?v=")),
        "{image}"
    );
    assert_eq!(meta(&html, "og:image:width"), "1200");
    assert_eq!(meta(&html, "og:image:height"), "630");
    assert_eq!(meta(&html, "og:image:type"), "image/jpeg");
    assert!(!meta(&html, "og:image:alt").is_empty());
    check_card(&app, &image.replace("&amp;", "&")).await;

    let data = json_ld(&html);
    let article = of_type(&data, "NewsArticle");
    assert_eq!(article["headline"], title.as_str());
    assert_eq!(article["image"][0], image);
    assert_eq!(article["author"]["name"], author.as_str());
    assert_eq!(article["publisher"]["@type"], "Organization");
    assert_eq!(article["publisher"]["name"], "The Agora");
    for date in ["datePublished", "dateModified"] {
        let text = article[date].as_str().unwrap();
        chrono::DateTime::parse_from_rfc3339(text).expect("an RFC 3339 date");
    }
    let trail = of_type(&data, "BreadcrumbList")["itemListElement"]
        .as_array()
        .unwrap();
    let names: Vec<&str> = trail.iter().map(|i| i["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Home", "Articles", title.as_str()]);
    assert_eq!(
        trail[2]["item"],
        format!("https://agora.test/article/{slug}")
    );
    assert_eq!(trail[0]["position"], 1);

    // An unknown article has no card.
    assert_eq!(
        app.get("/social/article/no-such-article.jpg")
            .await
            .status(),
        404
    );
    assert_eq!(app.get("/social/article/x.png").await.status(), 404);
}

#[tokio::test]
async fn every_other_page_shares_the_sites_card_and_home_names_the_publisher_and_search() {
    let app = demo_app().await;
    for path in [
        "/",
        "/about",
        "/contact-us",
        "/articles",
        "/category/human-rights",
    ] {
        let html = app.get(path).await.text().await.unwrap();
        let image = meta(&html, "og:image");
        assert_eq!(image, "https://agora.test/social/site.jpg", "{path}");
        assert_eq!(meta(&html, "og:type"), "website", "{path}");
        assert_eq!(
            meta(&html, "og:url"),
            format!("https://agora.test{path}"),
            "{path}"
        );
    }
    let category = app
        .get("/category/human-rights")
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(meta(&category, "og:title"), "Human Rights | The Agora");
    let collection = json_ld(&category);
    let collection = of_type(&collection, "CollectionPage");
    assert_eq!(collection["@context"], "https://schema.org");
    assert_eq!(collection["mainEntity"]["@type"], "ItemList");
    let first = &collection["mainEntity"]["itemListElement"][0];
    assert_eq!(first["position"], 1);
    assert!(first["url"]
        .as_str()
        .unwrap()
        .starts_with("https://agora.test/article/"));
    check_card(&app, "https://agora.test/social/site.jpg").await;

    let home = app.get("/").await.text().await.unwrap();
    let data = json_ld(&home);
    assert_eq!(of_type(&data, "Organization")["name"], "The Agora");
    let search = &of_type(&data, "WebSite")["potentialAction"];
    assert_eq!(search["@type"], "SearchAction");
    assert_eq!(
        search["target"]["urlTemplate"],
        "https://agora.test/articles?q={search_term_string}"
    );
    assert_eq!(search["query-input"], "required name=search_term_string");
    let about = app.get("/about").await.text().await.unwrap();
    let about = json_ld(&about);
    let trail = &of_type(&about, "BreadcrumbList")["itemListElement"];
    assert_eq!(trail[1]["item"], "https://agora.test/about");
}
