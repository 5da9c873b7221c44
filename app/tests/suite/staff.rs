//! Staff access and the editorial workflow, enforced by the server: the permission matrix,
//! keys, sessions, sign-in limits, cross-site protection and the article lifecycle.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use std::time::Duration;

use common::{spawn_app, spawn_app_with, Engine, Options, TestApp};
use content::{Category, NewArticle, Status};
use identity::Role;
use reqwest::Method;
use serde_json::{json, Value};

struct Staff {
    admin: String,
    writer: String,
    writer_id: String,
    other_writer: String,
    educator: String,
    director: String,
    disabled: String,
}

async fn staff(app: &TestApp) -> Staff {
    let id = &app.services.identity;
    let (_, admin) = id.add_staff("Ada Admin", Role::Admin).await.unwrap();
    let (w, writer) = id.add_staff("Wren Writer", Role::Writer).await.unwrap();
    let (_, other_writer) = id.add_staff("Otto Other", Role::Writer).await.unwrap();
    let (_, educator) = id.add_staff("Eve Educator", Role::Educator).await.unwrap();
    let (_, director) = id
        .add_staff("Dee Director", Role::ContentDirector)
        .await
        .unwrap();
    let (d, disabled_key) = id.add_staff("Dis Abled", Role::Writer).await.unwrap();
    let disabled = app.login(&disabled_key).await;
    id.set_active(&d.id, false).await.unwrap();
    Staff {
        admin: app.login(&admin).await,
        writer: app.login(&writer).await,
        writer_id: w.id,
        other_writer: app.login(&other_writer).await,
        educator: app.login(&educator).await,
        director: app.login(&director).await,
        disabled,
    }
}

async fn draft_of(app: &TestApp, author: &str) -> String {
    let (id, _) = app
        .services
        .content
        .create(NewArticle {
            title: format!("Draft {}", uuid::Uuid::now_v7()),
            subtitle: None,
            content: "Body".into(),
            category: Category::HumanRights,
            cover_image: None,
            featured: false,
            status: Status::Draft,
            author_id: Some(author.to_string()),
            created_at: None,
        })
        .await
        .unwrap();
    id
}

fn body(author: &str) -> Value {
    json!({"title": "Matrix piece", "content": "Text", "status": "draft", "author_id": author})
}

on_both_engines! {
    async fn permission_matrix_over_every_staff_endpoint(engine: Engine) {
        let app = spawn_app(engine).await;
        let s = staff(&app).await;
        // An expired session: the same user signs in, then the session ages past the idle limit.
        let clock = std::sync::Arc::new(kernel::clock::ManualClock::new());
        let expired_app = spawn_app_with(
            engine,
            Options {
                identity: identity::IdentitySettings {
                    staff_sessions: identity::Lifetime {
                        idle: Duration::from_secs(3600),
                        ..identity::IdentitySettings::with_secret("t").staff_sessions
                    },
                    ..identity::IdentitySettings::with_secret("t")
                },
                clock: Some(clock.clone()),
                ..Options::default()
            },
        )
        .await;
        let (_, k) = expired_app
            .services
            .identity
            .add_staff("Late Writer", Role::Writer)
            .await
            .unwrap();
        let expired = expired_app.login(&k).await;
        clock.advance(Duration::from_secs(3601));
        let r = expired_app
            .request(Method::GET, "/api/v1/staff/articles", Some(&expired))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 401, "expired session");
        expired_app.shutdown().await;

        // Columns: signed out, admin, writer (own), writer (other's), educator, director, disabled.
        let actors: [(&str, Option<&str>); 7] = [
            ("signed out", None),
            ("admin", Some(&s.admin)),
            ("writer own", Some(&s.writer)),
            ("writer other", Some(&s.other_writer)),
            ("educator", Some(&s.educator)),
            ("director", Some(&s.director)),
            ("disabled", Some(&s.disabled)),
        ];
        type Row = (&'static str, Method, &'static str, [u16; 7]);
        let rows: [Row; 18] = [
            (
                "me",
                Method::GET,
                "/api/v1/me",
                [401, 200, 200, 200, 200, 200, 401],
            ),
            (
                "writers",
                Method::GET,
                "/api/v1/staff/writers",
                [401, 403, 403, 403, 403, 200, 401],
            ),
            (
                "list",
                Method::GET,
                "/api/v1/staff/articles",
                [401, 403, 200, 200, 403, 200, 401],
            ),
            (
                "create",
                Method::POST,
                "/api/v1/staff/articles",
                [401, 403, 201, 201, 403, 201, 401],
            ),
            // The admin reads a piece, and renders its preview, to review it (issue 14).
            (
                "get",
                Method::GET,
                "/api/v1/staff/articles/{id}",
                [401, 200, 200, 404, 403, 200, 401],
            ),
            (
                "update",
                Method::PUT,
                "/api/v1/staff/articles/{id}",
                [401, 403, 200, 404, 403, 200, 401],
            ),
            (
                "publish",
                Method::POST,
                "/api/v1/staff/articles/{id}/publish",
                [401, 403, 200, 404, 403, 200, 401],
            ),
            (
                "delete",
                Method::DELETE,
                "/api/v1/staff/articles/{id}",
                [401, 403, 204, 404, 403, 204, 401],
            ),
            (
                "preview",
                Method::POST,
                "/api/v1/staff/preview",
                [401, 200, 200, 200, 403, 200, 401],
            ),
            // A contributor's own profile: anyone who writes (issue 35); educators have none.
            (
                "profile mine",
                Method::GET,
                "/api/v1/staff/me/profile",
                [401, 200, 200, 200, 403, 200, 401],
            ),
            (
                "profile set mine",
                Method::PUT,
                "/api/v1/staff/me/profile",
                [401, 200, 200, 200, 403, 200, 401],
            ),
            // Anyone's: the content director and admins.
            (
                "profile theirs",
                Method::GET,
                "/api/v1/staff/members/{writer}/profile",
                [401, 200, 403, 403, 403, 200, 401],
            ),
            (
                "profile set theirs",
                Method::PUT,
                "/api/v1/staff/members/{writer}/profile",
                [401, 200, 403, 403, 403, 200, 401],
            ),
            // Readers' responses: the content director and admins moderate (issue 35). Nothing
            // waits here, so a decision finds no response (404) once it is allowed.
            (
                "responses queue",
                Method::GET,
                "/api/v1/staff/responses",
                [401, 200, 403, 403, 403, 200, 401],
            ),
            (
                "responses approve",
                Method::POST,
                "/api/v1/staff/responses/none/approve",
                [401, 404, 403, 403, 403, 404, 401],
            ),
            (
                "responses reject",
                Method::POST,
                "/api/v1/staff/responses/none/reject",
                [401, 404, 403, 403, 403, 404, 401],
            ),
            (
                "responses block",
                Method::POST,
                "/api/v1/staff/responses/none/block",
                [401, 404, 403, 403, 403, 404, 401],
            ),
            (
                "responses close",
                Method::PUT,
                "/api/v1/staff/articles/{id}/responses",
                [401, 404, 403, 403, 403, 404, 401],
            ),
        ];
        for (name, method, path, expected) in rows {
            for ((actor, cookie), want) in actors.iter().zip(expected) {
                let id = draft_of(&app, &s.writer_id).await;
                let path = path.replace("{id}", &id).replace("{writer}", &s.writer_id);
                let mut req = app.request(method.clone(), &path, *cookie);
                if name == "responses reject" {
                    req = req.json(&json!({"reason": "Off topic."}));
                } else if name == "responses close" {
                    req = req.json(&json!({"open": false}));
                } else if name.starts_with("profile set") {
                    req = req.json(&json!({"full_name_shown": false, "bio": "I write."}));
                } else if name == "preview" {
                    req = req.json(&json!({"content": "**hi**"}));
                } else if method == Method::POST && name == "create" || method == Method::PUT {
                    req = req.json(&body(&s.writer_id));
                }
                let r = req.send().await.unwrap();
                assert_eq!(r.status().as_u16(), want, "{name} as {actor} ({engine:?})");
                if want >= 400 {
                    let b: Value = r.json().await.unwrap();
                    assert!(
                        b["code"].is_string() && b["message"].is_string(),
                        "{name}/{actor}: {b}"
                    );
                }
            }
        }
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn keys_are_never_stored_and_rotation_and_disabling_end_access(engine: Engine) {
        let app = spawn_app(engine).await;
        let (user, key) = app
            .services
            .identity
            .add_staff("Kai", Role::Writer)
            .await
            .unwrap();
        let cookie = app.login(&key).await;
        let token = cookie.split_once('=').unwrap().1.to_string();
        // Nothing in the users or sessions tables contains the key or the token.
        let dump: Vec<String> = match &app.services.db {
            kernel::Db::Sqlite(p) => sqlx::query_scalar(
                "SELECT id || name || role || COALESCE(key_hash, '') FROM users \
                 UNION ALL SELECT token_hash || user_id FROM sessions",
            )
            .fetch_all(p)
            .await
            .unwrap(),
            kernel::Db::Postgres(p) => sqlx::query_scalar(
                "SELECT id || name || role || COALESCE(key_hash, '') FROM users \
                 UNION ALL SELECT token_hash || user_id FROM sessions",
            )
            .fetch_all(p)
            .await
            .unwrap(),
        };
        assert!(dump.len() >= 2);
        for row in &dump {
            assert!(!row.contains(&key) && !row.contains(&token));
        }
        // Rotation: the old key fails, its sessions end, the new key works.
        let new_key = app.services.identity.rotate_key(&user.id).await.unwrap();
        let r = app
            .request(Method::GET, "/api/v1/me", Some(&cookie))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 401);
        let r = app
            .request(Method::POST, "/api/v1/session", None)
            .json(&json!({"access_key": key}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 401);
        let b: Value = r.json().await.unwrap();
        assert_eq!(b["message"], "Invalid access key.");
        let cookie = app.login(&new_key).await;
        // Logout ends the session on the server.
        let r = app
            .request(Method::DELETE, "/api/v1/session", Some(&cookie))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 204);
        assert!(r.headers()["set-cookie"]
            .to_str()
            .unwrap()
            .contains("Max-Age=0"));
        let r = app
            .request(Method::GET, "/api/v1/me", Some(&cookie))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 401);
        // Disabling ends access.
        let cookie = app.login(&new_key).await;
        app.services
            .identity
            .set_active(&user.id, false)
            .await
            .unwrap();
        let r = app
            .request(Method::GET, "/api/v1/me", Some(&cookie))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 401);
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn cookie_attributes_and_the_last_admin(engine: Engine) {
        let app = spawn_app(engine).await;
        let (admin, key) = app
            .services
            .identity
            .add_staff("Only Admin", Role::Admin)
            .await
            .unwrap();
        let r = app
            .request(Method::POST, "/api/v1/session", None)
            .json(&json!({"access_key": key}))
            .send()
            .await
            .unwrap();
        let cookie = r.headers()["set-cookie"].to_str().unwrap().to_string();
        for attr in ["HttpOnly", "SameSite=Lax", "Path=/"] {
            assert!(cookie.contains(attr), "{cookie}");
        }
        let user: Value = r.json().await.unwrap();
        assert_eq!(user["role"], "admin");
        assert!(user.get("access_key").is_none());
        assert!(app
            .services
            .identity
            .set_active(&admin.id, false)
            .await
            .is_err());
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn failed_sign_ins_are_limited_per_address_without_locking_out_others(engine: Engine) {
        let app = spawn_app_with(
            engine,
            Options {
                trust_proxy: true,
                ..Options::default()
            },
        )
        .await;
        let (_, key) = app
            .services
            .identity
            .add_staff("Real", Role::Writer)
            .await
            .unwrap();
        let attempt = |from: &'static str, k: String| {
            app.request(Method::POST, "/api/v1/session", None)
                .header("x-forwarded-for", from)
                .json(&json!({ "access_key": k }))
                .send()
        };
        for _ in 0..5 {
            let r = attempt("203.0.113.9", "agora_wrong".into()).await.unwrap();
            assert_eq!(r.status().as_u16(), 401);
        }
        let r = attempt("203.0.113.9", key.clone()).await.unwrap();
        assert_eq!(
            r.status().as_u16(),
            429,
            "even a correct key waits at this address"
        );
        let retry: u64 = r.headers()["retry-after"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!((1..=60).contains(&retry));
        let b: Value = r.json().await.unwrap();
        assert_eq!(b["code"], "too_many_attempts");
        let r = attempt("198.51.100.7", key).await.unwrap();
        assert_eq!(
            r.status().as_u16(),
            200,
            "another address is not locked out"
        );
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn cross_site_writes_are_refused(engine: Engine) {
        let app = spawn_app(engine).await;
        let (_, key) = app
            .services
            .identity
            .add_staff("Wes", Role::Writer)
            .await
            .unwrap();
        let cookie = app.login(&key).await;
        let send = |origin: Option<&'static str>, site: Option<&'static str>| {
            let mut r = app
                .request(Method::POST, "/api/v1/staff/articles", Some(&cookie))
                .json(&json!({"title": "T", "content": "C", "status": "draft"}));
            if let Some(o) = origin {
                r = r.header("origin", o);
            }
            if let Some(s) = site {
                r = r.header("sec-fetch-site", s);
            }
            r.send()
        };
        let r = send(Some("https://evil.example"), None).await.unwrap();
        assert_eq!(r.status().as_u16(), 403);
        let b: Value = r.json().await.unwrap();
        assert_eq!(b["code"], "cross_site_request");
        assert_eq!(
            send(None, Some("cross-site"))
                .await
                .unwrap()
                .status()
                .as_u16(),
            403
        );
        assert_eq!(
            send(Some("https://agora.test"), None)
                .await
                .unwrap()
                .status()
                .as_u16(),
            201
        );
        app.shutdown().await;
    }
}

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

on_both_engines! {
    async fn the_article_lifecycle_is_public_only_when_published(engine: Engine) {
        let app = spawn_app(engine).await;
        let (_, key) = app
            .services
            .identity
            .add_staff("Wanda", Role::Writer)
            .await
            .unwrap();
        let w = app.login(&key).await;
        // Validation with the spec's messages.
        let (status, b) = send(
            &app,
            Method::POST,
            "/api/v1/staff/articles",
            &w,
            json!({"title": "  ", "content": "x", "status": "draft"}),
        )
        .await;
        assert_eq!(
            (status, b["message"].as_str()),
            (400, Some("Article title is required"))
        );
        let (status, b) = send(
            &app,
            Method::POST,
            "/api/v1/staff/articles",
            &w,
            json!({"title": "T", "content": " \n ", "status": "draft"}),
        )
        .await;
        assert_eq!(
            (status, b["message"].as_str()),
            (400, Some("Article content is required"))
        );
        // A draft, trimmed fields, default category.
        let (status, a) = send(
            &app,
            Method::POST,
            "/api/v1/staff/articles",
            &w,
            json!({"title": " Ballots & Bikes ", "subtitle": "  ", "content": "## Why\n\nBecause.",
                   "cover_image": "  ", "status": "draft"}),
        )
        .await;
        assert_eq!(status, 201);
        assert_eq!(a["title"], "Ballots & Bikes");
        assert_eq!(a["slug"], "ballots-bikes");
        assert_eq!(a["category"], "Youth Activism");
        assert!(a.get("subtitle").is_none() && a.get("cover_image").is_none());
        let id = a["id"].as_str().unwrap().to_string();
        assert_eq!(
            app.get("/api/v1/articles/ballots-bikes").await.status(),
            404
        );
        // One-click publish: public at once, listing cache included.
        let (status, p) = send(
            &app,
            Method::POST,
            &format!("/api/v1/staff/articles/{id}/publish"),
            &w,
            json!({}),
        )
        .await;
        assert_eq!((status, p["status"].as_str()), (200, Some("published")));
        assert_eq!(p["title"], a["title"]);
        let (_, list) = app.json("/api/v1/articles").await;
        assert_eq!(list["items"][0]["title"], "Ballots & Bikes");
        // Retitled while published: the old slug redirects to the new one.
        let (status, e) = send(
            &app,
            Method::PUT,
            &format!("/api/v1/staff/articles/{id}"),
            &w,
            json!({"title": "Ballots and Bicycles", "content": "Because.", "status": "published"}),
        )
        .await;
        assert_eq!(status, 200);
        assert_eq!(e["slug"], "ballots-and-bicycles");
        let r = app.get("/article/ballots-bikes").await;
        assert_eq!(r.status().as_u16(), 301);
        assert_eq!(r.headers()["location"], "/article/ballots-and-bicycles");
        // Back to draft: gone from the public site.
        let (status, _) = send(
            &app,
            Method::PUT,
            &format!("/api/v1/staff/articles/{id}"),
            &w,
            json!({"title": "Ballots and Bicycles", "content": "Because.", "status": "draft"}),
        )
        .await;
        assert_eq!(status, 200);
        let (_, list) = app.json("/api/v1/articles").await;
        assert_eq!(list["total"], 0);
        assert_eq!(app.get("/article/ballots-and-bicycles").await.status(), 404);
        // Delete.
        let r = app
            .request(
                Method::DELETE,
                &format!("/api/v1/staff/articles/{id}"),
                Some(&w),
            )
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 204);
        let (_, mine) = send(&app, Method::GET, "/api/v1/staff/articles", &w, Value::Null).await;
        assert_eq!(mine.as_array().unwrap().len(), 0);
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn the_content_director_writes_on_behalf_of_active_writers_only(engine: Engine) {
        let app = spawn_app(engine).await;
        let id = &app.services.identity;
        let (writer, _) = id.add_staff("Willa Writer", Role::Writer).await.unwrap();
        let (admin, _) = id.add_staff("Adam Admin", Role::Admin).await.unwrap();
        let (_, dk) = id
            .add_staff("Dora Director", Role::ContentDirector)
            .await
            .unwrap();
        let d = app.login(&dk).await;
        let (status, writers) =
            send(&app, Method::GET, "/api/v1/staff/writers", &d, Value::Null).await;
        assert_eq!(status, 200);
        assert_eq!(
            writers
                .as_array()
                .unwrap()
                .iter()
                .filter(|w| w["name"] == "Willa Writer")
                .count(),
            1
        );
        let article = |author: Option<&str>| json!({"title": "On Behalf", "content": "Text", "status": "published", "author_id": author});
        let (status, b) = send(
            &app,
            Method::POST,
            "/api/v1/staff/articles",
            &d,
            article(None),
        )
        .await;
        assert_eq!(
            (status, b["message"].as_str()),
            (400, Some("Please select a writer for the article"))
        );
        let (status, _) = send(
            &app,
            Method::POST,
            "/api/v1/staff/articles",
            &d,
            article(Some(&admin.id)),
        )
        .await;
        assert_eq!(status, 400, "an admin is not a writer");
        let (status, a) = send(
            &app,
            Method::POST,
            "/api/v1/staff/articles",
            &d,
            article(Some(&writer.id)),
        )
        .await;
        assert_eq!(status, 201);
        assert_eq!(a["author_name"], "Willa Writer");
        let (_, public) = app.json("/api/v1/articles/on-behalf").await;
        // Staff know her by her full name; readers by the name her page shows (issue 35).
        assert_eq!(public["author_name"], "Willa W.");
        assert_eq!(public["author_slug"], "willa-w");
        app.shutdown().await;
    }
}

fn png_bytes(width: u32, height: u32, noise: bool) -> Vec<u8> {
    let mut state: u32 = 0x1234_5678;
    let img = image::RgbaImage::from_fn(width, height, |x, y| {
        if noise {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let b = state.to_le_bytes();
            image::Rgba([b[0], b[1], b[2], 255])
        } else {
            image::Rgba([(x % 256) as u8, (y % 256) as u8, 90, 255])
        }
    });
    let mut out = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgba8(img)
        .write_to(&mut out, image::ImageFormat::Png)
        .unwrap();
    out.into_inner()
}

async fn upload(app: &TestApp, cookie: Option<&str>, name: &str, bytes: Vec<u8>) -> (u16, Value) {
    let part = reqwest::multipart::Part::bytes(bytes)
        .file_name(name.to_string())
        .mime_str("image/png")
        .unwrap();
    let form = reqwest::multipart::Form::new().part("file", part);
    let r = app
        .request(Method::POST, "/api/v1/staff/covers", cookie)
        .multipart(form)
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

// Engine-independent: covers are checked and stored as files; none of it reaches the database.
#[tokio::test]
async fn cover_uploads_are_checked_by_content_and_stored_safely() {
    let app = spawn_app(Engine::Sqlite).await;
    let (_, key) = app
        .services
        .identity
        .add_staff("Uma", Role::Writer)
        .await
        .unwrap();
    let (_, ek) = app
        .services
        .identity
        .add_staff("Ed", Role::Educator)
        .await
        .unwrap();
    let w = app.login(&key).await;
    let e = app.login(&ek).await;

    let (status, b) = upload(&app, Some(&w), "notes.png", b"just some text".to_vec()).await;
    assert_eq!((status, b["code"].as_str()), (415, Some("not_an_image")));
    assert_eq!(b["message"], "Please upload an image file (JPG, PNG, etc.)");

    let big = png_bytes(1400, 1100, true);
    assert!(
        big.len() > 5 * 1024 * 1024,
        "test image is {} bytes",
        big.len()
    );
    let (status, b) = upload(&app, Some(&w), "big.png", big).await;
    assert_eq!(status, 413);
    assert_eq!(b["message"], "Please upload an image smaller than 5MB");

    let mut poly = png_bytes(30, 20, false);
    poly.extend_from_slice(b"<html><script>alert(1)</script></html>");
    let (status, b) = upload(&app, Some(&w), "../../../etc/evil.png", poly).await;
    assert_eq!(status, 201, "{b}");
    let url = b["url"].as_str().unwrap();
    assert!(url.starts_with("/media/covers/") && !url.contains("evil") && !url.contains(".."));
    let r = app.get(url).await;
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(r.headers()["content-type"], "image/png");
    let stored = r.bytes().await.unwrap();
    assert!(!String::from_utf8_lossy(&stored).contains("<script>"));
    assert!(!app.dir.0.join("etc").exists());
    // Browsers that accept WebP get the WebP twin.
    let r = app
        .client
        .get(format!("{}{url}", app.address))
        .header("accept", "image/avif,image/webp,*/*")
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["content-type"], "image/webp");
    // Its width copies are stored with it, for pages' srcset (never wider than the upload).
    let stem = url.trim_start_matches("/media/").trim_end_matches(".png");
    for width in [400, 800, 1200] {
        let key = format!("{stem}.w{width}.webp");
        assert!(
            app.services.storage.head(&key).await.unwrap().is_some(),
            "{key}"
        );
        let r = app.get(&format!("/media/{key}")).await;
        assert_eq!(r.headers()["content-type"], "image/webp");
        let copy = image::load_from_memory(&r.bytes().await.unwrap()).unwrap();
        assert_eq!((copy.width(), copy.height()), (30, 20));
    }

    // The form is one part: another part beside the image is refused, not ignored.
    let form = reqwest::multipart::Form::new()
        .text("caption", "A photo")
        .part(
            "file",
            reqwest::multipart::Part::bytes(png_bytes(4, 4, false)).file_name("x.png"),
        );
    let r = app
        .request(Method::POST, "/api/v1/staff/covers", Some(&w))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 400);
    let b: Value = r.json().await.unwrap();
    assert!(
        b["message"]
            .as_str()
            .unwrap()
            .contains("this form takes one part, `file`"),
        "{b}"
    );

    let (status, _) = upload(&app, Some(&e), "x.png", png_bytes(4, 4, false)).await;
    assert_eq!(status, 403);
    let (status, _) = upload(&app, None, "x.png", png_bytes(4, 4, false)).await;
    assert_eq!(status, 401);
    app.shutdown().await;
}

// Engine-independent: the address is refused before anything is written.
#[tokio::test]
async fn a_cover_address_no_browser_could_load_is_refused_and_the_piece_kept() {
    let app = spawn_app(Engine::Sqlite).await;
    let (_, key) = app
        .services
        .identity
        .add_staff("Cora", Role::Writer)
        .await
        .unwrap();
    let w = app.login(&key).await;
    let piece = |cover: &str| {
        json!({"title": "Cover test", "content": "Text", "status": "draft",
               "cover_image": cover})
    };
    let good = "https://images.example.org/march.jpg";
    let (status, a) = send(
        &app,
        Method::POST,
        "/api/v1/staff/articles",
        &w,
        piece(good),
    )
    .await;
    assert_eq!(status, 201, "{a}");
    let id = a["id"].as_str().unwrap().to_string();
    for bad in [
        "http://[x",
        "https://",
        "https:///images.example.org/x.jpg",
        "https://name:password@images.example.org/x.jpg",
        "javascript:alert(1)",
        "/media/../private/keys",
    ] {
        for (method, path) in [
            (Method::POST, "/api/v1/staff/articles".to_string()),
            (Method::PUT, format!("/api/v1/staff/articles/{id}")),
        ] {
            let (status, b) = send(&app, method, &path, &w, piece(bad)).await;
            assert_eq!(
                (status, b["code"].as_str(), b["message"].as_str()),
                (
                    400,
                    Some("invalid_cover_image"),
                    Some("The cover image must be a web address (https://…) or an uploaded image")
                ),
                "{bad}"
            );
        }
    }
    // The refused saves left the piece as it was, and created nothing.
    let get = |path: String| {
        let r = app.request(Method::GET, &path, Some(&w)).send();
        async move { r.await.unwrap().json::<Value>().await.unwrap() }
    };
    let kept = get(format!("/api/v1/staff/articles/{id}")).await;
    assert_eq!(kept["cover_image"].as_str(), Some(good), "{kept}");
    let all = get("/api/v1/staff/articles".into()).await;
    assert_eq!(all.as_array().map(Vec::len), Some(1), "{all}");
    app.shutdown().await;
}
