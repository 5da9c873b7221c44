//! Readers' responses to articles (issue 35), over HTTP: only a signed-in reader with a
//! confirmed address sends one; it waits for the desk, shown to nobody; approved, it shows
//! under the article with the reader's first name and initial only; three reports take it back
//! to the queue, where the desk sees it with its article and the reader's other responses;
//! rejected, its reason reaches its reader; its reader deletes it, and it goes with their
//! account. Limits, closures, the window and blocks refuse with their reasons.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;
use crate::readers::{reader, registration, send, sign_in};

use chrono::Duration;
use common::{spawn_app, TestApp};
use identity::Role;
use reqwest::Method;
use serde_json::{json, Value};

/// A confirmed reader signed in: their session cookie.
async fn signed_in(app: &TestApp, email: &str) -> String {
    reader(app, email).await;
    sign_in(app, email, "correct horse").await.2.unwrap()
}

/// A content director signed in: their session cookie.
async fn desk(app: &TestApp) -> String {
    let (_, key) = app
        .services
        .identity
        .add_staff("Dee Desk", Role::ContentDirector)
        .await
        .unwrap();
    app.login(&key).await
}

/// A published article: its slug.
async fn article(app: &TestApp, title: &str, days_ago: i64) -> String {
    let mut piece = common::published(title);
    piece.created_at = Some(kernel::ids::now() - Duration::days(days_ago));
    app.services.content.create(piece).await.unwrap().1
}

fn said(body: &str) -> Option<Value> {
    Some(json!({ "body": body }))
}

const GOOD: &str =
    "The veto protects the powerful.\n\nBut reform needs them too: https://un.example/reform";

on_both_engines! {
    async fn a_response_waits_for_the_desk_then_shows_with_a_first_name_only(engine: Engine) {
        let app = spawn_app(engine).await;
        let slug = article(&app, "The veto, explained", 1).await;
        let path = format!("/api/v1/articles/{slug}/responses");

        let (status, list, _) = send(&app, Method::GET, &path, None, None).await;
        assert_eq!(status, 200);
        assert_eq!(list, json!({"open": true, "responses": []}));
        let (status, body, _) = send(&app, Method::POST, &path, None, said(GOOD)).await;
        assert_eq!(status, 401, "{body}");

        // A reader whose address is not confirmed yet.
        let (status, _, _) = send(&app, Method::POST, "/api/v1/accounts", None, Some(registration("new@example.org"))).await;
        assert_eq!(status, 200);
        // Not signed in until confirmed, so unable to respond (the rule itself refuses an
        // unconfirmed account too: see the rules' table).
        let (status, body, cookie) = sign_in(&app, "new@example.org", "correct horse").await;
        assert_eq!((status, cookie), (403, None), "{body}");

        let noor = signed_in(&app, "noor@example.org").await;
        for (bad, status_and_code) in [
            // Within the contract's schema, but too short once trimmed: 422.
            ("Too short.", (422, Some("invalid_response"))),
            ("                          x                          ", (422, Some("invalid_response"))),
            // Refused by the contract's pattern, before the rules read it.
            ("Twenty characters and a bell\u{7}", (400, Some("invalid_request"))),
        ] {
            let (status, body, _) = send(&app, Method::POST, &path, Some(&noor), said(bad)).await;
            assert_eq!((status, body["code"].as_str()), status_and_code, "{bad}: {body}");
        }
        // In people's words, not the contract's regular expression.
        let (_, body, _) = send(&app, Method::POST, &path, Some(&noor), said("Twenty characters and a bell\u{7}")).await;
        assert_eq!(body["message"], "The body contains control characters, which are not allowed.");
        let (status, body, _) = send(&app, Method::POST, &path, Some(&noor), said(&"a".repeat(2001))).await;
        assert_eq!((status, body["message"].as_str()), (422, Some("A response is at most 2,000 characters.")), "{body}");
        let (status, body, _) = send(&app, Method::POST, &path, Some(&noor), Some(json!({"body": GOOD, "name": "x"}))).await;
        assert_eq!(status, 400, "unknown fields are refused: {body}");
        let (status, body, _) = send(&app, Method::POST, "/api/v1/articles/nope/responses", Some(&noor), said(GOOD)).await;
        assert_eq!(status, 404, "{body}");

        let (status, sent, _) = send(&app, Method::POST, &path, Some(&noor), said(&format!("  {GOOD}\r\n"))).await;
        assert_eq!(status, 201, "{sent}");
        assert_eq!(sent["status"], "pending");
        assert_eq!(sent["body"], GOOD, "kept as typed, trimmed");
        assert_eq!(sent["article_slug"], slug.as_str());
        // Nobody sees it yet; its reader does, on their account page.
        let (_, list, _) = send(&app, Method::GET, &path, None, None).await;
        assert_eq!(list["responses"], json!([]));
        let (status, mine, _) = send(&app, Method::GET, "/api/v1/reader/responses", Some(&noor), None).await;
        assert_eq!(status, 200);
        assert_eq!(mine.as_array().unwrap().len(), 1);
        assert_eq!(mine[0]["status"], "pending");
        assert_eq!(mine[0]["article_title"], "The veto, explained");

        // The desk sees it waiting, with its article.
        let dee = desk(&app).await;
        let (status, queue, _) = send(&app, Method::GET, "/api/v1/staff/responses", Some(&dee), None).await;
        assert_eq!(status, 200);
        assert_eq!(queue.as_array().unwrap().len(), 1);
        assert_eq!(
            (queue[0]["reader_name"].as_str(), queue[0]["article_title"].as_str(), queue[0]["reports"].as_i64()),
            (Some("Sam O."), Some("The veto, explained"), Some(0))
        );
        assert_eq!(queue[0]["earlier"], json!([]));

        // Approved: shown with the first name and initial, never the last name or the address.
        let id = sent["id"].as_str().unwrap();
        let approve = format!("/api/v1/staff/responses/{id}/approve");
        let (status, _, _) = send(&app, Method::POST, &approve, Some(&dee), None).await;
        assert_eq!(status, 204);
        let (status, _, _) = send(&app, Method::POST, &approve, Some(&dee), None).await;
        assert_eq!(status, 404, "decided already");
        let (_, list, _) = send(&app, Method::GET, &path, None, None).await;
        assert_eq!(list["responses"].as_array().unwrap().len(), 1);
        let shown = &list["responses"][0];
        assert_eq!((shown["name"].as_str(), shown["body"].as_str()), (Some("Sam O."), Some(GOOD)));
        let text = list.to_string();
        assert!(!text.contains("Okoro") && !text.contains("noor@"), "{text}");

        // Three readers report it: off the article, back in the queue.
        let mut reporters = Vec::new();
        for email in ["a@example.org", "b@example.org", "c@example.org"] {
            reporters.push(signed_in(&app, email).await);
        }
        let report = format!("/api/v1/responses/{id}/report");
        let (status, _, _) = send(&app, Method::POST, &report, None, None).await;
        assert_eq!(status, 401);
        for (i, cookie) in reporters.iter().enumerate() {
            let (status, body, _) = send(&app, Method::POST, &report, Some(cookie), None).await;
            assert_eq!(status, 204, "report {i}: {body}");
            if i == 0 {
                // Twice by one reader counts once.
                let (status, _, _) = send(&app, Method::POST, &report, Some(cookie), None).await;
                assert_eq!(status, 204);
                let (_, list, _) = send(&app, Method::GET, &path, None, None).await;
                assert_eq!(list["responses"].as_array().unwrap().len(), 1);
            }
        }
        let (_, list, _) = send(&app, Method::GET, &path, None, None).await;
        assert_eq!(list["responses"], json!([]));
        let (status, _, _) = send(&app, Method::POST, &report, Some(&reporters[0]), None).await;
        assert_eq!(status, 404, "a waiting response is not reported");
        let (_, mine, _) = send(&app, Method::GET, "/api/v1/reader/responses", Some(&noor), None).await;
        assert_eq!(mine[0]["status"], "pending");
        let (_, queue, _) = send(&app, Method::GET, "/api/v1/staff/responses", Some(&dee), None).await;
        assert_eq!(queue[0]["reports"], 3, "the desk sees why it is back");

        // Rejected with a reason: its reader reads it.
        let reject = format!("/api/v1/staff/responses/{id}/reject");
        let (status, body, _) = send(&app, Method::POST, &reject, Some(&dee), Some(json!({"reason": "x".repeat(501)}))).await;
        assert_eq!(status, 400, "{body}");
        let (status, _, _) = send(&app, Method::POST, &reject, Some(&dee), Some(json!({"reason": "Please keep to the article."}))).await;
        assert_eq!(status, 204);
        let (_, mine, _) = send(&app, Method::GET, "/api/v1/reader/responses", Some(&noor), None).await;
        assert_eq!((mine[0]["status"].as_str(), mine[0]["reason"].as_str()), (Some("rejected"), Some("Please keep to the article.")));

        // In the reader's data download.
        let (status, export, _) = send(&app, Method::GET, "/api/v1/reader/account/export", Some(&noor), None).await;
        assert_eq!(status, 200);
        let kept = &export["responses"];
        assert_eq!(kept.as_array().unwrap().len(), 1, "{export}");
        assert_eq!(
            (kept[0]["text"].as_str(), kept[0]["status"].as_str(), kept[0]["reason"].as_str()),
            (Some(GOOD), Some("rejected"), Some("Please keep to the article."))
        );

        // Deleted by its reader only.
        let delete = format!("/api/v1/reader/responses/{id}");
        let (status, _, _) = send(&app, Method::DELETE, &delete, Some(&reporters[0]), None).await;
        assert_eq!(status, 404);
        let (status, _, _) = send(&app, Method::DELETE, &delete, Some(&noor), None).await;
        assert_eq!(status, 204);
        let (_, mine, _) = send(&app, Method::GET, "/api/v1/reader/responses", Some(&noor), None).await;
        assert_eq!(mine, json!([]));
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn limits_closures_and_the_window_refuse_with_their_reason(engine: Engine) {
        let app = spawn_app(engine).await;
        let slug = article(&app, "Climate talks, explained", 1).await;
        let old = article(&app, "Last season's piece", 31).await;
        let path = format!("/api/v1/articles/{slug}/responses");
        let ivan = signed_in(&app, "ivan@example.org").await;

        // Five waiting at once, no more.
        for i in 0..5 {
            let (status, body, _) = send(&app, Method::POST, &path, Some(&ivan), said(&format!("{GOOD} ({i})"))).await;
            assert_eq!(status, 201, "{i}: {body}");
        }
        let (status, body, _) = send(&app, Method::POST, &path, Some(&ivan), said(GOOD)).await;
        assert_eq!((status, body["code"].as_str()), (429, Some("response_limit")), "{body}");
        assert!(body["message"].as_str().unwrap().contains("waiting for review"));

        // Past the window (30 days after publishing), or closed by staff: closed.
        let (status, body, _) = send(&app, Method::GET, &format!("/api/v1/articles/{old}/responses"), None, None).await;
        assert_eq!((status, &body["open"]), (200, &json!(false)));
        let mei = signed_in(&app, "mei@example.org").await;
        let (status, body, _) = send(&app, Method::POST, &format!("/api/v1/articles/{old}/responses"), Some(&mei), said(GOOD)).await;
        assert_eq!((status, body["code"].as_str()), (409, Some("responses_closed")), "{body}");
        let dee = desk(&app).await;
        let (_, piece, _) = send(&app, Method::GET, &format!("/api/v1/articles/{slug}"), None, None).await;
        let close = format!("/api/v1/staff/articles/{}/responses", piece["id"].as_str().unwrap());
        let (status, _, _) = send(&app, Method::PUT, &close, Some(&dee), Some(json!({"open": false}))).await;
        assert_eq!(status, 204);
        let (_, list, _) = send(&app, Method::GET, &path, None, None).await;
        assert_eq!(list["open"], false);
        let (status, body, _) = send(&app, Method::POST, &path, Some(&mei), said(GOOD)).await;
        assert_eq!((status, body["code"].as_str()), (409, Some("responses_closed")), "{body}");
        let (status, _, _) = send(&app, Method::PUT, &close, Some(&dee), Some(json!({"open": true}))).await;
        assert_eq!(status, 204);

        // Blocked by the desk from one of her responses: that one is rejected, and she can
        // send no more. The desk sees her earlier ones beside it.
        let (status, first, _) = send(&app, Method::POST, &path, Some(&mei), said(&format!("{GOOD} (first)"))).await;
        assert_eq!(status, 201);
        let (status, second, _) = send(&app, Method::POST, &path, Some(&mei), said(&format!("{GOOD} (second)"))).await;
        assert_eq!(status, 201);
        let (_, queue, _) = send(&app, Method::GET, "/api/v1/staff/responses", Some(&dee), None).await;
        let hers = queue.as_array().unwrap().iter().find(|q| q["id"] == second["id"]).unwrap();
        assert_eq!(hers["earlier"].as_array().unwrap().len(), 1);
        assert_eq!(hers["earlier"][0]["body"], first["body"]);
        let block = format!("/api/v1/staff/responses/{}/block", second["id"].as_str().unwrap());
        let (status, _, _) = send(&app, Method::POST, &block, Some(&dee), None).await;
        assert_eq!(status, 204);
        let (status, body, _) = send(&app, Method::POST, &path, Some(&mei), said(GOOD)).await;
        assert_eq!((status, body["code"].as_str()), (403, Some("responding_blocked")), "{body}");
        let (_, mine, _) = send(&app, Method::GET, "/api/v1/reader/responses", Some(&mei), None).await;
        assert_eq!(mine[0]["status"], "rejected");
        let store = outreach::responses::response_store_for(&app.services.db);

        // An account's responses go with it.
        let (status, _, _) = send(&app, Method::DELETE, "/api/v1/reader/account", Some(&ivan), Some(json!({"password": "correct horse"}))).await;
        assert_eq!(status, 204);
        let left: Vec<String> = store.queue().await.unwrap().into_iter().map(|q| q.body).collect();
        assert_eq!(left, [first["body"].as_str().unwrap()], "Ivan's five are gone, Mei's first waits");
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn a_reader_renamed_or_gone_is_shown_so_at_once_where_they_responded(engine: Engine) {
        let app = spawn_app(engine).await;
        let slug = article(&app, "School councils, explained", 1).await;
        let path = format!("/api/v1/articles/{slug}/responses");
        let page = format!("/article/{slug}");
        let body = "Our council meets every week and nobody knows it exists.";
        let sam = signed_in(&app, "sam@example.org").await;
        let (status, sent, _) = send(&app, Method::POST, &path, Some(&sam), said(body)).await;
        assert_eq!(status, 201, "{sent}");
        let dee = desk(&app).await;
        let approve = format!("/api/v1/staff/responses/{}/approve", sent["id"].as_str().unwrap());
        let (status, _, _) = send(&app, Method::POST, &approve, Some(&dee), None).await;
        assert_eq!(status, 204);
        let names = |list: &Value| -> Vec<String> {
            list["responses"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap().to_string()).collect()
        };
        let (_, list, _) = send(&app, Method::GET, &path, None, None).await;
        assert_eq!(names(&list), ["Sam O."]);
        // The page is rendered (and kept) with the response under it.
        for _ in 0..2 {
            let html = app.get(&page).await.text().await.unwrap();
            assert!(html.contains(body) && html.contains("\"name\":\"Sam O.\""), "{html}");
        }

        // A new last name: the next list and the next page show the new initial only.
        let profile = |last: &str| Some(json!({
            "first_name": "Sam", "last_name": last, "country": "Nigeria", "interests": []
        }));
        let (status, _, _) = send(&app, Method::PUT, "/api/v1/reader/account", Some(&sam), profile("Adeyemi")).await;
        assert_eq!(status, 200);
        let (_, list, _) = send(&app, Method::GET, &path, None, None).await;
        assert_eq!(names(&list), ["Sam A."]);
        let html = app.get(&page).await.text().await.unwrap();
        assert!(html.contains("\"name\":\"Sam A.\"") && !html.contains("Sam O."), "{html}");

        // The account deleted: its words are on no page and in no list from the next request.
        let (status, _, _) = send(&app, Method::DELETE, "/api/v1/reader/account", Some(&sam), Some(json!({"password": "correct horse"}))).await;
        assert_eq!(status, 204);
        let (_, list, _) = send(&app, Method::GET, &path, None, None).await;
        assert_eq!(list["responses"], json!([]));
        let html = app.get(&page).await.text().await.unwrap();
        assert!(!html.contains(body) && !html.contains("Sam A."), "{html}");
        app.shutdown().await;
    }
}

/// The page at `path` as `cookie` (a reader's session, a form's answer) gets it.
async fn page_as(app: &TestApp, path: &str, cookies: &[&str]) -> String {
    let mut r = app.request(Method::GET, path, None);
    if !cookies.is_empty() {
        r = r.header("cookie", cookies.join("; "));
    }
    let r = r.send().await.unwrap();
    assert_eq!(r.status(), 200, "{path}");
    r.text().await.unwrap()
}

/// The number of approved responses the article's `NewsArticle` counts.
fn comment_count(html: &str) -> Option<i64> {
    common::pages::json_ld(html)
        .into_iter()
        .find(|d| d["@type"] == "NewsArticle")
        .and_then(|d| d["commentCount"].as_i64())
}

/// A response whose text is markup, as a reader might type it.
const PAYLOAD: &str =
    "I agree <script>alert('x')</script><img src=x onerror=alert(1)> https://x.example";

/// A reader's response posted without JavaScript, moderated, reported and deleted, as every
/// page shows it: the article (server-rendered, as text, counted in its structured data), the
/// reader's account page, and the author's email notice.
#[tokio::test]
async fn responses_show_on_the_article_and_account_pages_and_reach_the_author() {
    let app = common::pages::ssr_app().await;
    let (writer, key) = app
        .services
        .identity
        .add_staff("Wren Writer", Role::Writer)
        .await
        .unwrap();
    let wren = app.login(&key).await;
    let r = app
        .request(Method::PUT, "/api/v1/staff/me/notices", Some(&wren))
        .json(&json!({ "email": "wren@school.example", "notify": true }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let mut piece = common::published("The veto, explained");
    piece.author_id = Some(writer.id.clone());
    piece.created_at = Some(kernel::ids::now() - Duration::days(1));
    let slug = app.services.content.create(piece).await.unwrap().1;
    let page = format!("/article/{slug}");

    // Signed out: the section, nothing in it, an invitation to sign in, no form.
    let html = page_as(&app, &page, &[]).await;
    let markup = common::pages::root_markup(&html);
    assert!(
        markup.contains("id=\"responses\"") && markup.contains("data-nosnippet"),
        "{markup}"
    );
    assert!(markup.contains("No responses yet."));
    assert!(markup.contains("href=\"/login?next="));
    assert!(!markup.contains("name=\"body\""));
    assert_eq!(comment_count(&html), Some(0));

    // Signed in, without JavaScript: the form posts to the page and comes back to it.
    let noor = signed_in(&app, "noor@example.org").await;
    let html = page_as(&app, &page, &[&noor]).await;
    assert!(common::pages::root_markup(&html).contains("name=\"intent\" value=\"respond\""));
    let body = format!("intent=respond&body={}", urlencoding(PAYLOAD));
    let r = crate::forms::post_form(&app, &page, &body, Some(&noor)).await;
    assert_eq!(r.status(), 303);
    assert_eq!(r.headers()["location"], format!("{page}#answer"));
    let answer = crate::forms::set_cookie(&r, "agora_form").unwrap();
    let answer = answer.split(';').next().unwrap();
    let html = page_as(&app, &page, &[&noor, answer]).await;
    let data = crate::forms::page_data(&html);
    assert_eq!(data["form"]["intent"], "respond");
    assert_eq!(
        data["form"]["done"]["status"], "pending",
        "{}",
        data["form"]
    );
    assert!(common::pages::root_markup(&html).contains("Your response is waiting for review"));
    // Waiting: not on the article, on her account page.
    let html = page_as(&app, &page, &[]).await;
    assert!(!html.contains("I agree"));
    let account = page_as(&app, "/account", &[&noor]).await;
    let markup = common::pages::root_markup(&account);
    assert!(markup.contains("Waiting for review"), "{markup}");
    assert!(markup.contains("I agree &lt;script&gt;"), "shown as text");

    // Approved: on the article page (the one cached before is rendered anew), as text.
    let dee = desk(&app).await;
    let (_, queue, _) = send(
        &app,
        Method::GET,
        "/api/v1/staff/responses",
        Some(&dee),
        None,
    )
    .await;
    let id = queue[0]["id"].as_str().unwrap().to_string();
    let (status, _, _) = send(
        &app,
        Method::POST,
        &format!("/api/v1/staff/responses/{id}/approve"),
        Some(&dee),
        None,
    )
    .await;
    assert_eq!(status, 204);
    let mut html = String::new();
    for _ in 0..50 {
        html = page_as(&app, &page, &[]).await;
        if html.contains("I agree") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let markup = common::pages::root_markup(&html);
    assert!(markup.contains("Responses (1)"), "{markup}");
    assert!(markup.contains("<strong>Sam O.</strong>"));
    assert!(
        markup.contains("I agree &lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;&lt;img src=x"),
        "{markup}"
    );
    assert!(!markup.contains("<img src=x") && !markup.contains("href=\"https://x.example"));
    assert!(!html.contains("Okoro") && !html.contains("noor@"));
    assert_eq!(comment_count(&html), Some(1));
    let ld = serde_json::to_string(&common::pages::json_ld(&html)).unwrap();
    assert!(
        !ld.contains("I agree"),
        "what readers wrote is not in the structured data"
    );

    // The author is told, in plain text only: the payload is quoted as text.
    let mail = crate::readers::nth_mail(&app, "wren@school.example", 1).await;
    assert!(
        mail.contains("Subject: A reader responded to \"The veto, explained\""),
        "{mail}"
    );
    assert!(mail.contains(&format!("/article/{slug}#responses")));
    assert!(mail.contains("> I agree <script>"), "{mail}");
    assert!(
        !mail.to_ascii_lowercase().contains("text/html"),
        "no HTML part: {mail}"
    );

    // Three readers report it from the page, without JavaScript: off the article at once.
    for email in ["a@example.org", "b@example.org", "c@example.org"] {
        let cookie = signed_in(&app, email).await;
        let html = page_as(&app, &page, &[&cookie]).await;
        assert!(common::pages::root_markup(&html).contains("value=\"report\""));
        let r = crate::forms::post_form(
            &app,
            &page,
            &format!("intent=report&response={id}"),
            Some(&cookie),
        )
        .await;
        assert_eq!(r.status(), 303);
    }
    let html = page_as(&app, &page, &[]).await;
    assert!(
        !html.contains("I agree"),
        "a reported response is never shown again"
    );
    assert_eq!(comment_count(&html), Some(0));

    // Rejected with a reason: on her account page; she deletes it from there.
    let (status, _, _) = send(
        &app,
        Method::POST,
        &format!("/api/v1/staff/responses/{id}/reject"),
        Some(&dee),
        Some(json!({"reason": "Please keep to the article."})),
    )
    .await;
    assert_eq!(status, 204);
    let account = page_as(&app, "/account", &[&noor]).await;
    let markup = common::pages::root_markup(&account);
    assert!(markup.contains("Not published"));
    assert!(
        markup.contains("The editors&#x27; reason: Please keep to the article."),
        "{markup}"
    );
    let r = crate::forms::post_form(
        &app,
        "/account",
        &format!("intent=delete-response&response={id}"),
        Some(&noor),
    )
    .await;
    assert_eq!(r.status(), 303);
    let (_, mine, _) = send(
        &app,
        Method::GET,
        "/api/v1/reader/responses",
        Some(&noor),
        None,
    )
    .await;
    assert_eq!(mine, json!([]));
    assert_eq!(
        mail_count(&app, "wren@school.example"),
        1,
        "one notice, for the one approval"
    );
    app.shutdown().await;
}

fn mail_count(app: &TestApp, to: &str) -> usize {
    crate::readers::mail_to(app, to).len()
}

fn urlencoding(s: &str) -> String {
    form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

/// Responses count against a budget per address too: five times the other forms' (a class on
/// one school network responds together), and past it a 429 with `Retry-After`.
#[tokio::test]
async fn responses_from_one_address_are_limited_like_every_form() {
    let app = common::spawn_app_with(
        common::Engine::Sqlite,
        common::Options {
            form_limit: 1,
            ..common::Options::default()
        },
    )
    .await;
    let slug = article(&app, "Budget day", 1).await;
    let path = format!("/api/v1/articles/{slug}/responses");
    let ivan = signed_in(&app, "ivan@example.org").await;
    for i in 0..5 {
        let (status, body, _) = send(
            &app,
            Method::POST,
            &path,
            Some(&ivan),
            said(&format!("{GOOD} ({i})")),
        )
        .await;
        assert_eq!(status, 201, "{i}: {body}");
    }
    let r = app
        .request(Method::POST, &path, Some(&ivan))
        .json(&json!({ "body": GOOD }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 429);
    assert!(r.headers().contains_key("retry-after"));
    let body: Value = r.json().await.unwrap();
    assert_eq!(
        body["code"], "too_many_requests",
        "the address's budget, not the reader's: {body}"
    );
    app.shutdown().await;
}
