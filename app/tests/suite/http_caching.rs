//! What readers' browsers and a CDN see of public pages: precompressed variants that decode to
//! the same bytes, validators and 304s, shared-cache headers, q-values, and nothing personal
//! ever shared.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use std::io::Read as _;
use std::time::Duration;

use common::{spawn_app_with, Engine, Options, TestApp};
use identity::Role;
use reqwest::Method;

async fn ssr_app(options: Options) -> TestApp {
    let app = spawn_app_with(
        Engine::Sqlite,
        Options {
            ssr: true,
            ..options
        },
    )
    .await;
    agora::seed::demo(&app.services).await.unwrap();
    app
}

async fn first_article(app: &TestApp) -> String {
    let (_, list) = app.json("/api/v1/articles?limit=1").await;
    format!("/article/{}", list["items"][0]["slug"].as_str().unwrap())
}

struct Got {
    status: u16,
    headers: reqwest::header::HeaderMap,
    body: Vec<u8>,
}

impl Got {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(|v| v.to_str().unwrap())
    }
}

async fn get(app: &TestApp, path: &str, headers: &[(&str, &str)]) -> Got {
    send(app, Method::GET, path, headers).await
}

async fn send(app: &TestApp, method: Method, path: &str, headers: &[(&str, &str)]) -> Got {
    let mut r = app.request(method, path, None);
    for (k, v) in headers {
        r = r.header(*k, *v);
    }
    let r = r.send().await.unwrap();
    Got {
        status: r.status().as_u16(),
        headers: r.headers().clone(),
        body: r.bytes().await.unwrap().to_vec(),
    }
}

fn decode(got: &Got) -> Vec<u8> {
    let mut out = Vec::new();
    match got.header("content-encoding") {
        None => out = got.body.clone(),
        Some("gzip") => {
            flate2::read::GzDecoder::new(&got.body[..])
                .read_to_end(&mut out)
                .unwrap();
        }
        Some("br") => {
            brotli::Decompressor::new(&got.body[..], 4096)
                .read_to_end(&mut out)
                .unwrap();
        }
        Some(other) => panic!("unexpected encoding {other}"),
    }
    out
}

// Engine-independent: compression of rendered pages, whatever store the rows came from.
#[tokio::test]
async fn every_variant_decodes_to_the_identity_bytes() {
    let app = ssr_app(Options::default()).await;
    let article = first_article(&app).await;
    for path in [
        "/",
        "/articles",
        "/articles?q=vote&category=Politics",
        article.as_str(),
        "/about",
        "/no/such/page",
        "/sitemap.xml",
        "/feed.xml",
        "/robots.txt",
    ] {
        // Twice each: the first request renders (a page is then compressed quickly: gzip
        // only), the second is served from the cache once polished (brotli too).
        // A search is not kept, so never polished: always compressed quickly. A missing
        // page has no tag to tell which it is.
        let polishes = !path.contains("?q=") && path != "/no/such/page";
        for round in 0..2 {
            let settled_now = round == 1 && polishes;
            if settled_now {
                settled(&app, path).await;
            }
            let plain = get(&app, path, &[]).await;
            assert!(plain.header("content-encoding").is_none(), "{path}");
            let mut tags = vec![plain.header("etag").map(str::to_string)];
            for (accept, expected) in [
                ("gzip", "gzip"),
                ("br", "br"),
                ("gzip, deflate, br, zstd", "br"),
            ] {
                let got = get(&app, path, &[("accept-encoding", accept)]).await;
                // Until it is polished, a page is compressed quickly, gzip only: a browser
                // is sent gzip, and a client taking brotli alone the page itself (no
                // browser asks so).
                let polished = match got.header("etag") {
                    Some(tag) => !tag.ends_with("-fast\""),
                    None => got.header("content-encoding") == Some("br"),
                };
                let expected = match accept {
                    _ if settled_now || accept == "gzip" => Some(expected),
                    "br" if got.header("content-encoding").is_none() => None,
                    "br" => Some("br"),
                    _ if polished => Some("br"),
                    _ => Some("gzip"),
                };
                assert_eq!(got.status, plain.status, "{path} {accept}");
                assert_eq!(got.header("vary"), Some("accept-encoding"), "{path}");
                assert_eq!(
                    got.header("content-length")
                        .unwrap()
                        .parse::<usize>()
                        .unwrap(),
                    got.body.len(),
                    "{path} {accept}: Content-Length is the length on the wire"
                );
                if path != "/robots.txt" {
                    assert_eq!(
                        got.header("content-encoding"),
                        expected,
                        "{path} {accept} (round {round})"
                    );
                    assert!(
                        expected.is_none() || got.body.len() < plain.body.len(),
                        "{path} {accept} is smaller"
                    );
                }
                assert_eq!(decode(&got), plain.body, "{path} {accept}: same page");
                if accept != "gzip, deflate, br, zstd" {
                    tags.push(got.header("etag").map(str::to_string));
                }
            }
            if plain.status == 200 && settled_now {
                let tags: Vec<String> = tags.into_iter().map(Option::unwrap).collect();
                assert!(
                    tags.iter().all(|t| t.starts_with('"') && t.ends_with('"')),
                    "strong: {tags:?}"
                );
                if path != "/robots.txt" {
                    assert!(
                        tags[0] != tags[1] && tags[1] != tags[2] && tags[0] != tags[2],
                        "{tags:?}"
                    );
                }
            } else if plain.status != 200 {
                assert_eq!(plain.status, 404);
            }
        }
    }
    // The brotli article, compressed once at the highest quality (in the background after
    // the first answers), is well below gzip's size.
    let br = settled(&app, &article).await;
    let gz = get(&app, &article, &[("accept-encoding", "gzip")]).await;
    assert!(
        br.body.len() < gz.body.len(),
        "{} < {}",
        br.body.len(),
        gz.body.len()
    );
    app.shutdown().await;
}

// Engine-independent: content negotiation happens in the HTTP layer.
#[tokio::test]
async fn q_values_are_respected_for_pages_and_assets() {
    let app = ssr_app(Options::default()).await;
    settled(&app, "/").await;
    let home = get(&app, "/", &[]).await;
    let html = String::from_utf8(home.body.clone()).unwrap();
    let script = html
        .split("src=\"")
        .skip(1)
        .map(|s| s.split('"').next().unwrap())
        .find(|s| s.starts_with("/assets/") && s.ends_with(".js"))
        .unwrap()
        .to_string();
    for (accept, expected) in [
        ("gzip;q=0", None),
        ("gzip;q=0, br;q=0", None),
        ("br;q=0, gzip", Some("gzip")),
        ("gzip;q=1.0, br;q=0.5", Some("gzip")),
        ("gzip;q=0.4, br;q=0.9", Some("br")),
        ("*", Some("br")),
        ("*;q=0.5, br;q=0", Some("gzip")),
        ("identity", None),
        ("GZIP", Some("gzip")),
    ] {
        for path in ["/", script.as_str()] {
            let got = get(&app, path, &[("accept-encoding", accept)]).await;
            assert_eq!(got.status, 200);
            assert_eq!(got.header("content-encoding"), expected, "{path} {accept}");
        }
    }
    app.shutdown().await;
}

/// The page as it is served once compressed at the best settings (it is first sent
/// compressed quickly, with a tag of its own).
async fn settled(app: &TestApp, path: &str) -> Got {
    for _ in 0..500 {
        let got = get(app, path, &[("accept-encoding", "gzip, deflate, br, zstd")]).await;
        if !got.header("etag").is_some_and(|t| t.ends_with("-fast\"")) {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("{path} was never compressed at the best settings");
}

// Engine-independent: validators come from the page cache, told of changes by an event.
#[tokio::test]
async fn validators_answer_304_until_the_content_changes() {
    let app = ssr_app(Options::default()).await;
    let article = first_article(&app).await;
    let br = [("accept-encoding", "gzip, deflate, br, zstd")];
    let first = settled(&app, &article).await;
    let etag = first.header("etag").unwrap().to_string();
    let modified = first.header("last-modified").unwrap().to_string();

    let again = get(&app, &article, &[br[0], ("if-none-match", &etag)]).await;
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    assert_eq!(again.header("etag"), Some(etag.as_str()));
    assert_eq!(again.header("cache-control"), first.header("cache-control"));
    assert_eq!(again.header("vary"), Some("accept-encoding"));
    // Weak comparison, lists and `*` (RFC 9110 §13.1.2).
    for inm in [
        format!("W/{etag}"),
        format!("\"nope\", {etag}"),
        "*".to_string(),
    ] {
        let got = get(&app, &article, &[br[0], ("if-none-match", &inm)]).await;
        assert_eq!(got.status, 304, "{inm}");
    }
    // The tag of another encoding does not validate this one.
    let gz_tag = get(&app, &article, &[("accept-encoding", "gzip")]).await;
    let gz_tag = gz_tag.header("etag").unwrap().to_string();
    let got = get(&app, &article, &[br[0], ("if-none-match", &gz_tag)]).await;
    assert_eq!(got.status, 200);
    assert_eq!(got.body, first.body);
    // If-Modified-Since, when there is no If-None-Match.
    let got = get(&app, &article, &[br[0], ("if-modified-since", &modified)]).await;
    assert_eq!(got.status, 304);
    let got = get(
        &app,
        &article,
        &[
            br[0],
            ("if-modified-since", "Mon, 01 Jan 2001 00:00:00 GMT"),
        ],
    )
    .await;
    assert_eq!(got.status, 200);
    let got = get(
        &app,
        &article,
        &[
            ("if-none-match", "\"other\""),
            ("if-modified-since", &modified),
        ],
    )
    .await;
    assert_eq!(got.status, 200, "If-None-Match decides when both are sent");
    // HEAD: the headers of the GET, no body.
    let head = send(&app, Method::HEAD, &article, &br).await;
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty());
    assert_eq!(head.header("etag"), Some(etag.as_str()));
    assert_eq!(
        head.header("content-length"),
        Some(first.body.len().to_string().as_str())
    );
    // A missing page is never "not modified".
    let missing = get(&app, "/no/such/page", &[("if-none-match", "*")]).await;
    assert_eq!(missing.status, 404);

    // A new article changes the listing (new tag, 200) but not a page that does not show it,
    // which still validates after being rendered again for the new content version. Right
    // after the change, the stored pages are still sent while they render again.
    let about = settled(&app, "/about").await;
    let about_tag = about.header("etag").unwrap().to_string();
    let listing = settled(&app, "/articles").await;
    let listing_tag = listing.header("etag").unwrap().to_string();
    assert_eq!(
        get(&app, "/articles", &[br[0], ("if-none-match", &listing_tag)])
            .await
            .status,
        304
    );
    app.services
        .content
        .create(common::published("Platypus Parliament"))
        .await
        .unwrap();
    let stale = get(&app, "/articles", &[br[0], ("if-none-match", &listing_tag)]).await;
    assert_eq!(stale.status, 304, "sent as stored while it renders again");
    let mut changed = None;
    for _ in 0..500 {
        let got = get(&app, "/articles", &[br[0], ("if-none-match", &listing_tag)]).await;
        if got.status == 200 {
            changed = Some(got);
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let changed = changed.expect("the listing was rendered again");
    assert_ne!(changed.header("etag"), Some(listing_tag.as_str()));
    assert!(String::from_utf8(decode(&changed))
        .unwrap()
        .contains("Platypus Parliament"));
    for _ in 0..5 {
        let same = get(&app, "/about", &[br[0], ("if-none-match", &about_tag)]).await;
        assert_eq!(same.status, 304, "an unchanged page keeps its tag");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    app.shutdown().await;
}

const PUBLIC: &str = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";

// Engine-independent: cache headers are set by the HTTP layer from the session's presence.
#[tokio::test]
async fn public_pages_may_be_shared_and_personal_answers_never_are() {
    let app = ssr_app(Options::default()).await;
    let article = first_article(&app).await;
    for path in [
        "/",
        "/articles",
        article.as_str(),
        "/about",
        "/sitemap.xml",
        "/feed.xml",
    ] {
        let got = get(&app, path, &[("accept-encoding", "gzip")]).await;
        assert_eq!(got.header("cache-control"), Some(PUBLIC), "{path}");
    }
    let missing = get(&app, "/no/such/page", &[]).await;
    assert_eq!(
        missing.header("cache-control"),
        Some("public, max-age=0, s-maxage=30, stale-while-revalidate=150")
    );

    let (_, key) = app
        .services
        .identity
        .add_staff("Ada Admin", Role::Admin)
        .await
        .unwrap();
    let cookie = app.login(&key).await;
    let signed_in = |path: &'static str| {
        let cookie = cookie.clone();
        let app = &app;
        async move {
            let r = app
                .request(Method::GET, path, Some(&cookie))
                .header("accept-encoding", "br")
                .send()
                .await
                .unwrap();
            let cc = r.headers()["cache-control"].to_str().unwrap().to_string();
            (r.status().as_u16(), cc)
        }
    };
    // Pages seen signed in first: private, and not left in the shared cache for others.
    for path in ["/contributors", "/magazine", "/dashboard/admin"] {
        let (status, cc) = signed_in(path).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(cc, "private, no-store", "{path}");
    }
    for path in ["/contributors", "/magazine"] {
        let anonymous = get(&app, path, &[("accept-encoding", "br")]).await;
        assert_eq!(anonymous.header("cache-control"), Some(PUBLIC), "{path}");
    }
    // Pages the shared cache holds are not handed to a signed-in visitor as shared answers.
    for path in ["/", "/about"] {
        let (_, cc) = signed_in(path).await;
        assert_eq!(cc, "private, no-store", "{path}");
    }
    // Staff dashboards and the API are never stored, signed in or not.
    let dashboard = get(&app, "/dashboard/admin", &[]).await;
    assert_eq!(dashboard.header("cache-control"), Some("private, no-store"));
    let (status, cc) = signed_in("/api/v1/me").await;
    assert_eq!((status, cc.as_str()), (200, "private, no-store"));
    let api = get(&app, "/api/v1/articles", &[]).await;
    assert_eq!(api.header("cache-control"), Some("private, no-store"));
    app.shutdown().await;
}

// Engine-independent: the purge follows the change event, not the engine that stored it.
#[tokio::test]
async fn the_cdn_is_told_when_content_changes() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    // A purge endpoint that records what it was sent.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!(
        "http://{}/zones/z/purge_cache",
        listener.local_addr().unwrap()
    );
    let (tx, mut rx) = tokio::sync::mpsc::channel::<String>(8);
    tokio::spawn(async move {
        loop {
            let (mut s, _) = listener.accept().await.unwrap();
            let tx = tx.clone();
            tokio::spawn(async move {
                let mut buf = vec![0u8; 8192];
                let mut got = Vec::new();
                loop {
                    let n = s.read(&mut buf).await.unwrap();
                    got.extend_from_slice(&buf[..n]);
                    let text = String::from_utf8_lossy(&got).to_string();
                    if n == 0 || text.ends_with("}") {
                        break;
                    }
                }
                s.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}")
                    .await
                    .unwrap();
                tx.send(String::from_utf8_lossy(&got).to_string())
                    .await
                    .unwrap();
            });
        }
    });
    let app = ssr_app(Options {
        cdn: Some(agora::settings::CdnSettings {
            max_age_seconds: 120,
            purge_url: Some(url),
            purge_header: Some((
                "Authorization".into(),
                kernel::secret::Secret::new("Bearer cdn-token".into()),
            )),
        }),
        ..Options::default()
    })
    .await;
    let home = get(&app, "/", &[]).await;
    assert_eq!(
        home.header("cache-control"),
        Some("public, max-age=0, s-maxage=120, stale-while-revalidate=600")
    );
    // A new article: the CDN is told (within a tick of the change).
    app.services
        .content
        .create(common::published("Purge Me"))
        .await
        .unwrap();
    let request = tokio::time::timeout(Duration::from_secs(10), rx.recv())
        .await
        .expect("a purge call within seconds")
        .unwrap();
    assert!(
        request.starts_with("POST /zones/z/purge_cache HTTP/1.1"),
        "{request}"
    );
    assert!(request
        .to_ascii_lowercase()
        .contains("authorization: bearer cdn-token"));
    assert!(
        request.ends_with(r#"{"purge_everything":true}"#),
        "{request}"
    );
    app.shutdown().await;
}
