//! Uploads read as they arrive (issue 9): NUL refused in multipart text fields, documents
//! spooled and stored byte for byte, limits counted while reading, decompression bombs
//! refused from the image header.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;
use crate::upload_support;

use common::{spawn_app, Engine, TestApp};
use identity::Role;
use reqwest::Method;
use serde_json::{json, Value};
use upload_support::{post_multipart, Piece};

/// The text fields of a complete application for a copy editor, with `over` applied.
fn application(over: Value) -> reqwest::multipart::Form {
    let mut base = json!({
        "full_name": "Ada Mensah", "age": "16", "country": "Ghana",
        "email": "ada@school.example.org", "time_zone": "Africa/Accra",
        "weekly_availability": "5", "english_level": "C1",
        "why_join": "I want to learn how politics works.",
        "contribution": "Careful copy edits."
    });
    for (k, v) in over.as_object().unwrap() {
        base[k] = v.clone();
    }
    let mut form = reqwest::multipart::Form::new().text("roles", "copy-editor");
    for (k, v) in base.as_object().unwrap() {
        if let Some(v) = v.as_str() {
            form = form.text(k.clone(), v.to_string());
        }
    }
    form
}

fn pdf(size: usize) -> Vec<u8> {
    let mut b = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n".to_vec();
    // Varied filler, so a file stored out of order or cut short would not compare equal.
    let mut i = 0u32;
    while b.len() < size {
        i = i.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        b.push(b' ' + (i >> 24) as u8 % 90);
    }
    b
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
            .mime_str("application/pdf")
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

fn private_files(app: &TestApp) -> Vec<std::path::PathBuf> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        if let Ok(entries) = std::fs::read_dir(dir) {
            for e in entries.flatten() {
                let p = e.path();
                if p.is_dir() {
                    walk(&p, out);
                } else {
                    out.push(p);
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(&app.data_dir().join("private"), &mut out);
    out.sort();
    out
}

on_both_engines! {
    async fn a_nul_in_a_multipart_text_field_is_refused_with_400_not_500(engine: Engine) {
        let app = spawn_app(engine).await;
        for over in [
            json!({"full_name": "Ada\u{0}Mensah"}),
            json!({"additional": "\u{0}"}),
            json!({"why_join": "Because\u{0}"}),
        ] {
            let (status, body) = apply(&app, application(over.clone())).await;
            assert_eq!(status, 400, "{engine:?} {over}: {body}");
            assert_eq!(body["code"], "invalid_characters", "{body}");
            assert_eq!(
                body["message"],
                "The request contains a NUL character, which is not allowed in text."
            );
        }
        // A NUL in a role part too.
        let form = application(json!({})).text("roles", "copy\u{0}editor");
        let (status, body) = apply(&app, form).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (400, Some("invalid_characters"))
        );
        // Nothing was stored and nothing queued.
        assert!(app.services.outbox.list(10).await.unwrap().is_empty());
        assert!(private_files(&app).is_empty());
        // File parts are binary: NUL bytes in a document are fine.
        let mut doc = pdf(1000);
        doc.extend_from_slice(&[0, 0, 0]);
        let (status, body) =
            apply(&app, file(application(json!({})), "cv_file", "cv.pdf", doc)).await;
        assert_eq!(status, 201, "{engine:?}: {body}");
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn four_ten_megabyte_documents_are_stored_byte_for_byte(engine: Engine) {
        let app = spawn_app(engine).await;
        let size = 10 * 1024 * 1024;
        let docs: Vec<Vec<u8>> = (0..4)
            .map(|i| {
                let mut d = pdf(size - i);
                d[size - i - 1] = b'0' + i as u8;
                d
            })
            .collect();
        let mut form = application(json!({}));
        for (field, doc) in [
            "cv_file",
            "portfolio_file",
            "writing_samples_file",
            "research_samples_file",
        ]
        .iter()
        .zip(&docs)
        {
            form = file(form, field, &format!("{field}.pdf"), doc.clone());
        }
        let (status, body) = apply(&app, form).await;
        assert_eq!(status, 201, "{engine:?}: {body}");
        assert_eq!(body["attachments"], 4);
        let stored = private_files(&app);
        assert_eq!(stored.len(), 4, "{stored:?}");
        for (field, doc) in ["cv", "portfolio", "research-samples", "writing-samples"]
            .iter()
            .zip([&docs[0], &docs[1], &docs[3], &docs[2]])
        {
            let path = stored
                .iter()
                .find(|p| p.ends_with(format!("{field}.pdf")))
                .unwrap_or_else(|| panic!("{field} in {stored:?}"));
            assert!(std::fs::read(path).unwrap() == *doc, "{field} differs");
        }
        // No temporary file is left behind in the storage.
        assert!(stored.iter().all(|p| p.extension().unwrap() == "pdf"));
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn limits_are_counted_while_reading_and_the_rules_keep_their_order(engine: Engine) {
        let app = spawn_app(engine).await;
        let big = pdf(10 * 1024 * 1024 + 1);
        // A missing field is still reported first, even with an oversized file.
        let form = file(
            application(json!({"country": " "})),
            "cv_file",
            "cv.pdf",
            big.clone(),
        );
        let (status, body) = apply(&app, form).await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(body["title"], "Missing Information");
        // Then the size, with the product's message.
        let (status, body) = apply(
            &app,
            file(application(json!({})), "portfolio_file", "p.pdf", big),
        )
        .await;
        assert_eq!(status, 413, "{body}");
        assert_eq!(body["title"], "File Too Large");
        assert_eq!(
            body["message"],
            "Your portfolio file is larger than 10 MB. Please upload a smaller file."
        );
        // Over-long text is cut while reading and refused by its length rule.
        let (status, body) =
            apply(&app, application(json!({"why_join": "w".repeat(200_000)}))).await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(body["title"], "Too Long");
        // A field sent twice is a malformed form, as before.
        let form = application(json!({})).text("full_name", "Someone Else");
        let (status, body) = apply(&app, form).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (400, Some("invalid_request")),
            "{body}"
        );
        assert!(private_files(&app).is_empty());
        assert!(app.services.outbox.list(10).await.unwrap().is_empty());

        // Magazines: the size is counted while the PDF arrives, even without a Content-Length.
        let (_, key) = app
            .services
            .identity
            .add_staff("Ada", Role::Admin)
            .await
            .unwrap();
        let admin = app.login(&key).await;
        let pieces = [Piece::pdf("file", "Big.pdf", 50 * 1024 * 1024 + 10)];
        let (status, body) = post_multipart(
            &app.address,
            "/api/v1/staff/magazines",
            Some(&admin),
            &pieces,
            true,
        )
        .await;
        assert_eq!(status, 413, "{body}");
        assert_eq!(body["code"], "file_too_large");
        app.shutdown().await;
    }
}

// Engine-independent: the image is refused while it is decoded, before anything is stored.
#[tokio::test]
async fn a_decompression_bomb_cover_is_refused_with_a_clear_message() {
    let app = spawn_app(Engine::Sqlite).await;
    let (_, key) = app
        .services
        .identity
        .add_staff("Uma", Role::Writer)
        .await
        .unwrap();
    let writer = app.login(&key).await;
    let bomb = upload_support::bomb(11_000);
    assert!(bomb.len() < 5 * 1024 * 1024, "{} bytes", bomb.len());
    let r = app
        .request(Method::POST, "/api/v1/staff/covers", Some(&writer))
        .multipart(upload_support::cover_form(bomb))
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    let body: Value = r.json().await.unwrap();
    assert_eq!(status, 413, "{body}");
    assert_eq!(body["code"], "image_too_many_pixels");
    assert_eq!(
        body["message"],
        "Please upload an image of at most 40 megapixels"
    );
    // Nothing stored.
    assert!(!app.data_dir().join("uploads/covers").exists());
    app.shutdown().await;
}

// Engine-independent: it is about the file store.
#[tokio::test]
async fn a_file_store_that_fails_is_a_503_to_try_again_and_keeps_nothing() {
    let app = spawn_app(Engine::Sqlite).await;
    let (_, key) = app
        .services
        .identity
        .add_staff("Ola", Role::Writer)
        .await
        .unwrap();
    let writer = app.login(&key).await;
    // The store cannot take files (here: its folder is a file; on S3, a bucket that is
    // unreachable or does not answer within its deadline).
    let uploads = app.data_dir().join("uploads");
    let _ = std::fs::remove_dir_all(&uploads);
    std::fs::write(&uploads, b"not a folder").unwrap();
    let r = app
        .request(Method::POST, "/api/v1/staff/covers", Some(&writer))
        .multipart(upload_support::cover_form(upload_support::bomb(64)))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 503);
    assert_eq!(r.headers()["retry-after"], "5");
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["code"], "service_unavailable", "{body}");
    assert_eq!(
        body["message"],
        "The file store is unavailable for a moment. Please try again."
    );
    // Readiness says so, and still lets the instance serve pages.
    let (status, ready) = app.json("/readyz").await;
    assert_eq!(
        (status, ready["storage"].as_str()),
        (200, Some("unreachable"))
    );
    app.shutdown().await;
}
