//! Notify-me signups, contact messages and durable email through a real SMTP server.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::mail::{free_port, messages, quoted_printable, wait_for, Sink};
use common::{eventually, spawn_app, spawn_app_with, Engine, Options, TempDir, TestApp};
use identity::Role;
use outreach::NotifyList;
use reqwest::Method;
use serde_json::{json, Value};

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

on_both_engines! {
    async fn notify_signups_validate_dedupe_and_unsubscribe(engine: Engine) {
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
        // Opening the link in the email (a mail scanner does) changes nothing: the page names
        // the list and asks for one press.
        let body = &queued[0].body;
        let link = body
            .lines()
            .find(|l| l.contains("/unsubscribe?token="))
            .unwrap();
        let path = link.trim().trim_start_matches("https://agora.test");
        let token = path.split("token=").nth(1).unwrap().to_string();
        for _ in 0..2 {
            let r = app.get(path).await;
            assert_eq!(r.status().as_u16(), 200);
            let page = r.text().await.unwrap();
            assert!(page.contains("Unsubscribe?"), "{page}");
            assert!(page.contains("the magazine"), "names the list");
        }
        let subscribed = || async {
            app.services
                .outreach
                .is_subscribed(NotifyList::Magazine, "reader@example.org")
                .await
                .unwrap()
        };
        assert!(subscribed().await, "opening a link unsubscribes nobody");
        // The press unsubscribes (twice is fine); the page then offers to resubscribe.
        for _ in 0..2 {
            let (status, done) = post(&app, "/api/v1/email/unsubscribe", json!({ "token": token })).await;
            assert_eq!(status, 200, "{done}");
            assert!(done["message"].as_str().unwrap().contains("unsubscribed"));
        }
        assert!(!subscribed().await);
        let page = app.get(path).await.text().await.unwrap();
        assert!(page.contains("You&#x27;re unsubscribed") || page.contains("You're unsubscribed"), "{page}");
        assert!(page.contains("Resubscribe"));
        // Resubscribe undoes it.
        let (status, _) = post(&app, "/api/v1/email/resubscribe", json!({ "token": token })).await;
        assert_eq!(status, 200);
        assert!(subscribed().await, "back on the list");
        let (status, body) = post(&app, "/api/v1/email/unsubscribe", json!({ "token": "made-up" })).await;
        assert_eq!((status, body["code"].as_str()), (404, Some("not_found")), "{body}");
        // Then unsubscribed for the rest of this test.
        post(&app, "/api/v1/email/unsubscribe", json!({ "token": token })).await;
        assert!(!subscribed().await);
        // The older link address leads to the page, which says an unknown link is unknown.
        let r = app.get("/api/v1/notify/unsubscribe?token=bogus").await;
        assert_eq!(r.status().as_u16(), 303);
        assert_eq!(r.headers()["location"], "/email/unsubscribe?token=bogus");
        assert_eq!(app.get("/email/unsubscribe?token=bogus").await.status().as_u16(), 404);
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
        // ...but only what a person could send: a bad address is refused as anyone's is
        // (the contract's rules hold for every request).
        let (status, b) = post(
            &app,
            "/api/v1/notify",
            json!({"email": "not an address", "list": "packs", "website": "x"}),
        )
        .await;
        assert_eq!((status, b["code"].as_str()), (400, Some("invalid_email")), "{b}");
        // A member the contract does not name is refused, not dropped (a misspelt field
        // would otherwise read as left out).
        let (status, b) = post(
            &app,
            "/api/v1/notify",
            json!({"email": "ana@example.org", "list": "packs", "lists": ["magazine"]}),
        )
        .await;
        assert_eq!(status, 400, "{b}");
        assert!(b["message"].as_str().is_some_and(|m| m.contains("lists")), "{b}");
        // A member that may be left out may also be null.
        let (status, _) = post(
            &app,
            "/api/v1/notify",
            json!({"email": "ana@example.org", "list": "packs", "website": null}),
        )
        .await;
        assert_eq!(status, 200);
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn contact_rules_in_order_with_the_products_messages(engine: Engine) {
        let app = spawn_app(engine).await;
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
}

on_both_engines! {
    async fn an_smtp_outage_only_delays_mail_and_nothing_is_lost_or_doubled(engine: Engine) {
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
        let outbox = &app.services.outbox;
        eventually("every message tried once", Duration::from_secs(10), || async {
            let rows = outbox.list(10).await.unwrap();
            rows.len() == 3 && rows.iter().all(|m| m.attempts >= 1)
        })
        .await;
        let pending = app.services.outbox.list(10).await.unwrap();
        assert_eq!(pending.len(), 3);
        assert!(pending
            .iter()
            .all(|m| m.status == "pending" && m.attempts >= 1 && m.last_error.is_some()));

        // It comes back: every message arrives exactly once.
        let sink = Sink::start(port, &inbox.0);
        let got = wait_for(&inbox.0, 3, Duration::from_secs(20)).await;
        eventually("every message marked sent", Duration::from_secs(10), || async {
            let rows = outbox.list(10).await.unwrap();
            rows.iter().all(|m| m.status == "sent")
        })
        .await;
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
        // The plural agrees with the list's name.
        let text = quoted_printable(notify);
        assert!(
            text.contains("the educational packs from") && text.contains(" are live."),
            "{text}"
        );
        // A list email carries the one-click unsubscribe headers (RFC 2369, RFC 8058); the
        // team's mail does not.
        // The header section, long lines unfolded (RFC 5322 §2.2.3).
        let headers = notify
            .split("\r\n\r\n")
            .next()
            .unwrap()
            .replace("\r\n ", " ")
            .replace("\r\n\t", " ");
        let header = headers
            .lines()
            .find_map(|l| l.strip_prefix("List-Unsubscribe: <"))
            .expect("a List-Unsubscribe header");
        let url: String = header
            .trim_end()
            .trim_end_matches('>')
            .split_whitespace()
            .collect();
        let url = url.as_str();
        assert!(url.starts_with("https://agora.test/api/v1/notify/unsubscribe?token="), "{url}");
        assert!(headers.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"));
        assert!(!general.contains("List-Unsubscribe"));
        // The mail client's button: a POST of `List-Unsubscribe=One-Click`, form-encoded,
        // from no page of ours (no Origin, no cookie).
        let r = app
            .request(Method::POST, url.trim_start_matches("https://agora.test"), None)
            .header("content-type", "application/x-www-form-urlencoded")
            .body("List-Unsubscribe=One-Click")
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 200);
        assert!(!app
            .services
            .outreach
            .is_subscribed(NotifyList::Packs, "fan@example.org")
            .await
            .unwrap());
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
}

// ---------------------------------------------------------------------------------------
// Contributor applications

fn pdf_bytes() -> Vec<u8> {
    b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n".to_vec()
}

/// A zip whose first entry is `word/document.xml`, as Word writes a .docx.
fn docx_bytes() -> Vec<u8> {
    let (name, data) = (b"word/document.xml", b"<w:document/>");
    let mut out = b"PK\x03\x04".to_vec();
    out.extend_from_slice(&[20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out.extend_from_slice(&(name.len() as u16).to_le_bytes());
    out.extend_from_slice(&[0, 0]);
    out.extend_from_slice(name);
    out.extend_from_slice(data);
    out
}

/// The text fields of a complete application for a copy editor, with `over` applied
/// (`null` removes a field; an array sends one part per item).
fn application(over: Value) -> reqwest::multipart::Form {
    let mut base = json!({
        "full_name": "Ada Mensah", "age": "16", "country": "Ghana",
        "email": "ada@school.example.org", "time_zone": "Africa/Accra",
        "weekly_availability": "5", "english_level": "C1", "roles": ["copy-editor"],
        "how_did_you_hear": "A teacher", "why_join": "I want to learn how politics works.",
        "contribution": "Careful copy edits."
    });
    for (k, v) in over.as_object().unwrap() {
        base[k] = v.clone();
    }
    let mut form = reqwest::multipart::Form::new();
    for (k, v) in base.as_object().unwrap() {
        match v {
            Value::Null => {}
            Value::Array(items) => {
                for item in items {
                    form = form.text(k.clone(), item.as_str().unwrap().to_string());
                }
            }
            other => form = form.text(k.clone(), other.as_str().unwrap().to_string()),
        }
    }
    form
}

fn file(
    form: reqwest::multipart::Form,
    field: &str,
    name: &str,
    bytes: Vec<u8>,
) -> reqwest::multipart::Form {
    form.part(
        field.to_string(),
        reqwest::multipart::Part::bytes(bytes)
            .file_name(name.to_string())
            .mime_str("application/octet-stream")
            .unwrap(),
    )
}

async fn apply(app: &TestApp, form: reqwest::multipart::Form) -> (u16, Value) {
    let r = app
        .request(Method::POST, "/api/v1/applications", None)
        .multipart(form)
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap())
}

fn titled(body: &Value) -> (&str, &str) {
    (
        body["title"].as_str().unwrap_or_default(),
        body["message"].as_str().unwrap_or_default(),
    )
}

on_both_engines! {
    async fn application_rules_in_the_products_order_and_documents_checked_by_content(engine: Engine) {
        let app = spawn_app(engine).await;
        let cases: Vec<(reqwest::multipart::Form, &str, &str)> = vec![
            (
                application(json!({"country": "  "})),
                "Missing Information",
                "Please fill in all required fields.",
            ),
            (
                application(json!({"age": "13", "roles": []})),
                "Age Requirement",
                "You must be at least 14 years old to apply.",
            ),
            (
                application(json!({"roles": []})),
                "Role Required",
                "Please select at least one role you're applying for.",
            ),
            (
                application(json!({"roles": ["graphic-designer", "editorial-writer"]})),
                "Portfolio Required",
                "Portfolio is required when applying for Graphic Designer or Design Director role.",
            ),
            (
                application(json!({"roles": ["design-director", "educational-pack-developer"],
                                   "portfolio": "https://ada.example/work"})),
                "Writing Samples Required",
                "Writing samples are required when applying for Editorial Writer or Educational Pack Developer role.",
            ),
            (
                application(json!({"contribution": null})),
                "Missing Information",
                "Please answer all required questions.",
            ),
            (
                application(json!({"email": "ada at school"})),
                "Invalid Email",
                "Please enter a valid email address.",
            ),
            (
                application(json!({"weekly_availability": "0"})),
                "Weekly Availability",
                "Weekly availability must be between 1 and 168 hours.",
            ),
            (
                application(json!({"roles": ["copy-editor", "admin"]})),
                "Role Required",
                "Please choose roles from the list.",
            ),
            (
                file(
                    application(json!({"roles": ["editorial-writer"], "writing_samples": "https://ada.example/a"})),
                    "writing_samples_file",
                    "a.pdf",
                    pdf_bytes(),
                ),
                "Link or File",
                "Please give either a link or a file for your writing samples, not both.",
            ),
            (
                file(application(json!({})), "cv_file", "cv.pdf", b"just some text".to_vec()),
                "Unsupported File",
                "Your CV must be a PDF, DOC or DOCX file.",
            ),
            (
                // A real PDF behind a .docx name is refused too: name and content must agree.
                file(application(json!({})), "cv_file", "cv.docx", pdf_bytes()),
                "Unsupported File",
                "Your CV must be a PDF, DOC or DOCX file.",
            ),
            (
                file(application(json!({})), "cv_file", "cv.exe", pdf_bytes()),
                "Unsupported File",
                "Your CV must be a PDF, DOC or DOCX file.",
            ),
            (
                file(application(json!({})), "cv_file", "cv.pdf", Vec::new()),
                "Empty File",
                "Your CV file is empty. Please choose the file again.",
            ),
        ];
        for (form, title, message) in cases {
            let (status, body) = apply(&app, form).await;
            // A field breaking its rule is a 400; fields that disagree, or an empty file, a 422;
            // a document of another kind a 415.
            let expected = match title {
                "Portfolio Required" | "Writing Samples Required" | "Link or File" | "Empty File" => 422,
                "Unsupported File" => 415,
                _ => 400,
            };
            assert_eq!(status, expected, "{title}: {body}");
            assert_eq!(titled(&body), (title, message), "{body}");
        }

        // Over 10 MB: refused with 413 and a clear message, nothing stored.
        let mut big = pdf_bytes();
        big.resize(10 * 1024 * 1024 + 1, b' ');
        let (status, body) =
            apply(&app, file(application(json!({})), "cv_file", "cv.pdf", big)).await;
        assert_eq!(status, 413, "{body}");
        assert_eq!(titled(&body).0, "File Too Large");
        assert!(titled(&body).1.contains("10 MB"), "{body}");

        // A body far over what four documents need is refused before it is read.
        let r = app
            .request(Method::POST, "/api/v1/applications", None)
            .header("content-type", "multipart/form-data; boundary=x")
            .header("content-length", (60u64 * 1024 * 1024).to_string())
            .body("--x--")
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 413);
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["code"], "payload_too_large");

        // Nothing refused reached the team (the outbox is written with the data, so there
        // is nothing to wait for).
        assert!(app.services.outbox.list(10).await.unwrap().is_empty());
        app.shutdown().await;
    }
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

on_both_engines! {
    async fn an_application_is_stored_and_emailed_with_its_files_over_smtp(engine: Engine) {
        let port = free_port();
        let inbox = TempDir::new();
        let sink = Sink::start(port, &inbox.0);
        let app = spawn_app_with(
            engine,
            Options {
                smtp_url: Some(sink.url()),
                ..Options::default()
            },
        )
        .await;
        let form = application(json!({
            "roles": ["editorial-writer", "graphic-designer"],
            "portfolio": "https://ada.example/portfolio",
            "additional": "I also speak Twi."
        }));
        let form = file(form, "cv_file", "../../My CV.pdf", pdf_bytes());
        let form = file(form, "writing_samples_file", "samples.docx", docx_bytes());
        let (status, body) = apply(&app, form).await;
        assert_eq!(status, 201, "{engine:?}: {body}");
        assert_eq!(body["attachments"], 2);
        assert_eq!(
            body["message"],
            "Thank you for your interest. We'll review your application and contact you soon."
        );

        let got = wait_for(&inbox.0, 2, Duration::from_secs(20)).await;
        sink.stop();
        assert_eq!(got.len(), 2, "{engine:?}: team and applicant");
        let team = got
            .iter()
            .find(|m| m.contains("X-Envelope-To: applications@agora.invalid"))
            .expect("the team's copy");
        assert!(
            team.contains("Subject: [Application] Ada Mensah: Editorial Writer, Graphic Designer")
        );
        assert!(team.contains("Reply-To: ada@school.example.org"));
        for needle in [
            "Country: Ghana",
            "English level: C1",
            "https://ada.example/portfolio",
            "I also speak Twi.",
        ] {
            assert!(team.contains(needle), "{needle} in {team}");
        }
        // The attachments are the files sent, under safe names.
        assert_eq!(attachment(team, "My CV.pdf"), Some(pdf_bytes()));
        assert_eq!(attachment(team, "samples.docx"), Some(docx_bytes()));
        assert!(!team.contains("../"));
        let applicant = got
            .iter()
            .find(|m| m.contains("X-Envelope-To: ada@school.example.org"))
            .expect("the applicant's acknowledgement");
        assert!(applicant.contains("We've got your application"));

        // The documents were kept privately only until delivery: the delivered message is
        // now their only copy (never served under /media: see hardening_outbox.rs).
        let start = Instant::now();
        while !walk(&app.dir.0.join("data/private")).is_empty()
            && start.elapsed() < Duration::from_secs(10)
        {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let stored: Vec<_> = walk(&app.dir.0.join("data/private"));
        assert!(stored.is_empty(), "{stored:?}");
        app.shutdown().await;
    }
}

/// A PDF of `mb` megabytes (a comment pads it).
fn big_pdf(mb: usize) -> Vec<u8> {
    let mut bytes = b"%PDF-1.4\n%".to_vec();
    bytes.resize(mb * 1024 * 1024, b'a');
    bytes.extend_from_slice(b"\ntrailer << >>\n%%EOF\n");
    bytes
}

/// The staff download links in `message`: each leads through the sign-in page (`next`), as
/// the path it downloads.
fn document_links(message: &str) -> Vec<String> {
    let text = quoted_printable(message);
    text.match_indices("https://agora.test/key-login?next=")
        .map(|(i, _)| {
            let link: String = text[i..]
                .chars()
                .take_while(|c| !c.is_whitespace())
                .collect();
            let url = reqwest::Url::parse(&link).unwrap();
            let next = url.query_pairs().find(|(k, _)| k == "next").unwrap().1;
            assert!(next.starts_with("/api/v1/staff/applications/"), "{next}");
            next.into_owned()
        })
        .collect()
}

async fn download(app: &TestApp, path: &str, cookie: Option<&str>) -> reqwest::Response {
    app.request(Method::GET, path, cookie).send().await.unwrap()
}

on_both_engines! {
    async fn documents_too_large_to_attach_are_linked_for_staff_and_deleted_when_links_expire(
        engine: Engine
    ) {
        let clock = std::sync::Arc::new(kernel::clock::ManualClock::new());
        let app = spawn_app_with(
            engine,
            Options { clock: Some(clock.clone()), ..Options::default() },
        )
        .await;
        // 12 MB of documents: over the 10 MB a message may carry.
        let form = file(application(json!({})), "cv_file", "cv.pdf", big_pdf(6));
        let form = file(form, "portfolio_file", "Portfolio 2026.pdf", big_pdf(6));
        let (status, body) = apply(&app, form).await;
        assert_eq!(status, 201, "{engine:?}: {body}");

        let mail = mail_to(&app, "applications@agora.invalid", 2).await;
        let team = mail
            .iter()
            .find(|m| m.contains("Subject: [Application]"))
            .expect("the team's email");
        // Nothing attached: the email stays small, and names and links each document.
        assert!(team.len() < 100_000, "{} bytes", team.len());
        assert_eq!(attachment(team, "cv.pdf"), None);
        let text = quoted_printable(team);
        assert!(text.contains("too large to attach"), "{text}");
        assert!(text.contains("cv.pdf (CV, 6.0 MB)"), "{text}");
        assert!(text.contains("Portfolio 2026.pdf (portfolio, 6.0 MB)"), "{text}");
        let links = document_links(team);
        assert_eq!(links.len(), 2, "{text}");
        let cv = links.iter().find(|l| l.contains("/documents/cv?")).unwrap().clone();

        let ids = &app.services.identity;
        let admin = app.login(&ids.add_staff("Ada Admin", Role::Admin).await.unwrap().1).await;
        let director = app
            .login(&ids.add_staff("Cole Director", Role::ContentDirector).await.unwrap().1)
            .await;
        let writer = app.login(&ids.add_staff("Wren Writer", Role::Writer).await.unwrap().1).await;

        // Staff only: signed out 401, a writer 403.
        assert_eq!(download(&app, &cv, None).await.status().as_u16(), 401);
        assert_eq!(download(&app, &cv, Some(&writer)).await.status().as_u16(), 403);
        // An admin gets the document as sent, as a download that cannot run.
        let r = download(&app, &cv, Some(&admin)).await;
        assert_eq!(r.status().as_u16(), 200);
        assert!(r.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .starts_with("attachment; filename=\"cv.pdf\""));
        assert!(r.headers()["content-security-policy"].to_str().unwrap().contains("sandbox"));
        assert_eq!(r.headers()["cache-control"], "private, no-store");
        assert_eq!(r.bytes().await.unwrap().to_vec(), big_pdf(6));
        // Again, by a content director: each download is recorded.
        assert_eq!(download(&app, &cv, Some(&director)).await.status().as_u16(), 200);

        // The link opens only what it was signed for.
        let portfolio = cv.replace("/documents/cv?", "/documents/portfolio?");
        let later = {
            let (head, tail) = cv.split_once("expires=").unwrap();
            let (expires, rest) = tail.split_once('&').unwrap();
            format!("{head}expires={}&{rest}", expires.parse::<i64>().unwrap() + 86_400)
        };
        // The signature with its last digit changed.
        let flipped = if cv.ends_with('0') { '1' } else { '0' };
        let forged = format!("{}{flipped}", &cv[..cv.len() - 1]);
        for bad in [&portfolio, &later, &forged] {
            let r = download(&app, bad, Some(&admin)).await;
            assert_eq!(r.status().as_u16(), 403, "{bad}");
            let body: Value = r.json().await.unwrap();
            assert!(body["message"].as_str().unwrap().contains("not valid"), "{body}");
        }

        // The documents stay in private storage until the links expire, then go.
        let private = app.dir.0.join("data/private");
        assert_eq!(walk(&private).len(), 2, "{engine:?}");
        let downloads: i64 = match &app.services.db {
            kernel::Db::Sqlite(pool) => sqlx::query_scalar(
                "SELECT COUNT(*) FROM application_downloads WHERE field = 'cv'",
            ).fetch_one(pool).await.unwrap(),
            kernel::Db::Postgres(pool) => sqlx::query_scalar(
                "SELECT COUNT(*) FROM application_downloads WHERE field = 'cv'",
            ).fetch_one(pool).await.unwrap(),
        };
        assert_eq!(downloads, 2, "{engine:?}: one row per download");
        app.services.housekeeping().await.unwrap();
        assert_eq!(walk(&private).len(), 2, "{engine:?}: kept while the links work");

        clock.advance(Duration::from_secs(30 * 24 * 3600 + 60));
        let admin = app.login(&ids.add_staff("Ada Again", Role::Admin).await.unwrap().1).await;
        let r = download(&app, &cv, Some(&admin)).await;
        assert_eq!(r.status().as_u16(), 410);
        let body: Value = r.json().await.unwrap();
        assert!(body["message"].as_str().unwrap().contains("expired"), "{body}");
        app.services.housekeeping().await.unwrap();
        assert!(walk(&private).is_empty(), "{engine:?}: {:?}", walk(&private));
        app.shutdown().await;
    }
}

fn walk(dir: &std::path::Path) -> Vec<PathBuf> {
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

on_both_engines! {
    async fn a_filled_honeypot_is_answered_politely_and_dropped(engine: Engine) {
        let app = spawn_app(engine).await;
        let (status, _) = apply(&app, application(json!({"website": "http://spam.example"}))).await;
        assert_eq!(status, 201);
        let (status, _) = post(
            &app,
            "/api/v1/accounts",
            json!({"first_name": "B", "last_name": "Ot", "email": "bot@example.org",
                   "password": "secret1", "confirm_password": "secret1", "website": "x"}),
        )
        .await;
        assert_eq!(status, 200);
        assert!(app.services.outbox.list(10).await.unwrap().is_empty());
        app.shutdown().await;
    }
}

// ---------------------------------------------------------------------------------------
// Registration

fn registration(over: Value) -> Value {
    let mut base = json!({
        "first_name": "Sam", "last_name": "Okoro", "email": "sam@example.org",
        "password": "correct horse", "confirm_password": "correct horse",
        "age": 16, "country": "Nigeria", "interests": ["Human Rights", "Digital Politics"]
    });
    for (k, v) in over.as_object().unwrap() {
        base[k] = v.clone();
    }
    base
}

/// The confirmation link in the newest message sent to `to` (files transport).
fn link_for(app: &TestApp, to: &str) -> Option<String> {
    let outbox = app.dir.0.join("data/outbox");
    let mut found = None;
    for m in messages_any(&outbox).iter().map(|m| quoted_printable(m)) {
        if m.contains(&format!("To: {to}")) {
            if let Some(i) = m.find("https://agora.test/email/confirm?token=") {
                let link: String = m[i..].chars().take_while(|c| !c.is_whitespace()).collect();
                found = Some(link);
            }
        }
    }
    found
}

/// Every message the files transport wrote, oldest first.
fn messages_any(dir: &PathBuf) -> Vec<String> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok());
    files
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect()
}

async fn mail_to(app: &TestApp, to: &str, n: usize) -> Vec<String> {
    let outbox = app.dir.0.join("data/outbox");
    let start = Instant::now();
    loop {
        let found: Vec<String> = messages_any(&outbox)
            .into_iter()
            .filter(|m| m.contains(&format!("To: {to}")))
            .collect();
        if found.len() >= n || start.elapsed() > Duration::from_secs(15) {
            return found;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn get_page(app: &TestApp, url: &str) -> (u16, String) {
    let path = url.trim_start_matches("https://agora.test");
    let r = app.request(Method::GET, path, None).send().await.unwrap();
    (r.status().as_u16(), r.text().await.unwrap())
}

on_both_engines! {
    async fn registration_validates_confirms_once_and_never_reveals_an_account(engine: Engine) {
        let app = spawn_app(engine).await;
        for (over, title, message) in [
            (
                json!({"last_name": ""}),
                "Missing Information",
                "Please fill in all required fields.",
            ),
            (
                json!({"email": "sam@"}),
                "Invalid Email",
                "Please enter a valid email address.",
            ),
            (
                json!({"confirm_password": "correct horses"}),
                "Registration Failed",
                "Passwords do not match.",
            ),
            (
                json!({"password": "abc12", "confirm_password": "abc12"}),
                "Registration Failed",
                "Password must be at least 6 characters long.",
            ),
            (
                json!({"age": 26}),
                "Invalid Age",
                "Age must be between 13 and 25.",
            ),
            (
                json!({"interests": ["Astrology"]}),
                "Unknown Interest",
                "Please choose interests from the list.",
            ),
        ] {
            let (status, body) = post(&app, "/api/v1/accounts", registration(over)).await;
            // Each field passes its own rules when the two passwords differ: 422, not 400.
            let expected = if message == "Passwords do not match." { 422 } else { 400 };
            assert_eq!(status, expected, "{body}");
            assert_eq!(titled(&body), (title, message));
        }

        let (status, first) = post(&app, "/api/v1/accounts", registration(json!({}))).await;
        assert_eq!(status, 200, "{engine:?}: {first}");
        let mails = mail_to(&app, "sam@example.org", 1).await;
        assert_eq!(mails.len(), 1);
        assert!(mails[0].contains("Confirm your email"));
        let link = link_for(&app, "sam@example.org").expect("a confirmation link");

        // The link confirms once; a second use says so; a made-up one is refused.
        let (status, page) = get_page(&app, &link).await;
        assert_eq!(status, 200);
        assert!(page.contains("Your email is confirmed"), "{page}");
        let (status, page) = get_page(&app, &link).await;
        assert_eq!(status, 200);
        assert!(page.contains("Already confirmed"));
        let (status, page) = get_page(&app, "/api/v1/accounts/confirm?token=nope").await;
        assert_eq!(status, 404);
        assert!(page.contains("Link not recognised"));

        // Registering the same address again (any casing) answers exactly the same, creates
        // nothing, and tells the owner instead.
        let (status, again) = post(
            &app,
            "/api/v1/accounts",
            registration(json!({"email": "SAM@example.org", "password": "another one", "confirm_password": "another one"})),
        )
        .await;
        assert_eq!((status, &again), (200, &first));
        let mails = mail_to(&app, "sam@example.org", 2).await;
        assert_eq!(mails.len(), 2);
        assert!(mails
            .iter()
            .any(|m| m.contains("You already have an account")));
        let accounts: i64 = match &app.services.db {
            kernel::Db::Sqlite(p) => sqlx::query_scalar("SELECT COUNT(*) FROM accounts")
                .fetch_one(p)
                .await
                .unwrap(),
            kernel::Db::Postgres(p) => sqlx::query_scalar("SELECT COUNT(*) FROM accounts")
                .fetch_one(p)
                .await
                .unwrap(),
        };
        assert_eq!(accounts, 1);
        let hash: String = match &app.services.db {
            kernel::Db::Sqlite(p) => sqlx::query_scalar("SELECT password_hash FROM accounts")
                .fetch_one(p)
                .await
                .unwrap(),
            kernel::Db::Postgres(p) => sqlx::query_scalar("SELECT password_hash FROM accounts")
                .fetch_one(p)
                .await
                .unwrap(),
        };
        assert!(hash.starts_with("$argon2id$") && !hash.contains("correct horse"));
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn an_expired_confirmation_link_is_refused_and_a_new_registration_sends_another(engine: Engine) {
        let clock = Arc::new(kernel::clock::ManualClock::new());
        let app = spawn_app_with(
            engine,
            Options {
                confirmation_ttl: Duration::from_secs(3600),
                clock: Some(clock.clone()),
                ..Options::default()
            },
        )
        .await;
        let (status, _) = post(&app, "/api/v1/accounts", registration(json!({}))).await;
        assert_eq!(status, 200);
        assert_eq!(mail_to(&app, "sam@example.org", 1).await.len(), 1);
        let old = link_for(&app, "sam@example.org").unwrap();
        clock.advance(Duration::from_secs(3601));
        let (status, page) = get_page(&app, &old).await;
        assert_eq!(status, 410);
        assert!(page.contains("This link has expired"));

        // Not confirmed yet: registering again sends a fresh link, which works.
        let (status, _) = post(&app, "/api/v1/accounts", registration(json!({}))).await;
        assert_eq!(status, 200);
        assert_eq!(mail_to(&app, "sam@example.org", 2).await.len(), 2);
        let fresh = link_for(&app, "sam@example.org").unwrap();
        assert_ne!(fresh, old);
        let (status, page) = get_page(&app, &fresh).await;
        assert_eq!(status, 200, "{page}");
        assert!(page.contains("Your email is confirmed"));
        app.shutdown().await;
    }
}

// ---------------------------------------------------------------------------------------
// Abuse limits

on_both_engines! {
    async fn each_public_form_takes_a_limited_number_of_submissions_per_address(engine: Engine) {
        let clock = Arc::new(kernel::clock::ManualClock::new());
        let app = spawn_app_with(
            engine,
            Options {
                form_limit: 3,
                trust_proxy: true,
                clock: Some(clock.clone()),
                ..Options::default()
            },
        )
        .await;
        let send = |addr: &'static str| {
            let app = &app;
            async move {
                let r = app
                    .request(Method::POST, "/api/v1/contact", None)
                    .header("x-forwarded-for", addr)
                    .json(&contact(json!({})))
                    .send()
                    .await
                    .unwrap();
                let retry = r
                    .headers()
                    .get("retry-after")
                    .map(|v| v.to_str().unwrap().to_string());
                (r.status().as_u16(), retry, r.json::<Value>().await.unwrap())
            }
        };
        assert_eq!(send("203.0.113.7").await.0, 200);
        clock.advance(Duration::from_secs(100));
        for _ in 0..2 {
            assert_eq!(send("203.0.113.7").await.0, 200);
        }
        let (status, retry, body) = send("203.0.113.7").await;
        assert_eq!(status, 429, "{body}");
        // The first submission leaves the (10-minute) window in 500 seconds.
        assert_eq!(retry.as_deref(), Some("500"));
        assert_eq!(body["title"], "Too Many Requests");
        assert!(body["message"]
            .as_str()
            .unwrap()
            .contains("Please try again in"));
        // Another address, and another form from the same address, are unaffected.
        assert_eq!(send("198.51.100.9").await.0, 200);
        let r = app
            .request(Method::POST, "/api/v1/notify", None)
            .header("x-forwarded-for", "203.0.113.7")
            .json(&json!({"email": "a@example.org", "list": "magazine"}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 200);
        // Nothing refused was stored: three messages from the first address, one from the second.
        let contacts = app
            .services
            .outbox
            .list(20)
            .await
            .unwrap()
            .into_iter()
            .filter(|m| m.subject.starts_with("[Contact"))
            .count();
        assert_eq!(contacts, 4);
        // A sliding window: once the first submission is ten minutes old there is room for
        // one more, not for a whole new budget.
        clock.advance(Duration::from_secs(499));
        assert_eq!(send("203.0.113.7").await.0, 429);
        clock.advance(Duration::from_secs(2));
        assert_eq!(send("203.0.113.7").await.0, 200);
        assert_eq!(send("203.0.113.7").await.0, 429);
        app.shutdown().await;
    }
}

// Engine-independent: the body cap and the field's length rule refuse it before it is stored.
#[tokio::test]
async fn oversized_json_bodies_get_413_and_a_message() {
    let app = spawn_app(Engine::Sqlite).await;
    let huge = "x".repeat(2 * 1024 * 1024);
    let (status, body) = post(&app, "/api/v1/contact", contact(json!({"message": huge}))).await;
    assert_eq!(status, 413, "{body}");
    assert_eq!(body["code"], "payload_too_large");
    // Under the cap but over the field's limit: a 400 that names the field.
    let (status, body) = post(
        &app,
        "/api/v1/contact",
        contact(json!({"message": "x".repeat(5001)})),
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        body["message"].as_str().unwrap().contains("message"),
        "{body}"
    );
    app.shutdown().await;
}
