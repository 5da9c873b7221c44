//! The page cache against a rendering sidecar we control (a test double counting its renders):
//! one render per page and content version however many readers ask at once, a page sent
//! at once and compressed at the best settings after, a page that a content change left
//! unchanged keeping its validators, and after a change: stored pages sent while they render
//! again in the background, other articles' pages left alone, withdrawn pieces shown nowhere.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use std::io::Read as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{spawn_app_with, Engine, Options, TestApp};
use poem::listener::{Acceptor, Listener, TcpListener};
use poem::web::{Data, Json};
use poem::EndpointExt as _;

struct Stub {
    renders: AtomicUsize,
    delay: Duration,
    markup: String,
    /// Renders wait while this is false.
    open: tokio::sync::watch::Sender<bool>,
    /// The address of each page rendered, in order.
    urls: std::sync::Mutex<Vec<String>>,
}

impl Stub {
    /// How many times the page at `url` was rendered.
    fn rendered(&self, url: &str) -> usize {
        self.urls
            .lock()
            .unwrap()
            .iter()
            .filter(|u| *u == url)
            .count()
    }
}

#[poem::handler]
async fn render(
    Data(stub): Data<&Arc<Stub>>,
    Json(page): Json<serde_json::Value>,
) -> poem::Response {
    stub.renders.fetch_add(1, Ordering::SeqCst);
    stub.urls
        .lock()
        .unwrap()
        .push(page["url"].as_str().unwrap_or_default().to_string());
    let mut open = stub.open.subscribe();
    open.wait_for(|open| *open).await.unwrap();
    tokio::time::sleep(stub.delay).await;
    // As the sidecar answers: the CSS (none here), then the markup.
    poem::Response::builder()
        .content_type("text/html; charset=utf-8")
        .header("x-critical-css-bytes", "0")
        .body(stub.markup.clone())
}

/// A sidecar that answers every render with the same markup (about 30 KB, so it is worth
/// compressing) after `delay`.
async fn stub_sidecar(delay: Duration) -> (String, Arc<Stub>) {
    let markup = (0..400)
        .map(|i| {
            format!(
                "<p>Stub page, paragraph {i}: motion {} carried.</p>",
                i * 7919 % 1009
            )
        })
        .collect::<String>();
    let stub = Arc::new(Stub {
        renders: AtomicUsize::new(0),
        delay,
        markup,
        open: tokio::sync::watch::Sender::new(true),
        urls: std::sync::Mutex::default(),
    });
    let acceptor = TcpListener::bind("127.0.0.1:0")
        .into_acceptor()
        .await
        .unwrap();
    let port = acceptor.local_addr()[0].as_socket_addr().unwrap().port();
    let routes = poem::Route::new()
        .at("/render", poem::post(render))
        .data(stub.clone());
    tokio::spawn(poem::Server::new_with_acceptor(acceptor).run(routes));
    (format!("http://127.0.0.1:{port}"), stub)
}

async fn app_with(stub_url: String) -> TestApp {
    spawn_app_with(
        Engine::Sqlite,
        Options {
            ssr_url: Some(stub_url),
            // Renders held back by a test are not given up meanwhile.
            deadline: Duration::from_secs(30),
            ..Options::default()
        },
    )
    .await
}

/// Waits (10 s at most) until the stub has rendered `n` pages in all.
async fn renders_reach(stub: &Stub, n: usize) {
    common::eventually("the renders expected", Duration::from_secs(10), || async {
        stub.renders.load(Ordering::SeqCst) >= n
    })
    .await;
}

struct Got {
    status: u16,
    cache_control: String,
    etag: String,
    modified: String,
    encoding: Option<String>,
    body: Vec<u8>,
}

async fn get(app: &TestApp, path: &str, headers: &[(&str, &str)]) -> Got {
    let mut r = app.request(reqwest::Method::GET, path, None);
    for (k, v) in headers {
        r = r.header(*k, *v);
    }
    let r = r.send().await.unwrap();
    let header = |name: &str| {
        r.headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_string())
    };
    let (etag, modified) = (header("etag"), header("last-modified"));
    let encoding = header("content-encoding");
    Got {
        status: r.status().as_u16(),
        cache_control: header("cache-control").unwrap_or_default(),
        etag: etag.unwrap_or_default(),
        modified: modified.unwrap_or_default(),
        encoding,
        body: r.bytes().await.unwrap().to_vec(),
    }
}

fn decode(got: &Got) -> Vec<u8> {
    let mut out = Vec::new();
    match got.encoding.as_deref() {
        None => out.clone_from(&got.body),
        Some("br") => {
            brotli::Decompressor::new(&got.body[..], 4096)
                .read_to_end(&mut out)
                .unwrap();
        }
        Some("gzip") => {
            flate2::read::GzDecoder::new(&got.body[..])
                .read_to_end(&mut out)
                .unwrap();
        }
        Some(other) => panic!("unexpected encoding {other}"),
    }
    out
}

/// What browsers send (Chrome, Firefox): a page compressed quickly is answered gzip, once
/// polished brotli.
const BROWSER: (&str, &str) = ("accept-encoding", "gzip, deflate, br, zstd");

/// Twelve readers asking for the same page at once.
async fn twelve_at_once(app: &TestApp, path: &str) -> Vec<Got> {
    let mut asking = tokio::task::JoinSet::new();
    for _ in 0..12 {
        let request = app
            .request(reqwest::Method::GET, path, None)
            .header(BROWSER.0, BROWSER.1);
        asking.spawn(async move {
            let r = request.send().await.unwrap();
            let status = r.status().as_u16();
            let encoding = r
                .headers()
                .get("content-encoding")
                .map(|v| v.to_str().unwrap().to_string());
            (status, encoding, r.bytes().await.unwrap().to_vec())
        });
    }
    let mut got = Vec::new();
    while let Some(answer) = asking.join_next().await {
        let (status, encoding, body) = answer.unwrap();
        got.push(Got {
            status,
            cache_control: String::new(),
            etag: String::new(),
            modified: String::new(),
            encoding,
            body,
        });
    }
    got
}

// Engine-independent: render sharing is in the page cache, in front of a stub sidecar.
#[tokio::test]
async fn readers_asking_at_once_share_one_render() {
    let (url, stub) = stub_sidecar(Duration::from_millis(300)).await;
    let app = app_with(url).await;

    let answers = twelve_at_once(&app, "/about").await;
    assert!(answers.iter().all(|g| g.status == 200));
    let page = decode(&answers[0]);
    assert!(String::from_utf8_lossy(&page).contains("Stub page, paragraph 399"));
    assert!(answers.iter().all(|g| decode(g) == page));
    assert_eq!(stub.renders.load(Ordering::SeqCst), 1, "one render for all");

    // A content change: the stored page is sent to all while it is rendered again, once.
    app.services
        .content
        .create(common::published("Quorum Quarrels"))
        .await
        .unwrap();
    let answers = twelve_at_once(&app, "/about").await;
    assert!(answers.iter().all(|g| g.status == 200 && decode(g) == page));
    renders_reach(&stub, 2).await;
    let answers = twelve_at_once(&app, "/about").await;
    assert!(answers.iter().all(|g| g.status == 200 && decode(g) == page));

    // A search is somebody's own page, still rendered once for everyone asking it at once.
    let answers = twelve_at_once(&app, "/articles?q=quorum").await;
    assert!(answers.iter().all(|g| g.status == 200));
    assert_eq!(stub.renders.load(Ordering::SeqCst), 3);
    assert_eq!(stub.rendered("/about"), 2);
    app.shutdown().await;
}

// Engine-independent: compression and validators of the page cache, in front of a stub sidecar.
#[tokio::test]
async fn a_page_is_sent_at_once_and_compressed_at_the_best_settings_after() {
    let (url, stub) = stub_sidecar(Duration::ZERO).await;
    let app = app_with(url).await;

    let quick = get(&app, "/about", &[BROWSER]).await;
    assert_eq!(quick.status, 200);
    assert!(quick.etag.ends_with("-gz-fast\""), "{}", quick.etag);
    let plain = get(&app, "/about", &[]).await;
    let page = plain.body.clone();
    assert_eq!(decode(&quick), page);

    let started = Instant::now();
    let best = loop {
        let got = get(&app, "/about", &[BROWSER]).await;
        if !got.etag.ends_with("-fast\"") {
            break got;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "never polished"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(best.etag.ends_with("-br\""), "{}", best.etag);
    assert_eq!(decode(&best), page);
    assert!(best.body.len() <= quick.body.len());
    assert_eq!(
        best.modified, quick.modified,
        "the same page, modified when it was"
    );
    let gzip = get(&app, "/about", &[("accept-encoding", "gzip")]).await;
    assert!(gzip.etag.ends_with("-gz\""), "{}", gzip.etag);
    assert_eq!(decode(&gzip), page);
    // The identity bytes never changed: neither did their tag.
    assert_eq!(get(&app, "/about", &[]).await.etag, plain.etag);
    // A tag of the quick bytes no longer validates (they are not what is served now).
    let stale = get(&app, "/about", &[BROWSER, ("if-none-match", &quick.etag)]).await;
    assert_eq!(stale.status, 200);
    assert_eq!(stale.etag, best.etag);
    assert_eq!(stub.renders.load(Ordering::SeqCst), 1);

    // A content change that leaves this page as it was: rendered again, the same bytes, so
    // the stored page (best compression, same validators) is kept and revisits get a 304.
    app.services
        .content
        .create(common::published("Filibuster Facts"))
        .await
        .unwrap();
    let again = get(&app, "/about", &[BROWSER, ("if-none-match", &best.etag)]).await;
    assert_eq!(again.status, 304);
    renders_reach(&stub, 2).await;
    // Once rendered again, stored: still valid, and no reader starts another render (a page
    // left stale would be rendered again for the next reader).
    for _ in 0..10 {
        let again = get(&app, "/about", &[BROWSER, ("if-none-match", &best.etag)]).await;
        assert_eq!(again.status, 304);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(stub.rendered("/about"), 2);
    let again = get(&app, "/about", &[BROWSER]).await;
    assert_eq!(again.etag, best.etag);
    assert_eq!(again.modified, best.modified);
    app.shutdown().await;
}

/// A request with a reader's session cookie gets the signed-in readers' page (its data says
/// so, and the header then offers "Account" without scripts), private to the browser; the
/// shared page stays the signed-out one. Both are kept, and neither leaks into the other,
/// whichever is asked for first and whichever way it is answered (routed or not).
#[tokio::test]
async fn a_signed_in_reader_and_everyone_else_each_get_their_own_page() {
    let (url, stub) = stub_sidecar(Duration::ZERO).await;
    let app = app_with(url).await;
    let reader = ("cookie", "agora_reader=a-session-token-of-some-reader");
    let says_reader = |got: &Got| {
        String::from_utf8(decode(got))
            .unwrap()
            .contains("\"reader\":true")
    };
    for first in ["/about", "/contact-us"] {
        for _ in 0..2 {
            let got = get(&app, first, &[BROWSER]).await;
            assert_eq!(got.status, 200);
            assert!(!says_reader(&got), "{first} signed out");
            assert!(
                got.cache_control.starts_with("public"),
                "{}",
                got.cache_control
            );
            let got = get(&app, first, &[BROWSER, reader]).await;
            assert_eq!(got.status, 200);
            assert!(says_reader(&got), "{first} with a reader's cookie");
            assert_eq!(got.cache_control, "private, no-cache");
        }
    }
    // The reader's page first, then everyone else's.
    let got = get(&app, "/contributors", &[BROWSER, reader]).await;
    assert!(says_reader(&got));
    let got = get(&app, "/contributors", &[BROWSER]).await;
    assert!(!says_reader(&got));
    // Each variant rendered once: then both answered from the cache.
    let renders = stub.renders.load(Ordering::SeqCst);
    for _ in 0..3 {
        assert!(says_reader(&get(&app, "/about", &[BROWSER, reader]).await));
        assert!(!says_reader(&get(&app, "/about", &[BROWSER]).await));
    }
    assert_eq!(stub.renders.load(Ordering::SeqCst), renders);
}

/// Each page of `paths` as a reader without scripts gets it (identity encoding).
async fn bodies(app: &TestApp, paths: &[String]) -> Vec<Vec<u8>> {
    let mut got = Vec::new();
    for path in paths {
        let page = get(app, path, &[]).await;
        assert_eq!(page.status, 200, "{path}");
        got.push(page.body);
    }
    got
}

// Engine-independent: what a change makes stale, and who waits for it, is the page cache's.
#[tokio::test]
async fn after_a_publish_readers_get_the_stored_pages_at_once_and_other_articles_stay() {
    let (url, stub) = stub_sidecar(Duration::ZERO).await;
    let app = app_with(url).await;
    let content = &app.services.content;
    let (_, alpha) = content
        .create(common::published("Alpha Assembly"))
        .await
        .unwrap();
    let (_, beta) = content
        .create(common::published("Budget Ballot"))
        .await
        .unwrap();
    let paths = [
        "/".to_string(),
        "/articles".into(),
        format!("/article/{alpha}"),
        format!("/article/{beta}"),
    ];
    let before = bodies(&app, &paths).await;
    assert!(paths.iter().all(|p| stub.rendered(p) == 1));

    // Renders hang from now on: a reader waiting for one would get no answer.
    stub.open.send_replace(false);
    content
        .create(common::published("Quorum Quarrels"))
        .await
        .unwrap();
    for _ in 0..4 {
        let now = tokio::time::timeout(Duration::from_secs(5), bodies(&app, &paths))
            .await
            .expect("answered without waiting for a render");
        assert!(now == before, "the stored pages, as they were");
    }

    // The lists are rendered again, once each however many readers asked; the articles'
    // own pages, which the new piece did not change, not at all.
    stub.open.send_replace(true);
    for list in ["/", "/articles"] {
        common::eventually(list, Duration::from_secs(10), || async {
            String::from_utf8_lossy(&get(&app, list, &[]).await.body).contains("Quorum Quarrels")
        })
        .await;
        assert_eq!(stub.rendered(list), 2, "{list}");
    }
    let after = bodies(&app, &paths[2..]).await;
    assert!(after == before[2..], "the articles' pages kept");
    assert_eq!(stub.rendered(&paths[2]), 1);
    assert_eq!(stub.rendered(&paths[3]), 1);
    app.shutdown().await;
}

// Engine-independent: what an edit and a withdrawal do to stored pages is the page cache's.
#[tokio::test]
async fn an_edited_or_withdrawn_piece_is_never_sent_from_a_stored_page() {
    let (url, stub) = stub_sidecar(Duration::ZERO).await;
    let app = app_with(url).await;
    let (_, key) = app
        .services
        .identity
        .add_staff("Dana Director", identity::Role::ContentDirector)
        .await
        .unwrap();
    let director = app.login(&key).await;
    let (writer, _) = app
        .services
        .identity
        .add_staff("Wren Writer", identity::Role::Writer)
        .await
        .unwrap();
    // Asked for before it is published: a stored 404, never sent once the piece is out.
    assert_eq!(get(&app, "/article/alpha-assembly", &[]).await.status, 404);
    let (id, slug) = app
        .services
        .content
        .create(content::NewArticle {
            author_id: Some(writer.id),
            ..common::published("Alpha Assembly")
        })
        .await
        .unwrap();
    let page = format!("/article/{slug}");
    assert_eq!(page, "/article/alpha-assembly");
    assert_eq!(get(&app, &page, &[]).await.status, 200);
    let home = get(&app, "/", &[]).await;
    assert!(String::from_utf8_lossy(&home.body).contains("Alpha Assembly"));

    // A typo fixed in the live piece: the next reader of its page reads the fix.
    let staff = format!("/api/v1/staff/articles/{id}");
    let piece: serde_json::Value = app
        .request(reqwest::Method::GET, &staff, Some(&director))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let r = app
        .request(reqwest::Method::PUT, &staff, Some(&director))
        .json(&serde_json::json!({
            "title": piece["title"],
            "content": "A new piece, its typo fixed.",
            "category": piece["category"],
            "status": "published",
            "author_id": piece["author_id"],
            "base_version": piece["version"],
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200, "{}", r.text().await.unwrap());
    let fixed = get(&app, &page, &[]).await;
    assert!(String::from_utf8_lossy(&fixed.body).contains("its typo fixed"));
    let renders = stub.renders.load(Ordering::SeqCst);

    let r = app
        .request(
            reqwest::Method::DELETE,
            &format!("/api/v1/staff/articles/{id}"),
            Some(&director),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 204);
    // The very next readers: rendered for them, never the stored pages.
    assert_eq!(get(&app, &page, &[]).await.status, 404);
    let home = get(&app, "/", &[]).await;
    assert_eq!(home.status, 200);
    assert!(!String::from_utf8_lossy(&home.body).contains("Alpha Assembly"));
    assert_eq!(stub.renders.load(Ordering::SeqCst), renders + 2);
    app.shutdown().await;
}
