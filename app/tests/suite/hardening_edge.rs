//! The edge against hostile or unlucky clients: slow and idle connections, the connection cap,
//! control characters, body caps, security headers and what the contract promises.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::time::{Duration, Instant};

use common::{spawn_app, spawn_app_with, Engine, Options, TestApp};
use identity::Role;
use reqwest::Method;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

fn tight_limits() -> agora::server::ServerLimits {
    agora::server::ServerLimits {
        header_read_timeout: Duration::from_secs(1),
        idle_timeout: Duration::from_secs(3),
        body_grace: Duration::from_secs(1),
        body_min_rate: 200,
        ..agora::server::ServerLimits::default()
    }
}

/// An app whose server gives slow clients 1 s for headers and 200 B/s for bodies.
async fn tight_app() -> TestApp {
    spawn_app_with(
        Engine::Sqlite,
        Options {
            server: tight_limits(),
            ..Options::default()
        },
    )
    .await
}

async fn connect(app: &TestApp) -> TcpStream {
    let addr = app.address.trim_start_matches("http://");
    TcpStream::connect(addr).await.unwrap()
}

/// A connection that has had one request answered (`/healthz`, 200) and is kept alive.
async fn kept_alive(app: &TestApp) -> TcpStream {
    let mut conn = connect(app).await;
    conn.write_all(b"GET /healthz HTTP/1.1\r\nHost: agora.test\r\n\r\n")
        .await
        .unwrap();
    let mut buf = [0u8; 1024];
    let n = conn.read(&mut buf).await.unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"));
    conn
}

/// Reads until the server closes the connection (or `limit` passes); returns what was read
/// and whether the server closed it.
async fn read_until_closed(stream: &mut TcpStream, limit: Duration) -> (String, bool) {
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    let deadline = Instant::now() + limit;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, stream.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return (String::from_utf8_lossy(&out).into(), true),
            Ok(Ok(n)) => out.extend_from_slice(&buf[..n]),
            Err(_) => return (String::from_utf8_lossy(&out).into(), false),
        }
    }
}

async fn healthz_answers(app: &TestApp) {
    let r = app
        .client
        .get(format!("{}/healthz", app.address))
        .timeout(Duration::from_secs(5))
        .send()
        .await
        .expect("healthz answers while slow clients hold connections");
    assert_eq!(r.status(), 200);
}

// Engine-independent: the server loop cuts the connection before any handler runs.
#[tokio::test]
async fn a_client_that_never_finishes_its_headers_is_cut_off() {
    let app = tight_app().await;
    let mut slow = connect(&app).await;
    slow.write_all(b"GET /healthz HTTP/1.1\r\nHost: agora.test\r\n")
        .await
        .unwrap();
    // A header line now and then, never the blank line that ends them: 6 s of them, against
    // the server's 1 s for headers. Whether the server cut the connection while they still
    // came, not a reading of the clock, is what the test looks at.
    let trickle = async {
        for i in 0..20 {
            tokio::time::sleep(Duration::from_millis(300)).await;
            if slow
                .write_all(format!("X-Slow-{i}: y\r\n").as_bytes())
                .await
                .is_err()
            {
                return true;
            }
        }
        false
    };
    let (cut_while_sending, ()) = tokio::join!(trickle, healthz_answers(&app));
    assert!(
        cut_while_sending,
        "the server cut the connection while its headers still trickled in"
    );
    let (_, closed) = read_until_closed(&mut slow, Duration::from_secs(3)).await;
    assert!(closed, "the connection was closed by the server");
    app.shutdown().await;
}

// Engine-independent: the body never completes, so nothing reaches the database.
#[tokio::test]
async fn a_body_that_trickles_in_is_cut_off() {
    let app = tight_app().await;
    let mut slow = connect(&app).await;
    slow.write_all(
        b"POST /api/v1/contact HTTP/1.1\r\nHost: agora.test\r\n\
          Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n{",
    )
    .await
    .unwrap();
    // One byte every 100 ms: 10 B/s where 200 B/s are required after a 1 s grace.
    let mut closed_early = false;
    for _ in 0..40 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        if slow.write_all(b" ").await.is_err() {
            closed_early = true;
            break;
        }
    }
    healthz_answers(&app).await;
    let (answer, closed) = if closed_early {
        (String::new(), true)
    } else {
        read_until_closed(&mut slow, Duration::from_secs(3)).await
    };
    assert!(closed, "the connection was closed; got {answer:?}");
    assert!(
        answer.is_empty() || !answer.starts_with("HTTP/1.1 5"),
        "never a server error: {answer}"
    );
    // 4 s of bytes against a 1 s grace: cut while the body still came, whatever the clock said.
    assert!(
        closed_early,
        "the server cut the body off while it trickled in"
    );
    app.shutdown().await;
}

// Engine-independent: connection timeouts belong to the server loop, not to a store.
#[tokio::test]
async fn an_idle_keep_alive_connection_is_closed() {
    let app = tight_app().await;
    let mut conn = kept_alive(&app).await;
    // Then nothing: the server does not keep the connection for ever.
    let (_, closed) = read_until_closed(&mut conn, Duration::from_secs(6)).await;
    assert!(closed, "an idle connection is closed within the timeouts");
    app.shutdown().await;
}

// Engine-independent: the header deadline belongs to the server loop. The idle timeout is
// an hour here, so only the 1 s header deadline can close a connection that sends nothing
// (nothing else wakes it: no byte arrives).
#[tokio::test]
async fn a_connection_that_sends_nothing_is_closed_at_its_header_deadline() {
    let app = spawn_app_with(
        Engine::Sqlite,
        Options {
            server: agora::server::ServerLimits {
                idle_timeout: Duration::from_secs(3600),
                ..tight_limits()
            },
            ..Options::default()
        },
    )
    .await;
    let mut silent = connect(&app).await;
    let (_, closed) = read_until_closed(&mut silent, Duration::from_secs(6)).await;
    assert!(
        closed,
        "a connection with no request is closed at the header deadline"
    );
    // A kept-alive connection waiting for its next request is held to the same deadline.
    let mut kept = kept_alive(&app).await;
    let (_, closed) = read_until_closed(&mut kept, Duration::from_secs(6)).await;
    assert!(
        closed,
        "a kept-alive connection is closed at the next header deadline"
    );
    app.shutdown().await;
}

// Engine-independent: the connection cap is enforced before any request is read.
#[tokio::test]
async fn connections_over_the_cap_wait_until_a_slot_frees() {
    let app = spawn_app_with(
        Engine::Sqlite,
        Options {
            server: agora::server::ServerLimits {
                max_connections: 1,
                ..tight_limits()
            },
            ..Options::default()
        },
    )
    .await;
    // One silent client holds the only slot (the server itself frees it at the header
    // deadline, 1 s, at the earliest); a second client's request is not answered meanwhile.
    let silent = connect(&app).await;
    let mut second = connect(&app).await;
    second
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: agora.test\r\n\r\n")
        .await
        .unwrap();
    let mut buf = [0u8; 1024];
    let early = tokio::time::timeout(Duration::from_millis(400), second.read(&mut buf)).await;
    assert!(
        early.is_err(),
        "the second client was answered while the only slot was held: {early:?}"
    );
    // The first one leaves: the second is answered.
    drop(silent);
    let n = tokio::time::timeout(Duration::from_secs(5), second.read(&mut buf))
        .await
        .expect("the second client is answered once the slot frees")
        .unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"));
    app.shutdown().await;
}

async fn staff_cookie(app: &TestApp, role: Role) -> String {
    let (_, key) = app
        .services
        .identity
        .add_staff("Nul Tester", role)
        .await
        .unwrap();
    app.login(&key).await
}

on_both_engines! {
    async fn nul_bytes_are_a_clear_400_on_every_engine(engine: Engine) {
        let app = spawn_app(engine).await;
        for path in [
            "/api/v1/articles?q=a%00b",
            "/api/v1/articles/a%00b",
            "/api/v1/articles?q=line%0Abreak",
        ] {
            let (status, body) = app.json(path).await;
            assert_eq!(status, 400, "{engine:?} {path}: {body}");
            assert_eq!(body["code"], "invalid_characters", "{path}");
            assert!(body["message"].as_str().unwrap().contains("NUL"));
        }
        let page = app.get("/articles?q=a%00b").await;
        assert_eq!(page.status(), 400, "{engine:?} page search");
        assert!(page.text().await.unwrap().contains("control characters"));

        let nul = "a\u{0}b";
        let posts = [
            (
                "/api/v1/contact",
                json!({"first_name": nul, "last_name": "L", "email": "a@b.org",
                       "subject": "S", "message": "M", "inquiry_type": "general"}),
            ),
            (
                "/api/v1/notify",
                json!({"email": format!("x{nul}@example.org"), "list": "magazine"}),
            ),
            (
                "/api/v1/accounts",
                json!({"first_name": nul, "last_name": "L", "email": "n@example.org",
                       "password": "longenough1", "confirm_password": "longenough1"}),
            ),
        ];
        for (path, body) in posts {
            let r = app
                .request(Method::POST, path, None)
                .json(&body)
                .send()
                .await
                .unwrap();
            let status = r.status().as_u16();
            let answer: serde_json::Value = r.json().await.unwrap();
            assert_eq!(status, 400, "{engine:?} {path}: {answer}");
            assert_eq!(answer["code"], "invalid_characters", "{path}");
        }

        let writer = staff_cookie(&app, Role::Writer).await;
        let r = app
            .request(Method::POST, "/api/v1/staff/articles", Some(&writer))
            .json(&json!({"title": nul, "content": "Body", "status": "draft"}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 400, "{engine:?} staff create");
        let r = app
            .request(Method::GET, "/api/v1/staff/articles/a%00b", Some(&writer))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 400, "{engine:?} staff get");

        // An escaped backslash followed by the letters u0000 is ordinary text.
        let r = app
            .request(Method::POST, "/api/v1/staff/preview", Some(&writer))
            .header("content-type", "application/json")
            .body(r#"{"content": "C:\\u0000 is a path"}"#)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "{engine:?} escaped backslash");
        app.shutdown().await;
    }
}

// Engine-independent: the body cap refuses the request before the form handler runs.
#[tokio::test]
async fn a_chunked_body_over_the_cap_is_413() {
    let app = spawn_app(Engine::Sqlite).await;
    let stream = connect(&app).await;
    let (mut read, mut write) = stream.into_split();
    // 2 MB in 64 KB chunks, no Content-Length: over the 1 MB cap of a JSON form.
    let writer = tokio::spawn(async move {
        let head = "POST /api/v1/contact HTTP/1.1\r\nHost: agora.test\r\n\
                    Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
        write.write_all(head.as_bytes()).await?;
        let chunk = vec![b' '; 64 * 1024];
        for _ in 0..32 {
            write
                .write_all(format!("{:x}\r\n", chunk.len()).as_bytes())
                .await?;
            write.write_all(&chunk).await?;
            write.write_all(b"\r\n").await?;
        }
        write.write_all(b"0\r\n\r\n").await?;
        Ok::<_, std::io::Error>(write)
    });
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(&answer).contains("payload_too_large") {
        match tokio::time::timeout(Duration::from_secs(10), read.read(&mut buf)).await {
            Ok(Ok(n)) if n > 0 => answer.extend_from_slice(&buf[..n]),
            _ => break,
        }
    }
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("payload_too_large"), "{answer}");
    let _ = writer.await;
    app.shutdown().await;
}

// Engine-independent: headers and allowed methods are set by the HTTP layer.
#[tokio::test]
async fn security_headers_and_allowed_methods() {
    let app = spawn_app(Engine::Sqlite).await;
    // The test site is https: every answer carries HSTS.
    for path in ["/", "/api/v1/articles", "/healthz"] {
        let r = app.get(path).await;
        assert!(
            r.headers()["strict-transport-security"]
                .to_str()
                .unwrap()
                .starts_with("max-age="),
            "{path}"
        );
    }
    let r = app.get("/api/v1/articles").await;
    assert_eq!(r.headers()["x-content-type-options"], "nosniff");
    let r = app.get("/api/v1/nothing").await;
    assert_eq!(r.headers()["x-content-type-options"], "nosniff");

    let docs = app.get("/api/docs").await;
    assert_eq!(docs.status(), 200);
    assert_eq!(docs.headers()["x-frame-options"], "DENY");
    let csp = docs.headers()["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");

    let r = app
        .request(Method::TRACE, "/api/v1/articles", None)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 405);
    assert_eq!(r.headers()["allow"], "GET");
    let r = app
        .request(Method::PUT, "/api/v1/session", None)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 405);
    assert_eq!(r.headers()["allow"], "DELETE, POST");
    for path in ["/", "/healthz", "/api/openapi.json", "/article/x"] {
        let r = app.request(Method::TRACE, path, None).send().await.unwrap();
        assert_eq!(r.status(), 405, "{path}");
        assert_eq!(r.headers()["allow"], "GET, HEAD", "{path}");
    }
    app.shutdown().await;
}

// Engine-independent: it reads the OpenAPI document and a parameter refused before any query.
#[tokio::test]
async fn the_contract_states_ranges_nullables_and_edge_answers() {
    let app = spawn_app(Engine::Sqlite).await;
    let (_, spec) = app.json("/api/openapi.json").await;
    let params = spec["paths"]["/v1/articles"]["get"]["parameters"]
        .as_array()
        .unwrap();
    let limit = params.iter().find(|p| p["name"] == "limit").unwrap();
    assert_eq!(limit["schema"]["minimum"], 1.0);
    assert_eq!(limit["schema"]["maximum"], 50.0);
    let last_login = &spec["components"]["schemas"]["StaffRecord"]["properties"]["last_login_at"];
    assert_eq!(last_login["nullable"], true);
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let responses = op["responses"].as_object().unwrap();
            assert!(responses.contains_key("400"), "{method} {path}: 400");
            if method != "get" {
                assert!(responses.contains_key("403"), "{method} {path}: 403");
            }
            if op.get("requestBody").is_some() {
                assert!(responses.contains_key("413"), "{method} {path}: 413");
                assert!(responses.contains_key("415"), "{method} {path}: 415");
            }
        }
    }
    // The declared ranges are what the server enforces, with the parameter's own code.
    let (status, body) = app.json("/api/v1/articles?limit=51").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("invalid_limit"))
    );
    assert_eq!(body["message"], "limit must be at most 50");
    app.shutdown().await;
}

// Engine-independent: it reads the OpenAPI document only.
#[tokio::test]
async fn each_operation_declares_exactly_the_statuses_it_can_give() {
    let app = spawn_app(Engine::Sqlite).await;
    let (_, spec) = app.json("/api/openapi.json").await;
    let statuses = |path: &str, method: &str| -> Vec<String> {
        let mut s: Vec<String> = spec["paths"][path][method]["responses"]
            .as_object()
            .unwrap_or_else(|| panic!("{method} {path}"))
            .keys()
            .cloned()
            .collect();
        s.sort();
        s
    };
    // The edge adds 400 everywhere, 403 (cross-site) on writes, 413 and 415 where a body is
    // read, 503 where a session is checked (these are all signed in); the rest is the
    // operation's own.
    for (path, method, expected) in [
        ("/v1/staff/articles", "get", "200 400 401 403 500 503"),
        (
            "/v1/staff/articles",
            "post",
            "201 400 401 403 413 415 500 503",
        ),
        (
            "/v1/staff/articles/{id}",
            "get",
            "200 400 401 403 404 500 503",
        ),
        (
            "/v1/staff/articles/{id}",
            "put",
            "200 400 401 403 404 409 413 415 500 503",
        ),
        (
            "/v1/staff/articles/{id}",
            "delete",
            "204 400 401 403 404 500 503",
        ),
        (
            "/v1/staff/articles/{id}/publish",
            "post",
            "200 400 401 403 404 409 500 503",
        ),
        (
            "/v1/staff/articles/{id}/revisions/{number}",
            "get",
            "200 400 401 403 404 500 503",
        ),
        (
            "/v1/staff/preview",
            "post",
            "200 400 401 403 413 415 500 503",
        ),
        (
            "/v1/staff/members",
            "post",
            "201 400 401 403 413 415 500 503",
        ),
        (
            "/v1/staff/members/{id}/rotate-key",
            "post",
            "200 400 401 403 404 500 503",
        ),
        (
            "/v1/staff/magazines",
            "post",
            "201 400 401 403 409 413 415 500 503",
        ),
        (
            "/v1/staff/magazines/{id}",
            "patch",
            "200 400 401 403 404 413 415 500 503",
        ),
    ] {
        assert_eq!(
            statuses(path, method).join(" "),
            expected,
            "{method} {path}"
        );
    }
    // Error codes are an enum of the contract (a generated client gets a union type), and the
    // codes callers really get are in it.
    let codes = spec["components"]["schemas"]["ErrorCode"]["enum"]
        .as_array()
        .unwrap();
    for code in [
        "invalid_email",
        "invalid_limit",
        "cross_site_request",
        "last_admin",
    ] {
        assert!(codes.iter().any(|c| c == code), "{code} in {codes:?}");
    }
    let (_, body) = app.json("/api/v1/articles?offset=-1").await;
    assert!(codes.contains(&body["code"]), "{body}");
    app.shutdown().await;
}

on_both_engines! {
    async fn json_fields_of_the_wrong_type_are_refused_by_name(engine: Engine) {
        let app = spawn_app(engine).await;
        for (path, body, message) in [
            (
                "/api/v1/notify",
                json!({"email": "a@b.org", "list": "magazine", "website": false}),
                "website must be a string",
            ),
            (
                "/api/v1/contact",
                json!({"first_name": 12, "last_name": "L", "email": "a@b.org",
                       "subject": "S", "message": "M", "inquiry_type": "general"}),
                "first_name must be a string",
            ),
            (
                "/api/v1/views",
                json!({"path": false}),
                "path must be a string",
            ),
            (
                "/api/v1/notify",
                json!(["a"]),
                "the body must be a JSON object",
            ),
        ] {
            let r = app
                .request(Method::POST, path, None)
                .json(&body)
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 400, "{path} {body}");
            let answer: serde_json::Value = r.json().await.unwrap();
            assert_eq!(answer["message"], message, "{path}");
        }
        // The right types still go through.
        let r = app
            .request(Method::POST, "/api/v1/notify", None)
            .json(&json!({"email": "reader@example.org", "list": "magazine"}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        app.shutdown().await;
    }
}
