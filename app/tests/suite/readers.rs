//! Reader accounts, end to end over HTTP: register → confirm → sign in (password or emailed
//! link) → the account page (profile, interests, subscriptions, password, data download,
//! deletion) → sign out; password reset; no answer that tells whether an address has an
//! account; reader and staff sessions that never open each other's doors.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use std::time::{Duration, Instant};

use common::mail::{quoted_printable, token_in};
use common::{spawn_app, spawn_app_with, Engine, Options, TestApp};
use identity::Role;
use reqwest::Method;
use serde_json::{json, Value};

const SITE: &str = "https://agora.test";

pub(crate) async fn send(
    app: &TestApp,
    method: Method,
    path: &str,
    cookie: Option<&str>,
    body: Option<Value>,
) -> (u16, Value, Option<String>) {
    let mut req = app.request(method, path, cookie);
    if let Some(b) = body {
        req = req.json(&b);
    }
    let r = req.send().await.unwrap();
    let status = r.status().as_u16();
    let cookie = r
        .headers()
        .get("set-cookie")
        .map(|c| c.to_str().unwrap().split(';').next().unwrap().to_string());
    let text = r.text().await.unwrap();
    let body = serde_json::from_str(&text).unwrap_or(Value::Null);
    (status, body, cookie)
}

/// Every message the file transport wrote to `to`, oldest first, decoded.
pub(crate) fn mail_to(app: &TestApp, to: &str) -> Vec<String> {
    let dir = app.dir.0.join("data/outbox");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok());
    files
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .map(|m| quoted_printable(&m))
        .filter(|m| m.contains(&format!("To: {to}")))
        .collect()
}

/// Waits for the `n`th message to `to` and returns it.
pub(crate) async fn nth_mail(app: &TestApp, to: &str, n: usize) -> String {
    let start = Instant::now();
    loop {
        let all = mail_to(app, to);
        if all.len() >= n {
            return all[n - 1].clone();
        }
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "message {n} to {to} never came"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

pub(crate) fn registration(email: &str) -> Value {
    json!({
        "first_name": "Sam", "last_name": "Okoro", "email": email,
        "password": "correct horse", "confirm_password": "correct horse",
        "age": 16, "country": "Nigeria", "interests": ["Human Rights"]
    })
}

/// Registers and confirms `email`; its password is "correct horse".
pub(crate) async fn reader(app: &TestApp, email: &str) {
    let (status, _, _) = send(
        app,
        Method::POST,
        "/api/v1/accounts",
        None,
        Some(registration(email)),
    )
    .await;
    assert_eq!(status, 200);
    let mail = nth_mail(app, email, 1).await;
    let token = token_in(&mail, &format!("{SITE}/email/confirm?token="));
    let r = app.get(&format!("/email/confirm?token={token}")).await;
    assert_eq!(r.status().as_u16(), 200);
}

pub(crate) async fn sign_in(
    app: &TestApp,
    email: &str,
    password: &str,
) -> (u16, Value, Option<String>) {
    send(
        app,
        Method::POST,
        "/api/v1/reader/session",
        None,
        Some(json!({"email": email, "password": password})),
    )
    .await
}

async fn count(app: &TestApp, sql: &str) -> i64 {
    match &app.services.db {
        kernel::Db::Sqlite(p) => sqlx::query_scalar(sql).fetch_one(p).await.unwrap(),
        kernel::Db::Postgres(p) => sqlx::query_scalar(sql).fetch_one(p).await.unwrap(),
    }
}

on_both_engines! {
    async fn a_reader_registers_confirms_signs_in_edits_subscribes_and_signs_out(engine: Engine) {
        let app = spawn_app(engine).await;
        let email = "sam@example.org";
        // A client that sends one interest many times (more often than there are interests).
        let mut form = registration(email);
        form["interests"] = json!(vec!["Human Rights"; 8]);
        let (status, body, _) = send(&app, Method::POST, "/api/v1/accounts", None, Some(form)).await;
        assert_eq!(status, 200, "{body}");

        // Not confirmed yet: the right password gets a clear 403, and a new link can be asked.
        let (status, body, cookie) = sign_in(&app, email, "correct horse").await;
        assert_eq!((status, body["code"].as_str()), (403, Some("account_unconfirmed")), "{body}");
        assert!(body["message"].as_str().unwrap().contains("confirm your email"));
        assert!(cookie.is_none());
        let (status, asked, _) = send(&app, Method::POST, "/api/v1/accounts/confirmation", None, Some(json!({"email": email}))).await;
        assert_eq!(status, 200);
        let (_, unknown, _) = send(&app, Method::POST, "/api/v1/accounts/confirmation", None, Some(json!({"email": "nobody@example.org"}))).await;
        assert_eq!(asked, unknown, "the same answer for an address without an account");
        let second = nth_mail(&app, email, 2).await;
        assert!(second.contains("Confirm your email"));
        let token = token_in(&second, &format!("{SITE}/email/confirm?token="));
        let page = app.get(&format!("/email/confirm?token={token}")).await.text().await.unwrap();
        assert!(page.contains("Your email is confirmed"), "{page}");

        // Wrong password and unknown address: one answer.
        let (status, wrong, _) = sign_in(&app, email, "wrong horse").await;
        assert_eq!(status, 401);
        let (status, nobody, _) = sign_in(&app, "nobody@example.org", "wrong horse").await;
        assert_eq!((status, &nobody), (401, &wrong));
        assert_eq!(wrong["message"], "Invalid email or password.");

        let (status, who, cookie) = sign_in(&app, "SAM@example.org ", "correct horse").await;
        assert_eq!(status, 200, "{who}");
        assert_eq!(who["first_name"], "Sam");
        let cookie = cookie.expect("a session cookie");
        assert!(cookie.starts_with("agora_reader="));
        let me = Some(cookie.as_str());

        // Signed in, the sign-in and sign-up pages lead to the account (issue 30).
        for page in ["/login", "/signup"] {
            let r = app.request(Method::GET, page, me).send().await.unwrap();
            assert_eq!(r.status().as_u16(), 303, "{page}");
            assert_eq!(r.headers()["location"], "/account");
            assert_eq!(app.get(page).await.status().as_u16(), 200, "{page} signed out");
        }

        let (status, account, _) = send(&app, Method::GET, "/api/v1/reader/account", me, None).await;
        assert_eq!(status, 200);
        assert_eq!(account["email"], email);
        assert_eq!(account["interests"], json!(["Human Rights"]));
        assert_eq!(account["subscriptions"], json!({"magazine": false, "packs": false, "digest": false}));

        // Interests: the six categories only.
        let (status, body, _) = send(&app, Method::PUT, "/api/v1/reader/account", me, Some(json!({
            "first_name": "Sam", "last_name": "Okoro", "country": "Ghana", "interests": ["Astrology"]
        }))).await;
        assert_eq!((status, body["code"].as_str()), (400, Some("unknown_interest")));
        let (status, account, _) = send(&app, Method::PUT, "/api/v1/reader/account", me, Some(json!({
            "first_name": " Samuel ", "last_name": "Okoro", "country": "Ghana",
            "interests": ["Climate Justice", "Digital Politics", "Climate Justice"]
        }))).await;
        assert_eq!(status, 200, "{account}");
        assert_eq!(account["first_name"], "Samuel");
        assert_eq!(account["country"], "Ghana");
        assert_eq!(account["interests"], json!(["Climate Justice", "Digital Politics"]));

        // A notify-me signup with the same address shows on the account…
        let (status, _, _) = send(&app, Method::POST, "/api/v1/notify", None, Some(json!({"email": "Sam@Example.org", "list": "packs"}))).await;
        assert_eq!(status, 200);
        let (_, account, _) = send(&app, Method::GET, "/api/v1/reader/account", me, None).await;
        assert_eq!(account["subscriptions"], json!({"magazine": false, "packs": true, "digest": false}));
        // …and the account page changes every list.
        let (status, account, _) = send(&app, Method::PUT, "/api/v1/reader/account/subscriptions", me, Some(json!({
            "magazine": true, "packs": false, "digest": true
        }))).await;
        assert_eq!(status, 200);
        assert_eq!(account["subscriptions"], json!({"magazine": true, "packs": false, "digest": true}));
        assert_eq!(count(&app, "SELECT COUNT(*) FROM magazine_notifications WHERE email = 'sam@example.org' AND unsubscribed_at IS NULL").await, 1);
        assert_eq!(count(&app, "SELECT COUNT(*) FROM pack_notifications WHERE email = 'sam@example.org' AND unsubscribed_at IS NULL").await, 0);
        assert_eq!(count(&app, "SELECT COUNT(*) FROM accounts WHERE digest_since IS NOT NULL").await, 1);

        // The data download has what is kept, and never the password or its hash.
        let r = app.request(Method::GET, "/api/v1/reader/account/export", me).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 200);
        assert!(r.headers()["content-disposition"].to_str().unwrap().starts_with("attachment"));
        let text = r.text().await.unwrap();
        let data: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(data["account"]["first_name"], "Samuel");
        assert_eq!(data["account"]["age"], 16);
        assert!(data["subscriptions"]["weekly_digest_since"].is_string());
        assert_eq!(data["sessions"].as_array().unwrap().len(), 1);
        assert!(!text.contains("argon2") && !text.contains("correct horse"));

        // Sign out: the session is over on the server.
        let (status, _, cleared) = send(&app, Method::DELETE, "/api/v1/reader/session", me, None).await;
        assert_eq!(status, 204);
        assert_eq!(cleared.as_deref(), Some("agora_reader="));
        let (status, body, _) = send(&app, Method::GET, "/api/v1/reader/account", me, None).await;
        assert_eq!((status, body["code"].as_str()), (401, Some("not_signed_in")));
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn emailed_sign_in_links_work_once_and_never_reveal_an_account(engine: Engine) {
        let clock = std::sync::Arc::new(kernel::clock::ManualClock::new());
        let app = spawn_app_with(engine, Options { clock: Some(clock.clone()), ..Options::default() }).await;
        reader(&app, "ada@example.org").await;

        let (status, known, _) = send(&app, Method::POST, "/api/v1/reader/sign-in-link", None, Some(json!({"email": "ada@example.org"}))).await;
        assert_eq!(status, 200);
        let (status, unknown, _) = send(&app, Method::POST, "/api/v1/reader/sign-in-link", None, Some(json!({"email": "eve@example.org"}))).await;
        assert_eq!((status, &unknown), (200, &known));
        let (status, body, _) = send(&app, Method::POST, "/api/v1/reader/sign-in-link", None, Some(json!({"email": "ada@"}))).await;
        assert_eq!((status, body["code"].as_str()), (400, Some("invalid_email")));

        let mail = nth_mail(&app, "ada@example.org", 2).await;
        assert!(mail.contains("Your sign-in link"), "{mail}");
        let token = token_in(&mail, &format!("{SITE}/email/sign-in?token="));
        // The landing is a page of the site that does not use the link by being opened (mail
        // scanners open links); the reader presses the button.
        let r = app.get(&format!("/email/sign-in?token={token}")).await;
        assert_eq!(r.status().as_u16(), 200);
        let (status, who, cookie) = send(&app, Method::POST, "/api/v1/reader/sign-in-link/use", None, Some(json!({"token": token}))).await;
        assert_eq!(status, 200, "{who}");
        let cookie = cookie.unwrap();
        let (status, _, _) = send(&app, Method::GET, "/api/v1/reader/account", Some(&cookie), None).await;
        assert_eq!(status, 200);
        let (status, again, _) = send(&app, Method::POST, "/api/v1/reader/sign-in-link/use", None, Some(json!({"token": token}))).await;
        assert_eq!((status, again["code"].as_str()), (410, Some("link_expired")));

        // A link expires.
        send(&app, Method::POST, "/api/v1/reader/sign-in-link", None, Some(json!({"email": "ada@example.org"}))).await;
        let mail = nth_mail(&app, "ada@example.org", 3).await;
        let token = token_in(&mail, &format!("{SITE}/email/sign-in?token="));
        clock.advance(Duration::from_secs(21 * 60));
        let (status, _, _) = send(&app, Method::POST, "/api/v1/reader/sign-in-link/use", None, Some(json!({"token": token}))).await;
        assert_eq!(status, 410);
        // A made-up one gets the same answer.
        let (status, made_up, _) = send(&app, Method::POST, "/api/v1/reader/sign-in-link/use", None, Some(json!({"token": "made-up"}))).await;
        assert_eq!((status, made_up["code"].as_str()), (410, Some("link_expired")));

        // Nothing was ever sent to the unknown address.
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(mail_to(&app, "eve@example.org").is_empty());
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn a_forgotten_password_is_reset_once_and_ends_every_other_session(engine: Engine) {
        let app = spawn_app(engine).await;
        reader(&app, "kai@example.org").await;
        let (_, _, old_session) = sign_in(&app, "kai@example.org", "correct horse").await;
        let old_session = old_session.unwrap();

        let (status, known, _) = send(&app, Method::POST, "/api/v1/reader/password-reset", None, Some(json!({"email": "kai@example.org"}))).await;
        assert_eq!(status, 200);
        let (_, unknown, _) = send(&app, Method::POST, "/api/v1/reader/password-reset", None, Some(json!({"email": "zoe@example.org"}))).await;
        assert_eq!(unknown, known);
        let mail = nth_mail(&app, "kai@example.org", 2).await;
        assert!(mail.contains("Reset your password"));
        let token = token_in(&mail, &format!("{SITE}/reset-password?token="));

        // A new password that breaks a rule does not use up the link.
        let (status, body, _) = send(&app, Method::POST, "/api/v1/reader/password-reset/use", None, Some(json!({
            "token": token, "password": "short", "confirm_password": "short"
        }))).await;
        assert_eq!((status, body["message"].as_str()), (400, Some("Password must be at least 6 characters long.")));
        let (status, body, _) = send(&app, Method::POST, "/api/v1/reader/password-reset/use", None, Some(json!({
            "token": token, "password": "new battery", "confirm_password": "new batteries"
        }))).await;
        assert_eq!((status, body["message"].as_str()), (422, Some("Passwords do not match.")));
        let (status, _, cookie) = send(&app, Method::POST, "/api/v1/reader/password-reset/use", None, Some(json!({
            "token": token, "password": "new battery", "confirm_password": "new battery"
        }))).await;
        assert_eq!(status, 200);
        let (status, _, _) = send(&app, Method::GET, "/api/v1/reader/account", cookie.as_deref(), None).await;
        assert_eq!(status, 200, "signed in by the reset");
        let (status, _, _) = send(&app, Method::GET, "/api/v1/reader/account", Some(&old_session), None).await;
        assert_eq!(status, 401, "the session from before the reset ended");
        let (status, _, _) = send(&app, Method::POST, "/api/v1/reader/password-reset/use", None, Some(json!({
            "token": token, "password": "third one", "confirm_password": "third one"
        }))).await;
        assert_eq!(status, 410, "single use");
        assert_eq!(sign_in(&app, "kai@example.org", "correct horse").await.0, 401);
        assert_eq!(sign_in(&app, "kai@example.org", "new battery").await.0, 200);
        assert!(mail_to(&app, "zoe@example.org").is_empty());
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn links_sent_before_a_password_change_or_a_newer_link_are_void(engine: Engine) {
        let app = spawn_app(engine).await;
        let email = "mia@example.org";
        reader(&app, email).await;
        let mut sent = 1;
        // Asks for a link and returns its token from the email.
        let mut link = |path: &'static str, landing: &'static str| {
            sent += 1;
            let n = sent;
            let app = &app;
            async move {
                let (status, _, _) = send(app, Method::POST, path, None, Some(json!({"email": email}))).await;
                assert_eq!(status, 200);
                token_in(&nth_mail(app, email, n).await, &format!("{SITE}{landing}?token="))
            }
        };
        let use_sign_in = |token: String| {
            let app = &app;
            async move {
                send(app, Method::POST, "/api/v1/reader/sign-in-link/use", None, Some(json!({"token": token}))).await.0
            }
        };
        let use_reset = |token: String, password: &'static str| {
            let app = &app;
            async move {
                send(app, Method::POST, "/api/v1/reader/password-reset/use", None, Some(json!({
                    "token": token, "password": password, "confirm_password": password
                }))).await.0
            }
        };
        const SIGN_IN: (&str, &str) = ("/api/v1/reader/sign-in-link", "/email/sign-in");
        const RESET: (&str, &str) = ("/api/v1/reader/password-reset", "/reset-password");

        // A newer link voids the older ones of its kind.
        let old_reset = link(RESET.0, RESET.1).await;
        let first = link(SIGN_IN.0, SIGN_IN.1).await;
        let second = link(SIGN_IN.0, SIGN_IN.1).await;
        assert_eq!(use_sign_in(first).await, 410, "an older sign-in link");
        // A password change voids every link sent before it.
        let (_, _, here) = sign_in(&app, email, "correct horse").await;
        let (status, _, _) = send(&app, Method::PUT, "/api/v1/reader/account/password", here.as_deref(), Some(json!({
            "current_password": "correct horse", "password": "fresh start", "confirm_password": "fresh start"
        }))).await;
        assert_eq!(status, 204);
        assert_eq!(use_reset(old_reset, "taken over").await, 410, "a reset link from before the change");
        assert_eq!(use_sign_in(second).await, 410, "a sign-in link from before the change");
        assert_eq!(sign_in(&app, email, "taken over").await.0, 401);
        // A reset voids the sign-in links sent before it; of two reset links, the newer works.
        let pending = link(SIGN_IN.0, SIGN_IN.1).await;
        let older = link(RESET.0, RESET.1).await;
        let newer = link(RESET.0, RESET.1).await;
        assert_eq!(use_reset(older, "older one").await, 410);
        assert_eq!(use_reset(newer, "newer one").await, 200);
        assert_eq!(use_sign_in(pending).await, 410, "a sign-in link from before the reset");
        assert_eq!(sign_in(&app, email, "newer one").await.0, 200);
        // A link sent after the change works.
        let fresh = link(SIGN_IN.0, SIGN_IN.1).await;
        assert_eq!(use_sign_in(fresh).await, 200);
        app.shutdown().await;
    }
}

// A reader who taps "email me a link" several times at once (a slow school network, a
// double tap): one link stays valid, whichever engine orders the requests.
on_both_engines! {
    async fn links_asked_for_at_once_leave_one_valid(engine: Engine) {
        let app = spawn_app(engine).await;
        let email = "noa@example.org";
        reader(&app, email).await;
        // Five of each: the address's budget for link requests is ten.
        for (round, (path, purpose)) in [
            ("/api/v1/reader/sign-in-link", "sign-in"),
            ("/api/v1/reader/password-reset", "reset"),
        ]
        .into_iter()
        .enumerate()
        {
            let asks = (0..5).map(|_| send(&app, Method::POST, path, None, Some(json!({"email": email}))));
            for (status, _, _) in futures_util::future::join_all(asks).await {
                assert_eq!(status, 200, "{engine:?} {purpose}");
            }
            // Links are written in the background: wait for the fifth email of the round.
            nth_mail(&app, email, 1 + 5 * (round + 1)).await;
            let valid = count(&app, &format!(
                "SELECT COUNT(*) FROM account_tokens WHERE used_at IS NULL AND purpose = '{purpose}'"
            )).await;
            assert_eq!(valid, 1, "{engine:?}: {purpose} links left valid");
        }
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn the_password_is_changed_and_the_account_deleted_with_everything_kept(engine: Engine) {
        let app = spawn_app(engine).await;
        reader(&app, "lee@example.org").await;
        let (_, _, here) = sign_in(&app, "lee@example.org", "correct horse").await;
        let (_, _, elsewhere) = sign_in(&app, "lee@example.org", "correct horse").await;
        let (here, elsewhere) = (here.unwrap(), elsewhere.unwrap());

        let (status, body, _) = send(&app, Method::PUT, "/api/v1/reader/account/password", Some(&here), Some(json!({
            "current_password": "wrong", "password": "fresh start", "confirm_password": "fresh start"
        }))).await;
        assert_eq!((status, body["code"].as_str()), (422, Some("wrong_password")));
        let (status, body, _) = send(&app, Method::PUT, "/api/v1/reader/account/password", Some(&here), Some(json!({
            "current_password": "correct horse", "password": "fresh start", "confirm_password": "fresh strat"
        }))).await;
        assert_eq!(
            (status, body["code"].as_str(), body["message"].as_str()),
            (422, Some("password_mismatch"), Some("Passwords do not match.")),
            "{engine:?}: a mistyped confirmation changes nothing"
        );
        let (status, _, _) = send(&app, Method::PUT, "/api/v1/reader/account/password", Some(&here), Some(json!({
            "current_password": "correct horse", "password": "fresh start", "confirm_password": "fresh start"
        }))).await;
        assert_eq!(status, 204);
        assert_eq!(send(&app, Method::GET, "/api/v1/reader/account", Some(&here), None).await.0, 200);
        assert_eq!(send(&app, Method::GET, "/api/v1/reader/account", Some(&elsewhere), None).await.0, 401);

        send(&app, Method::PUT, "/api/v1/reader/account/subscriptions", Some(&here), Some(json!({
            "magazine": true, "packs": true, "digest": true
        }))).await;
        let (status, body, _) = send(&app, Method::DELETE, "/api/v1/reader/account", Some(&here), Some(json!({"password": "correct horse"}))).await;
        assert_eq!((status, body["code"].as_str()), (422, Some("wrong_password")), "the password is asked again");
        let (status, _, cleared) = send(&app, Method::DELETE, "/api/v1/reader/account", Some(&here), Some(json!({"password": "fresh start"}))).await;
        assert_eq!(status, 204);
        assert_eq!(cleared.as_deref(), Some("agora_reader="));
        for table in ["accounts", "reader_sessions", "account_tokens"] {
            assert_eq!(count(&app, &format!("SELECT COUNT(*) FROM {table}")).await, 0, "{table}");
        }
        for table in ["magazine_notifications", "pack_notifications"] {
            assert_eq!(count(&app, &format!("SELECT COUNT(*) FROM {table} WHERE email = 'lee@example.org'")).await, 0, "{table}");
        }
        assert_eq!(send(&app, Method::GET, "/api/v1/reader/account", Some(&here), None).await.0, 401);
        assert_eq!(sign_in(&app, "lee@example.org", "fresh start").await.0, 401);
        app.shutdown().await;
    }
}

/// Every (table, column) of the database holding text, with how many of its rows hold `needle`
/// (any case).
async fn rows_holding(app: &TestApp, needle: &str) -> Vec<(String, String, i64)> {
    let columns: Vec<(String, String)> = match &app.services.db {
        kernel::Db::Sqlite(p) => sqlx::query_as(
            "SELECT m.name, c.name FROM sqlite_master m, pragma_table_info(m.name) c \
             WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'",
        )
        .fetch_all(p)
        .await
        .unwrap(),
        kernel::Db::Postgres(p) => sqlx::query_as(
            "SELECT table_name::TEXT, column_name::TEXT FROM information_schema.columns \
             WHERE table_schema = current_schema() \
             AND data_type IN ('text', 'character varying', 'json', 'jsonb')",
        )
        .fetch_all(p)
        .await
        .unwrap(),
    };
    let mut out = Vec::new();
    for (table, column) in columns {
        let sql = format!(
            "SELECT COUNT(*) FROM \"{table}\" WHERE LOWER(CAST(\"{column}\" AS TEXT)) LIKE '%{}%'",
            needle.to_lowercase()
        );
        out.push((table, column, count(app, &sql).await));
    }
    out
}

on_both_engines! {
    async fn nothing_a_deleted_account_gave_us_is_left_in_any_table(engine: Engine) {
        let app = spawn_app(engine).await;
        let email = "noa@example.org";
        reader(&app, email).await;
        let (_, _, here) = sign_in(&app, email, "correct horse").await;
        let here = here.unwrap();
        // What a reader typically leaves: lists, the digest, emailed links, and a message to
        // the team (the address typed in capitals).
        // The magazine twice, so an earlier signup's link is kept too.
        for magazine in [true, false, true] {
            send(&app, Method::PUT, "/api/v1/reader/account/subscriptions", Some(&here), Some(json!({
                "magazine": magazine, "packs": true, "digest": true
            }))).await;
        }
        assert_eq!(count(&app, "SELECT COUNT(*) FROM list_links").await, 1);
        for path in ["/api/v1/reader/sign-in-link", "/api/v1/reader/password-reset"] {
            let (status, _, _) = send(&app, Method::POST, path, None, Some(json!({"email": email}))).await;
            assert_eq!(status, 200);
        }
        let (status, body, _) = send(&app, Method::POST, "/api/v1/contact", None, Some(json!({
            "first_name": "Noa", "last_name": "Vesterberg", "email": "NOA@example.org",
            "subject": "About my article", "inquiry_type": "general", "message": "Hello!"
        }))).await;
        assert_eq!(status, 200, "{body}");
        // An application whose documents (12 MB) are too large to attach: they stay in
        // private storage, linked from the team's email.
        let mut form = reqwest::multipart::Form::new();
        for (k, v) in [
            ("full_name", "Noa Vesterberg"), ("age", "16"), ("country", "Norway"),
            ("email", "Noa@Example.org"), ("time_zone", "Europe/Oslo"),
            ("weekly_availability", "3"), ("english_level", "C1"), ("roles", "copy-editor"),
            ("why_join", "To learn."), ("contribution", "Edits."),
        ] {
            form = form.text(k, v);
        }
        for field in ["cv_file", "portfolio_file"] {
            let mut pdf = b"%PDF-1.4\n%".to_vec();
            pdf.resize(6 * 1024 * 1024, b'a');
            form = form.part(field, reqwest::multipart::Part::bytes(pdf).file_name("doc.pdf"));
        }
        let r = app.request(Method::POST, "/api/v1/applications", None).multipart(form).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 201);
        let private = app.data_dir().join("private");
        let stored = || walkdir_count(&private);
        assert_eq!(stored(), 2, "the linked documents are kept");
        nth_mail(&app, email, 3).await;
        let before: i64 = rows_holding(&app, email).await.iter().map(|r| r.2).sum();
        assert!(before >= 6, "the address is kept in {before} rows before");

        let (status, _, _) = send(&app, Method::DELETE, "/api/v1/reader/account", Some(&here), Some(json!({"password": "correct horse"}))).await;
        assert_eq!(status, 204);
        let left: Vec<_> = rows_holding(&app, email).await.into_iter().filter(|r| r.2 > 0).collect();
        assert!(left.is_empty(), "the address is still in {left:?}");
        let left: Vec<_> = rows_holding(&app, "Vesterberg").await.into_iter().filter(|r| r.2 > 0).collect();
        assert!(left.is_empty(), "the name is still in {left:?}");
        // Its documents go at the next housekeeping, weeks before their links would expire.
        app.services.housekeeping().await.unwrap();
        assert_eq!(stored(), 0, "the documents are deleted with the account");
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn reader_and_staff_sessions_never_open_each_others_doors(engine: Engine) {
        let app = spawn_app(engine).await;
        reader(&app, "rae@example.org").await;
        let (_, _, reader_cookie) = sign_in(&app, "rae@example.org", "correct horse").await;
        let reader_cookie = reader_cookie.unwrap();
        let (_, key) = app.services.identity.add_staff("Ada Admin", Role::Admin).await.unwrap();
        let staff_cookie = app.login(&key).await;
        // The same token under the other cookie's name does not work either.
        let reader_token = reader_cookie.split_once('=').unwrap().1;
        let staff_token = staff_cookie.split_once('=').unwrap().1;
        let reader_as_staff = format!("agora_session={reader_token}");
        let staff_as_reader = format!("agora_reader={staff_token}");

        for (method, path) in [
            (Method::GET, "/api/v1/me"),
            (Method::GET, "/api/v1/staff/articles"),
            (Method::POST, "/api/v1/staff/articles"),
            (Method::GET, "/api/v1/staff/writers"),
            (Method::GET, "/api/v1/staff/members"),
            (Method::GET, "/api/v1/staff/magazines"),
            (Method::GET, "/api/v1/staff/stats"),
            (Method::POST, "/api/v1/staff/preview"),
            (Method::GET, "/api/v1/staff/me/profile"),
            (Method::PUT, "/api/v1/staff/me/profile"),
            (Method::GET, "/api/v1/staff/members/x/profile"),
            (Method::PUT, "/api/v1/staff/members/x/profile"),
            (Method::GET, "/api/v1/staff/responses"),
            (Method::POST, "/api/v1/staff/responses/x/approve"),
        ] {
            for cookie in [&reader_cookie, &reader_as_staff] {
                let r = app.request(method.clone(), path, Some(cookie)).json(&json!({})).send().await.unwrap();
                assert_eq!(r.status().as_u16(), 401, "{method} {path} with {cookie}");
            }
            // The staff member's own cookie does get past the sign-in check.
            let r = app.request(method.clone(), path, Some(&staff_cookie)).json(&json!({})).send().await.unwrap();
            assert_ne!(r.status().as_u16(), 401, "{method} {path} as admin");
        }
        for (method, path) in [
            (Method::GET, "/api/v1/reader/account"),
            (Method::PUT, "/api/v1/reader/account"),
            (Method::PUT, "/api/v1/reader/account/subscriptions"),
            (Method::PUT, "/api/v1/reader/account/password"),
            (Method::GET, "/api/v1/reader/account/export"),
            (Method::DELETE, "/api/v1/reader/account"),
        ] {
            for cookie in [&staff_cookie, &staff_as_reader] {
                let r = app.request(method.clone(), path, Some(cookie)).json(&json!({})).send().await.unwrap();
                assert_eq!(r.status().as_u16(), 401, "{method} {path} with {cookie}");
            }
        }
        app.shutdown().await;
    }
}

/// An address without an account is answered as a wrong password is: the same status and
/// words, so the answer does not tell who has an account. It takes as long too: the address
/// is checked against a decoy hash with the same argon2 work (checked without a clock in
/// `identity`'s `readers::password`).
#[tokio::test]
async fn signing_in_to_an_unknown_address_is_answered_as_a_wrong_password() {
    let app = spawn_app(Engine::Sqlite).await;
    reader(&app, "tim@example.org").await;
    let (status, wrong, cookie) = sign_in(&app, "tim@example.org", "wrong").await;
    assert_eq!((status, cookie), (401, None), "{wrong}");
    let (status, unknown, cookie) = sign_in(&app, "nobody@example.org", "wrong").await;
    assert_eq!((status, cookie), (401, None), "{unknown}");
    assert_eq!(unknown, wrong);
    app.shutdown().await;
}

// A confirmation link opened twice at the same moment (a mail scanner and the reader, or a
// double tap): the account is confirmed once, the lists ticked at signup are joined once,
// and neither opening is an error.
on_both_engines! {
    async fn a_confirmation_link_opened_twice_at_once_confirms_once(engine: Engine) {
        let app = spawn_app(engine).await;
        for round in 0..4 {
            let email = format!("twice-{round}@example.org");
            let mut body = registration(&email);
            body["notify_magazine"] = json!(true);
            body["weekly_digest"] = json!(true);
            let (status, _, _) = send(&app, Method::POST, "/api/v1/accounts", None, Some(body)).await;
            assert_eq!(status, 200);
            let mail = nth_mail(&app, &email, 1).await;
            let token = token_in(&mail, &format!("{SITE}/email/confirm?token="));
            let path = format!("/email/confirm?token={token}");
            let (a, b) = tokio::join!(app.get(&path), app.get(&path));
            for r in [&a, &b] {
                assert!(r.status().as_u16() < 500, "{engine:?} round {round}: {}", r.status());
            }
            assert!(
                a.status().as_u16() == 200 || b.status().as_u16() == 200,
                "{engine:?} round {round}: one of them confirms"
            );
            let on_list = count(&app, &format!(
                "SELECT COUNT(*) FROM magazine_notifications WHERE email = '{email}' AND unsubscribed_at IS NULL"
            )).await;
            assert_eq!(on_list, 1, "{engine:?} round {round}");
            let (status, _, _) = sign_in(&app, &email, "correct horse").await;
            assert_eq!(status, 200, "{engine:?} round {round}: confirmed");
        }
        app.shutdown().await;
    }
}

/// Files under `dir`, at any depth.
fn walkdir_count(dir: &std::path::Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |entries| {
        entries
            .flatten()
            .map(|e| {
                if e.path().is_dir() {
                    walkdir_count(&e.path())
                } else {
                    1
                }
            })
            .sum()
    })
}
