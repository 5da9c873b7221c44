//! Editing a live piece keeps it live (issue 30): a writer or the content director saving a
//! change to a published or scheduled piece, with review required or not. The public page
//! answers 200 throughout; without review the change is live at once; with review a writer's
//! change waits (the old title stays live) until a reviewer approves it, and a declined or
//! withdrawn one never goes live.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use chrono::Utc;
use common::{spawn_app_with, Engine, Options, TestApp};
use identity::Role;
use reqwest::Method;
use serde_json::{json, Value};

struct Room {
    app: TestApp,
    writer_id: String,
    writer: String,
    director: String,
    admin: String,
}

async fn room(engine: Engine, review_required: bool) -> Room {
    let app = spawn_app_with(
        engine,
        Options {
            review_required,
            ..Options::default()
        },
    )
    .await;
    let identity = &app.services.identity;
    let (writer, writer_key) = identity
        .add_staff("Wren Writer", Role::Writer)
        .await
        .unwrap();
    let (_, director_key) = identity
        .add_staff("Dana Director", Role::ContentDirector)
        .await
        .unwrap();
    let (_, admin_key) = identity.add_staff("Ada Admin", Role::Admin).await.unwrap();
    Room {
        writer_id: writer.id.clone(),
        writer: app.login(&writer_key).await,
        director: app.login(&director_key).await,
        admin: app.login(&admin_key).await,
        app,
    }
}

impl Room {
    async fn call(&self, cookie: &str, method: Method, path: &str, body: Value) -> (u16, Value) {
        let r = self
            .app
            .request(
                method,
                &format!("/api/v1/staff/articles{path}"),
                Some(cookie),
            )
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    /// A piece by the writer, published (or scheduled an hour ahead) by the director.
    async fn live_piece(&self, title: &str, scheduled: bool) -> Value {
        let mut body = json!({
            "title": title,
            "subtitle": "A subtitle",
            "content": "The first paragraph.\n\nThe second one.",
            "status": "published",
            "author_id": self.writer_id,
        });
        if scheduled {
            body["publish_at"] = json!((Utc::now() + chrono::Duration::hours(1)).to_rfc3339());
        }
        let (status, piece) = self.call(&self.director, Method::POST, "", body).await;
        assert_eq!(status, 201, "{piece}");
        piece
    }

    /// The staff member's save of `piece` with a new title, keeping it live ("Update").
    async fn update(&self, cookie: &str, piece: &Value, title: &str) -> (u16, Value) {
        let id = piece["id"].as_str().unwrap();
        self.call(
            cookie,
            Method::PUT,
            &format!("/{id}"),
            json!({
                "title": title,
                "subtitle": piece["subtitle"],
                "content": piece["content"],
                "category": piece["category"],
                "status": "published",
                "publish_at": piece.get("publish_at"),
                "author_id": piece["author_id"],
                "base_version": piece["version"],
            }),
        )
        .await
    }

    async fn get(&self, cookie: &str, piece: &Value) -> Value {
        let id = piece["id"].as_str().unwrap();
        let (status, body) = self
            .call(cookie, Method::GET, &format!("/{id}"), Value::Null)
            .await;
        assert_eq!(status, 200, "{body}");
        body
    }

    /// What a reader gets at the piece's address: the page's status, and the API's title.
    async fn public(&self, slug: &str) -> (u16, Option<String>) {
        let page = self
            .app
            .get(&format!("/article/{slug}"))
            .await
            .status()
            .as_u16();
        let (status, body) = self.app.json(&format!("/api/v1/articles/{slug}")).await;
        let title = (status == 200).then(|| body["title"].as_str().unwrap().to_string());
        (page, title)
    }

    async fn decide(
        &self,
        cookie: &str,
        piece: &Value,
        verb: &str,
        note: Option<&str>,
    ) -> (u16, Value) {
        let id = piece["id"].as_str().unwrap();
        let at = &piece["pending_change"]["proposed_at"];
        self.call(
            cookie,
            Method::POST,
            &format!("/{id}/pending-change/{verb}"),
            json!({ "proposed_at": at, "note": note }),
        )
        .await
    }
}

on_both_engines! {
    async fn without_review_an_update_goes_live_at_once(engine: Engine) {
        let room = room(engine, false).await;
        let piece = room.live_piece("The Vote at Sixteen", false).await;
        let slug = piece["slug"].as_str().unwrap().to_string();
        assert_eq!(room.public(&slug).await, (200, Some("The Vote at Sixteen".into())));

        // The writer fixes a typo, then the director edits again: live each time.
        let (status, after) = room.update(&room.writer, &piece, "The Vote at 16").await;
        assert_eq!(status, 200, "{after}");
        assert_eq!(after["stage"], "published");
        assert!(after.get("pending_change").is_none(), "{after}");
        let new_slug = after["slug"].as_str().unwrap().to_string();
        assert_eq!(room.public(&new_slug).await, (200, Some("The Vote at 16".into())));
        // The old address still leads to the piece.
        assert_eq!(room.public(&slug).await.1, Some("The Vote at 16".into()));

        let (status, again) = room.update(&room.director, &after, "The Vote at 16, Revisited").await;
        assert_eq!(status, 200, "{again}");
        assert_eq!(again["stage"], "published");
        let slug = again["slug"].as_str().unwrap();
        assert_eq!(room.public(slug).await, (200, Some("The Vote at 16, Revisited".into())));
        room.app.shutdown().await;
    }
}

on_both_engines! {
    async fn with_review_a_writers_change_waits_while_the_live_version_stays(engine: Engine) {
        let room = room(engine, true).await;
        let piece = room.live_piece("Who Decides at the UN", false).await;
        let slug = piece["slug"].as_str().unwrap().to_string();

        // The writer's change waits: the piece stays published with the old title.
        let (status, proposed) = room.update(&room.writer, &piece, "Who Really Decides at the UN").await;
        assert_eq!(status, 200, "{proposed}");
        assert_eq!(proposed["stage"], "published");
        assert_eq!(proposed["title"], "Who Decides at the UN");
        assert_eq!(proposed["pending_change"]["title"], "Who Really Decides at the UN");
        assert_eq!(proposed["pending_change"]["proposed_by_name"], "Wren Writer");
        assert_eq!(room.public(&slug).await, (200, Some("Who Decides at the UN".into())));

        // A second save replaces the waiting change (the writer's editor starts from it).
        let (status, proposed) = room.update(&room.writer, &proposed, "Who Really Decides at the UN?").await;
        assert_eq!(status, 200, "{proposed}");
        assert_eq!(proposed["pending_change"]["title"], "Who Really Decides at the UN?");
        assert_eq!(room.public(&slug).await, (200, Some("Who Decides at the UN".into())));

        // It is in the review queue beside pieces in review.
        let queue = room
            .app
            .request(Method::GET, "/api/v1/staff/review-queue", Some(&room.director))
            .send()
            .await
            .unwrap();
        let status = queue.status().as_u16();
        let queue: Value = queue.json().await.unwrap();
        assert_eq!(status, 200, "{queue}");
        assert!(queue.as_array().unwrap().iter().any(|a| a["id"] == proposed["id"]
            && a["pending_change"]["title"] == "Who Really Decides at the UN?"), "{queue}");

        // The writer cannot approve their own change; the admin, a reviewer, can.
        assert_eq!(room.decide(&room.writer, &proposed, "approve", None).await.0, 403);
        let (status, live) = room.decide(&room.admin, &proposed, "approve", None).await;
        assert_eq!(status, 200, "{live}");
        assert_eq!(live["stage"], "published");
        assert_eq!(live["title"], "Who Really Decides at the UN?");
        assert!(live.get("pending_change").is_none(), "{live}");
        let new_slug = live["slug"].as_str().unwrap().to_string();
        assert_eq!(room.public(&new_slug).await, (200, Some("Who Really Decides at the UN?".into())));
        // Approving the same change twice is refused; nothing changes.
        assert_eq!(room.decide(&room.admin, &proposed, "approve", None).await.0, 409);

        // A declined change never goes live, and the writer's next edit starts from the live one.
        let (_, proposed) = room.update(&room.writer, &live, "A Title Nobody Approved").await;
        let (status, declined) = room.decide(&room.director, &proposed, "decline", Some("Keep the question mark.")).await;
        assert_eq!(status, 200, "{declined}");
        assert!(declined.get("pending_change").is_none());
        assert_eq!(room.public(&new_slug).await, (200, Some("Who Really Decides at the UN?".into())));

        // The writer may take their own change back.
        let (_, proposed) = room.update(&room.writer, &declined, "Changed My Mind").await;
        let (status, withdrawn) = room.decide(&room.writer, &proposed, "decline", None).await;
        assert_eq!(status, 200, "{withdrawn}");
        assert!(withdrawn.get("pending_change").is_none());

        // The director (a reviewer) edits a live piece directly: live at once.
        let current = room.get(&room.director, &withdrawn).await;
        let (status, direct) = room.update(&room.director, &current, "Who Decides, Explained").await;
        assert_eq!(status, 200, "{direct}");
        let slug = direct["slug"].as_str().unwrap();
        assert_eq!(room.public(slug).await, (200, Some("Who Decides, Explained".into())));

        // Every step is in the audit log.
        let id = direct["id"].as_str().unwrap();
        let (_, events) = room.call(&room.director, Method::GET, &format!("/{id}/events"), Value::Null).await;
        let actions: Vec<&str> = events.as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap()).collect();
        for want in ["propose_change", "approve_change", "decline_change"] {
            assert!(actions.contains(&want), "{want} in {actions:?}");
        }
        room.app.shutdown().await;
    }
}

on_both_engines! {
    async fn a_scheduled_piece_keeps_its_time_through_edits(engine: Engine) {
        for review in [false, true] {
            let room = room(engine, review).await;
            let piece = room.live_piece("Turnout Among First-Time Voters", true).await;
            assert_eq!(piece["stage"], "scheduled");
            let at = piece["publish_at"].clone();

            let (status, edited) = room.update(&room.writer, &piece, "Turnout, First-Time Voters").await;
            assert_eq!(status, 200, "{edited}");
            assert_eq!(edited["stage"], "scheduled", "review {review}");
            assert_eq!(edited["publish_at"], at, "review {review}");
            let edited = if review {
                assert_eq!(edited["title"], "Turnout Among First-Time Voters");
                let (status, approved) = room.decide(&room.director, &edited, "approve", None).await;
                assert_eq!(status, 200, "{approved}");
                approved
            } else {
                edited
            };
            assert_eq!(edited["stage"], "scheduled");
            assert_eq!(edited["publish_at"], at);
            assert_eq!(edited["title"], "Turnout, First-Time Voters");
            room.app.shutdown().await;
        }
    }
}

on_both_engines! {
    async fn unpublishing_is_its_own_action_and_drops_a_waiting_change(engine: Engine) {
        let room = room(engine, true).await;
        let piece = room.live_piece("Debates in the Classroom", false).await;
        let slug = piece["slug"].as_str().unwrap().to_string();
        let (_, proposed) = room.update(&room.writer, &piece, "Debating in Class").await;
        assert!(proposed.get("pending_change").is_some());
        // "Unpublish — save as draft": the writer's text is saved as the draft.
        let id = piece["id"].as_str().unwrap();
        let (status, draft) = room
            .call(
                &room.writer,
                Method::PUT,
                &format!("/{id}"),
                json!({
                    "title": "Debating in Class",
                    "content": proposed["pending_change"]["content"],
                    "status": "draft",
                    "base_version": proposed["version"],
                }),
            )
            .await;
        assert_eq!(status, 200, "{draft}");
        assert_eq!(draft["stage"], "draft");
        assert!(draft.get("pending_change").is_none(), "{draft}");
        assert_eq!(room.public(&slug).await.0, 404);
        // Published again (by the director), the dropped change does not come back.
        let (status, again) = room.call(&room.director, Method::POST, &format!("/{id}/publish"), Value::Null).await;
        assert_eq!(status, 200, "{again}");
        assert!(again.get("pending_change").is_none(), "{again}");
        room.app.shutdown().await;
    }
}

// Two reviewers deciding on one waiting change at the same moment: one decision is taken,
// the other is told the change is gone (409); never both, never a second revision.
on_both_engines! {
    async fn racing_decisions_on_one_change_are_taken_once(engine: Engine) {
        let room = room(engine, true).await;
        // Renaming approvals against declines were where PostgreSQL once deadlocked: a few
        // rounds of each give the race its chances.
        let seconds = ["approve", "decline"].repeat(4);
        for (round, second) in seconds.into_iter().enumerate() {
            let piece = room.live_piece(&format!("Race {round}"), false).await;
            let (status, proposed) =
                room.update(&room.writer, &piece, &format!("Race {round}, changed")).await;
            assert_eq!(status, 200, "{proposed}");
            let (a, b) = tokio::join!(
                room.decide(&room.admin, &proposed, "approve", None),
                room.decide(&room.director, &proposed, second, None),
            );
            let mut statuses = [a.0, b.0];
            statuses.sort_unstable();
            assert_eq!(statuses, [200, 409], "{engine:?} round {round}: {a:?} / {b:?}");
            // One decision in the log, and the piece as that decision left it.
            let id = proposed["id"].as_str().unwrap();
            let (_, events) = room
                .call(&room.director, Method::GET, &format!("/{id}/events"), Value::Null)
                .await;
            let decided = events
                .as_array()
                .unwrap()
                .iter()
                .filter(|e| matches!(e["action"].as_str(), Some("approve_change" | "decline_change")))
                .count();
            assert_eq!(decided, 1, "{engine:?} round {round}: {events}");
            let now = room.get(&room.director, &proposed).await;
            assert!(now.get("pending_change").is_none(), "{now}");
            let approved = (a.0 == 200) || second == "approve";
            let expected = if approved { format!("Race {round}, changed") } else { format!("Race {round}") };
            assert_eq!(now["title"], expected.as_str(), "{engine:?} round {round}");
            assert_eq!(now["stage"], "published");
        }
        room.app.shutdown().await;
    }
}

// A writer saving a new version of their change while a reviewer approves the one before:
// either the approval is of what waits (and the writer's save then starts from the new live
// version) or the writer's newer change replaced it (and the approval is refused) — never an
// error, and what is live is always one whole version.
on_both_engines! {
    async fn a_writer_saving_while_a_reviewer_approves_is_never_an_error(engine: Engine) {
        let room = room(engine, true).await;
        for round in 0..6 {
            let piece = room.live_piece(&format!("Save race {round}"), false).await;
            let (_, proposed) =
                room.update(&room.writer, &piece, &format!("Save race {round}, first")).await;
            let again = room.get(&room.writer, &proposed).await;
            let second = format!("Save race {round}, second");
            let (approve, save) = tokio::join!(
                room.decide(&room.admin, &proposed, "approve", None),
                room.update(&room.writer, &again, &second),
            );
            assert!(matches!(approve.0, 200 | 409), "{engine:?} round {round}: {approve:?}");
            assert!(matches!(save.0, 200 | 409), "{engine:?} round {round}: {save:?}");
            assert!(approve.0 == 200 || save.0 == 200, "{engine:?} round {round}: one of them");
            let now = room.get(&room.director, &proposed).await;
            let live = now["title"].as_str().unwrap();
            assert!(
                [format!("Save race {round}"), format!("Save race {round}, first")]
                    .iter()
                    .any(|t| t == live),
                "{engine:?} round {round}: {live}"
            );
        }
        room.app.shutdown().await;
    }
}
