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
