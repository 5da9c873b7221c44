//! The store conformance suite: one story over every method of [`OutreachStore`], run
//! against every engine by the app's tests. What each write queued is read back from the
//! outbox, since every write here goes with its email in one transaction.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::sync::Arc;

use chrono::Duration;
use kernel::outbox::{Email, OutboxStore};

use crate::model::NotifyList;
use crate::store::{AccountRow, ApplicationRow, Confirmation, ContactRow, OutreachStore};

fn email(to: &str, subject: &str) -> Email {
    Email {
        html: None,
        to: vec![to.into()],
        reply_to: None,
        subject: subject.into(),
        body: format!("Body of {subject}"),
        attachments: vec![],
        list_unsubscribe: None,
    }
}

fn account(email: &str) -> AccountRow {
    AccountRow {
        id: kernel::ids::new_id(),
        first_name: "Ada".into(),
        last_name: "Student".into(),
        email: email.into(),
        password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA".into(),
        age: Some(16),
        country: Some("Kenya".into()),
        interests: r#"["Climate Justice"]"#.into(),
        created_at: kernel::ids::now(),
        signup_lists: r#"["packs"]"#.into(),
    }
}

fn hashes(n: &str) -> crate::store::SignupHashes {
    crate::store::SignupHashes {
        magazine: format!("mag-{n}"),
        packs: format!("packs-{n}"),
        digest: format!("digest-{n}"),
    }
}

/// The subjects queued so far, oldest first.
async fn queued(outbox: &dyn OutboxStore) -> Vec<String> {
    let mut rows = outbox.list(100).await.unwrap();
    rows.sort_by_key(|r| r.created_at);
    rows.into_iter().map(|r| r.subject).collect()
}

/// Runs every check against a store over an empty database; `outbox` is the same database's.
pub async fn run(store: Arc<dyn OutreachStore>, outbox: Arc<dyn OutboxStore>) {
    let now = kernel::ids::now();

    // Notify lists: one signup per address and list, renewed after unsubscribing; each new
    // signup queues its confirmation, a repeated one queues nothing.
    assert!(!store
        .is_subscribed(NotifyList::Magazine, "fan@example.org")
        .await
        .unwrap());
    let hello = email("fan@example.org", "Magazine signup");
    assert!(store
        .subscribe(
            NotifyList::Magazine,
            "fan@example.org",
            "unsub-1",
            now,
            &hello
        )
        .await
        .unwrap());
    assert!(!store
        .subscribe(
            NotifyList::Magazine,
            "fan@example.org",
            "unsub-2",
            now,
            &hello
        )
        .await
        .unwrap());
    assert!(store
        .is_subscribed(NotifyList::Magazine, "fan@example.org")
        .await
        .unwrap());
    assert!(!store
        .is_subscribed(NotifyList::Packs, "fan@example.org")
        .await
        .unwrap());
    let packs = email("fan@example.org", "Packs signup");
    assert!(store
        .subscribe(NotifyList::Packs, "fan@example.org", "unsub-3", now, &packs)
        .await
        .unwrap());
    assert!(store.unsubscribe("unsub-1", now).await.unwrap());
    assert!(!store
        .is_subscribed(NotifyList::Magazine, "fan@example.org")
        .await
        .unwrap());
    assert!(store
        .is_subscribed(NotifyList::Packs, "fan@example.org")
        .await
        .unwrap());
    assert!(!store.unsubscribe("no-such-token", now).await.unwrap());
    let again = email("fan@example.org", "Magazine signup again");
    assert!(store
        .subscribe(
            NotifyList::Magazine,
            "fan@example.org",
            "unsub-4",
            now,
            &again
        )
        .await
        .unwrap());
    assert!(store
        .is_subscribed(NotifyList::Magazine, "fan@example.org")
        .await
        .unwrap());
    // Signed up again, the first signup's email still unsubscribes, and its page says so.
    assert_eq!(
        store.unsubscribe_target("unsub-1").await.unwrap(),
        Some(("magazine".to_string(), true))
    );
    assert!(store.unsubscribe("unsub-1", now).await.unwrap());
    assert!(!store
        .is_subscribed(NotifyList::Magazine, "fan@example.org")
        .await
        .unwrap());
    assert!(store.resubscribe("unsub-1", now, "digest-x").await.unwrap());
    // So does the latest one, and the other list is left as it was.
    assert!(store.unsubscribe("unsub-4", now).await.unwrap());
    assert_eq!(
        store.unsubscribe_target("unsub-4").await.unwrap(),
        Some(("magazine".to_string(), false))
    );
    assert!(store
        .is_subscribed(NotifyList::Packs, "fan@example.org")
        .await
        .unwrap());
    assert!(store.resubscribe("unsub-4", now, "digest-y").await.unwrap());
    assert!(store
        .is_subscribed(NotifyList::Magazine, "fan@example.org")
        .await
        .unwrap());
    assert_eq!(
        queued(&*outbox).await,
        ["Magazine signup", "Packs signup", "Magazine signup again"]
    );

    // A contact message and its email, together.
    let contact = ContactRow {
        id: kernel::ids::new_id(),
        first_name: "Sam".into(),
        last_name: "Reader".into(),
        email: "sam@example.org".into(),
        subject: "Hello".into(),
        inquiry_type: "general",
        message: "A question.".into(),
        created_at: now,
    };
    store
        .save_contact(&contact, &email("team@example.org", "Contact: Hello"))
        .await
        .unwrap();
    assert_eq!(queued(&*outbox).await.last().unwrap(), "Contact: Hello");

    // An application and both its emails, together.
    let application = ApplicationRow {
        id: kernel::ids::new_id(),
        full_name: "Ada Student".into(),
        age: 16,
        country: "Kenya".into(),
        email: "ada@example.org".into(),
        time_zone: "Africa/Nairobi".into(),
        weekly_availability: 4,
        english_level: "C1".into(),
        how_did_you_hear: None,
        previous_experience: Some("School paper".into()),
        roles: r#"["copy-editor"]"#.into(),
        portfolio_url: None,
        writing_samples_url: None,
        research_samples_url: None,
        why_join: "To learn.".into(),
        contribution: "Careful edits.".into(),
        additional: None,
        files: "[]".into(),
        created_at: now,
        documents_until: None,
    };
    store
        .save_application(
            &application,
            &[
                email("apply@example.org", "Application: Ada"),
                email("ada@example.org", "We've got your application"),
            ],
            &[],
        )
        .await
        .unwrap();
    let subjects = queued(&*outbox).await;
    assert!(subjects.ends_with(&[
        "Application: Ada".to_string(),
        "We've got your application".to_string()
    ]));
    // Attached documents have no expiry: nothing for housekeeping to delete.
    let found = store
        .linked_documents(&application.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((found.files.as_str(), found.documents_until), ("[]", None));
    assert!(store
        .linked_documents("no-such-id")
        .await
        .unwrap()
        .is_none());

    // Linked documents: kept until their links expire, downloads counted per document, then
    // listed for deletion (until forgotten).
    let until = now + Duration::days(30);
    let linked = ApplicationRow {
        id: kernel::ids::new_id(),
        files: r#"[{"field":"cv","storage_key":"applications/x/cv.pdf"}]"#.into(),
        documents_until: Some(until),
        ..application.clone()
    };
    let key = "applications/x/cv.pdf".to_string();
    store
        .save_application(&linked, &[], std::slice::from_ref(&key))
        .await
        .unwrap();
    let found = store.linked_documents(&linked.id).await.unwrap().unwrap();
    assert_eq!(found.documents_until, Some(until));
    assert!(found.files.contains(&key));
    assert_eq!(
        store
            .record_download(&linked.id, "cv", "u1", now)
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        store
            .record_download(&linked.id, "cv", "u2", now)
            .await
            .unwrap(),
        2
    );
    assert_eq!(
        store
            .record_download(&linked.id, "portfolio", "u1", now)
            .await
            .unwrap(),
        1
    );
    assert!(store.expired_documents(until).await.unwrap().is_empty());
    let after = until + Duration::seconds(1);
    assert_eq!(
        store.expired_documents(after).await.unwrap(),
        vec![key.clone()]
    );
    store.forget_document(&key).await.unwrap();
    assert!(store.expired_documents(after).await.unwrap().is_empty());

    // Accounts: one per address; confirmation links used once, expiring.
    assert_eq!(
        store.account_by_email("ada@example.org").await.unwrap(),
        None
    );
    let ada = account("ada@example.org");
    let soon = now + Duration::hours(1);
    assert!(store
        .create_account(&ada, "hash-1", soon, &email("ada@example.org", "Confirm 1"))
        .await
        .unwrap());
    let twin = account("ada@example.org");
    assert!(!store
        .create_account(
            &twin,
            "hash-x",
            soon,
            &email("ada@example.org", "Confirm twin")
        )
        .await
        .unwrap());
    let found = store
        .account_by_email("ada@example.org")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(found.id, ada.id);
    assert!(!found.confirmed);
    store
        .add_confirmation(
            &ada.id,
            "hash-2",
            soon,
            &email("ada@example.org", "Confirm 2"),
            // Registering again, the reader now asks for the magazine instead of the packs.
            Some(r#"["magazine"]"#),
        )
        .await
        .unwrap();
    store
        .add_confirmation(
            &ada.id,
            "hash-old",
            now - Duration::minutes(1),
            &email("ada@example.org", "Confirm old"),
            None,
        )
        .await
        .unwrap();
    let subjects = queued(&*outbox).await;
    assert!(subjects.contains(&"Confirm 1".to_string()));
    assert!(subjects.contains(&"Confirm 2".to_string()));
    assert!(
        !subjects.contains(&"Confirm twin".to_string()),
        "nothing queued for a twin"
    );

    assert_eq!(
        store.confirm("hash-old", now, &hashes("1")).await.unwrap(),
        Confirmation::Expired
    );
    assert_eq!(
        store.confirm("nope", now, &hashes("2")).await.unwrap(),
        Confirmation::Unknown
    );
    assert_eq!(
        store.confirm("hash-2", now, &hashes("3")).await.unwrap(),
        Confirmation::Confirmed
    );
    // Confirmed, the reader is on the list they asked for last, and only that one.
    assert!(store
        .is_subscribed(NotifyList::Magazine, "ada@example.org")
        .await
        .unwrap());
    assert!(!store
        .is_subscribed(NotifyList::Packs, "ada@example.org")
        .await
        .unwrap());
    assert!(
        store
            .account_by_email("ada@example.org")
            .await
            .unwrap()
            .unwrap()
            .confirmed
    );
    assert_eq!(
        store.confirm("hash-2", now, &hashes("4")).await.unwrap(),
        Confirmation::AlreadyUsed
    );

    // A lone email.
    store
        .enqueue(&email("someone@example.org", "Lone"))
        .await
        .unwrap();
    assert_eq!(queued(&*outbox).await.last().unwrap(), "Lone");
}

/// A reader account made straight in its table: `id`, named `first last`, confirmed or not.
async fn reader_account(db: &kernel::Db, id: &str, first: &str, last: &str, confirmed: bool) {
    let now = kernel::ids::now();
    let mut q = db.sql(
        "INSERT INTO accounts (id, first_name, last_name, email, password_hash, interests, \
         created_at, confirmed_at) VALUES (",
    );
    q.separated()
        .bind(id.to_string())
        .bind(first.to_string())
        .bind(last.to_string())
        .bind(format!("{id}@example.org"))
        .bind("hash".to_string())
        .bind("[]".to_string())
        .bind(now)
        .bind(confirmed.then_some(now));
    q.push(")");
    q.execute(db).await.unwrap();
}

/// Responses (issue 35): sent pending, counted per reader, shown only once approved (oldest
/// first, with the reader's name), decided once, reported back into the queue by three
/// different readers, deleted by their reader only, gone with the account or the article;
/// blocks and closures. `articles` are the ids of two existing articles.
pub async fn responses(db: &kernel::Db, articles: [&str; 2]) {
    use crate::responses::{response_store_for, NewResponse, Reported};

    let store = response_store_for(db);
    for (id, first, last, confirmed) in [
        ("noor", "Noor", "Haddad", true),
        ("ivan", "Ivan", "Petrov", true),
        ("mei", "Mei", "Lin", true),
        ("lu", "Lu", "Zhang", true),
        ("new", "New", "Reader", false),
    ] {
        reader_account(db, id, first, last, confirmed).await;
    }
    let [veto, climate] = articles;
    let t0 = kernel::ids::now() - Duration::hours(3);
    let sent = |id: &str, article: &str, account: &str, minutes: i64| NewResponse {
        id: id.into(),
        article_id: article.into(),
        account_id: account.into(),
        body: format!("Response {id}, long enough to keep."),
        created_at: t0 + Duration::minutes(minutes),
    };
    for r in [
        sent("r1", veto, "noor", 0),
        sent("r2", veto, "ivan", 1),
        sent("r3", veto, "noor", 2),
        sent("r4", climate, "noor", 3),
    ] {
        store.insert(&r).await.unwrap();
    }
    assert!(
        store
            .insert(&sent("r5", "no-such-article", "noor", 4))
            .await
            .is_err(),
        "only under an article"
    );
    assert!(
        store.insert(&sent("r6", veto, "nobody", 4)).await.is_err(),
        "only from an account"
    );

    // Counted per reader: waiting, sent since a time, blocked, confirmed.
    let c = store
        .counts("noor", t0 + Duration::minutes(1))
        .await
        .unwrap();
    assert_eq!(
        (c.pending, c.since, c.blocked, c.confirmed),
        (3, 2, false, true)
    );
    let c = store.counts("new", t0).await.unwrap();
    assert_eq!((c.pending, c.since, c.confirmed), (0, 0, false));

    // Nothing is shown before the desk approves; the queue is oldest first.
    assert!(store.shown(veto).await.unwrap().is_empty());
    let queue: Vec<String> = store
        .queue()
        .await
        .unwrap()
        .into_iter()
        .map(|q| q.id)
        .collect();
    assert_eq!(queue, ["r1", "r2", "r3", "r4"]);
    let first = &store.queue().await.unwrap()[0];
    assert_eq!(
        (
            first.first_name.as_str(),
            first.last_name.as_str(),
            first.reports
        ),
        ("Noor", "Haddad", 0)
    );

    // Decided once: approved ones are shown, oldest first; a rejection keeps its reason.
    let at = kernel::ids::now();
    assert!(store.decide("r2", true, None, "dee", at).await.unwrap());
    assert!(store
        .decide("r1", true, Some("ignored"), "dee", at)
        .await
        .unwrap());
    assert!(store
        .decide("r3", false, Some("Off topic."), "dee", at)
        .await
        .unwrap());
    assert!(
        !store.decide("r3", true, None, "dee", at).await.unwrap(),
        "decided already"
    );
    assert!(!store.decide("nope", true, None, "dee", at).await.unwrap());
    let shown: Vec<(String, String)> = store
        .shown(veto)
        .await
        .unwrap()
        .into_iter()
        .map(|s| (s.id, s.first_name))
        .collect();
    assert_eq!(
        shown,
        [
            ("r1".to_string(), "Noor".to_string()),
            ("r2".into(), "Ivan".into())
        ]
    );
    let r1 = store.get("r1").await.unwrap().unwrap();
    assert_eq!((r1.status.as_str(), r1.reason), ("approved", None));
    let r3 = store.get("r3").await.unwrap().unwrap();
    assert_eq!(
        (r3.status.as_str(), r3.reason.as_deref()),
        ("rejected", Some("Off topic."))
    );
    assert_eq!(r3.decided_at, Some(at));
    let mine: Vec<String> = store
        .of_reader("noor")
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(mine, ["r4", "r3", "r1"], "newest first");

    // Reports: one per reader, only of a shown response; the third puts it back in the queue.
    assert_eq!(
        store.report("r1", "ivan", 3, at).await.unwrap(),
        Reported::Counted
    );
    assert_eq!(
        store.report("r1", "ivan", 3, at).await.unwrap(),
        Reported::Already
    );
    assert_eq!(
        store.report("r1", "mei", 3, at).await.unwrap(),
        Reported::Counted
    );
    assert_eq!(
        store.report("r4", "mei", 3, at).await.unwrap(),
        Reported::NotShown
    );
    assert_eq!(
        store.report("nope", "mei", 3, at).await.unwrap(),
        Reported::NotShown
    );
    assert_eq!(
        store.report("r1", "lu", 3, at).await.unwrap(),
        Reported::Requeued
    );
    assert_eq!(
        store.report("r1", "noor", 3, at).await.unwrap(),
        Reported::NotShown,
        "waiting again: not shown, so not reported"
    );
    assert_eq!(store.shown(veto).await.unwrap().len(), 1);
    let back = store.queue().await.unwrap();
    let r1_back = back.iter().find(|q| q.id == "r1").unwrap();
    assert_eq!(r1_back.reports, 3, "the desk sees how many reported it");
    assert_eq!(store.reports("r1").await.unwrap(), 3);
    assert_eq!(store.reports("r4").await.unwrap(), 0);
    assert_eq!(store.reports("nope").await.unwrap(), 0);
    // Approved again, it takes three new reports to come back.
    assert!(store.decide("r1", true, None, "dee", at).await.unwrap());
    assert_eq!(
        store.reports("r1").await.unwrap(),
        0,
        "an approval clears them"
    );
    assert_eq!(
        store.report("r1", "ivan", 3, at).await.unwrap(),
        Reported::Counted
    );

    // Reports at once: the threshold is crossed exactly once.
    for (id, first) in [
        ("a1", "A"),
        ("a2", "B"),
        ("a3", "C"),
        ("a4", "D"),
        ("a5", "E"),
    ] {
        reader_account(db, id, first, "Many", true).await;
    }
    store.insert(&sent("r7", climate, "ivan", 5)).await.unwrap();
    assert!(store.decide("r7", true, None, "dee", at).await.unwrap());
    let store_many = store.clone();
    let mut tasks = Vec::new();
    for id in ["a1", "a2", "a3", "a4", "a5"] {
        let store = store_many.clone();
        tasks.push(tokio::spawn(async move {
            store.report("r7", id, 3, at).await.unwrap()
        }));
    }
    let mut outcomes = Vec::new();
    for t in tasks {
        outcomes.push(t.await.unwrap());
    }
    assert_eq!(
        outcomes
            .iter()
            .filter(|o| **o == Reported::Requeued)
            .count(),
        1,
        "{outcomes:?}"
    );
    assert_eq!(store.get("r7").await.unwrap().unwrap().status, "pending");

    // Sent at once: the limits hold, per reader, however many arrive together.
    reader_account(db, "rush", "Rush", "Hour", true).await;
    let mut tasks = Vec::new();
    for i in 0..10 {
        let store = store_many.clone();
        let r = sent(&format!("rush{i}"), climate, "rush", 10);
        tasks.push(tokio::spawn(async move {
            store.insert_within(&r, 5, t0, 20).await.unwrap()
        }));
    }
    let mut kept = 0;
    for t in tasks {
        kept += i64::from(t.await.unwrap());
    }
    assert_eq!(kept, 5, "five waiting at most");
    let c = store.counts("rush", t0).await.unwrap();
    assert_eq!((c.pending, c.since), (5, 5));
    // The day's limit counts decided ones too.
    let first = store
        .queue()
        .await
        .unwrap()
        .into_iter()
        .find(|q| q.account_id == "rush")
        .unwrap();
    assert!(store
        .decide(&first.id, true, None, "dee", at)
        .await
        .unwrap());
    let more = |id: &str| sent(id, climate, "rush", 11);
    assert!(!store
        .insert_within(&more("rushday"), 10, t0, 5)
        .await
        .unwrap());
    assert!(store
        .insert_within(&more("rushok"), 10, t0, 6)
        .await
        .unwrap());

    // A reader deletes their own only.
    assert!(!store.delete_own("r4", "ivan").await.unwrap());
    assert!(store.delete_own("r4", "noor").await.unwrap());
    assert!(!store.delete_own("r4", "noor").await.unwrap());

    // Blocks and closures.
    assert!(store.block("ivan", "dee", at).await.unwrap());
    assert!(!store.block("ivan", "dee", at).await.unwrap());
    assert!(store.counts("ivan", t0).await.unwrap().blocked);
    assert!(!store.is_closed(veto).await.unwrap());
    store.set_closed(veto, true, "dee", at).await.unwrap();
    store.set_closed(veto, true, "dee", at).await.unwrap();
    assert!(store.is_closed(veto).await.unwrap());
    store.set_closed(veto, false, "dee", at).await.unwrap();
    assert!(!store.is_closed(veto).await.unwrap());

    // An account's responses and reports go with it.
    let mut q = db.sql("DELETE FROM accounts WHERE id = ");
    q.bind("noor".to_string());
    q.execute(db).await.unwrap();
    assert!(store.of_reader("noor").await.unwrap().is_empty());
    assert!(store.get("r1").await.unwrap().is_none());
    let shown: Vec<String> = store
        .shown(veto)
        .await
        .unwrap()
        .into_iter()
        .map(|s| s.id)
        .collect();
    assert_eq!(shown, ["r2"]);
}
