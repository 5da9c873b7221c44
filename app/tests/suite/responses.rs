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
        for (bad, code) in [
            ("Too short.", "invalid_response"),
            // Refused by the contract's pattern, before the rules read it.
            ("Twenty characters and a bell\u{7}", "invalid_request"),
        ] {
            let (status, body, _) = send(&app, Method::POST, &path, Some(&noor), said(bad)).await;
            assert_eq!((status, body["code"].as_str()), (400, Some(code)), "{bad}: {body}");
        }
        let (status, body, _) = send(&app, Method::POST, &path, Some(&noor), said(&"a".repeat(2001))).await;
        assert_eq!(status, 400, "{body}");
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
