//! Magazine issues readers can open: an uploaded PDF stays private until an admin publishes it
//! with a title, date, description and cover; then `/magazine` shows it first (the launch page
//! before), `/magazine/{slug}` is its own page with Open Graph tags, and the sitemap lists it.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use common::{spawn_app_with, Options, TestApp};
use identity::Role;
use reqwest::Method;
use serde_json::{json, Value};

fn pdf(marker: &str) -> Vec<u8> {
    format!("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% {marker}\n%%EOF\n").into_bytes()
}

fn png() -> Vec<u8> {
    let img = image::RgbaImage::from_fn(300, 400, |x, y| image::Rgba([x as u8, y as u8, 90, 255]));
    let mut out = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgba8(img)
        .write_to(&mut out, image::ImageFormat::Png)
        .unwrap();
    out.into_inner()
}

async fn upload(
    app: &TestApp,
    cookie: &str,
    path: &str,
    name: &str,
    mime: &str,
    bytes: Vec<u8>,
) -> (u16, Value) {
    let form = reqwest::multipart::Form::new().part(
        "file",
        reqwest::multipart::Part::bytes(bytes)
            .file_name(name.to_string())
            .mime_str(mime)
            .unwrap(),
    );
    let r = app
        .request(Method::POST, path, Some(cookie))
        .multipart(form)
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
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

async fn page(app: &TestApp, path: &str) -> (u16, String) {
    let r = app.get(path).await;
    (r.status().as_u16(), r.text().await.unwrap())
}

on_both_engines! {
    async fn an_admin_publishes_an_issue_and_readers_can_open_it(engine: Engine) {
        let app = spawn_app_with(engine, Options { ssr: true, ..Options::default() }).await;
        let (_, key) = app.services.identity.add_staff("Ada Admin", Role::Admin).await.unwrap();
        let (_, wkey) = app.services.identity.add_staff("Wren Writer", Role::Writer).await.unwrap();
        let admin = app.login(&key).await;
        let writer = app.login(&wkey).await;

        // Before the first issue: the spec's launch page (and it is cached meanwhile).
        let (status, html) = page(&app, "/magazine").await;
        assert_eq!(status, 200);
        assert!(html.contains("Launching this December"), "launch content");
        let (status, uploaded) = upload(&app, &admin, "/api/v1/staff/magazines", "November 2026.pdf", "application/pdf", pdf("nov")).await;
        assert_eq!(status, 201, "{uploaded}");
        let id = uploaded["id"].as_str().unwrap().to_string();
        assert_eq!(uploaded["published_at"], Value::Null);
        // A draft stays private.
        assert_eq!(app.json("/api/v1/magazine/issues").await, (200, json!([])));
        assert!(page(&app, "/magazine").await.1.contains("Launching this December"));

        // Each field is checked, with its own message.
        let publication = json!({
            "title": "November 2026", "issue_date": "2026-11-01",
            "description": "Elections, climate talks and a youth parliament.", "cover_url": ""
        });
        let path = format!("/api/v1/staff/magazines/{id}/publication");
        for (over, code) in [
            (json!({"issue_date": "1 Nov"}), "invalid_date"),
            (json!({"description": "  "}), "description_required"),
            (json!({}), "invalid_cover_image"),
            (json!({"cover_url": "javascript:alert(1)"}), "invalid_cover_image"),
            (json!({"cover_url": "http://example.org/cover.png"}), "invalid_cover_image"),
            (json!({"cover_url": "/media/../private/key"}), "invalid_cover_image"),
            (json!({"title": ""}), "title_required"),
        ] {
            let mut body = publication.clone();
            for (k, v) in over.as_object().unwrap() {
                body[k] = v.clone();
            }
            let (status, answer) = send(&app, Method::PUT, &path, Some(&admin), body).await;
            assert_eq!((status, answer["code"].as_str()), (400, Some(code)), "{answer}");
        }
        // Admins upload the cover; writers cannot publish; nobody else either.
        let (status, cover) = upload(&app, &admin, "/api/v1/staff/covers", "cover.png", "image/png", png()).await;
        assert_eq!(status, 201, "{cover}");
        let cover_url = cover["url"].as_str().unwrap().to_string();
        let mut body = publication.clone();
        body["cover_url"] = json!(cover_url);
        assert_eq!(send(&app, Method::PUT, &path, Some(&writer), body.clone()).await.0, 403);
        assert_eq!(send(&app, Method::PUT, &path, None, body.clone()).await.0, 401);
        let (status, published) = send(&app, Method::PUT, &path, Some(&admin), body.clone()).await;
        assert_eq!(status, 200, "{published}");
        assert_eq!(published["slug"], "november-2026");
        assert!(published["published_at"].is_string());

        // Readers: the list, the page of the issue with its social tags, the PDF, the sitemap,
        // and /magazine (served from the page cache before) now showing the issue first.
        let (status, issues) = app.json("/api/v1/magazine/issues").await;
        assert_eq!(status, 200);
        assert_eq!(issues.as_array().unwrap().len(), 1);
        assert_eq!(issues[0]["title"], "November 2026");
        // The issue is the magazine page's own subject: the next reader gets the new page.
        let (status, html) = page(&app, "/magazine").await;
        assert_eq!(status, 200);
        assert!(html.contains("Read the issue") && html.contains("November 2026"), "{html}");
        assert!(!html.contains("Launching this December"));
        assert!(html.contains("<meta property=\"og:image\" content=\"https://agora.test/social/magazine/november-2026.jpg?v="), "the issue's card, made from its cover");
        let (status, html) = page(&app, "/magazine/november-2026").await;
        assert_eq!(status, 200);
        assert!(html.contains("<meta property=\"og:title\" content=\"November 2026 | The Agora\">"), "{html}");
        assert!(html.contains("<meta property=\"og:image\" content=\"https://agora.test/social/magazine/november-2026.jpg?v="), "the issue's card, made from its cover");
        assert!(html.contains("Elections, climate talks and a youth parliament."));
        assert!(html.contains("Download PDF"));
        // The card is the cover, at the size social networks want.
        let card = html.split("property=\"og:image\" content=\"https://agora.test").nth(1).unwrap();
        let card = card[..card.find('"').unwrap()].replace("&amp;", "&");
        let r = app.get(&card).await;
        assert_eq!(r.status().as_u16(), 200);
        assert_eq!(r.headers()["content-type"], "image/jpeg");
        let picture = image::load_from_memory(&r.bytes().await.unwrap()).unwrap();
        assert_eq!((picture.width(), picture.height()), (1200, 630));
        let _ = cover_url;
        let file_url = issues[0]["file_url"].as_str().unwrap();
        let r = app.get(file_url).await;
        assert_eq!(r.status().as_u16(), 200);
        assert_eq!(r.headers()["content-type"], "application/pdf");
        assert!(!r.headers().get("content-disposition").is_some_and(|v| v.to_str().unwrap().starts_with("attachment")), "read inline");
        let sitemap = app.get("/sitemap.xml").await.text().await.unwrap();
        assert!(sitemap.contains("<loc>https://agora.test/magazine/november-2026</loc>"), "{sitemap}");

        // A second issue: its own slug even with the same title; the latest date comes first;
        // an edit keeps the address.
        let (_, second) = upload(&app, &admin, "/api/v1/staff/magazines", "dec.pdf", "application/pdf", pdf("dec")).await;
        let second_id = second["id"].as_str().unwrap();
        let mut later = body.clone();
        later["issue_date"] = json!("2026-12-01");
        let (status, b) = send(&app, Method::PUT, &format!("/api/v1/staff/magazines/{second_id}/publication"), Some(&admin), later).await;
        assert_eq!((status, b["slug"].as_str()), (200, Some("november-2026-2")));
        let mut edited = body.clone();
        edited["title"] = json!("November 2026 (special)");
        let (status, b) = send(&app, Method::PUT, &path, Some(&admin), edited).await;
        assert_eq!((status, b["slug"].as_str()), (200, Some("november-2026")));
        let (_, issues) = app.json("/api/v1/magazine/issues").await;
        let slugs: Vec<&str> = issues.as_array().unwrap().iter().map(|i| i["slug"].as_str().unwrap()).collect();
        assert_eq!(slugs, ["november-2026-2", "november-2026"]);

        // Taken back: private again, gone from the page, the list and the sitemap.
        let (status, b) = send(&app, Method::DELETE, &path, Some(&admin), json!({})).await;
        assert_eq!((status, &b["published_at"]), (200, &Value::Null));
        assert_eq!(page(&app, "/magazine/november-2026").await.0, 404);
        assert_eq!(app.json("/api/v1/magazine/issues/november-2026").await.0, 404);
        let sitemap = app.get("/sitemap.xml").await.text().await.unwrap();
        assert!(!sitemap.contains("/magazine/november-2026<"));
        assert!(sitemap.contains("/magazine/november-2026-2<"));
        app.shutdown().await;
    }
}
