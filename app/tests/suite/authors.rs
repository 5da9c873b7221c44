//! Contributor pages (`/author/{slug}`, issue 35): the name a contributor chose to show, their
//! bio and pieces, a `ProfilePage`, a feed, the sitemap; who has one; and the profile each
//! contributor (or the content director) edits.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use common::pages::{demo_ssr_app, json_ld, page, root_markup};
use common::{spawn_app, TestApp};
use identity::Role;
use reqwest::Method;
use serde_json::{json, Value};

/// What the demo's first writer says about herself (see the demo seed).
const MAYA_BIO_FIRST_LINE: &str =
    "Year 12. I write about the UN, elections and why young people should have a say in both.";

async fn send(
    app: &TestApp,
    method: Method,
    path: &str,
    cookie: &str,
    body: Value,
) -> (u16, Value) {
    let r = app
        .request(method, path, Some(cookie))
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

// Engine-independent: rendering; who has a page is checked on both engines below.
#[tokio::test]
async fn a_contributor_page_shows_the_chosen_name_bio_pieces_and_profile() {
    let app = demo_ssr_app().await;
    let (status, html) = page(&app, "/author/maya-o").await;
    assert_eq!(status, 200);
    assert!(html.contains("<title>Maya O. | The Agora</title>"), "title");
    assert!(html.contains(&format!(
        "<meta name=\"description\" content=\"{MAYA_BIO_FIRST_LINE}\">"
    )));
    assert!(html.contains("<link rel=\"canonical\" href=\"https://agora.test/author/maya-o\">"));
    assert!(html.contains("<meta property=\"og:type\" content=\"profile\">"));
    assert!(html.contains(
        "title=\"The Agora: Maya O.\" href=\"https://agora.test/feed/author/maya-o.xml\">"
    ));
    assert!(!html.contains("noindex"));
    // Her last name is hers to show: by default it is nowhere on the page.
    assert!(!html.contains("Okafor"), "no last name on the page");

    // The pieces, newest first, as the API lists them, in the markup and the structured data.
    let (status, api) = app.json("/api/v1/authors/maya-o").await;
    assert_eq!(status, 200);
    assert_eq!(
        api["author"],
        json!({"name": "Maya O.", "slug": "maya-o", "role": "Writer",
               "bio": format!("{MAYA_BIO_FIRST_LINE}\nDebate club captain.")})
    );
    let titles: Vec<&str> = api["articles"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles.len(), 3, "the demo's three pieces by her");
    assert!(api["articles"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .all(|a| a["author_slug"] == "maya-o"));
    let markup = root_markup(&html);
    assert!(markup.contains("<h1 class=\"hero-title\">Maya O.</h1>"));
    assert!(
        markup.contains("Debate club captain."),
        "the bio's second line"
    );
    let mut at = 0;
    for title in &titles {
        let escaped = title.replace('\'', "&#x27;");
        at += markup[at..]
            .find(&escaped)
            .unwrap_or_else(|| panic!("{title} in order"));
    }
    let data = json_ld(&html);
    let profile = data.iter().find(|d| d["@type"] == "ProfilePage").unwrap();
    let person = &profile["mainEntity"];
    assert_eq!(person["@type"], "Person");
    assert_eq!(person["name"], "Maya O.");
    assert_eq!(person["url"], "https://agora.test/author/maya-o");
    assert_eq!(person["jobTitle"], "Writer");
    assert!(person["description"]
        .as_str()
        .unwrap()
        .starts_with(MAYA_BIO_FIRST_LINE));
    let listed: Vec<&str> = profile["hasPart"]["itemListElement"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["name"].as_str().unwrap())
        .collect();
    assert_eq!(listed, titles);

    // Her articles point here: the byline, the author box and the article's JSON-LD.
    let slug = api["articles"]["items"][0]["slug"].as_str().unwrap();
    let (_, article) = page(&app, &format!("/article/{slug}")).await;
    let markup = root_markup(&article);
    assert!(markup.contains("href=\"/author/maya-o\" class=\"article-author\">Maya O.</a>"));
    assert!(markup.contains("Every article by Maya O."));
    let news = json_ld(&article)
        .into_iter()
        .find(|d| d["@type"] == "NewsArticle")
        .unwrap();
    assert_eq!(
        news["author"],
        json!({"@type": "Person", "name": "Maya O.",
               "url": "https://agora.test/author/maya-o"})
    );
    assert!(
        !article.contains("Okafor"),
        "no last name on her article either"
    );

    // Her feed: her pieces, each naming her page.
    let r = app.get("/feed/author/maya-o.xml").await;
    assert_eq!(r.status().as_u16(), 200);
    assert!(r.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/atom+xml"));
    let feed: atom_syndication::Feed = r.text().await.unwrap().parse().unwrap();
    assert_eq!(feed.title.value, "The Agora: Maya O.");
    let entries: Vec<&str> = feed
        .entries
        .iter()
        .map(|e| e.title.value.as_str())
        .collect();
    assert_eq!(entries, titles);
    assert!(feed
        .entries
        .iter()
        .all(|e| e.authors[0].uri.as_deref() == Some("https://agora.test/author/maya-o")));
    assert!(feed
        .links
        .iter()
        .any(|l| l.rel == "alternate" && l.href == "https://agora.test/author/maya-o"));

    // In the sitemap, with every demo writer.
    let sitemap = app.get("/sitemap.xml").await.text().await.unwrap();
    for slug in ["maya-o", "priya-n", "leo-c", "sam-w"] {
        assert!(
            sitemap.contains(&format!("<loc>https://agora.test/author/{slug}</loc>")),
            "{slug} in the sitemap"
        );
    }

    // A longer page keeps the same canonical address; a made-up one is not found.
    let (status, longer) = page(&app, "/author/maya-o?limit=12").await;
    assert_eq!(status, 200);
    assert!(longer.contains("<link rel=\"canonical\" href=\"https://agora.test/author/maya-o\">"));
    for path in [
        "/author/nobody",
        "/author/maya-o/more",
        "/feed/author/nobody.xml",
    ] {
        assert_eq!(app.get(path).await.status().as_u16(), 404, "{path}");
    }
    let (status, html) = page(&app, "/author/nobody").await;
    assert_eq!(status, 404);
    assert!(html.contains("noindex"));

    // She shows her full name, then takes it back: no page rendered before is sent again.
    let maya = api["articles"]["items"][0]["author_id"].as_str().unwrap();
    let (_, key) = app
        .services
        .identity
        .add_staff("Ada Admin", Role::Admin)
        .await
        .unwrap();
    let admin = app.login(&key).await;
    let profile = format!("/api/v1/staff/members/{maya}/profile");
    let photo = "/media/covers/maya.jpg";
    for (full, name) in [(true, "Maya Okafor"), (false, "Maya O.")] {
        // With her photo the first time, without it the second.
        let body = json!({"full_name_shown": full, "bio": "Edited.",
                          "photo": full.then_some(photo)});
        let (status, _) = send(&app, Method::PUT, &profile, &admin, body).await;
        assert_eq!(status, 200);
        let (_, html) = page(&app, "/author/maya-o").await;
        let h1 = format!("<h1 class=\"hero-title\">{name}</h1>");
        assert!(
            root_markup(&html).contains(&h1),
            "{name} at once on her page"
        );
        let (_, article) = page(&app, &format!("/article/{slug}")).await;
        assert!(
            article.contains(&format!(">{name}</a>")),
            "{name} at once on her byline"
        );
        assert_eq!(article.contains("Okafor"), full);
        let person = json_ld(&html)
            .into_iter()
            .find(|d| d["@type"] == "ProfilePage")
            .unwrap()["mainEntity"]
            .clone();
        let shown = root_markup(&html).contains(&format!("src=\"{photo}\""));
        assert_eq!(shown, full, "the photo on her page");
        assert_eq!(
            person.get("image").and_then(Value::as_str),
            full.then_some("https://agora.test/media/covers/maya.jpg")
        );
    }
    app.shutdown().await;
}

on_both_engines! {
    async fn only_a_contributor_with_a_published_piece_has_a_page(engine: Engine) {
        let app = spawn_app(engine).await;
        let id = &app.services.identity;
        let (writer, key) = id.add_staff("Zoë Ng", Role::Writer).await.unwrap();
        let cookie = app.login(&key).await;
        let (educator, _) = id.add_staff("Eve Educator", Role::Educator).await.unwrap();

        // A draft gives her no page yet; her profile already has its address.
        let (status, mine) = send(&app, Method::GET, "/api/v1/staff/me/profile", &cookie, Value::Null).await;
        assert_eq!(status, 200);
        assert_eq!(
            mine,
            json!({"slug": "zoe-n", "full_name": "Zoë Ng", "shown_name": "Zoë N.",
                   "short_name": "Zoë N.", "full_name_shown": false, "bio": ""})
        );
        let (status, draft) = send(&app, Method::POST, "/api/v1/staff/articles", &cookie, json!({
            "title": "A draft of mine", "content": "Not yet.", "category": "Human Rights",
            "status": "draft",
        })).await;
        assert_eq!(status, 201, "{draft}");
        let (status, body) = app.json("/api/v1/authors/zoe-n").await;
        assert_eq!(status, 404);
        assert_eq!(body["code"], "author_not_found");
        assert_eq!(app.get("/feed/author/zoe-n.xml").await.status().as_u16(), 404);

        // Published: the page is there, and reached from the byline.
        let draft_id = draft["id"].as_str().unwrap();
        let (status, _) = send(&app, Method::POST, &format!("/api/v1/staff/articles/{draft_id}/publish"), &cookie, json!({})).await;
        assert_eq!(status, 200);
        let (status, body) = app.json("/api/v1/authors/zoe-n").await;
        assert_eq!(status, 200);
        assert_eq!(body["author"]["name"], "Zoë N.");
        assert_eq!(body["articles"]["items"][0]["title"], "A draft of mine");
        let (_, list) = app.json("/api/v1/articles").await;
        assert_eq!(list["items"][0]["author_name"], "Zoë N.");
        assert_eq!(list["items"][0]["author_slug"], "zoe-n");
        assert_eq!(app.get("/feed/author/zoe-n.xml").await.status().as_u16(), 200);

        // She shows her full name: every byline follows at once; the address stays.
        let (status, changed) = send(&app, Method::PUT, "/api/v1/staff/me/profile", &cookie,
            json!({"full_name_shown": true, "bio": "  I cover youth councils.\r\nAnd more.  "})).await;
        assert_eq!(status, 200);
        assert_eq!(changed["shown_name"], "Zoë Ng");
        assert_eq!(changed["bio"], "I cover youth councils.\nAnd more.");
        assert_eq!(changed["slug"], "zoe-n");
        let (_, list) = app.json("/api/v1/articles").await;
        assert_eq!(list["items"][0]["author_name"], "Zoë Ng");
        let (_, body) = app.json("/api/v1/authors/zoe-n").await;
        assert_eq!(body["author"]["name"], "Zoë Ng");
        assert_eq!(body["author"]["bio"], "I cover youth councils.\nAnd more.");

        // Withdrawn: no page again.
        let r = app.request(Method::DELETE, &format!("/api/v1/staff/articles/{draft_id}"), Some(&cookie)).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 204);
        assert_eq!(app.json("/api/v1/authors/zoe-n").await.0, 404);

        // An educator has no page, even with a piece under their name, and no profile to edit.
        let mut piece = common::published("Filed under an educator");
        piece.author_id = Some(educator.id.clone());
        app.services.content.create(piece).await.unwrap();
        let (_, list) = app.json("/api/v1/articles").await;
        let slug = list["items"][0]["author_slug"].as_str().unwrap().to_string();
        assert_eq!(app.json(&format!("/api/v1/authors/{slug}")).await.0, 404);
        let (_, admin_key) = id.add_staff("Ada Admin", Role::Admin).await.unwrap();
        let admin = app.login(&admin_key).await;
        let (status, body) = send(&app, Method::GET, &format!("/api/v1/staff/members/{}/profile", educator.id), &admin, Value::Null).await;
        assert_eq!(status, 404, "{body}");
        let (status, _) = send(&app, Method::GET, "/api/v1/staff/members/nobody/profile", &admin, Value::Null).await;
        assert_eq!(status, 404);

        // The content director edits a writer's profile.
        let (_, director_key) = id.add_staff("Dee Director", Role::ContentDirector).await.unwrap();
        let director = app.login(&director_key).await;
        let (status, theirs) = send(&app, Method::PUT, &format!("/api/v1/staff/members/{}/profile", writer.id), &director,
            json!({"full_name_shown": false, "bio": "Edited by the desk."})).await;
        assert_eq!(status, 200);
        assert_eq!((theirs["shown_name"].as_str(), theirs["bio"].as_str()), (Some("Zoë N."), Some("Edited by the desk.")));
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn a_bad_profile_is_refused_with_its_reason_and_nothing_changes(engine: Engine) {
        let app = spawn_app(engine).await;
        let (_, key) = app.services.identity.add_staff("Kai Lee", Role::Writer).await.unwrap();
        let cookie = app.login(&key).await;
        let (status, _) = send(&app, Method::PUT, "/api/v1/staff/me/profile", &cookie,
            json!({"full_name_shown": false, "bio": "Kept.", "photo": "/media/covers/kai.png"})).await;
        assert_eq!(status, 200);
        let cases = [
            json!({"full_name_shown": true, "bio": "a".repeat(601)}),
            json!({"full_name_shown": true, "bio": "bell\u{7}"}),
            json!({"full_name_shown": true, "bio": "nul\u{0}"}),
            json!({"full_name_shown": true}),
            json!({"full_name_shown": "yes", "bio": ""}),
            json!({"full_name_shown": true, "bio": "", "email": "kai@example.org"}),
            // A photo is a picture uploaded here: no other address reaches a reader's browser.
            json!({"full_name_shown": true, "bio": "", "photo": "https://tracker.example/kai.jpg"}),
            json!({"full_name_shown": true, "bio": "", "photo": "/media/covers/a.jpg\" onerror=\"x"}),
        ];
        for body in cases {
            let (status, answer) = send(&app, Method::PUT, "/api/v1/staff/me/profile", &cookie, body.clone()).await;
            assert_eq!(status, 400, "{body} → {answer}");
            assert!(answer["code"].is_string() && answer["message"].is_string(), "{answer}");
        }
        let (_, mine) = send(&app, Method::GET, "/api/v1/staff/me/profile", &cookie, Value::Null).await;
        assert_eq!((mine["bio"].as_str(), mine["full_name_shown"].as_bool()), (Some("Kept."), Some(false)));
        assert_eq!(mine["photo"], "/media/covers/kai.png");
        // Exactly the longest bio is kept, line breaks and all.
        let longest = format!("{}\n{}", "a".repeat(300), "b".repeat(299));
        let (status, mine) = send(&app, Method::PUT, "/api/v1/staff/me/profile", &cookie,
            json!({"full_name_shown": false, "bio": longest})).await;
        assert_eq!(status, 200);
        assert_eq!(mine["bio"], longest);
        app.shutdown().await;
    }
}
