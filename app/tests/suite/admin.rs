//! The admin's tools: page views (counting rules, batching, shutdown flush, time zones),
//! magazine issues and staff management, each admin-only on the server.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use chrono::{TimeZone, Utc};
use common::{spawn_app, spawn_app_with, Options, TestApp};
use identity::Role;
use reqwest::Method;
use serde_json::{json, Value};

const BROWSER: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

async fn visit(app: &TestApp, method: Method, path: &str, ua: &str, from: &str) -> u16 {
    app.request(method, path, None)
        .header("user-agent", ua)
        .header("x-forwarded-for", from)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

async fn stats(app: &TestApp, cookie: &str, tz: &str) -> (u16, Value) {
    let r = app
        .request(
            Method::GET,
            &format!("/api/v1/staff/stats?tz={tz}"),
            Some(cookie),
        )
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

async fn total(app: &TestApp) -> i64 {
    assert!(app.services.views.flush().await);
    app.services.analytics.total().await.unwrap()
}

/// A page load's beacon, as the page's script sends it: with its tab's marker when given.
async fn beacon(app: &TestApp, path: &str, tab: Option<&str>, ua: &str, from: &str) -> u16 {
    let body = match tab {
        Some(tab) => json!({ "path": path, "tab": tab }),
        None => json!({ "path": path }),
    };
    app.request(Method::POST, "/api/v1/views", None)
        .header("user-agent", ua)
        .header("x-forwarded-for", from)
        .json(&body)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

on_both_engines! {
    async fn page_views_follow_the_counting_rules(engine: Engine) {
        let app = spawn_app_with(
            engine,
            Options {
                trust_proxy: true,
                ..Options::default()
            },
        )
        .await;
        assert_eq!(total(&app).await, 0);
        // Serving a page counts nothing by itself: the page's beacon (or its image, without
        // scripts) does, so a page is never counted twice.
        assert_eq!(visit(&app, Method::GET, "/", BROWSER, "203.0.113.1").await, 200);
        assert_eq!(total(&app).await, 0);
        // A reader opens two pages in a tab: two views; reloading one: no more.
        assert_eq!(beacon(&app, "/", Some("tab-a"), BROWSER, "203.0.113.1").await, 204);
        assert_eq!(beacon(&app, "/about", Some("tab-a"), BROWSER, "203.0.113.1").await, 204);
        assert_eq!(beacon(&app, "/", Some("tab-a"), BROWSER, "203.0.113.1").await, 204);
        assert_eq!(total(&app).await, 2, "{engine:?}");
        // A class of 25 identical Chromebooks behind one school address: 25 views; one of them
        // reloading ten times adds none.
        for i in 0..25 {
            beacon(&app, "/articles", Some(&format!("chromebook-{i}")), BROWSER, "198.51.100.7").await;
        }
        for _ in 0..10 {
            beacon(&app, "/articles", Some("chromebook-0"), BROWSER, "198.51.100.7").await;
        }
        assert_eq!(total(&app).await, 27);
        // Not counted: robots, dashboards, the API, missing pages.
        beacon(&app, "/magazine", Some("bot"), "Googlebot/2.1 (+http://www.google.com/bot.html)", "203.0.113.3").await;
        beacon(&app, "/magazine", Some("empty-ua"), "", "203.0.113.3").await;
        beacon(&app, "/dashboard/admin", Some("tab-d"), BROWSER, "203.0.113.3").await;
        beacon(&app, "/api/v1/articles", Some("tab-d"), BROWSER, "203.0.113.3").await;
        beacon(&app, "/no-such-page", Some("tab-d"), BROWSER, "203.0.113.3").await;
        assert_eq!(total(&app).await, 27);
        // Without a marker (an old page), the address and browser stand in for the tab.
        beacon(&app, "/contact-us", None, BROWSER, "203.0.113.4").await;
        beacon(&app, "/contact-us", None, BROWSER, "203.0.113.4").await;
        assert_eq!(total(&app).await, 28);
        // A page loaded without scripts is counted by its image, reloads folded by address.
        let page = app.get("/about").await.text().await.unwrap();
        let src = page
            .split("<noscript><img src=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .expect("the no-script view image")
            .to_string();
        assert_eq!(src, "/api/v1/views/pixel?path=%2Fabout");
        for _ in 0..2 {
            let r = app
                .request(Method::GET, &src, None)
                .header("user-agent", BROWSER)
                .header("x-forwarded-for", "203.0.113.9")
                .send()
                .await
                .unwrap();
            assert_eq!(r.status().as_u16(), 200);
            assert_eq!(r.headers()["content-type"], "image/gif");
        }
        assert_eq!(total(&app).await, 29);
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn views_held_in_memory_are_written_on_shutdown(engine: Engine) {
        let mut app = spawn_app_with(
            engine,
            Options {
                trust_proxy: true,
                views_flush: std::time::Duration::from_secs(3600),
                ..Options::default()
            },
        )
        .await;
        for (i, path) in ["/", "/articles", "/about", "/magazine"].iter().enumerate() {
            beacon(&app, path, Some(&format!("tab-{i}")), BROWSER, "198.51.100.1").await;
        }
        // Nothing forced a write yet: the views are held in memory.
        assert_eq!(app.services.analytics.total().await.unwrap(), 0);
        // Kept past the shutdown: a SQLite database lives in it.
        let _dir = std::mem::replace(&mut app.dir, common::TempDir(std::path::PathBuf::new()));
        let database_url = app.database_url.clone();
        app.shutdown().await;
        // The app has stopped; its database holds every view.
        let db = kernel::Db::connect(&database_url).await.unwrap();
        assert_eq!(analytics::store_for(&db).total().await.unwrap(), 4);
    }
}

on_both_engines! {
    async fn figures_are_for_admins_and_count_today_in_their_time_zone(engine: Engine) {
        let app = spawn_app(engine).await;
        let id = &app.services.identity;
        let (_, admin_key) = id.add_staff("Ada Admin", Role::Admin).await.unwrap();
        let (_, writer_key) = id.add_staff("Wren Writer", Role::Writer).await.unwrap();
        let admin = app.login(&admin_key).await;
        let writer = app.login(&writer_key).await;
        assert_eq!(stats(&app, &writer, "UTC").await.0, 403);
        let r = app
            .request(Method::GET, "/api/v1/staff/stats", None)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 401);
        let (status, body) = stats(&app, &admin, "Mars/Olympus_Mons").await;
        assert_eq!(status, 422);
        assert!(body["message"].as_str().unwrap().contains("IANA"));

        // Three views around UTC midnight: 23:30 and 23:50 UTC yesterday, and one today, half
        // way from midnight to now (never in the future, whatever the hour the test runs at;
        // before 15:00 UTC, so on the same Tokyo day as the other two).
        let now = Utc::now();
        let midnight = Utc.from_utc_datetime(&now.date_naive().and_hms_opt(0, 0, 0).unwrap());
        let at = |mins: i64| midnight + chrono::Duration::minutes(mins);
        let today_at = (now - midnight).num_minutes() / 2;
        let views: Vec<analytics::View> =
            [(-30, "/article/a"), (-10, "/article/a"), (today_at, "/article/b")]
                .iter()
                .map(|(m, p)| analytics::View {
                    path: p.to_string(),
                    at: at(*m),
                })
                .collect();
        app.services.analytics.insert(&views).await.unwrap();
        let (status, utc) = stats(&app, &admin, "UTC").await;
        assert_eq!(status, 200, "{utc}");
        assert_eq!(utc["total_views"], 3);
        assert_eq!(utc["views_today"], 1, "{utc}");
        // In Tokyo (UTC+9) all three fell on the same local day, today's when it is past
        // 09:30 there... so compare the chart instead: one bar holds all three.
        let (_, tokyo) = stats(&app, &admin, "Asia/Tokyo").await;
        let bars: Vec<i64> = tokyo["days"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["views"].as_i64().unwrap())
            .collect();
        assert_eq!(bars.len(), 30);
        assert!(bars.contains(&3), "Tokyo: {bars:?}");
        // In UTC they split 2 + 1 across two days.
        let bars: Vec<i64> = utc["days"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["views"].as_i64().unwrap())
            .collect();
        assert!(bars.contains(&2), "UTC: {bars:?}");
        assert_eq!(tokyo["time_zone"], "Asia/Tokyo");
        // Top articles, most viewed first.
        let top = utc["top_articles"].as_array().unwrap();
        assert_eq!(top[0]["slug"], "a");
        assert_eq!(top[0]["views"], 2);
        app.shutdown().await;
    }
}

// ---------------------------------------------------------------------------------------
// Magazines

fn pdf(size: usize) -> Vec<u8> {
    let mut b = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n".to_vec();
    b.resize(size.max(b.len()), b' ');
    b.extend_from_slice(b"\n%%EOF\n");
    b
}

async fn upload(app: &TestApp, cookie: &str, name: &str, bytes: Vec<u8>) -> (u16, Value) {
    let form = reqwest::multipart::Form::new().part(
        "file",
        reqwest::multipart::Part::bytes(bytes)
            .file_name(name.to_string())
            .mime_str("application/pdf")
            .unwrap(),
    );
    let r = app
        .request(Method::POST, "/api/v1/staff/magazines", Some(cookie))
        .multipart(form)
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

on_both_engines! {
    async fn magazine_issues_are_pdfs_uploaded_and_managed_by_admins_only(engine: Engine) {
        let app = spawn_app_with(
            engine,
            Options {
                magazine_max_bytes: 1024 * 1024,
                ..Options::default()
            },
        )
        .await;
        let id = &app.services.identity;
        let (_, admin_key) = id.add_staff("Ada Admin", Role::Admin).await.unwrap();
        let admin = app.login(&admin_key).await;
        for role in [Role::Writer, Role::Educator, Role::ContentDirector] {
            let (_, key) = id.add_staff("Someone", role).await.unwrap();
            let cookie = app.login(&key).await;
            assert_eq!(
                upload(&app, &cookie, "x.pdf", pdf(100)).await.0,
                403,
                "{role:?}"
            );
            let r = app
                .request(Method::GET, "/api/v1/staff/magazines", Some(&cookie))
                .send()
                .await
                .unwrap();
            assert_eq!(r.status().as_u16(), 403);
        }

        let (status, first) = upload(&app, &admin, "October 2026.pdf", pdf(20_000)).await;
        assert_eq!(status, 201, "{first}");
        assert_eq!(first["title"], "October 2026");
        let url = first["file_url"].as_str().unwrap().to_string();
        assert!(url.starts_with("/media/magazines/"), "{url}");
        let (status, second) = upload(&app, &admin, "November 2026.PDF", pdf(1000)).await;
        assert_eq!(status, 201);

        // A PNG named .pdf and an oversized PDF are refused with the product's messages.
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        let (status, body) = upload(&app, &admin, "issue.pdf", png).await;
        assert_eq!(
            (status, body["message"].as_str()),
            (415, Some("Please upload a PDF file."))
        );
        let (status, body) = upload(&app, &admin, "big.pdf", pdf(1024 * 1024 + 10)).await;
        assert_eq!(status, 413, "{body}");
        assert!(body["message"].as_str().unwrap().contains("1 MB"));

        // Listed newest first; served inline as a PDF with ranges and caching.
        let r = app
            .request(Method::GET, "/api/v1/staff/magazines", Some(&admin))
            .send()
            .await
            .unwrap();
        let list: Value = r.json().await.unwrap();
        let titles: Vec<&str> = list
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["title"].as_str().unwrap())
            .collect();
        assert_eq!(titles, ["November 2026", "October 2026"]);
        let r = app.get(&url).await;
        assert_eq!(r.status().as_u16(), 200);
        assert_eq!(r.headers()["content-type"], "application/pdf");
        assert_eq!(r.headers()["content-disposition"], "inline");
        // Its scripts, if any, run sandboxed, not on the site's origin.
        assert_eq!(
            r.headers()["content-security-policy"],
            "default-src 'none'; style-src 'unsafe-inline'; sandbox"
        );
        assert!(r.headers().contains_key("cache-control"));
        let r = app
            .request(Method::GET, &url, None)
            .header("range", "bytes=0-4")
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 206);
        assert_eq!(r.bytes().await.unwrap().as_ref(), b"%PDF-");

        // Rename and delete.
        let path = format!("/api/v1/staff/magazines/{}", first["id"].as_str().unwrap());
        let r = app
            .request(Method::PATCH, &path, Some(&admin))
            .json(&json!({"title": "  "}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 400);
        let r = app
            .request(Method::PATCH, &path, Some(&admin))
            .json(&json!({"title": "October issue"}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 200);
        let renamed: Value = r.json().await.unwrap();
        assert_eq!(renamed["title"], "October issue");
        let r = app
            .request(Method::DELETE, &path, Some(&admin))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 204);
        assert_eq!(app.get(&url).await.status().as_u16(), 404);
        let r = app
            .request(Method::DELETE, &path, Some(&admin))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 404);
        let _ = second;
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn the_same_pdf_uploaded_twice_is_named_not_stored_again(engine: Engine) {
        let app = spawn_app(engine).await;
        let (_, key) = app
            .services
            .identity
            .add_staff("Ada Admin", Role::Admin)
            .await
            .unwrap();
        let admin = app.login(&key).await;
        let files = |app: &TestApp| {
            std::fs::read_dir(app.data_dir().join("uploads/magazines"))
                .map(|d| d.count())
                .unwrap_or(0)
        };
        let (status, first) = upload(&app, &admin, "October 2026.pdf", pdf(5_000)).await;
        assert_eq!(status, 201, "{first}");

        // The same bytes under another name: refused, naming the issue it already is.
        let (status, body) = upload(&app, &admin, "october-final.pdf", pdf(5_000)).await;
        assert_eq!(status, 409, "{body}");
        assert_eq!(body["code"], "duplicate_upload");
        assert_eq!(
            body["message"],
            "This PDF has already been uploaded as \u{201c}October 2026\u{201d}."
        );
        // A renamed issue is named by its new title; another file is a new issue.
        let path = format!("/api/v1/staff/magazines/{}", first["id"].as_str().unwrap());
        let r = app
            .request(Method::PATCH, &path, Some(&admin))
            .json(&json!({"title": "October issue"}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 200);
        let (_, body) = upload(&app, &admin, "again.pdf", pdf(5_000)).await;
        assert!(body["message"].as_str().unwrap().contains("October issue"), "{body}");
        let (status, _) = upload(&app, &admin, "November 2026.pdf", pdf(6_000)).await;
        assert_eq!(status, 201);
        let r = app
            .request(Method::GET, "/api/v1/staff/magazines", Some(&admin))
            .send()
            .await
            .unwrap();
        let list: Value = r.json().await.unwrap();
        assert_eq!(list.as_array().unwrap().len(), 2, "no second row: {list}");
        assert_eq!(files(&app), 2, "no second file");

        // Once deleted, the file may be uploaded again.
        let r = app
            .request(Method::DELETE, &path, Some(&admin))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 204);
        let (status, _) = upload(&app, &admin, "October 2026.pdf", pdf(5_000)).await;
        assert_eq!(status, 201);

        // The same new file sent four times at once: the unique index lets one in, the others
        // are told which issue it is; one row and one file more.
        let rows_before = files(&app);
        let answers = futures_util::future::join_all((0..4).map(|i| {
            upload(&app, &admin, if i == 0 { "December.pdf" } else { "dec.pdf" }, pdf(7_000))
        }))
        .await;
        let mut statuses: Vec<u16> = answers.iter().map(|(s, _)| *s).collect();
        statuses.sort_unstable();
        assert_eq!(statuses, [201, 409, 409, 409], "{answers:?}");
        let created = &answers.iter().find(|(s, _)| *s == 201).unwrap().1;
        for (_, body) in answers.iter().filter(|(s, _)| *s == 409) {
            assert!(
                body["message"]
                    .as_str()
                    .unwrap()
                    .contains(created["title"].as_str().unwrap()),
                "{body}"
            );
        }
        assert_eq!(files(&app), rows_before + 1, "one file kept");
        let r = app
            .request(Method::GET, "/api/v1/staff/magazines", Some(&admin))
            .send()
            .await
            .unwrap();
        let list: Value = r.json().await.unwrap();
        assert_eq!(list.as_array().unwrap().len(), 3, "{list}");
        app.shutdown().await;
    }
}

// ---------------------------------------------------------------------------------------
// Staff management

on_both_engines! {
    async fn admins_manage_staff_keys_and_the_last_admin_stays(engine: Engine) {
        let app = spawn_app(engine).await;
        let id = &app.services.identity;
        let (me, admin_key) = id.add_staff("Ada Admin", Role::Admin).await.unwrap();
        let (_, writer_key) = id.add_staff("Wren Writer", Role::Writer).await.unwrap();
        let admin = app.login(&admin_key).await;
        let writer = app.login(&writer_key).await;

        // Only admins, each sent a body its operation reads.
        for (method, path, body) in [
            (Method::GET, "/api/v1/staff/members".to_string(), json!({})),
            (
                Method::POST,
                "/api/v1/staff/members".to_string(),
                json!({"name": "X", "role": "writer"}),
            ),
            (
                Method::POST,
                format!("/api/v1/staff/members/{}/rotate-key", me.id),
                json!({}),
            ),
            (
                Method::PUT,
                format!("/api/v1/staff/members/{}/active", me.id),
                json!({"active": false}),
            ),
        ] {
            let r = app
                .request(method.clone(), &path, Some(&writer))
                .json(&body)
                .send()
                .await
                .unwrap();
            assert_eq!(r.status().as_u16(), 403, "{method} {path}");
        }

        // Add: the key comes back once and works.
        let r = app
            .request(Method::POST, "/api/v1/staff/members", Some(&admin))
            .json(&json!({"name": "Nia New", "role": "writer"}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 201);
        let added: Value = r.json().await.unwrap();
        let key = added["access_key"].as_str().unwrap().to_string();
        let new_id = added["member"]["id"].as_str().unwrap().to_string();
        app.login(&key).await;
        let r = app
            .request(Method::POST, "/api/v1/staff/members", Some(&admin))
            .json(&json!({"name": "  ", "role": "writer"}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 400);
        // At most 100 characters as sent (the contract's maxLength), white space included.
        for (name, status) in [(format!(" {}", "n".repeat(100)), 400), ("n".repeat(100), 201)] {
            let r = app
                .request(Method::POST, "/api/v1/staff/members", Some(&admin))
                .json(&json!({"name": name, "role": "writer"}))
                .send()
                .await
                .unwrap();
            assert_eq!(r.status().as_u16(), status, "{} characters", name.chars().count());
        }

        // The list shows everyone, never a key.
        let r = app
            .request(Method::GET, "/api/v1/staff/members", Some(&admin))
            .send()
            .await
            .unwrap();
        let text = r.text().await.unwrap();
        assert!(text.contains("Nia New") && !text.contains(&key) && !text.contains("key_hash"));

        // Rotate: the old key stops working, the new one signs in.
        let r = app
            .request(
                Method::POST,
                &format!("/api/v1/staff/members/{new_id}/rotate-key"),
                Some(&admin),
            )
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 200);
        let rotated: Value = r.json().await.unwrap();
        let new_key = rotated["access_key"].as_str().unwrap();
        assert_ne!(new_key, key);
        let r = app
            .request(Method::POST, "/api/v1/session", None)
            .json(&json!({"access_key": key}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 401);
        app.login(new_key).await;

        // Disable and enable.
        let set = |id: String, active: bool| {
            let app = &app;
            let admin = admin.clone();
            async move {
                let r = app
                    .request(
                        Method::PUT,
                        &format!("/api/v1/staff/members/{id}/active"),
                        Some(&admin),
                    )
                    .json(&json!({ "active": active }))
                    .send()
                    .await
                    .unwrap();
                (r.status().as_u16(), r.json::<Value>().await.unwrap())
            }
        };
        let (status, body) = set(new_id.clone(), false).await;
        assert_eq!((status, &body["active"]), (200, &json!(false)));
        let r = app
            .request(Method::POST, "/api/v1/session", None)
            .json(&json!({"access_key": new_key}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 401);
        assert_eq!(set(new_id.clone(), true).await.0, 200);
        app.login(new_key).await;
        assert_eq!(set("no-such-id".into(), false).await.0, 404);

        // The only active admin cannot disable themselves.
        let (status, body) = set(me.id.clone(), false).await;
        assert_eq!(status, 409);
        assert_eq!(body["code"], "last_admin");
        app.shutdown().await;
    }
}
