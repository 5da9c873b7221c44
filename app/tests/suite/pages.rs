//! Server-rendered pages through the real sidecar: markup, head tags, status codes, the page
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report
//! cache, and the fallback shell when the sidecar dies.

use crate::common;

use std::time::Duration;

use common::mail::{quoted_printable, token_in};
use common::pages::{demo_ssr_app as ssr_app, page, root_markup};
use common::{spawn_app_with, Engine, Options, TestApp};

// Engine-independent: rendering; the listings it shows are checked on both engines in api.rs.
#[tokio::test]
async fn pages_are_server_rendered_with_head_tags() {
    let app = ssr_app().await;
    let (_, list) = app.json("/api/v1/articles?sort=featured&limit=3").await;
    let featured = list["items"][0]["title"].as_str().unwrap().to_string();

    let (status, home) = page(&app, "/").await;
    assert_eq!(status, 200);
    assert!(home.contains("<title>"));
    assert!(home.contains("<link rel=\"canonical\" href=\"https://agora.test/\">"));
    assert!(home.contains(
        "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"The Agora\" href=\"https://agora.test/feed.xml\">"
    ));
    // A category's listing also offers that category's feed.
    let (_, listing) = page(&app, "/articles?category=Human%20Rights").await;
    assert!(
        listing.contains(
            "title=\"The Agora: Human Rights\" href=\"https://agora.test/feed/human-rights.xml\">"
        ),
        "category feed link"
    );
    assert!(root_markup(&home).contains("From Our Writers"));
    let escaped = featured.replace('\'', "&#x27;");
    assert!(
        root_markup(&home).contains(&escaped) || root_markup(&home).contains(&featured),
        "home lists the featured article"
    );
    assert!(home.contains("id=\"agora-data\""));

    for path in [
        "/articles",
        "/magazine",
        "/educational-packs",
        "/about",
        "/contributors",
        "/application",
        "/application/success",
        "/contact-us",
        "/login",
        "/signup",
        "/key-login",
    ] {
        let (status, html) = page(&app, path).await;
        assert_eq!(status, 200, "{path}");
        assert!(root_markup(&html).len() > 200, "{path} is server-rendered");
        assert!(
            html.contains(&format!("href=\"https://agora.test{path}\"")),
            "{path} canonical"
        );
        paints_without_waiting_for_the_stylesheet(path, &html);
    }
    paints_without_waiting_for_the_stylesheet("/", &home);
    app.shutdown().await;
}

/// A server-rendered page carries the CSS its markup needs in its head, and links the whole
/// stylesheet only after the markup, for print until the page's script applies it (so the
/// first paint does not wait for it), and as it is inside `<noscript>`.
fn paints_without_waiting_for_the_stylesheet(path: &str, html: &str) {
    let head = &html[..html.find("</head>").unwrap()];
    assert!(
        head.split("<style>").skip(1).any(|s| s
            .split("</style>")
            .next()
            .unwrap()
            .contains(".site-header")),
        "{path}: no critical CSS in the head"
    );
    let sheet = html
        .find("<link media=\"print\" data-agora-css rel=\"stylesheet\"")
        .unwrap_or_else(|| panic!("{path}: no deferred stylesheet"));
    assert!(
        sheet > html.find("<div id=\"root\">").unwrap(),
        "{path}: stylesheet in the head"
    );
    let plain = html
        .find("<noscript><link rel=\"stylesheet\"")
        .unwrap_or_else(|| panic!("{path}: no stylesheet for pages without scripts"));
    assert!(plain > sheet && html[plain..].contains("</body>"), "{path}");
    assert_eq!(html.matches("rel=\"stylesheet\"").count(), 2, "{path}");
}

// Engine-independent: rendering; lookups by slug and by id are checked on both engines in api.rs.
#[tokio::test]
async fn article_page_has_social_tags_and_ids_redirect_to_slugs() {
    let app = ssr_app().await;
    let (_, list) = app.json("/api/v1/articles?limit=1").await;
    let card = &list["items"][0];
    let slug = card["slug"].as_str().unwrap();
    let (status, html) = page(&app, &format!("/article/{slug}")).await;
    assert_eq!(status, 200);
    assert!(html.contains("<meta property=\"og:type\" content=\"article\">"));
    assert!(html.contains(&format!(
        "<meta property=\"og:url\" content=\"https://agora.test/article/{slug}\">"
    )));
    assert!(html.contains(&format!(
        "<meta property=\"og:image\" content=\"https://agora.test/social/article/{slug}.jpg?v="
    )));
    assert!(html.contains("<meta name=\"twitter:card\" content=\"summary_large_image\">"));
    let description = card["subtitle"]
        .as_str()
        .unwrap_or_else(|| card["excerpt"].as_str().unwrap());
    let description = description.replace('\'', "&#39;").replace('"', "&quot;");
    assert!(html.contains(&format!(
        "<meta name=\"description\" content=\"{description}\">"
    )));
    assert!(root_markup(&html).contains("<h1"));
    // The body is in the page once: in the markup where the sidecar left its mark, not in
    // the page data (the browser reads it back from the markup).
    let (_, whole) = app.json(&format!("/api/v1/articles/{slug}")).await;
    let body = whole["content_html"].as_str().unwrap();
    assert!(body.len() > 200, "{body}");
    assert_eq!(html.matches(body).count(), 1, "{html}");
    assert!(root_markup(&html).contains(&format!("data-agora-body=\"\">{body}</div>")));
    assert!(!html.contains(agora::ssr::ARTICLE_BODY_MARK));
    assert!(!html.contains("content_html"));
    assert!(!html.contains("id=\"agora-body\""));
    // So does a page made for one request (a reader's cookie).
    let reader = app
        .request(
            reqwest::Method::GET,
            &format!("/article/{slug}"),
            Some("agora_reader=not-a-session"),
        )
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(reader.matches(body).count(), 1);

    let id = card["id"].as_str().unwrap();
    let r = app.get(&format!("/article/{id}")).await;
    assert_eq!(r.status().as_u16(), 301);
    assert_eq!(r.headers()["location"], format!("/article/{slug}"));

    // The cover is served from local storage.
    let cover = card["cover_image"].as_str().unwrap();
    let r = app.get(cover).await;
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(r.headers()["content-type"], "image/svg+xml");
    app.shutdown().await;
}

// Engine-independent: rendering; a missing slug is checked on both engines in api.rs.
#[tokio::test]
async fn unknown_paths_and_slugs_are_404_pages() {
    let app = ssr_app().await;
    for path in ["/no/such/page", "/article/no-such-slug"] {
        let (status, html) = page(&app, path).await;
        assert_eq!(status, 404, "{path}");
        assert!(html.contains("<meta name=\"robots\" content=\"noindex\">"));
        assert!(
            html.contains("Oops! Page not found") || html.contains("Article not found"),
            "{path}"
        );
    }
    app.shutdown().await;
}

// Engine-independent: the page cache is told of changes by the change event, not by the store.
#[tokio::test]
async fn page_cache_follows_content_changes() {
    let app = ssr_app().await;
    let (_, before) = page(&app, "/articles").await;
    assert!(!before.contains("Platypus Parliament"));
    app.services
        .content
        .create(common::published("Platypus Parliament"))
        .await
        .unwrap();
    // Sent as stored at once, then rendered again in the background.
    let (status, stale) = page(&app, "/articles").await;
    assert_eq!((status, stale.as_str()), (200, before.as_str()));
    common::eventually(
        "the listing rendered again",
        Duration::from_secs(10),
        || async { root_markup(&page(&app, "/articles").await.1).contains("Platypus Parliament") },
    )
    .await;
    app.shutdown().await;
}

// Engine-independent: it is about the sidecar process, not the data.
#[tokio::test]
async fn a_dead_sidecar_means_a_shell_with_correct_head_then_a_restart() {
    let app = spawn_app_with(
        Engine::Sqlite,
        Options {
            ssr: true,
            page_cache: false,
            ..Options::default()
        },
    )
    .await;
    agora::seed::demo(&app.services).await.unwrap();
    let pid = app.sidecar.pid();
    assert!(pid > 0);
    let (_, html) = page(&app, "/about").await;
    assert!(root_markup(&html).starts_with('<') && !root_markup(&html).starts_with("</div>"));

    unsafe {
        libc::kill(pid as i32, libc::SIGKILL);
    }
    // Gone once signal 0 can no longer reach it (or it is a zombie awaiting its parent).
    for _ in 0..200 {
        let alive = unsafe { libc::kill(pid as i32, 0) } == 0
            && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .is_ok_and(|stat| stat.split_whitespace().nth(2) == Some("Z"));
        if !alive {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let (status, shell) = page(&app, "/about").await;
    assert_eq!(status, 200, "the reader never sees an error");
    assert!(
        root_markup(&shell).starts_with("</div>"),
        "the page fell back to the client-rendered shell (empty root)"
    );
    assert!(shell.contains("<title>About Us | The Agora</title>"));
    assert!(shell.contains("<link rel=\"canonical\" href=\"https://agora.test/about\">"));
    // An article's shell carries the body once, inert, for the browser to render.
    let (_, list) = app.json("/api/v1/articles?limit=1").await;
    let slug = list["items"][0]["slug"].as_str().unwrap();
    let (_, whole) = app.json(&format!("/api/v1/articles/{slug}")).await;
    let body = whole["content_html"].as_str().unwrap();
    let (status, shell) = page(&app, &format!("/article/{slug}")).await;
    assert_eq!(status, 200);
    assert!(root_markup(&shell).starts_with("</div>"), "{shell}");
    assert_eq!(shell.matches(body).count(), 1);
    assert!(shell.contains(&format!("<template id=\"agora-body\">{body}</template>")));

    // The supervisor brings it back.
    let mut restarted = false;
    for _ in 0..1000 {
        if app.sidecar.pid() != 0 && app.sidecar.pid() != pid && app.sidecar.is_up() {
            restarted = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(restarted, "sidecar restarted");
    let (_, html) = page(&app, "/about").await;
    assert!(root_markup(&html).len() > 200, "server rendering is back");
    app.shutdown().await;
}

// Engine-independent: static assets never reach the database.
#[tokio::test]
async fn assets_are_fingerprinted_precompressed_and_immutable() {
    let app = ssr_app().await;
    let (_, html) = page(&app, "/").await;
    let start = html.find("/assets/").unwrap();
    let end = start + html[start..].find('"').unwrap();
    let asset = &html[start..end];
    let r = app
        .client
        .get(format!("{}{asset}", app.address))
        .header("accept-encoding", "br, gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(
        r.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert_eq!(r.headers()["content-encoding"], "br");
    let r = app
        .client
        .get(format!("{}/", app.address))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["content-encoding"], "gzip");
    app.shutdown().await;
}

/// The token of the link to `page` in the email the files transport wrote to `to`.
async fn token_mailed(app: &TestApp, to: &str, page: &str) -> String {
    let dir = app.data_dir().join("outbox");
    let mut found = None;
    common::eventually("the email", Duration::from_secs(15), || {
        let mail = std::fs::read_dir(&dir)
            .map(|d| d.filter_map(Result::ok).collect::<Vec<_>>())
            .unwrap_or_default()
            .into_iter()
            .filter_map(|e| std::fs::read_to_string(e.path()).ok())
            .map(|m| quoted_printable(&m))
            .find(|m| m.contains(&format!("To: {to}")));
        found = mail;
        std::future::ready(found.is_some())
    })
    .await;
    token_in(&found.unwrap_or_default(), &format!("{page}?token="))
}

// Engine-independent: the pages render what the outreach service answers (its links and
// their single use are tested on both engines in outreach.rs).
#[tokio::test]
async fn links_in_emails_land_on_pages_of_the_site() {
    let app = ssr_app().await;
    let post = |path: &'static str, body: serde_json::Value| {
        app.request(reqwest::Method::POST, path, None)
            .json(&body)
            .send()
    };
    let r = post(
        "/api/v1/notify",
        serde_json::json!({"email": "fan@example.org", "list": "magazine"}),
    )
    .await
    .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let r = post(
        "/api/v1/accounts",
        serde_json::json!({
            "first_name": "Sam", "last_name": "Okoro", "email": "sam@example.org",
            "password": "correct horse", "confirm_password": "correct horse",
            "age": 16, "country": "Nigeria", "interests": ["Human Rights"]
        }),
    )
    .await
    .unwrap();
    assert_eq!(r.status().as_u16(), 200);

    let confirm = token_mailed(&app, "sam@example.org", "/email/confirm").await;
    let unsubscribe = token_mailed(&app, "fan@example.org", "/email/unsubscribe").await;
    for (path, first, again) in [
        (
            format!("/email/confirm?token={confirm}"),
            "Your email is confirmed",
            "Already confirmed",
        ),
        (
            format!("/email/unsubscribe?token={unsubscribe}"),
            // Opening it changes nothing: it asks, each time.
            "Unsubscribe?",
            "Unsubscribe?",
        ),
    ] {
        for expected in [first, again] {
            let r = app.get(&path).await;
            assert_eq!(r.status().as_u16(), 200, "{path}");
            assert_eq!(r.headers()["cache-control"], "private, no-store", "{path}");
            let html = r.text().await.unwrap();
            let root = root_markup(&html);
            assert!(root.contains(expected), "{path}: {expected} in {root}");
            // A page of the site: its header and footer around the answer, not indexed.
            assert!(root.contains("<header"), "{path}: header");
            assert!(root.contains("<footer"), "{path}: footer");
            assert!(html.contains("<meta name=\"robots\" content=\"noindex\">"));
        }
    }
    // A link that is not one of ours says so, with the status to match.
    let (status, html) = page(&app, "/email/unsubscribe?token=made-up").await;
    assert_eq!(status, 404);
    assert!(root_markup(&html).contains("Link not recognised"));
    let (status, html) = page(&app, "/email/confirm").await;
    assert_eq!(status, 404);
    assert!(root_markup(&html).contains("Link not recognised"));
    app.shutdown().await;
}

// Engine-independent: it is about the sidecar process, not the data.
#[tokio::test]
async fn a_busy_sidecar_is_not_restarted_and_the_instance_stays_ready() {
    let app = spawn_app_with(
        Engine::Sqlite,
        Options {
            ssr_script: Some(common::repo_root().join("app/tests/fixtures/busy-sidecar.mjs")),
            deadline: Duration::from_millis(1000),
            ..Options::default()
        },
    )
    .await;
    let pid = app.sidecar.pid();
    assert_ne!(pid, 0, "the app started the sidecar");
    // 24 readers at once for 6 s, each page new: 16 renders reach the sidecar at a time, at
    // ~7 a second, so most wait past their deadline and get the shell.
    let until = std::time::Instant::now() + Duration::from_secs(6);
    let readers: Vec<_> = (0..24)
        .map(|reader| {
            let (client, address) = (app.client.clone(), app.address.clone());
            tokio::spawn(async move {
                let (mut rendered, mut shells) = (0, 0);
                let mut n = 0;
                while std::time::Instant::now() < until {
                    n += 1;
                    let r = client
                        .get(format!("{address}/articles?q=reader{reader}page{n}"))
                        .send()
                        .await
                        .unwrap();
                    assert_eq!(r.status().as_u16(), 200, "every request is answered");
                    if r.text()
                        .await
                        .unwrap()
                        .contains("rendered by the busy sidecar")
                    {
                        rendered += 1;
                    } else {
                        shells += 1;
                    }
                }
                (rendered, shells)
            })
        })
        .collect();
    let mut readiness = Vec::new();
    while std::time::Instant::now() < until {
        let (status, ready) = app.json("/readyz").await;
        readiness.push((
            status,
            ready["sidecar"].as_str().unwrap_or_default().to_string(),
        ));
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let (mut rendered, mut shells) = (0, 0);
    for reader in readers {
        let (r, s) = reader.await.unwrap();
        (rendered, shells) = (rendered + r, shells + s);
    }
    assert_eq!(app.sidecar.pid(), pid, "the busy sidecar was not restarted");
    assert!(
        readiness.iter().all(|(status, _)| *status == 200),
        "{readiness:?}"
    );
    assert!(
        readiness.iter().any(|(_, state)| state == "busy"),
        "{readiness:?}"
    );
    // Some pages were rendered, the rest served as the shell in time.
    assert!(
        rendered > 0 && shells > 0,
        "rendered {rendered}, shells {shells}"
    );
    app.shutdown().await;
}

// Engine-independent: it is about the render deadline.
#[tokio::test]
async fn a_page_answering_a_no_script_form_waits_for_its_render() {
    // Every render takes 150 ms; pages wait 50 ms for theirs.
    let app = spawn_app_with(
        Engine::Sqlite,
        Options {
            ssr_script: Some(common::repo_root().join("app/tests/fixtures/busy-sidecar.mjs")),
            deadline: Duration::from_millis(50),
            page_cache: false,
            ..Options::default()
        },
    )
    .await;
    let rendered = |html: &str| html.contains("rendered by the busy sidecar");
    let html = app.get("/contact-us").await.text().await.unwrap();
    assert!(
        !rendered(&html),
        "a reader's page is not held up: the shell, in time"
    );

    // A browser without scripts posts the form and is sent back to the page with the
    // answer: the shell would show it a blank page, so that render is waited for.
    let r = app
        .request(reqwest::Method::POST, "/contact-us", None)
        .header("origin", "https://agora.test")
        .header("content-type", "application/x-www-form-urlencoded")
        .body("first_name=Ada&email=ada%40example&message=Hi")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 303);
    let cookie = r
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .find(|v| v.starts_with("agora_form="))
        .expect("the answer's cookie");
    let pair = cookie.split(';').next().unwrap().to_string();
    let page = app
        .request(reqwest::Method::GET, "/contact-us", Some(&pair))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status().as_u16(), 200);
    let html = page.text().await.unwrap();
    assert!(rendered(&html), "the form's answer is server-rendered");
    assert!(html.contains("Please fill in all required fields."));
    app.shutdown().await;
}
