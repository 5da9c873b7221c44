//! The educational packs: an admin uploads a PDF per pack and launches them; until then the
//! packs page keeps its launch content and no file is public; from then on readers and
//! educators download the packs, and the launch can be announced to the packs list once.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use std::time::Duration;

use common::{eventually, spawn_app_with, Options, TestApp};
use identity::Role;
use reqwest::Method;
use serde_json::{json, Value};

fn pdf(marker: &str) -> Vec<u8> {
    format!("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% {marker}\n%%EOF\n").into_bytes()
}

async fn upload(app: &TestApp, cookie: &str, id: &str, name: &str, bytes: Vec<u8>) -> (u16, Value) {
    let form = reqwest::multipart::Form::new().part(
        "file",
        reqwest::multipart::Part::bytes(bytes)
            .file_name(name.to_string())
            .mime_str("application/pdf")
            .unwrap(),
    );
    let r = app
        .request(
            Method::PUT,
            &format!("/api/v1/staff/packs/{id}/file"),
            Some(cookie),
        )
        .multipart(form)
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

async fn call(app: &TestApp, method: Method, path: &str, cookie: Option<&str>) -> (u16, Value) {
    let r = app.request(method, path, cookie).send().await.unwrap();
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

on_both_engines! {
    async fn packs_are_uploaded_launched_downloaded_and_announced_once(engine: Engine) {
        let app = spawn_app_with(engine, Options { ssr: true, ..Options::default() }).await;
        let (_, key) = app.services.identity.add_staff("Ada Admin", Role::Admin).await.unwrap();
        let (_, ekey) = app.services.identity.add_staff("Eve Educator", Role::Educator).await.unwrap();
        let admin = app.login(&key).await;
        let educator = app.login(&ekey).await;

        let (status, packs) = app.json("/api/v1/packs").await;
        assert_eq!(status, 200);
        assert_eq!(packs["launched_at"], Value::Null);
        let ids: Vec<&str> = packs["packs"].as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap()).collect();
        assert_eq!(ids, ["democracy", "climate", "rights"]);
        assert!(packs["packs"].as_array().unwrap().iter().all(|p| p["file_url"].is_null()));
        let page = app.get("/educational-packs").await.text().await.unwrap();
        assert!(page.contains("Launching this January"));

        // Admins only; PDFs only; known packs only; every pack before the launch.
        assert_eq!(upload(&app, &educator, "democracy", "d.pdf", pdf("d")).await.0, 403);
        let (status, b) = upload(&app, &admin, "democracy", "d.pdf", b"not a pdf".to_vec()).await;
        assert_eq!((status, b["code"].as_str()), (415, Some("not_a_pdf")));
        assert_eq!(upload(&app, &admin, "astrology", "a.pdf", pdf("a")).await.0, 404);
        assert_eq!(upload(&app, &admin, "democracy", "d.pdf", pdf("d")).await.0, 200);
        let (status, b) = call(&app, Method::POST, "/api/v1/staff/packs/launch", Some(&admin)).await;
        assert_eq!((status, b["code"].as_str()), (409, Some("pack_file_missing")), "{b}");
        assert!(b["message"].as_str().unwrap().contains("Climate Policy and Global Cooperation"));
        assert_eq!(upload(&app, &admin, "climate", "c.pdf", pdf("c")).await.0, 200);
        let (status, staff) = upload(&app, &admin, "rights", "r.pdf", pdf("r")).await;
        assert_eq!(status, 200);
        assert!(staff["packs"].as_array().unwrap().iter().all(|p| p["file_url"].is_string()));
        // Not launched: readers see no files, and nothing can be announced.
        assert!(app.json("/api/v1/packs").await.1["packs"][0]["file_url"].is_null());
        let (status, b) = call(&app, Method::GET, "/api/v1/staff/packs/announcement", Some(&admin)).await;
        assert_eq!((status, b["code"].as_str(), b["message"].as_str()), (409, Some("invalid_transition"), Some("Launch the packs first.")));
        assert_eq!(call(&app, Method::POST, "/api/v1/staff/packs/launch", Some(&educator)).await.0, 403);

        let (status, launched) = call(&app, Method::POST, "/api/v1/staff/packs/launch", Some(&admin)).await;
        assert_eq!(status, 200);
        assert!(launched["launched_at"].is_string());
        let (_, packs) = app.json("/api/v1/packs").await;
        let url = packs["packs"][0]["file_url"].as_str().unwrap().to_string();
        let r = app.get(&url).await;
        assert_eq!(r.status().as_u16(), 200);
        assert_eq!(r.headers()["content-type"], "application/pdf");
        assert!(r.bytes().await.unwrap().starts_with(b"%PDF"));
        // The page (cached before) now offers the downloads.
        let page = app.get("/educational-packs").await.text().await.unwrap();
        assert!(!page.contains("Launching this January"));
        assert!(page.contains(&url), "the page links the file");

        // The launch email, to the packs list, once.
        for email in ["tia@example.org", "uma@example.org"] {
            let r = app.request(Method::POST, "/api/v1/notify", None).json(&json!({"email": email, "list": "packs"})).send().await.unwrap();
            assert_eq!(r.status().as_u16(), 200);
        }
        let (status, preview) = call(&app, Method::GET, "/api/v1/staff/packs/announcement", Some(&admin)).await;
        assert_eq!(status, 200);
        assert_eq!(preview["recipients"], 2);
        assert_eq!(preview["subject"], "The educational packs from The Agora are here");
        assert!(preview["body"].as_str().unwrap().contains("https://agora.test/educational-packs"));
        assert_eq!(call(&app, Method::POST, "/api/v1/staff/packs/announcement", Some(&admin)).await.0, 202);
        eventually("both queued", Duration::from_secs(15), || async {
            let (_, p) = call(&app, Method::GET, "/api/v1/staff/packs/announcement", Some(&admin)).await;
            p["progress"]["queued"] == 2 && p["progress"]["finished"] == true
        }).await;
        let (_, again) = call(&app, Method::POST, "/api/v1/staff/packs/announcement", Some(&admin)).await;
        assert_eq!(again["queued"], 2, "sent once");
        app.shutdown().await;
    }
}

// Real numbers on the educator dashboard (issue 30): each educator's download of a pack counts
// once a day; nothing is counted (or served) before the launch; only educators and admins.
on_both_engines! {
    async fn educator_downloads_are_counted_once_per_educator_pack_and_day(engine: Engine) {
        let app = spawn_app_with(engine, Options::default()).await;
        let ids = &app.services.identity;
        let admin = app.login(&ids.add_staff("Ada Admin", Role::Admin).await.unwrap().1).await;
        let eve = app.login(&ids.add_staff("Eve Educator", Role::Educator).await.unwrap().1).await;
        let eli = app.login(&ids.add_staff("Eli Educator", Role::Educator).await.unwrap().1).await;
        let wren = app.login(&ids.add_staff("Wren Writer", Role::Writer).await.unwrap().1).await;
        let no_redirects = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
        let download = |cookie: String, id: &'static str| {
            let client = no_redirects.clone();
            let url = format!("{}/api/v1/staff/packs/{id}/download", app.address);
            async move {
                let r = client.get(url).header("cookie", cookie).send().await.unwrap();
                let to = r.headers().get("location").map(|l| l.to_str().unwrap().to_string());
                (r.status().as_u16(), to)
            }
        };
        let usage = |cookie: String| {
            let app = &app;
            async move { call(app, Method::GET, "/api/v1/staff/packs/usage", Some(&cookie)).await }
        };

        let (status, before) = usage(eve.clone()).await;
        assert_eq!(status, 200, "{before}");
        assert_eq!((before["available"].clone(), before["total_downloads"].clone()), (json!(0), json!(0)));
        assert_eq!(download(eve.clone(), "democracy").await.0, 409, "not launched yet");
        assert_eq!(usage(wren.clone()).await.0, 403);
        assert_eq!(download(wren.clone(), "democracy").await.0, 403);

        for id in ["democracy", "climate", "rights"] {
            assert_eq!(upload(&app, &admin, id, "p.pdf", pdf(id)).await.0, 200);
        }
        assert_eq!(call(&app, Method::POST, "/api/v1/staff/packs/launch", Some(&admin)).await.0, 200);
        assert_eq!(download(eve.clone(), "nope").await.0, 404);
        // Eve twice, Eli once: two downloads of the democracy pack today.
        for cookie in [&eve, &eve, &eli] {
            let (status, to) = download(cookie.clone(), "democracy").await;
            assert_eq!(status, 303);
            assert!(to.unwrap().contains("/media/packs/democracy-"));
        }
        let (_, after) = usage(eli.clone()).await;
        assert_eq!(after["available"], 3);
        assert_eq!(after["total_downloads"], 2, "{after}");
        let democracy = after["packs"].as_array().unwrap().iter().find(|p| p["id"] == "democracy").unwrap();
        assert_eq!(democracy["downloads"], 2);
        assert_eq!(democracy["available"], true);
        app.shutdown().await;
    }
}
