//! Issue 9: queued email keeps its body (with its single-use links) only until delivery, given-up
//! messages lose theirs after a retention or when an operator discards them, and applicants'
//! documents are stored once.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::mail::{free_port, quoted_printable, token_in, wait_for, Sink};
use common::{fresh_database_url, spawn_app, spawn_app_with};
use common::{Options, TempDir, TestApp};
use kernel::outbox::{
    outbox_store_for, Attachment, Email, Mailer, Outbox, OutboxRow, OutboxSettings,
};
use kernel::storage::Storage;
use kernel::Db;
use reqwest::Method;
use serde_json::{json, Value};

// ---------------------------------------------------------------------------------------
// Helpers

/// Every text value of every column of every table, one per line.
async fn database_text(db: &Db) -> String {
    let mut out = String::new();
    match db {
        Db::Sqlite(pool) => {
            let tables: Vec<String> =
                sqlx::query_scalar("SELECT name FROM sqlite_master WHERE type = 'table'")
                    .fetch_all(pool)
                    .await
                    .unwrap();
            for t in tables {
                let columns: Vec<String> =
                    sqlx::query_scalar(&format!("SELECT name FROM pragma_table_info('{t}')"))
                        .fetch_all(pool)
                        .await
                        .unwrap();
                for c in columns {
                    let values: Vec<Option<Vec<u8>>> =
                        sqlx::query_scalar(&format!("SELECT CAST(\"{c}\" AS BLOB) FROM \"{t}\""))
                            .fetch_all(pool)
                            .await
                            .unwrap();
                    for v in values.into_iter().flatten() {
                        out.push_str(&String::from_utf8_lossy(&v));
                        out.push('\n');
                    }
                }
            }
        }
        Db::Postgres(pool) => {
            let columns: Vec<(String, String)> = sqlx::query_as(
                "SELECT c.table_name::text, c.column_name::text FROM information_schema.columns c \
                 JOIN information_schema.tables t ON t.table_schema = c.table_schema \
                 AND t.table_name = c.table_name \
                 WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'",
            )
            .fetch_all(pool)
            .await
            .unwrap();
            assert!(columns.len() > 20, "the schema was read");
            for (t, c) in columns {
                let values: Vec<Option<String>> =
                    sqlx::query_scalar(&format!("SELECT CAST(\"{c}\" AS TEXT) FROM \"{t}\""))
                        .fetch_all(pool)
                        .await
                        .unwrap();
                for v in values.into_iter().flatten() {
                    out.push_str(&v);
                    out.push('\n');
                }
            }
        }
    }
    out
}

/// The outbox once every message is delivered and done with: sent, and its attachments
/// removed, which happens just after it is marked sent (or after 20 s).
async fn settled(outbox: &Outbox, n: usize) -> Vec<OutboxRow> {
    let start = Instant::now();
    loop {
        let rows = outbox.list(50).await.unwrap();
        if (rows.len() >= n
            && rows
                .iter()
                .all(|r| r.status == "sent" && r.attachments == "[]"))
            || start.elapsed() > Duration::from_secs(20)
        {
            return rows;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn assert_metadata_only(row: &OutboxRow) {
    assert_eq!(row.status, "sent", "{row:?}");
    assert_eq!(row.body, "", "the body is gone after delivery: {row:?}");
    assert_eq!(row.html, None, "and its HTML: {row:?}");
    assert_eq!(row.attachments, "[]", "{row:?}");
    assert!(row.redacted_at.is_some(), "{row:?}");
    // What an operator needs stays.
    assert!(!row.id.is_empty());
    assert!(row.recipients.contains('@'), "{row:?}");
    assert!(!row.subject.is_empty(), "{row:?}");
    assert!(row.attempts >= 1, "{row:?}");
    assert!(row.sent_at.is_some(), "{row:?}");
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

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}

fn pdf_bytes() -> Vec<u8> {
    b"%PDF-1.4\n1 0 obj << /Type /Catalog /Note (issue-9 private cv) >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n".to_vec()
}

/// The MIME part of `message` attached as `filename`, decoded.
fn attachment(message: &str, filename: &str) -> Option<Vec<u8>> {
    use base64::Engine as _;
    let start = message.find(&format!("filename=\"{filename}\""))?;
    let rest = &message[start..];
    let body_start = rest.find("\r\n\r\n")? + 4;
    let body = &rest[body_start..];
    let end = body.find("\r\n--")?;
    let encoded: String = body[..end].split_whitespace().collect();
    base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .ok()
}

async fn apply_with_cv(app: &TestApp) {
    let mut form = reqwest::multipart::Form::new();
    for (k, v) in [
        ("full_name", "Ada Mensah"),
        ("age", "16"),
        ("country", "Ghana"),
        ("email", "ada@school.example.org"),
        ("time_zone", "Africa/Accra"),
        ("weekly_availability", "5"),
        ("english_level", "C1"),
        ("roles", "copy-editor"),
        ("why_join", "I want to learn how politics works."),
        ("contribution", "Careful copy edits."),
    ] {
        form = form.text(k, v);
    }
    form = form.part(
        "cv_file",
        reqwest::multipart::Part::bytes(pdf_bytes())
            .file_name("My CV.pdf")
            .mime_str("application/pdf")
            .unwrap(),
    );
    let r = app
        .request(Method::POST, "/api/v1/applications", None)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 201);
}

/// How many copies of the CV are stored under `dir`: as a file, or attached to a message.
fn copies_of_the_cv(dir: &Path) -> usize {
    walk(dir)
        .iter()
        .filter(|p| {
            let bytes = std::fs::read(p).unwrap_or_default();
            if bytes == pdf_bytes() {
                return true;
            }
            attachment(&String::from_utf8_lossy(&bytes), "My CV.pdf") == Some(pdf_bytes())
        })
        .count()
}

// ---------------------------------------------------------------------------------------
// Delivery removes the body

on_both_engines! {
    async fn delivered_mail_leaves_metadata_and_no_token_in_the_database(engine: Engine) {
        // The default transport: files under DATA_DIR/outbox.
        let app = spawn_app(engine).await;
        let (status, _) = post(
            &app,
            "/api/v1/accounts",
            json!({
                "first_name": "Sam", "last_name": "Okoro", "email": "sam@example.org",
                "password": "correct horse", "confirm_password": "correct horse",
                "age": 16, "country": "Nigeria", "interests": ["Human Rights"]
            }),
        )
        .await;
        assert_eq!(status, 200);
        let (status, _) = post(
            &app,
            "/api/v1/notify",
            json!({"email": "fan@example.org", "list": "packs"}),
        )
        .await;
        assert_eq!(status, 200);

        let sent = wait_for(&app.data_dir().join("outbox"), 2, Duration::from_secs(20)).await;
        assert_eq!(sent.len(), 2, "{engine:?}");
        let confirm = sent
            .iter()
            .find(|m| m.contains("To: sam@example.org"))
            .unwrap();
        let confirm_token = token_in(
            &quoted_printable(confirm),
            "/email/confirm?token=",
        );
        let notify = sent
            .iter()
            .find(|m| m.contains("To: fan@example.org"))
            .unwrap();
        let unsubscribe_token = token_in(
            &quoted_printable(notify),
            "/email/unsubscribe?token=",
        );

        let rows = settled(&app.services.outbox, 2).await;
        assert_eq!(rows.len(), 2, "{engine:?}");
        for row in &rows {
            assert_metadata_only(row);
        }
        let text = database_text(&app.services.db).await;
        assert!(
            text.contains("fan@example.org"),
            "the dump reads the tables"
        );
        for token in [&confirm_token, &unsubscribe_token] {
            assert!(
                !text.contains(token.as_str()),
                "{engine:?}: a delivered token is still in the database"
            );
        }

        // The links still work (on the site's pages, and at the API's older addresses):
        // only their hashes were ever needed.
        let r = app
            .get(&format!("/email/confirm?token={confirm_token}"))
            .await;
        assert_eq!(r.status().as_u16(), 200);
        assert!(r.text().await.unwrap().contains("Your email is confirmed"));
        let r = app
            .get(&format!(
                "/api/v1/notify/unsubscribe?token={unsubscribe_token}"
            ))
            .await;
        // The older address leads to the page, which asks before it acts.
        assert_eq!(r.status().as_u16(), 303);
        let to = r.headers()["location"].to_str().unwrap().to_string();
        assert_eq!(to, format!("/email/unsubscribe?token={unsubscribe_token}"));
        let r = app.get(&to).await;
        assert_eq!(r.status().as_u16(), 200);
        assert!(r.text().await.unwrap().contains("Unsubscribe?"), "the link is recognised");
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn during_an_smtp_outage_the_body_is_kept_until_delivery(engine: Engine) {
        let port = free_port();
        let inbox = TempDir::new();
        let app = spawn_app_with(
            engine,
            Options {
                smtp_url: Some(port.url()),
                ..Options::default()
            },
        )
        .await;
        let (status, _) = post(
            &app,
            "/api/v1/notify",
            json!({"email": "fan@example.org", "list": "magazine"}),
        )
        .await;
        assert_eq!(status, 200);
        // The SMTP server is down: the message waits, whole.
        let start = Instant::now();
        let waiting = loop {
            let rows = app.services.outbox.list(10).await.unwrap();
            if rows.iter().any(|r| r.attempts >= 1) || start.elapsed() > Duration::from_secs(10) {
                break rows;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        assert_eq!(waiting.len(), 1);
        let row = &waiting[0];
        assert_eq!(row.status, "pending", "{engine:?}: {row:?}");
        assert!(row.last_error.is_some());
        assert!(row.redacted_at.is_none());
        assert!(row.body.contains("/email/unsubscribe?token="));
        let token = token_in(&row.body, "/email/unsubscribe?token=");

        // It comes back: the message arrives with its link, and only then leaves the database.
        let sink = Sink::start(port, &inbox.0);
        let got = wait_for(&inbox.0, 1, Duration::from_secs(20)).await;
        let rows = settled(&app.services.outbox, 1).await;
        sink.stop();
        assert_eq!(got.len(), 1, "{engine:?}: delivered");
        assert!(
            quoted_printable(&got[0]).contains(&token),
            "the delivered link is the stored one"
        );
        assert_eq!(rows.len(), 1);
        assert_metadata_only(&rows[0]);
        assert!(
            !database_text(&app.services.db).await.contains(&token),
            "{engine:?}: the token left the database with the delivery"
        );
        app.shutdown().await;
    }
}

// ---------------------------------------------------------------------------------------
// Applicants' documents

on_both_engines! {
    async fn application_documents_are_stored_once_after_delivery(engine: Engine) {
        // Over SMTP, through an outage: the private copy is kept until the message leaves.
        let port = free_port();
        let inbox = TempDir::new();
        let app = spawn_app_with(
            engine,
            Options {
                smtp_url: Some(port.url()),
                ..Options::default()
            },
        )
        .await;
        apply_with_cv(&app).await;
        let private = app.data_dir().join("private");
        let start = Instant::now();
        while !app
            .services
            .outbox
            .list(10)
            .await
            .unwrap()
            .iter()
            .all(|r| r.attempts >= 1)
            && start.elapsed() < Duration::from_secs(10)
        {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(
            copies_of_the_cv(&private),
            1,
            "{engine:?}: kept for delivery"
        );
        let stored = walk(&private);
        let rel = stored[0].strip_prefix(&private).unwrap();
        let r = app.get(&format!("/media/{}", rel.display())).await;
        assert_eq!(r.status().as_u16(), 404, "never served");

        let sink = Sink::start(port, &inbox.0);
        let got = wait_for(&inbox.0, 2, Duration::from_secs(20)).await;
        let rows = settled(&app.services.outbox, 2).await;
        sink.stop();
        assert_eq!(got.len(), 2, "{engine:?}: team and applicant");
        let team = got
            .iter()
            .find(|m| m.contains("X-Envelope-To: applications@agora.invalid"))
            .unwrap();
        assert_eq!(attachment(team, "My CV.pdf"), Some(pdf_bytes()));
        for row in &rows {
            assert_metadata_only(row);
        }
        assert_eq!(
            copies_of_the_cv(&app.dir.0),
            0,
            "{engine:?}: after delivery the team's mailbox holds the only copy"
        );
        app.shutdown().await;

        // With the default transport the written message is the delivery: one copy at rest.
        let app = spawn_app(engine).await;
        apply_with_cv(&app).await;
        wait_for(&app.data_dir().join("outbox"), 2, Duration::from_secs(20)).await;
        let rows = settled(&app.services.outbox, 2).await;
        for row in &rows {
            assert_metadata_only(row);
        }
        assert!(walk(&app.data_dir().join("private")).is_empty());
        assert_eq!(
            copies_of_the_cv(&app.dir.0),
            1,
            "{engine:?}: the CV is stored once, in the delivered message"
        );
        app.shutdown().await;
    }
}

// ---------------------------------------------------------------------------------------
// Messages given up on: retention and discard

async fn queue(db: &Db, email: &Email) -> String {
    kernel::outbox::conformance::enqueue(db, email).await
}

fn outbox_with(db: &Db, private: &Path, retention: Duration) -> Outbox {
    Outbox::new(
        outbox_store_for(db),
        // Nothing listens there: every attempt fails.
        Mailer::smtp("smtp://127.0.0.1:9", "The Agora <no-reply@agora.invalid>").unwrap(),
        Arc::new(Storage::local(private, "").unwrap()),
        OutboxSettings {
            max_attempts: 1,
            failed_retention: retention,
            ..OutboxSettings::default()
        },
    )
}

fn agora(dir: &TempDir, database_url: &str, args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_agora"))
        .args(args)
        .env("DATABASE_URL", database_url)
        .env("DATA_DIR", dir.0.join("data"))
        .env("KEY_SECRET", "test-secret")
        .env_remove("SMTP_URL")
        .output()
        .unwrap();
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// A fresh, migrated database (its folder, URL and handle) and the folder of private files.
async fn database_and_private_files(engine: common::Engine) -> (TempDir, String, Db, PathBuf) {
    let dir = TempDir::new();
    let url = fresh_database_url(engine, &dir).await;
    let db = Db::connect(&url).await.unwrap();
    db.migrate().await.unwrap();
    let private = dir.0.join("data/private");
    (dir, url, db, private)
}

on_both_engines! {
    async fn given_up_mail_loses_its_body_after_the_retention_or_when_discarded(engine: Engine) {
        let (dir, url, db, private) = database_and_private_files(engine).await;
        let files = Storage::local(&private, "").unwrap();
        let mut ids = Vec::new();
        for name in ["a", "b"] {
            let key = format!("applications/{name}/cv.pdf");
            files.put(&key, &pdf_bytes()).await.unwrap();
            ids.push(
                queue(
                    &db,
                    &Email {
                        to: vec![format!("{name}@example.org")],
                        reply_to: None,
                        subject: format!("Message {name}"),
                        body: format!("secret link for {name}: https://agora.test/?token=tok-{name}-0123456789abcdef"),
                        html: Some(format!("<a href=\"https://agora.test/?token=tok-{name}-0123456789abcdef\">secret</a>")),
                        attachments: vec![Attachment {
                            filename: "cv.pdf".into(),
                            content_type: "application/pdf".into(),
                            storage_key: key,
                        }],
                        list_unsubscribe: None,
                    },
                )
                .await,
            );
        }
        let week = outbox_with(&db, &private, Duration::from_secs(7 * 24 * 3600));
        let report = week.deliver_due().await.unwrap();
        assert_eq!(report.gave_up, 2, "{engine:?}: {report:?}");
        // Given up, but within the retention: kept whole, so an operator can retry.
        assert_eq!(week.purge().await.unwrap(), 0);
        let rows = week.list(10).await.unwrap();
        assert!(rows.iter().all(|r| r.status == "failed"
            && r.body.contains("secret link")
            && r.html.as_deref().is_some_and(|h| h.contains("tok-"))
            && r.redacted_at.is_none()));
        assert_eq!(walk(&private).len(), 2);

        // An operator discards the first one: body and file go, metadata stays.
        let (ok, out) = agora(&dir, &url, &["outbox", "discard", &ids[0]]);
        assert!(ok, "{engine:?}: {out}");
        let (ok, out) = agora(&dir, &url, &["outbox", "retry", &ids[0]]);
        assert!(!ok, "a discarded message cannot be retried: {out}");
        let (ok, out) = agora(&dir, &url, &["outbox", "discard", &ids[0]]);
        assert!(!ok, "nor discarded twice: {out}");
        let a = week
            .list(10)
            .await
            .unwrap()
            .into_iter()
            .find(|r| r.id == ids[0])
            .unwrap();
        assert_eq!((a.status.as_str(), a.body.as_str(), a.html.as_deref()), ("failed", "", None));
        assert_eq!(a.attachments, "[]");
        assert!(a.redacted_at.is_some());
        assert!(a
            .last_error
            .as_deref()
            .unwrap()
            .starts_with("discarded by an operator; last error: "));
        assert_eq!(a.subject, "Message a");
        assert!(!private.join("applications/a/cv.pdf").exists());
        assert!(private.join("applications/b/cv.pdf").exists());

        // Past the retention the other one is still kept, with its documents: they never
        // reached the team, and only an operator decides (and is told: /metrics).
        let expired = outbox_with(&db, &private, Duration::ZERO);
        assert_eq!(expired.purge().await.unwrap(), 0, "{engine:?}");
        assert!(private.join("applications/b/cv.pdf").exists());
        assert_eq!(expired.given_up().await.unwrap(), 1);
        let (ok, out) = agora(&dir, &url, &["outbox", "discard", &ids[1]]);
        assert!(ok, "{engine:?}: {out}");
        assert_eq!(expired.given_up().await.unwrap(), 0);
        let rows = expired.list(10).await.unwrap();
        for r in &rows {
            assert_eq!(r.body, "", "{r:?}");
            assert_eq!(r.attachments, "[]");
            assert_eq!(r.status, "failed");
            assert!(r.redacted_at.is_some() && r.last_error.is_some());
        }
        assert!(walk(&private).is_empty(), "{:?}", walk(&private));
        let text = database_text(&db).await;
        assert!(!text.contains("secret link") && !text.contains("tok-"));
        // Nothing is sent with an empty body.
        assert_eq!(expired.deliver_due().await.unwrap().sent, 0);
        let (ok, out) = agora(&dir, &url, &["outbox", "list"]);
        assert!(ok, "{out}");
        assert_eq!(out.matches(" gone ").count(), 2, "{out}");
        db.close().await;
    }
}

/// An SMTP server that refuses every message for good at the end of its data (552, as a relay
/// answers a message over its size limit); counts the messages offered to it.
async fn refusing_smtp() -> (u16, Arc<std::sync::atomic::AtomicUsize>) {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let offered = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = offered.clone();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let counter = counter.clone();
            tokio::spawn(async move {
                let (read, mut write) = socket.into_split();
                let mut lines = tokio::io::BufReader::new(read).lines();
                let _ = write.write_all(b"220 refusing ESMTP\r\n").await;
                let mut in_data = false;
                while let Ok(Some(line)) = lines.next_line().await {
                    let answer: &[u8] = if in_data {
                        if line != "." {
                            continue;
                        }
                        in_data = false;
                        counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        b"552 5.3.4 Message size exceeds fixed maximum message size\r\n"
                    } else {
                        match line
                            .get(..4)
                            .unwrap_or_default()
                            .to_ascii_uppercase()
                            .as_str()
                        {
                            "DATA" => {
                                in_data = true;
                                b"354 go ahead\r\n"
                            }
                            "QUIT" => {
                                let _ = write.write_all(b"221 bye\r\n").await;
                                break;
                            }
                            _ => b"250 ok\r\n",
                        }
                    };
                    if write.write_all(answer).await.is_err() {
                        break;
                    }
                }
            });
        }
    });
    (port, offered)
}

on_both_engines! {
    async fn a_permanent_refusal_is_final_at_once_and_the_documents_wait_for_an_operator(engine: Engine) {
        let (dir, url, db, private) = database_and_private_files(engine).await;
        let files = Storage::local(&private, "").unwrap();
        let key = "applications/big/cv.pdf".to_string();
        files.put(&key, &pdf_bytes()).await.unwrap();
        let id = queue(
            &db,
            &Email {
                to: vec!["team@agora.test".into()],
                reply_to: None,
                subject: "Application".into(),
                body: "An application.".into(),
                html: None,
                attachments: vec![Attachment {
                    filename: "cv.pdf".into(),
                    content_type: "application/pdf".into(),
                    storage_key: key,
                }],
                list_unsubscribe: None,
            },
        )
        .await;
        let (port, offered) = refusing_smtp().await;
        let outbox = Outbox::new(
            outbox_store_for(&db),
            Mailer::smtp(&format!("smtp://127.0.0.1:{port}"), "The Agora <no-reply@agora.invalid>").unwrap(),
            Arc::new(Storage::local(&private, "").unwrap()),
            OutboxSettings { failed_retention: Duration::ZERO, ..OutboxSettings::default() },
        );
        let report = outbox.deliver_due().await.unwrap();
        assert_eq!((report.sent, report.retrying, report.gave_up), (0, 0, 1), "{engine:?}");
        let row = outbox.list(10).await.unwrap().into_iter().find(|r| r.id == id).unwrap();
        assert_eq!((row.status.as_str(), row.attempts), ("failed", 1));
        assert!(row.last_error.as_deref().unwrap_or_default().contains("552"), "{row:?}");
        // Never offered again, and kept whole past the retention until an operator decides.
        let later = outbox.deliver_due().await.unwrap();
        assert_eq!(later.sent + later.retrying + later.gave_up, 0);
        assert_eq!(offered.load(std::sync::atomic::Ordering::SeqCst), 1);
        assert_eq!(outbox.purge().await.unwrap(), 0);
        assert_eq!(walk(&private).len(), 1, "the applicant's document is kept");
        assert_eq!(outbox.given_up().await.unwrap(), 1);
        let (ok, out) = agora(&dir, &url, &["outbox", "retry", &id]);
        assert!(ok, "{engine:?}: {out}");
        assert_eq!(outbox.given_up().await.unwrap(), 0, "back in line");
        db.close().await;
    }
}
