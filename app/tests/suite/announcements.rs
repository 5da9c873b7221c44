//! Launch announcements, end to end: an admin publishes an issue, previews the email and its
//! recipient count, sends it; each subscriber gets it once over SMTP with a working one-click
//! unsubscribe (the link and the RFC 8058 POST); sending again sends nothing; a restart or a
//! second instance in the middle of a send loses and doubles nothing; bulk mail waits for
//! transactional mail.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use common::mail::{free_port, quoted_printable, token_in, wait_for, Sink};
use common::{eventually, spawn_app, spawn_app_with, Options, TempDir, TestApp};
use identity::Role;
use reqwest::Method;
use serde_json::{json, Value};

fn pdf() -> Vec<u8> {
    b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n".to_vec()
}

async fn send(
    app: &TestApp,
    method: Method,
    path: &str,
    cookie: Option<&str>,
    body: Value,
) -> (u16, Value) {
    let r = app
        .request(method, path, cookie)
        .json(&body)
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

/// An admin's cookie and the id of a published issue titled "December 2026".
async fn published_issue(app: &TestApp) -> (String, String) {
    let (_, key) = app
        .services
        .identity
        .add_staff("Ada Admin", Role::Admin)
        .await
        .unwrap();
    let admin = app.login(&key).await;
    let form = reqwest::multipart::Form::new().part(
        "file",
        reqwest::multipart::Part::bytes(pdf())
            .file_name("dec.pdf")
            .mime_str("application/pdf")
            .unwrap(),
    );
    let r = app
        .request(Method::POST, "/api/v1/staff/magazines", Some(&admin))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 201);
    let id = r.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    // Uploaded, not published: there is nothing to announce yet, and the answer says why
    // (a 409, not the 404 of an id that does not exist).
    let path = format!("/api/v1/staff/magazines/{id}/announcement");
    for method in [Method::GET, Method::POST] {
        let (status, b) = send(app, method, &path, Some(&admin), json!(null)).await;
        assert_eq!(
            (status, b["code"].as_str()),
            (409, Some("invalid_transition")),
            "{b}"
        );
        assert_eq!(
            b["message"],
            "This issue is not published yet: publish it first."
        );
    }
    let (status, b) = send(app, Method::PUT, &format!("/api/v1/staff/magazines/{id}/publication"), Some(&admin), json!({
        "title": "December 2026", "issue_date": "2026-12-01",
        "description": "Climate talks and the student vote.", "cover_url": "https://example.org/cover.png"
    })).await;
    assert_eq!(status, 200, "{b}");
    (admin, id)
}

/// Waits until the outbox holds nothing unsent (every message delivered to the sink).
async fn all_sent(app: &TestApp) {
    eventually("the outbox is empty", Duration::from_secs(20), || async {
        app.services.outbox.queue().await.unwrap().0 == 0
    })
    .await;
}

fn announcement_mails(inbox: &std::path::Path) -> Vec<String> {
    common::mail::messages(inbox)
        .into_iter()
        .filter(|m| m.contains("Subject: New from The Agora: December 2026"))
        .collect()
}

on_both_engines! {
    async fn each_subscriber_gets_the_announcement_once_with_a_working_unsubscribe(engine: Engine) {
        let port = free_port();
        let inbox = TempDir::new();
        let sink = Sink::start(port, &inbox.0);
        let app = spawn_app_with(engine, Options {
            smtp_url: Some(sink.url()),
            ..Options::default()
        }).await;
        for email in ["ana@example.org", "ben@example.org", "cy@example.org"] {
            let (status, _) = send(&app, Method::POST, "/api/v1/notify", None, json!({"email": email, "list": "magazine"})).await;
            assert_eq!(status, 200);
        }
        // Cy unsubscribes with the link from the signup confirmation.
        let signups = wait_for(&inbox.0, 3, Duration::from_secs(15)).await;
        let cy = signups.iter().map(|m| quoted_printable(m)).find(|m| m.contains("To: cy@example.org")).unwrap();
        let token = token_in(&cy, "https://agora.test/email/unsubscribe?token=");
        assert_eq!(app.get(&format!("/email/unsubscribe?token={token}")).await.status().as_u16(), 200);
        assert_eq!(send(&app, Method::POST, "/api/v1/email/unsubscribe", None, json!({ "token": token })).await.0, 200);

        let (admin, issue) = published_issue(&app).await;
        let path = format!("/api/v1/staff/magazines/{issue}/announcement");
        // Only admins; the preview shows the email and who gets it.
        let (_, wkey) = app.services.identity.add_staff("Wren", Role::Writer).await.unwrap();
        let writer = app.login(&wkey).await;
        assert_eq!(send(&app, Method::GET, &path, Some(&writer), json!(null)).await.0, 403);
        assert_eq!(send(&app, Method::POST, &path, None, json!(null)).await.0, 401);
        let (status, b) = send(&app, Method::GET, "/api/v1/staff/magazines/nope/announcement", Some(&admin), json!(null)).await;
        assert_eq!((status, b["message"].as_str()), (404, Some("No issue has this id.")));
        let (status, preview) = send(&app, Method::GET, &path, Some(&admin), json!(null)).await;
        assert_eq!(status, 200, "{preview}");
        assert_eq!(preview["recipients"], 2);
        assert_eq!(preview["subject"], "New from The Agora: December 2026");
        assert!(preview["body"].as_str().unwrap().contains("https://agora.test/magazine/december-2026"));
        assert!(preview.get("progress").is_none());

        let (status, progress) = send(&app, Method::POST, &path, Some(&admin), json!(null)).await;
        assert_eq!(status, 202, "{progress}");
        assert_eq!(progress["total"], 2);
        eventually("both announcements delivered", Duration::from_secs(20), || async {
            announcement_mails(&inbox.0).len() >= 2
        }).await;
        eventually("progress says sent", Duration::from_secs(20), || async {
            let (_, p) = send(&app, Method::GET, &path, Some(&admin), json!(null)).await;
            p["progress"]["sent"] == 2 && p["progress"]["finished"] == true
        }).await;
        // Sending again sends nothing new.
        let (status, again) = send(&app, Method::POST, &path, Some(&admin), json!(null)).await;
        assert_eq!((status, &again["queued"]), (202, &json!(2)));
        // The job's next pass (run here, as the scheduler would) queues nobody, and nothing
        // waits in the outbox: every mail there will ever be is in the inbox.
        assert_eq!(app.services.announcements.queue_due(100).await.unwrap(), 0);
        all_sent(&app).await;
        let mails = announcement_mails(&inbox.0);
        assert_eq!(mails.len(), 2, "once per subscriber");
        assert!(!mails.iter().any(|m| m.contains("To: cy@example.org")));

        // Each has its own one-click unsubscribe: the link, and the mail client's POST.
        let decoded: Vec<String> = mails.iter().map(|m| quoted_printable(m)).collect();
        for m in &decoded {
            assert!(m.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"), "{m}");
            assert!(m.contains("https://agora.test/magazine/december-2026"));
        }
        // Text and HTML: the cover, title, description and button, and the same links.
        for raw in &mails {
            let letter = common::mail::parts(raw);
            assert_eq!(letter.content_type, "multipart/alternative", "{raw}");
            assert_eq!(letter.text.lines().next(), Some("Hi!"), "no name known: {}", letter.text);
            let html = letter.html.expect("an HTML part");
            let token = token_in(&letter.text, "https://agora.test/email/unsubscribe?token=");
            for expected in [
                "<p style=\"margin:0;font-family:",
                ">Hi!</p>",
                "<img src=\"https://example.org/cover.png\"",
                "alt=\"Cover of December 2026\"",
                ">December 2026</a>",
                ">Climate talks and the student vote.</p>",
                "href=\"https://agora.test/magazine/december-2026\"",
                ">Read the issue</a>",
                &format!("href=\"https://agora.test/email/unsubscribe?token={token}\""),
            ] {
                assert!(html.contains(expected), "{expected} in\n{html}");
            }
            assert!(!html.contains("<script") && !html.contains("{unsubscribe}") && !html.contains("{greeting}"));
        }
        let ana = decoded.iter().find(|m| m.contains("To: ana@example.org")).unwrap();
        let ben = decoded.iter().find(|m| m.contains("To: ben@example.org")).unwrap();
        let ana_token = token_in(ana, "https://agora.test/email/unsubscribe?token=");
        let page = app.get(&format!("/email/unsubscribe?token={ana_token}")).await;
        assert_eq!(page.status().as_u16(), 200);
        assert_eq!(send(&app, Method::POST, "/api/v1/email/unsubscribe", None, json!({ "token": ana_token })).await.0, 200);
        let ben_token = token_in(ben, "<https://agora.test/api/v1/notify/unsubscribe?token=");
        let r = app.request(Method::POST, &format!("/api/v1/notify/unsubscribe?token={ben_token}"), None)
            .header("content-type", "application/x-www-form-urlencoded")
            .body("List-Unsubscribe=One-Click")
            .send().await.unwrap();
        assert_eq!(r.status().as_u16(), 200);
        let (_, preview) = send(&app, Method::GET, &path, Some(&admin), json!(null)).await;
        assert_eq!(preview["recipients"], 0, "nobody is left on the list");
        app.shutdown().await;
        sink.stop();
    }
}

// A restart in the middle of a send, and other instances sending at once (the app's own job
// runs too): every subscriber is queued exactly once (the delivery's primary key), as bulk
// mail, and nothing is lost.
on_both_engines! {
    async fn a_restart_or_a_second_instance_loses_nothing_and_doubles_nothing(engine: Engine) {
        let app = spawn_app(engine).await;
        let (_admin, issue) = published_issue(&app).await;
        let subscribers: i64 = 150;
        for i in 0..subscribers {
            app.services.outreach.notify(outreach::NotifyList::Magazine, &format!("reader{i:03}@example.org"), false).await.unwrap();
        }
        let db = app.services.db.clone();
        let instance = || {
            Arc::new(outreach::Announcements::new(
                outreach::announcement_store_for(&db),
                Arc::new(agora::PublishedIssues(app.services.magazines.clone(), app.services.packs.clone())),
                outreach::AnnouncementSettings {
                    site_url: "https://agora.test".into(),
                    site_name: "The Agora".into(),
                    per_minute: 600,
                },
                kernel::clock::system(),
            ))
        };
        let first = instance();
        let progress = first.announce(outreach::Announced::Issue(&issue), "admin").await.unwrap();
        assert_eq!(progress.total, subscribers);
        assert!(progress.queued < subscribers);
        // The first instance queues two batches, then "crashes".
        first.queue_due(25).await.unwrap();
        first.queue_due(25).await.unwrap();
        drop(first);
        // Restarted, and a second instance alongside: both run until everyone is queued.
        let (a, b) = (instance(), instance());
        let run = |i: Arc<outreach::Announcements>| async move {
            for _ in 0..30 {
                i.queue_due(20).await.unwrap();
            }
        };
        tokio::join!(run(a.clone()), run(b.clone()));
        let progress = a.announce(outreach::Announced::Issue(&issue), "admin").await.unwrap();
        assert_eq!((progress.queued, progress.total), (subscribers, subscribers));
        assert!(progress.finished);
        let count = |sql: &'static str| {
            let db = db.clone();
            async move {
                match &db {
                    kernel::Db::Sqlite(p) => sqlx::query_scalar::<_, i64>(sql).fetch_one(p).await.unwrap(),
                    kernel::Db::Postgres(p) => sqlx::query_scalar::<_, i64>(sql).fetch_one(p).await.unwrap(),
                }
            }
        };
        assert_eq!(count("SELECT COUNT(*) FROM outbox WHERE subject = 'New from The Agora: December 2026'").await, subscribers);
        assert_eq!(count("SELECT COUNT(DISTINCT recipients) FROM outbox WHERE subject = 'New from The Agora: December 2026'").await, subscribers);
        assert_eq!(count("SELECT COUNT(*) FROM outbox WHERE subject = 'New from The Agora: December 2026' AND priority = 1").await, subscribers);
        assert_eq!(count("SELECT COUNT(*) FROM announcement_deliveries").await, subscribers);
        app.shutdown().await;
    }
}

// Signup keeps its promise (issue 30): readers who tick "magazine" on the signup form are on
// the list once they confirm their address (not before), and get the next announcement over
// SMTP; a reader who ticked nothing gets none, and a digest tick starts the digest.
on_both_engines! {
    async fn a_reader_who_ticked_the_magazine_at_signup_gets_the_announcement(engine: Engine) {
        let port = free_port();
        let inbox = TempDir::new();
        let sink = Sink::start(port, &inbox.0);
        let app = spawn_app_with(engine, Options {
            smtp_url: Some(sink.url()),
            ..Options::default()
        }).await;
        let register = |email: &'static str, magazine: bool, digest: bool| {
            let app = &app;
            async move {
                let (status, body) = send(app, Method::POST, "/api/v1/accounts", None, json!({
                    "first_name": "Sam", "last_name": "Okoro", "email": email,
                    "password": "correct horse", "confirm_password": "correct horse",
                    "interests": ["Digital Politics"],
                    "notify_magazine": magazine, "weekly_digest": digest,
                })).await;
                assert_eq!(status, 200, "{body}");
            }
        };
        register("tick@example.org", true, true).await;
        register("none@example.org", false, false).await;
        register("late@example.org", true, false).await;
        let (admin, issue) = published_issue(&app).await;
        let path = format!("/api/v1/staff/magazines/{issue}/announcement");
        // Nobody is on the list before confirming.
        let (_, preview) = send(&app, Method::GET, &path, Some(&admin), json!(null)).await;
        assert_eq!(preview["recipients"], 0, "{preview}");

        let confirmations = wait_for(&inbox.0, 3, Duration::from_secs(15)).await;
        for who in ["tick@example.org", "none@example.org"] {
            let mail = confirmations.iter().map(|m| quoted_printable(m)).find(|m| m.contains(&format!("To: {who}"))).unwrap();
            let token = token_in(&mail, "https://agora.test/email/confirm?token=");
            assert_eq!(app.get(&format!("/email/confirm?token={token}")).await.status().as_u16(), 200);
        }
        let (_, preview) = send(&app, Method::GET, &path, Some(&admin), json!(null)).await;
        assert_eq!(preview["recipients"], 1, "only the confirmed reader who ticked it: {preview}");
        let (status, _) = send(&app, Method::POST, &path, Some(&admin), json!(null)).await;
        assert_eq!(status, 202);
        eventually("the announcement finished", Duration::from_secs(20), || async {
            let (_, p) = send(&app, Method::GET, &path, Some(&admin), json!(null)).await;
            p["progress"]["finished"] == true
        }).await;
        all_sent(&app).await;
        let mails = announcement_mails(&inbox.0);
        assert_eq!(mails.len(), 1);
        assert!(mails[0].contains("To: tick@example.org"), "{}", mails[0]);
        // Greeted by the first name on their account.
        let letter = common::mail::parts(&mails[0]);
        assert_eq!(letter.text.lines().next(), Some("Hi Sam!"), "{}", letter.text);
        assert!(letter.html.unwrap().contains(">Hi Sam!</p>"));

        // Their account says what they asked for.
        let (status, _, cookie) = {
            let r = app.request(Method::POST, "/api/v1/reader/session", None)
                .json(&json!({"email": "tick@example.org", "password": "correct horse"}))
                .send().await.unwrap();
            let cookie = r.headers().get("set-cookie").map(|c| c.to_str().unwrap().split(';').next().unwrap().to_string());
            (r.status().as_u16(), (), cookie)
        };
        assert_eq!(status, 200);
        let (_, account) = send(&app, Method::GET, "/api/v1/reader/account", cookie.as_deref(), json!(null)).await;
        assert_eq!(account["subscriptions"], json!({"magazine": true, "packs": false, "digest": true}), "{account}");
        app.shutdown().await;
        sink.stop();
    }
}
