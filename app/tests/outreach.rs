//! Notify-me signups, contact messages and durable email through a real SMTP server.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{engines, repo_root, spawn_app, spawn_app_with, Engine, Options, TempDir, TestApp};
use outreach::NotifyList;
use reqwest::Method;
use serde_json::{json, Value};

/// The SMTP sink (aiosmtpd) on a fixed port, storing messages as files.
struct Sink {
    child: Child,
}

impl Sink {
    fn start(port: u16, dir: &PathBuf) -> Sink {
        let mut child = Command::new("/usr/bin/python3")
            .arg(repo_root().join("scripts/smtp-sink.py"))
            .arg(port.to_string())
            .arg(dir)
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 with aiosmtpd (Debian: python3-aiosmtpd)");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(line.trim(), "ready");
        Sink { child }
    }

    fn stop(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind(("127.0.0.1", 0))
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn messages(dir: &PathBuf) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
                .map(|e| std::fs::read_to_string(e.path()).unwrap())
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

async fn wait_for(dir: &PathBuf, n: usize, within: Duration) -> Vec<String> {
    let start = Instant::now();
    loop {
        let m = messages(dir);
        if m.len() >= n || start.elapsed() > within {
            return m;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn post(app: &TestApp, path: &str, body: Value) -> (u16, Value) {
    let r = app
        .request(Method::POST, path, None)
        .json(&body)
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap())
}

fn contact(over: Value) -> Value {
    let mut base = json!({
        "first_name": "Ana", "last_name": "Lima", "email": "ana@school.example.org",
        "subject": "Packs for my class", "inquiry_type": "education",
        "message": "Could we pilot the packs?"
    });
    for (k, v) in over.as_object().unwrap() {
        base[k] = v.clone();
    }
    base
}

#[tokio::test]
async fn notify_signups_validate_dedupe_and_unsubscribe() {
    for engine in engines() {
        let app = spawn_app(engine).await;
        let (status, b) = post(
            &app,
            "/api/v1/notify",
            json!({"email": "  ", "list": "magazine"}),
        )
        .await;
        assert_eq!(status, 400);
        assert_eq!(
            (b["title"].as_str(), b["message"].as_str()),
            (
                Some("Email required"),
                Some("Please enter your email address.")
            )
        );
        let (status, b) = post(
            &app,
            "/api/v1/notify",
            json!({"email": "not-an-email", "list": "packs"}),
        )
        .await;
        assert_eq!(
            (status, b["message"].as_str()),
            (400, Some("Please enter a valid email address."))
        );
        for _ in 0..2 {
            let (status, b) = post(
                &app,
                "/api/v1/notify",
                json!({"email": "Reader@Example.org", "list": "magazine"}),
            )
            .await;
            assert_eq!(status, 200, "signing up twice is a success");
            assert_eq!(
                b["message"],
                "Thanks! You'll be the first to know when it's live."
            );
        }
        let queued = app.services.outbox.list(10).await.unwrap();
        assert_eq!(queued.len(), 1, "one confirmation for one signup");
        assert!(queued[0].recipients.contains("reader@example.org"));
        assert!(app
            .services
            .outreach
            .is_subscribed(NotifyList::Magazine, "reader@example.org")
            .await
            .unwrap());
        assert!(!app
            .services
            .outreach
            .is_subscribed(NotifyList::Packs, "reader@example.org")
            .await
            .unwrap());
        // The link in the email unsubscribes, once or twice.
        let body = &queued[0].body;
        let link = body
            .lines()
            .find(|l| l.contains("/unsubscribe?token="))
            .unwrap();
        let path = link.trim().trim_start_matches("https://agora.test");
        for _ in 0..2 {
            let r = app.get(path).await;
            assert_eq!(r.status().as_u16(), 200);
            assert!(r.text().await.unwrap().contains("You're unsubscribed"));
        }
        assert!(!app
            .services
            .outreach
            .is_subscribed(NotifyList::Magazine, "reader@example.org")
            .await
            .unwrap());
        assert_eq!(
            app.get("/api/v1/notify/unsubscribe?token=bogus")
                .await
                .status()
                .as_u16(),
            404
        );
        // The honeypot: accepted politely, nothing stored.
        let (status, _) = post(
            &app,
            "/api/v1/notify",
            json!({"email": "bot@spam.example", "list": "packs", "website": "x"}),
        )
        .await;
        assert_eq!(status, 200);
        assert!(!app
            .services
            .outreach
            .is_subscribed(NotifyList::Packs, "bot@spam.example")
            .await
            .unwrap());
        app.shutdown().await;
    }
}

#[tokio::test]
async fn contact_rules_in_order_with_the_products_messages() {
    let app = spawn_app(Engine::Sqlite).await;
    for (over, title, message) in [
        (
            json!({"first_name": ""}),
            "Missing Information",
            "Please fill in all required fields.",
        ),
        (
            json!({"inquiry_type": null}),
            "Missing Information",
            "Please fill in all required fields.",
        ),
        (
            json!({"message": "   "}),
            "Missing Information",
            "Please fill in all required fields.",
        ),
        (
            json!({"email": "ana@school"}),
            "Invalid Email",
            "Please enter a valid email address.",
        ),
        (
            json!({"first_name": "", "email": "bad"}),
            "Missing Information",
            "Please fill in all required fields.",
        ),
        (
            json!({"message": "x".repeat(5001)}),
            "Too Long",
            "The message must be at most 5000 characters.",
        ),
    ] {
        let (status, b) = post(&app, "/api/v1/contact", contact(over.clone())).await;
        assert_eq!(status, 400, "{over}");
        assert_eq!(
            (b["title"].as_str(), b["message"].as_str()),
            (Some(title), Some(message)),
            "{over}"
        );
    }
    let (status, b) = post(&app, "/api/v1/contact", json!({"inquiry_type": "sales"})).await;
    assert_eq!(status, 400, "unknown inquiry type: {b}");
    let (status, b) = post(&app, "/api/v1/contact", contact(json!({}))).await;
    assert_eq!(status, 200);
    assert_eq!(
        b["message"],
        "Thank you for your message. We'll get back to you within 24-48 hours."
    );
    app.shutdown().await;
}

#[tokio::test]
async fn an_smtp_outage_only_delays_mail_and_nothing_is_lost_or_doubled() {
    let port = free_port();
    let inbox = TempDir::new();
    let app = spawn_app_with(
        Engine::Sqlite,
        Options {
            smtp_url: Some(format!("smtp://127.0.0.1:{port}")),
            ..Options::default()
        },
    )
    .await;
    // The SMTP server is down while visitors submit.
    let (s1, _) = post(&app, "/api/v1/contact", contact(json!({}))).await;
    let (s2, _) = post(
        &app,
        "/api/v1/contact",
        contact(json!({"inquiry_type": "general", "subject": "Hello team"})),
    )
    .await;
    let (s3, _) = post(
        &app,
        "/api/v1/notify",
        json!({"email": "fan@example.org", "list": "packs"}),
    )
    .await;
    assert_eq!((s1, s2, s3), (200, 200, 200));
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let pending = app.services.outbox.list(10).await.unwrap();
    assert_eq!(pending.len(), 3);
    assert!(pending
        .iter()
        .all(|m| m.status == "pending" && m.attempts >= 1 && m.last_error.is_some()));

    // It comes back: every message arrives exactly once.
    let sink = Sink::start(port, &inbox.0);
    let got = wait_for(&inbox.0, 3, Duration::from_secs(20)).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let got_later = messages(&inbox.0);
    sink.stop();
    let state = app.services.outbox.list(10).await.unwrap();
    assert_eq!(got.len(), 3, "all three delivered: {state:?}");
    assert_eq!(got_later.len(), 3, "and none twice");
    let education = got
        .iter()
        .find(|m| m.contains("[Contact: education]"))
        .unwrap();
    assert!(education.contains("X-Envelope-To: education@agora.invalid"));
    assert!(education.contains("Reply-To: ana@school.example.org"));
    assert!(education.contains("Could we pilot the packs?"));
    let general = got.iter().find(|m| m.contains("Hello team")).unwrap();
    assert!(general.contains("X-Envelope-To: hello@agora.invalid"));
    let notify = got
        .iter()
        .find(|m| m.contains("X-Envelope-To: fan@example.org"))
        .unwrap();
    assert!(notify.contains("unsubscribe?token="));
    assert!(app
        .services
        .outbox
        .list(10)
        .await
        .unwrap()
        .iter()
        .all(|m| m.status == "sent"));
    app.shutdown().await;
}
