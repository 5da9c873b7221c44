//! The newsroom (issue 14), through the HTTP API on both engines: every role × stage × action
//! with the exact answer, with and without review required; scheduled publishing (on time,
//! after a stop, once across instances); revisions, their differences and restoring one; edits
//! based on an older version refused; the notices writers get.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use common::{eventually, spawn_app_with, Engine, Options, TestApp};
use identity::Role;
use kernel::clock::{Clock, ManualClock};
use reqwest::Method;
use serde_json::{json, Value};

/// Who acts on the piece (written by `writer`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Who {
    Writer,
    OtherWriter,
    Director,
    Admin,
    Educator,
}

const STAGES: [&str; 4] = ["draft", "in_review", "scheduled", "published"];
const ACTIONS: [&str; 10] = [
    "edit",
    "submit",
    "withdraw",
    "request_changes",
    "approve",
    "publish",
    "schedule",
    "unschedule",
    "unpublish",
    "delete",
];

/// The expected answer of each action (rows, in `ACTIONS` order) at each stage (columns, in
/// `STAGES` order): the HTTP status, with `r` for 403 `review_required` and `i` for 409
/// `in_review`.
fn expected(who: Who, review: bool) -> &'static str {
    match (who, review) {
        (Who::Writer, false) => {
            "200 409i 200 200
             200 409  409 409
             409 200  409 409
             403 403  403 403
             403 403  403 403
             200 409i 200 409
             200 409i 200 409
             409 409  200 409
             409 409  409 200
             204 204  204 204"
        }
        // An edit of a live piece becomes its pending change: 200, and the piece stays live.
        (Who::Writer, true) => {
            "200  409i 200  200
             200  409  409  409
             409  200  409  409
             403  403  403  403
             403  403  403  403
             403r 409i 403r 409
             403r 409i 403r 409
             409  409  200  409
             409  409  409  200
             204  204  204  204"
        }
        // Another writer's piece does not exist for a writer.
        (Who::OtherWriter, _) => {
            "404 404 404 404
             404 404 404 404
             404 404 404 404
             404 404 404 404
             404 404 404 404
             404 404 404 404
             404 404 404 404
             404 404 404 404
             404 404 404 404
             404 404 404 404"
        }
        (Who::Director, _) => {
            "200 200 200 200
             200 409 409 409
             409 200 409 409
             409 200 409 409
             409 200 409 409
             200 200 200 409
             200 200 200 409
             409 409 200 409
             409 409 409 200
             204 204 204 204"
        }
        // The admin reviews (approves, requests changes) and nothing else.
        (Who::Admin, _) => {
            "403 403 403 403
             403 403 403 403
             403 403 403 403
             409 200 409 409
             409 200 409 409
             403 403 403 403
             403 403 403 403
             403 403 403 403
             403 403 403 403
             403 403 403 403"
        }
        (Who::Educator, _) => {
            "403 403 403 403
             403 403 403 403
             403 403 403 403
             403 403 403 403
             403 403 403 403
             403 403 403 403
             403 403 403 403
             403 403 403 403
             403 403 403 403
             403 403 403 403"
        }
    }
}

fn cell(who: Who, review: bool, action: usize, stage: usize) -> String {
    let table = expected(who, review);
    let row = table.lines().nth(action).unwrap();
    row.split_whitespace().nth(stage).unwrap().to_string()
}

struct Newsroom {
    app: TestApp,
    writer_id: String,
    writer: String,
    other_writer: String,
    director: String,
    admin: String,
    educator: String,
}

async fn newsroom(engine: Engine, options: Options) -> Newsroom {
    let app = spawn_app_with(engine, options).await;
    let identity = &app.services.identity;
    let (writer_user, writer_key) = identity
        .add_staff("Wren Writer", Role::Writer)
        .await
        .unwrap();
    let (_, other_key) = identity
        .add_staff("Otto Other", Role::Writer)
        .await
        .unwrap();
    let (_, director_key) = identity
        .add_staff("Dana Director", Role::ContentDirector)
        .await
        .unwrap();
    let (_, admin_key) = identity.add_staff("Ada Admin", Role::Admin).await.unwrap();
    let (_, educator_key) = identity
        .add_staff("Eli Educator", Role::Educator)
        .await
        .unwrap();
    Newsroom {
        writer_id: writer_user.id.clone(),
        writer: app.login(&writer_key).await,
        other_writer: app.login(&other_key).await,
        director: app.login(&director_key).await,
        admin: app.login(&admin_key).await,
        educator: app.login(&educator_key).await,
        app,
    }
}

impl Newsroom {
    fn cookie(&self, who: Who) -> &str {
        match who {
            Who::Writer => &self.writer,
            Who::OtherWriter => &self.other_writer,
            Who::Director => &self.director,
            Who::Admin => &self.admin,
            Who::Educator => &self.educator,
        }
    }

    async fn call(
        &self,
        who: Who,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        let mut r = self.app.request(
            method,
            &format!("/api/v1/staff/articles{path}"),
            Some(self.cookie(who)),
        );
        if let Some(body) = body {
            r = r.json(&body);
        }
        let r = r.send().await.unwrap();
        let status = r.status().as_u16();
        let text = r.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// A new piece by the writer (created by the director on their behalf), brought to `stage`.
    async fn piece_at(&self, stage: &str, title: &str) -> Value {
        let (status, created) = self
            .call(
                Who::Director,
                Method::POST,
                "",
                Some(json!({
                    "title": title,
                    "content": "A first paragraph.\n\nA second one.",
                    "status": "draft",
                    "author_id": self.writer_id,
                })),
            )
            .await;
        assert_eq!(status, 201, "{created}");
        let id = created["id"].as_str().unwrap().to_string();
        let (status, moved) = match stage {
            "draft" => (200, created),
            "in_review" => {
                self.call(Who::Writer, Method::POST, &format!("/{id}/submit"), None)
                    .await
            }
            "scheduled" => {
                self.call(
                    Who::Director,
                    Method::PUT,
                    &format!("/{id}/schedule"),
                    Some(json!({ "publish_at": in_secs(3600) })),
                )
                .await
            }
            "published" => {
                self.call(Who::Director, Method::POST, &format!("/{id}/publish"), None)
                    .await
            }
            other => panic!("no stage {other}"),
        };
        assert_eq!(status, 200, "bringing a piece to {stage}: {moved}");
        assert_eq!(moved["stage"], stage, "{moved}");
        moved
    }

    /// Asks for `action` on `piece` as `who`.
    async fn act(&self, who: Who, action: &str, piece: &Value) -> (u16, Value) {
        let id = piece["id"].as_str().unwrap();
        let edit = json!({
            "title": piece["title"],
            "content": "An edited paragraph.",
            "status": if piece["stage"] == "published" || piece["stage"] == "scheduled" { "published" } else { "draft" },
            "publish_at": piece.get("publish_at"),
            "author_id": piece["author_id"],
            "base_version": piece["version"],
        });
        let (method, path, body) = match action {
            "edit" => (Method::PUT, format!("/{id}"), Some(edit)),
            "submit" => (Method::POST, format!("/{id}/submit"), None),
            "withdraw" => (Method::POST, format!("/{id}/withdraw"), None),
            "request_changes" => (
                Method::POST,
                format!("/{id}/request-changes"),
                Some(json!({ "note": "Please cite the source of the second figure." })),
            ),
            "approve" => (Method::POST, format!("/{id}/approve"), Some(json!({}))),
            "publish" => (Method::POST, format!("/{id}/publish"), None),
            "schedule" => (
                Method::PUT,
                format!("/{id}/schedule"),
                Some(json!({ "publish_at": in_secs(7200) })),
            ),
            "unschedule" => (Method::DELETE, format!("/{id}/schedule"), None),
            "unpublish" => (Method::POST, format!("/{id}/unpublish"), None),
            "delete" => (Method::DELETE, format!("/{id}"), None),
            other => panic!("no action {other}"),
        };
        self.call(who, method, &path, body).await
    }
}

fn in_secs(s: i64) -> String {
    (Utc::now() + chrono::Duration::seconds(s)).to_rfc3339()
}

async fn the_matrix(engine: Engine, review: bool) {
    let room = newsroom(
        engine,
        Options {
            review_required: review,
            ..Options::default()
        },
    )
    .await;
    let mut wrong = Vec::new();
    for who in [
        Who::Writer,
        Who::OtherWriter,
        Who::Director,
        Who::Admin,
        Who::Educator,
    ] {
        for (s, stage) in STAGES.iter().enumerate() {
            for (a, action) in ACTIONS.iter().enumerate() {
                let piece = room
                    .piece_at(stage, &format!("{who:?} {action} at {stage}"))
                    .await;
                let (status, body) = room.act(who, action, &piece).await;
                let want = cell(who, review, a, s);
                let code = body["code"].as_str().unwrap_or_default();
                let got = match (status, code) {
                    (403, "review_required") => "403r".to_string(),
                    (409, "in_review") => "409i".to_string(),
                    _ => status.to_string(),
                };
                if got != want {
                    wrong.push(format!(
                        "{who:?} {action} at {stage} (review {review}): {got}, expected {want}: {body}"
                    ));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong answers:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    room.app.shutdown().await;
}

on_both_engines! {
    async fn every_role_stage_and_action_gets_its_answer(engine: Engine) {
        the_matrix(engine, false).await;
    }
}

on_both_engines! {
    async fn with_review_required_writers_submit_instead_of_publishing(engine: Engine) {
        the_matrix(engine, true).await;
    }
}

async fn events_of(room: &Newsroom, id: &str) -> Vec<Value> {
    let (status, events) = room
        .call(Who::Director, Method::GET, &format!("/{id}/events"), None)
        .await;
    assert_eq!(status, 200, "{events}");
    events.as_array().unwrap().clone()
}

on_both_engines! {
    async fn review_changes_requested_resubmitted_and_approved(engine: Engine) {
        let room = newsroom(
            engine,
            Options {
                review_required: true,
                ..Options::default()
            },
        )
        .await;
        // The writer gets notices by email.
        let (status, set) = room
            .app
            .request(Method::PUT, "/api/v1/staff/me/notices", Some(&room.writer))
            .json(&json!({ "email": "wren@school.example", "notify": true }))
            .send()
            .await
            .map(|r| (r.status().as_u16(), r))
            .unwrap();
        assert_eq!(status, 200, "{:?}", set.text().await);
        let (status, bad) = room
            .app
            .request(Method::PUT, "/api/v1/staff/me/notices", Some(&room.writer))
            .json(&json!({ "email": "not an address", "notify": true }))
            .send()
            .await
            .map(|r| (r.status().as_u16(), r))
            .unwrap();
        assert_eq!(status, 400);
        assert_eq!(bad.json::<Value>().await.unwrap()["code"], "invalid_email");

        let (status, piece) = room
            .call(
                Who::Writer,
                Method::POST,
                "",
                Some(json!({ "title": "School Strikes", "content": "Draft text.", "status": "draft" })),
            )
            .await;
        assert_eq!(status, 201, "{piece}");
        let id = piece["id"].as_str().unwrap().to_string();
        let (status, submitted) = room.call(Who::Writer, Method::POST, &format!("/{id}/submit"), None).await;
        assert_eq!((status, submitted["stage"].as_str()), (200, Some("in_review")));
        assert!(submitted["submitted_at"].is_string());

        // The queue lists it for reviewers, and only for them.
        let queue = room
            .app
            .request(Method::GET, "/api/v1/staff/review-queue", Some(&room.director))
            .send()
            .await
            .unwrap()
            .json::<Value>()
            .await
            .unwrap();
        assert_eq!(queue.as_array().unwrap().len(), 1);
        assert_eq!(queue[0]["title"], "School Strikes");
        assert_eq!(queue[0]["author_name"], "Wren Writer");
        let refused = room
            .app
            .request(Method::GET, "/api/v1/staff/review-queue", Some(&room.writer))
            .send()
            .await
            .unwrap();
        assert_eq!(refused.status().as_u16(), 403);

        // A request for changes needs a note, which the writer then sees.
        let (status, empty) = room
            .call(Who::Director, Method::POST, &format!("/{id}/request-changes"), Some(json!({ "note": "  " })))
            .await;
        assert_eq!((status, empty["code"].as_str()), (400, Some("note_required")));
        let note = "Please add where the 40% figure comes from.";
        let (status, back) = room
            .call(Who::Director, Method::POST, &format!("/{id}/request-changes"), Some(json!({ "note": note })))
            .await;
        assert_eq!((status, back["stage"].as_str()), (200, Some("draft")), "{back}");
        let (_, seen) = room.call(Who::Writer, Method::GET, &format!("/{id}"), None).await;
        assert_eq!(seen["review_note"]["note"], note);
        assert_eq!(seen["review_note"]["by_name"], "Dana Director");
        // …and by email.
        let outbox = room.app.services.outbox.list(50).await.unwrap();
        let mails: Vec<_> = outbox
            .iter()
            .filter(|m| m.subject == "Changes requested: School Strikes")
            .collect();
        assert_eq!(mails.len(), 1, "{outbox:?}");
        assert_eq!(mails[0].recipients, r#"["wren@school.example"]"#);

        // The writer edits (based on the version they saw) and resubmits: the note goes.
        let (status, edited) = room
            .call(
                Who::Writer,
                Method::PUT,
                &format!("/{id}"),
                Some(json!({
                    "title": "School Strikes",
                    "content": "Draft text, with the source of the 40% figure.",
                    "status": "draft",
                    "base_version": seen["version"],
                })),
            )
            .await;
        assert_eq!(status, 200, "{edited}");
        let (status, again) = room.call(Who::Writer, Method::POST, &format!("/{id}/submit"), None).await;
        assert_eq!(status, 200);
        assert!(again.get("review_note").is_none(), "{again}");

        // Approved for now: public, and the writer is told.
        let (status, live) = room
            .call(Who::Admin, Method::POST, &format!("/{id}/approve"), Some(json!({})))
            .await;
        assert_eq!((status, live["stage"].as_str()), (200, Some("published")), "{live}");
        let (status, _) = room.app.json(&format!("/api/v1/articles/{}", live["slug"].as_str().unwrap())).await;
        assert_eq!(status, 200);
        let outbox = room.app.services.outbox.list(50).await.unwrap();
        assert!(outbox.iter().any(|m| m.subject == "Published: School Strikes"), "{outbox:?}");

        // The log: who moved it from which stage to which.
        let events = events_of(&room, &id).await;
        let steps: Vec<String> = events
            .iter()
            .map(|e| {
                format!(
                    "{} {} {}->{}",
                    e["actor_name"].as_str().unwrap_or("-"),
                    e["action"].as_str().unwrap(),
                    e["from_stage"].as_str().unwrap_or("-"),
                    e["to_stage"].as_str().unwrap()
                )
            })
            .collect();
        assert_eq!(
            steps,
            [
                "Wren Writer create -->draft",
                "Wren Writer submit draft->in_review",
                "Dana Director request_changes in_review->draft",
                "Wren Writer submit draft->in_review",
                "Ada Admin approve in_review->published",
            ]
        );
        assert_eq!(events[2]["note"], note);
        // Writers do not read the log.
        let (status, _) = room.call(Who::Writer, Method::GET, &format!("/{id}/events"), None).await;
        assert_eq!(status, 403);

        // A writer who turned notices off gets none.
        room.app
            .request(Method::PUT, "/api/v1/staff/me/notices", Some(&room.writer))
            .json(&json!({ "email": "wren@school.example", "notify": false }))
            .send()
            .await
            .unwrap();
        let quiet = room.piece_at("in_review", "Quiet Piece").await;
        let quiet_id = quiet["id"].as_str().unwrap();
        let (status, _) = room
            .call(Who::Director, Method::POST, &format!("/{quiet_id}/request-changes"), Some(json!({ "note": "More." })))
            .await;
        assert_eq!(status, 200);
        let outbox = room.app.services.outbox.list(50).await.unwrap();
        assert!(!outbox.iter().any(|m| m.subject.contains("Quiet Piece")), "{outbox:?}");
        room.app.shutdown().await;
    }
}

fn at(v: &Value) -> DateTime<Utc> {
    v.as_str().unwrap().parse().unwrap()
}

on_both_engines! {
    async fn a_scheduled_piece_goes_public_on_time_once(engine: Engine) {
        let room = newsroom(engine, Options::default()).await;
        let piece = room.piece_at("draft", "Monday Morning").await;
        let id = piece["id"].as_str().unwrap();
        let slug = piece["slug"].as_str().unwrap().to_string();
        // Warm the listing cache, which must be invalidated when the piece goes out.
        let (_, before) = room.app.json("/api/v1/articles").await;
        assert!(!before.to_string().contains("Monday Morning"));
        let when = Utc::now() + chrono::Duration::seconds(2);
        let (status, scheduled) = room
            .call(Who::Writer, Method::PUT, &format!("/{id}/schedule"), Some(json!({ "publish_at": when.to_rfc3339() })))
            .await;
        assert_eq!((status, scheduled["stage"].as_str()), (200, Some("scheduled")), "{scheduled}");
        // A time in the past is refused.
        let (status, past) = room
            .call(Who::Writer, Method::PUT, &format!("/{id}/schedule"), Some(json!({ "publish_at": in_secs(-60) })))
            .await;
        assert_eq!((status, past["code"].as_str()), (400, Some("invalid_publish_at")));
        let (status, _) = room.app.json(&format!("/api/v1/articles/{slug}")).await;
        assert_eq!(status, 404, "public before its time");
        eventually("the scheduled piece is public", Duration::from_secs(8), || async {
            room.app.json(&format!("/api/v1/articles/{slug}")).await.0 == 200
        })
        .await;
        assert!(Utc::now() >= when, "public before its time");
        let (_, after) = room.app.json("/api/v1/articles").await;
        assert!(after.to_string().contains("Monday Morning"), "the listing cache was not invalidated");
        let (_, public) = room.app.json(&format!("/api/v1/articles/{slug}")).await;
        let dated = at(&public["created_at"]);
        assert!((dated - when).num_milliseconds().abs() < 1000, "dated {dated}, scheduled {when}");
        let events = events_of(&room, id).await;
        assert_eq!(
            events.iter().filter(|e| e["action"] == "scheduled_publish").count(),
            1
        );
        room.app.shutdown().await;
    }
}

on_both_engines! {
    async fn a_piece_due_while_the_server_was_down_goes_out_when_it_is_back(engine: Engine) {
        let clock = Arc::new(ManualClock::new());
        let room = newsroom(engine, Options { clock: Some(clock.clone()), ..Options::default() }).await;
        let piece = room.piece_at("draft", "While You Slept").await;
        let id = piece["id"].as_str().unwrap().to_string();
        let slug = piece["slug"].as_str().unwrap().to_string();
        let when = clock.now() + chrono::Duration::minutes(10);
        let (status, _) = room
            .call(Who::Director, Method::PUT, &format!("/{id}/schedule"), Some(json!({ "publish_at": when.to_rfc3339() })))
            .await;
        assert_eq!(status, 200);
        let database_url = room.app.database_url.clone();
        let director_cookie = room.director.clone();
        let _kept = room.app.stop_keeping_data().await;
        // Down for an hour: the piece fell due meanwhile.
        clock.advance(Duration::from_secs(3600));
        // Back: the piece goes out, dated by its scheduled time.
        let app = spawn_app_with(
            engine,
            Options {
                database_url: Some(database_url),
                clock: Some(clock.clone()),
                ..Options::default()
            },
        )
        .await;
        eventually("the overdue piece is public", Duration::from_secs(8), || async {
            app.json(&format!("/api/v1/articles/{slug}")).await.0 == 200
        })
        .await;
        let (_, public) = app.json(&format!("/api/v1/articles/{slug}")).await;
        let dated = at(&public["created_at"]);
        assert!((dated - when).num_milliseconds().abs() < 1000, "dated {dated}, scheduled {when}");
        let events: Value = app
            .request(Method::GET, &format!("/api/v1/staff/articles/{id}/events"), Some(&director_cookie))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let went: Vec<&Value> = events
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["action"] == "scheduled_publish")
            .collect();
        assert_eq!(went.len(), 1, "{events}");
        assert!(went[0].get("actor_id").is_none());
        app.shutdown().await;
    }
}

// PostgreSQL only: several instances share one PostgreSQL database (SQLite is one instance).
#[tokio::test]
async fn two_instances_on_one_postgresql_database_publish_each_piece_once() {
    if !common::available(Engine::Postgres) {
        return;
    }
    let room = newsroom(Engine::Postgres, Options::default()).await;
    let second = spawn_app_with(
        Engine::Postgres,
        Options {
            database_url: Some(room.app.database_url.clone()),
            ..Options::default()
        },
    )
    .await;
    let when = Utc::now() + chrono::Duration::seconds(2);
    let mut pieces = Vec::new();
    for n in 0..6 {
        let piece = room.piece_at("draft", &format!("Race {n}")).await;
        let id = piece["id"].as_str().unwrap().to_string();
        let (status, _) = room
            .call(
                Who::Director,
                Method::PUT,
                &format!("/{id}/schedule"),
                Some(json!({ "publish_at": when.to_rfc3339() })),
            )
            .await;
        assert_eq!(status, 200);
        pieces.push((id, piece["slug"].as_str().unwrap().to_string()));
    }
    for (_, slug) in &pieces {
        eventually(
            "every piece is public on the second instance",
            Duration::from_secs(8),
            || async { second.json(&format!("/api/v1/articles/{slug}")).await.0 == 200 },
        )
        .await;
    }
    // Both instances' jobs ran meanwhile; another run on each (as the next second's would)
    // finds nothing left to publish.
    for instance in [&room.app, &second] {
        let content = &instance.services.content;
        assert_eq!(content.publish_due(content.now()).await.unwrap(), 0);
    }
    for (id, _) in &pieces {
        let events = events_of(&room, id).await;
        assert_eq!(
            events
                .iter()
                .filter(|e| e["action"] == "scheduled_publish")
                .count(),
            1,
            "{events:?}"
        );
    }
    second.shutdown().await;
    room.app.shutdown().await;
}

on_both_engines! {
    async fn every_save_is_a_revision_and_a_stale_save_overwrites_nothing(engine: Engine) {
        let room = newsroom(engine, Options::default()).await;
        let piece = room.piece_at("draft", "Revisions").await;
        let id = piece["id"].as_str().unwrap().to_string();
        let mut version = piece["version"].as_i64().unwrap();
        let texts = ["Line one.\nLine two.", "Line one.\nLine two, better.", "Line one.\nLine two, better.\nLine three."];
        for text in texts {
            let (status, saved) = room
                .call(
                    Who::Writer,
                    Method::PUT,
                    &format!("/{id}"),
                    Some(json!({ "title": "Revisions", "content": text, "status": "draft", "base_version": version })),
                )
                .await;
            assert_eq!(status, 200, "{saved}");
            assert_eq!(saved["version"].as_i64().unwrap(), version + 1);
            version += 1;
        }
        // The creation and three saves: four revisions, newest first.
        let (status, list) = room.call(Who::Writer, Method::GET, &format!("/{id}/revisions"), None).await;
        assert_eq!(status, 200);
        let numbers: Vec<i64> = list.as_array().unwrap().iter().map(|r| r["number"].as_i64().unwrap()).collect();
        assert_eq!(numbers, [4, 3, 2, 1]);
        assert_eq!(list[0]["saved_by_name"], "Wren Writer");
        let (status, second) = room.call(Who::Writer, Method::GET, &format!("/{id}/revisions/2"), None).await;
        assert_eq!((status, second["content"].as_str()), (200, Some("Line one.\nLine two.")));
        let (status, missing) = room.call(Who::Writer, Method::GET, &format!("/{id}/revisions/9"), None).await;
        assert_eq!((status, missing["code"].as_str()), (404, Some("revision_not_found")));

        // The difference from revision 2 to now, line by line.
        let (status, diff) = room.call(Who::Writer, Method::GET, &format!("/{id}/revisions/2/diff"), None).await;
        assert_eq!(status, 200, "{diff}");
        let lines: Vec<String> = diff["content"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| format!("{} {}", l["op"].as_str().unwrap(), l["text"].as_str().unwrap()))
            .collect();
        assert_eq!(
            lines,
            ["same Line one.", "removed Line two.", "added Line two, better.", "added Line three."]
        );
        assert_eq!(diff["fields"], json!([]));

        // Someone else saves; an edit based on the version before is refused, naming them.
        let (status, theirs) = room
            .call(
                Who::Director,
                Method::PUT,
                &format!("/{id}"),
                Some(json!({ "title": "Revisions", "content": "The director's text.", "status": "draft", "author_id": room.writer_id, "base_version": version })),
            )
            .await;
        assert_eq!(status, 200, "{theirs}");
        let (status, stale) = room
            .call(
                Who::Writer,
                Method::PUT,
                &format!("/{id}"),
                Some(json!({ "title": "Revisions", "content": "My text.", "status": "draft", "base_version": version })),
            )
            .await;
        assert_eq!(status, 409, "{stale}");
        assert_eq!(stale["code"], "edit_conflict");
        assert_eq!(stale["changed_by"], "Dana Director");
        assert_eq!(stale["current_version"], theirs["version"]);
        assert!(stale["changed_at"].is_string());
        let (_, now) = room.call(Who::Writer, Method::GET, &format!("/{id}"), None).await;
        assert_eq!(now["content"], "The director's text.", "nothing was overwritten");

        // Restoring revision 2 makes it the newest revision; nothing is lost.
        let (status, restored) = room
            .call(Who::Writer, Method::POST, &format!("/{id}/revisions/2/restore"), Some(json!({ "base_version": now["version"] })))
            .await;
        assert_eq!(status, 200, "{restored}");
        assert_eq!(restored["content"], "Line one.\nLine two.");
        let (_, list) = room.call(Who::Writer, Method::GET, &format!("/{id}/revisions"), None).await;
        assert_eq!(list.as_array().unwrap().len(), 6);
        let (_, fifth) = room.call(Who::Writer, Method::GET, &format!("/{id}/revisions/5"), None).await;
        assert_eq!(fifth["content"], "The director's text.");
        // Another writer sees none of it.
        let (status, _) = room.call(Who::OtherWriter, Method::GET, &format!("/{id}/revisions"), None).await;
        assert_eq!(status, 404);
        room.app.shutdown().await;
    }
}
