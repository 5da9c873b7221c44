//! The outbox store conformance suite: every method of [`OutboxStore`], run against every
//! engine by the app's tests.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use chrono::Duration;

use super::{outbox_store_for, Attachment, Email, OutboxRow};
use crate::Db;

/// Queues `email` in a transaction of its own (as a module's write would); its id.
pub async fn enqueue(db: &Db, email: &Email) -> String {
    let mut tx = db.begin().await.unwrap();
    let id = super::enqueue(&mut tx, email).await.unwrap();
    tx.commit().await.unwrap();
    id
}

/// Queues bulk `email` (an announcement) in a transaction of its own; its id.
pub async fn enqueue_bulk(db: &Db, email: &Email) -> String {
    let mut tx = db.begin().await.unwrap();
    let id = super::enqueue_bulk(&mut tx, email).await.unwrap();
    tx.commit().await.unwrap();
    id
}

fn email(subject: &str, attachments: Vec<Attachment>) -> Email {
    Email {
        html: None,
        to: vec!["team@example.org".into(), "copy@example.org".into()],
        reply_to: Some("reader@example.org".into()),
        subject: subject.into(),
        body: format!("Body of {subject}"),
        attachments,
        list_unsubscribe: Some(format!("https://agora.example/unsubscribe?token={subject}")),
    }
}

fn ids(rows: &[OutboxRow]) -> Vec<&str> {
    rows.iter().map(|r| r.id.as_str()).collect()
}

/// Runs every check against the outbox of `db`, an empty database.
pub async fn run(db: &Db) {
    let store = outbox_store_for(db);
    let cv = Attachment {
        filename: "CV.pdf".into(),
        content_type: "application/pdf".into(),
        storage_key: "applications/x/cv.pdf".into(),
    };
    let a = enqueue(db, &email("A", vec![cv])).await;
    let b = enqueue(db, &email("B", vec![])).await;
    let c = enqueue(db, &email("C", vec![])).await;

    // Listed newest first, every field as queued.
    let listed = store.list(10).await.unwrap();
    assert_eq!(ids(&listed), [c.as_str(), b.as_str(), a.as_str()]);
    let row_a = listed.iter().find(|r| r.id == a).unwrap().clone();
    assert_eq!(row_a.subject, "A");
    assert_eq!(row_a.body, "Body of A");
    assert_eq!(
        row_a.list_unsubscribe.as_deref(),
        Some("https://agora.example/unsubscribe?token=A")
    );
    assert_eq!(row_a.reply_to.as_deref(), Some("reader@example.org"));
    assert!(row_a.recipients.contains("copy@example.org"));
    assert!(row_a.attachments.contains("cv.pdf"));
    assert_eq!((row_a.status.as_str(), row_a.attempts), ("pending", 0));
    assert_eq!(store.list(1).await.unwrap().len(), 1);

    let (pending, oldest) = store.pending().await.unwrap();
    assert_eq!((pending, oldest), (3, Some(row_a.created_at)));

    // Due: pending and time has come, oldest first; limited.
    let now = crate::ids::now() + Duration::seconds(1);
    assert_eq!(ids(&store.due(now, 10).await.unwrap()), [&a, &b, &c]);
    assert_eq!(store.due(now, 1).await.unwrap().len(), 1);
    assert!(store
        .due(row_a.created_at - Duration::seconds(1), 10)
        .await
        .unwrap()
        .is_empty());

    // A claim takes due messages for a lease, once: the next claim gets the others.
    let lease = now + Duration::minutes(5);
    let claimed = store.claim_due(now, lease, 1).await.unwrap();
    assert_eq!(ids(&claimed), [&a]);
    assert_eq!(
        claimed[0].next_attempt_at, lease,
        "held until the lease ends"
    );
    assert_eq!(
        claimed[0].body, "Body of A",
        "the whole message, ready to send"
    );
    assert_eq!(ids(&store.due(now, 10).await.unwrap()), [&b, &c]);
    // A sender renews its claim while it sends; a renewal touches only pending messages.
    let renewed = lease + Duration::seconds(30);
    store
        .extend_lease(&[a.clone(), "not-a-message".into()], renewed)
        .await
        .unwrap();
    assert_eq!(
        ids(&store.claim_due(lease, lease, 10).await.unwrap()),
        [&b, &c],
        "a renewed claim is not taken over"
    );
    assert_eq!(
        ids(&store.claim_due(renewed, renewed, 10).await.unwrap()),
        [&a, &b, &c],
        "once the lease is over, a message nobody sent is due again"
    );
    for id in [&a, &b, &c] {
        store
            .mark_failed(id, 0, now - Duration::seconds(1), "", false)
            .await
            .unwrap();
    }

    // A failed attempt puts it back in line at its next time, with the error.
    store
        .mark_failed(
            &a,
            1,
            row_a.created_at - Duration::seconds(1),
            "smtp down",
            false,
        )
        .await
        .unwrap();
    let due = store.due(now, 10).await.unwrap();
    assert_eq!(ids(&due), [&a, &b, &c]);
    assert_eq!(due[0].attempts, 1);
    assert_eq!(due[0].last_error.as_deref(), Some("smtp down"));

    // Given up on: out of line until retried.
    store
        .mark_failed(&b, 5, now, "gave up", true)
        .await
        .unwrap();
    assert_eq!(ids(&store.due(now, 10).await.unwrap()), [&a, &c]);
    assert!(store.retry(&b, now).await.unwrap());
    // Back in line at the time of the retry: after the messages already waiting.
    assert_eq!(ids(&store.due(now, 10).await.unwrap()), [&a, &c, &b]);

    // Sent: the body goes at once, the attachment list stays until the files are deleted.
    store.mark_sent(&a, now).await.unwrap();
    let sent = store.list(10).await.unwrap();
    let sent = sent.iter().find(|r| r.id == a).unwrap();
    assert_eq!(sent.status, "sent");
    assert_eq!(sent.body, "");
    assert_eq!(sent.list_unsubscribe, None, "its token goes with the body");
    assert_eq!(sent.attempts, 2);
    assert_eq!(sent.last_error, None);
    assert_eq!(sent.sent_at, Some(now));
    assert_eq!(sent.redacted_at, Some(now));
    assert!(sent.attachments.contains("cv.pdf"));
    assert!(
        !store.retry(&a, now).await.unwrap(),
        "a sent message is never sent again"
    );
    assert!(store.discard(&a, now, "no").await.unwrap().is_none());
    assert!(!store.redact(&a, now).await.unwrap(), "already redacted");
    assert!(store.due(now, 10).await.unwrap().iter().all(|r| r.id != a));

    // Discarded: failed for good, body gone, the note kept with the last error.
    store
        .mark_failed(&c, 1, now, "mailbox full", false)
        .await
        .unwrap();
    assert_eq!(
        store
            .discard(&c, now, "discarded by an admin")
            .await
            .unwrap(),
        Some("[]".to_string())
    );
    assert!(store.discard(&c, now, "again").await.unwrap().is_none());
    let rows = store.list(10).await.unwrap();
    let discarded = rows.iter().find(|r| r.id == c).unwrap();
    assert_eq!(discarded.status, "failed");
    assert_eq!(discarded.body, "");
    assert_eq!(discarded.list_unsubscribe, None);
    assert_eq!(
        discarded.last_error.as_deref(),
        Some("discarded by an admin; last error: mailbox full")
    );
    assert!(!store.retry(&c, now).await.unwrap(), "nothing left to send");

    // Expired: given up on and old enough, or redacted with files still listed.
    store
        .mark_failed(&b, 5, now, "gave up", true)
        .await
        .unwrap();
    let later = now + Duration::days(1);
    assert_eq!(ids(&store.expired(later, 10).await.unwrap()), [&a, &b]);
    assert_eq!(
        ids(&store.expired(now - Duration::days(1), 10).await.unwrap()),
        [&a],
        "a recent failure is kept for the admin to see"
    );
    assert!(store.redact(&b, later).await.unwrap());
    assert!(!store.redact(&b, later).await.unwrap());
    store.clear_attachments(&a).await.unwrap();
    assert!(store.expired(later, 10).await.unwrap().is_empty());
    let rows = store.list(10).await.unwrap();
    assert_eq!(rows.iter().find(|r| r.id == a).unwrap().attachments, "[]");
    assert_eq!(rows.iter().find(|r| r.id == b).unwrap().body, "");
    assert_eq!(
        rows.iter().find(|r| r.id == b).unwrap().list_unsubscribe,
        None
    );

    // Bulk mail waits: with announcements due, a confirmation queued after them comes first.
    let bulk: Vec<String> = {
        let mut v = Vec::new();
        for i in 0..5 {
            v.push(enqueue_bulk(db, &email(&format!("Bulk {i}"), vec![])).await);
        }
        v
    };
    let urgent = enqueue(db, &email("Confirm", vec![])).await;
    let due = store
        .due(crate::ids::now() + Duration::seconds(1), 3)
        .await
        .unwrap();
    assert_eq!(due[0].id, urgent, "transactional first");
    assert_eq!(
        ids(&due[1..]),
        [bulk[0].as_str(), bulk[1].as_str()],
        "then bulk, oldest first"
    );
    let claimed = store
        .claim_due(crate::ids::now() + Duration::seconds(1), later, 3)
        .await
        .unwrap();
    assert_eq!(
        ids(&claimed),
        ids(&due),
        "claimed in the order they are due"
    );
    racing_claims(db).await;
}

/// Three instances claiming at once take every due message exactly once between them.
async fn racing_claims(db: &Db) {
    let before: std::collections::HashSet<String> = outbox_store_for(db)
        .due(crate::ids::now() + Duration::days(1), 10_000)
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.id)
        .collect();
    let mut queued = std::collections::HashSet::new();
    for i in 0..120 {
        queued.insert(enqueue(db, &email(&format!("Race {i}"), vec![])).await);
    }
    let claimer = |db: Db| async move {
        let store = outbox_store_for(&db);
        let mut mine = Vec::new();
        loop {
            let now = crate::ids::now() + Duration::seconds(1);
            let batch = store
                .claim_due(now, now + Duration::hours(1), 7)
                .await
                .unwrap();
            if batch.is_empty() {
                return mine;
            }
            mine.extend(batch.into_iter().map(|r| r.id));
        }
    };
    let (x, y, z) = tokio::join!(
        tokio::spawn(claimer(db.clone())),
        tokio::spawn(claimer(db.clone())),
        tokio::spawn(claimer(db.clone()))
    );
    let mut all: Vec<String> = [x.unwrap(), y.unwrap(), z.unwrap()].concat();
    all.retain(|id| !before.contains(id));
    let distinct: std::collections::HashSet<String> = all.iter().cloned().collect();
    assert_eq!(all.len(), distinct.len(), "no message claimed twice");
    assert_eq!(distinct, queued, "every message claimed");
}
