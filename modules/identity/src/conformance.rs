//! The identity store conformance suite, run against every engine by the app's tests.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::sync::Arc;

use std::time::Duration;

use kernel::clock::{Clock, SharedClock};
use kernel::Db;

use crate::principal::Kind;
use crate::sessions::{Lifetime, Sessions};
use crate::store::{Deactivation, IdentityStore};
use crate::tokens::{self, Purpose, Refusal};

pub async fn run(store: Arc<dyn IdentityStore>) {
    assert_eq!(store.count().await.unwrap(), 0);
    let now = kernel::ids::now();
    store.insert("u1", "Maya", "writer", now).await.unwrap();
    store.insert("u2", "Leo", "admin", now).await.unwrap();
    assert!(
        store.insert("u3", "Bad", "emperor", now).await.is_err(),
        "unknown roles are refused"
    );
    assert_eq!(store.count().await.unwrap(), 2);
    let mut names = store
        .names(&["u1".into(), "u2".into(), "missing".into()])
        .await
        .unwrap();
    names.sort();
    assert_eq!(
        names,
        vec![("u1".into(), "Maya".into()), ("u2".into(), "Leo".into())]
    );
    assert!(store.names(&[]).await.unwrap().is_empty());
    assert_eq!(
        store
            .find_by_name_role("Maya", "writer")
            .await
            .unwrap()
            .as_deref(),
        Some("u1")
    );
    assert!(store
        .find_by_name_role("Maya", "admin")
        .await
        .unwrap()
        .is_none());

    // The last active admin stays; other roles and already-disabled members are no obstacle.
    assert_eq!(
        store.deactivate("u2").await.unwrap(),
        Deactivation::LastAdmin
    );
    assert_eq!(store.deactivate("u1").await.unwrap(), Deactivation::Done);
    assert_eq!(store.deactivate("u1").await.unwrap(), Deactivation::Done);
    assert_eq!(
        store.deactivate("nobody").await.unwrap(),
        Deactivation::NotFound
    );
    store.insert("u4", "Ada", "admin", now).await.unwrap();
    assert_eq!(store.deactivate("u2").await.unwrap(), Deactivation::Done);
    assert_eq!(
        store.deactivate("u4").await.unwrap(),
        Deactivation::LastAdmin
    );
    assert_eq!(store.deactivate("u2").await.unwrap(), Deactivation::Done);
    assert!(store.user("u4").await.unwrap().unwrap().active);

    // Members and their keys: only an active member's key opens anything.
    let mut everyone: Vec<String> = store
        .users()
        .await
        .unwrap()
        .into_iter()
        .map(|u| u.id)
        .collect();
    everyone.sort();
    assert_eq!(everyone, ["u1", "u2", "u4"]);
    assert!(store.set_key_hash("u4", "key-4").await.unwrap());
    assert!(!store.set_key_hash("nobody", "key-x").await.unwrap());
    assert_eq!(store.user_by_key("key-4").await.unwrap().unwrap().id, "u4");
    assert!(store.user_by_key("key-x").await.unwrap().is_none());
    assert!(store.set_key_hash("u1", "key-1").await.unwrap());
    assert!(
        store.user_by_key("key-1").await.unwrap().is_none(),
        "u1 is disabled"
    );
    assert!(store.set_active("u1", true).await.unwrap());
    assert_eq!(store.user_by_key("key-1").await.unwrap().unwrap().id, "u1");
    assert!(!store.set_active("nobody", true).await.unwrap());
    let login = now + chrono::Duration::seconds(1);
    store.touch_login("u4", login).await.unwrap();
    assert_eq!(
        store.user("u4").await.unwrap().unwrap().last_login_at,
        Some(login)
    );
}

/// A staff member and a confirmed and an unconfirmed reader to own sessions and tokens.
async fn principals(db: &Db) {
    let now = kernel::ids::now();
    crate::store::store_for(db)
        .insert("staff-1", "Leo", "admin", now)
        .await
        .unwrap();
    for (id, confirmed) in [("reader-1", Some(now)), ("reader-2", None)] {
        let mut q = db.sql(
            "INSERT INTO accounts (id, first_name, last_name, email, password_hash, \
             interests, created_at, confirmed_at) VALUES (",
        );
        q.separated()
            .bind(id)
            .bind("Maya")
            .bind("Lee")
            .bind(format!("{id}@example.org"))
            .bind("hash")
            .bind("[]")
            .bind(now)
            .bind(confirmed);
        q.push(")");
        q.execute(db).await.unwrap();
    }
}

/// Sessions of both kinds, on one engine: each lives until it expires or sits idle, opens
/// only its own kind's door, and only for a usable principal.
pub async fn sessions(db: &Db) {
    principals(db).await;
    let clock = Arc::new(kernel::clock::ManualClock::new());
    let shared: SharedClock = clock.clone();
    let minutes = |m: u64| Duration::from_secs(60 * m);
    let life = Lifetime {
        idle: minutes(10),
        max: minutes(60),
    };
    let sessions = Sessions::new(db.clone(), shared, life, life);

    let staff = sessions.start(Kind::Staff, "staff-1").await.unwrap();
    let reader = sessions.start(Kind::Reader, "reader-1").await.unwrap();
    assert_ne!(staff, reader);
    assert_eq!(
        sessions
            .owner(Kind::Staff, &staff)
            .await
            .unwrap()
            .as_deref(),
        Some("staff-1")
    );
    assert_eq!(
        sessions
            .owner(Kind::Reader, &reader)
            .await
            .unwrap()
            .as_deref(),
        Some("reader-1")
    );
    // A token opens only its own kind's sessions, whatever cookie it comes in.
    assert_eq!(sessions.owner(Kind::Reader, &staff).await.unwrap(), None);
    assert_eq!(sessions.owner(Kind::Staff, &reader).await.unwrap(), None);
    assert_eq!(sessions.owner(Kind::Staff, "").await.unwrap(), None);
    assert_eq!(
        sessions.owner(Kind::Staff, &"x".repeat(500)).await.unwrap(),
        None
    );

    // Each use keeps a session awake; ten idle minutes end it.
    clock.advance(minutes(8));
    assert!(sessions.owner(Kind::Staff, &staff).await.unwrap().is_some());
    clock.advance(minutes(8));
    assert!(sessions.owner(Kind::Staff, &staff).await.unwrap().is_some());
    assert!(
        sessions
            .owner(Kind::Reader, &reader)
            .await
            .unwrap()
            .is_none(),
        "idle for 16 minutes"
    );
    // However busy, it ends an hour after sign-in.
    for _ in 0..6 {
        clock.advance(minutes(8));
        let _ = sessions.owner(Kind::Staff, &staff).await.unwrap();
    }
    assert!(
        sessions.owner(Kind::Staff, &staff).await.unwrap().is_none(),
        "past its maximum"
    );
    assert_eq!(
        sessions.sweep().await.unwrap(),
        2,
        "the expired staff session and the idle reader's go"
    );

    // Only usable principals: an unconfirmed reader's session opens nothing, nor does a
    // disabled staff member's.
    let unconfirmed = sessions.start(Kind::Reader, "reader-2").await.unwrap();
    assert!(sessions
        .owner(Kind::Reader, &unconfirmed)
        .await
        .unwrap()
        .is_none());
    let staff = sessions.start(Kind::Staff, "staff-1").await.unwrap();
    let store = crate::store::store_for(db);
    assert!(store.set_active("staff-1", false).await.unwrap());
    assert!(sessions.owner(Kind::Staff, &staff).await.unwrap().is_none());
    assert!(store.set_active("staff-1", true).await.unwrap());
    assert!(sessions.owner(Kind::Staff, &staff).await.unwrap().is_some());

    // Ending: one, or all but the current one; the other kind's are untouched.
    let first = sessions.start(Kind::Reader, "reader-1").await.unwrap();
    let second = sessions.start(Kind::Reader, "reader-1").await.unwrap();
    let third = sessions.start(Kind::Reader, "reader-1").await.unwrap();
    sessions.end(Kind::Reader, &first).await.unwrap();
    assert!(sessions
        .owner(Kind::Reader, &first)
        .await
        .unwrap()
        .is_none());
    assert_eq!(
        sessions.of(Kind::Reader, "reader-1").await.unwrap().len(),
        2
    );
    sessions
        .end_all_of(Kind::Reader, "reader-1", Some(&third))
        .await
        .unwrap();
    assert!(sessions
        .owner(Kind::Reader, &second)
        .await
        .unwrap()
        .is_none());
    assert!(sessions
        .owner(Kind::Reader, &third)
        .await
        .unwrap()
        .is_some());
    assert!(sessions.owner(Kind::Staff, &staff).await.unwrap().is_some());
    let listed = sessions.of(Kind::Reader, "reader-1").await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].last_seen_at, clock.now());
    sessions
        .end_all_of(Kind::Staff, "staff-1", None)
        .await
        .unwrap();
    assert!(sessions.owner(Kind::Staff, &staff).await.unwrap().is_none());

    // The sweep deletes what can no longer be used, of both kinds.
    let staff = sessions.start(Kind::Staff, "staff-1").await.unwrap();
    assert_eq!(sessions.sweep().await.unwrap(), 0, "nothing alive goes");
    assert!(sessions.owner(Kind::Staff, &staff).await.unwrap().is_some());
    assert!(sessions
        .owner(Kind::Reader, &third)
        .await
        .unwrap()
        .is_some());
    clock.advance(minutes(11));
    assert_eq!(sessions.sweep().await.unwrap(), 3);
    assert!(sessions
        .of(Kind::Staff, "staff-1")
        .await
        .unwrap()
        .is_empty());
    assert!(sessions
        .of(Kind::Reader, "reader-1")
        .await
        .unwrap()
        .is_empty());
}

/// Single-use tokens, on one engine: used once, before they expire, for their own purpose.
pub async fn tokens(db: &Db) {
    principals(db).await;
    let now = kernel::ids::now();
    let hour = chrono::Duration::hours(1);
    let mut tx = db.begin().await.unwrap();
    for (hash, purpose) in [
        ("t-confirm", Purpose::Confirm),
        ("t-sign-in", Purpose::SignIn),
        ("t-reset", Purpose::Reset),
        ("t-reset-2", Purpose::Reset),
    ] {
        tokens::issue(&mut tx, "reader-1", purpose, hash, now + hour)
            .await
            .unwrap();
    }
    tokens::issue(&mut tx, "reader-2", Purpose::Confirm, "t-old", now - hour)
        .await
        .unwrap();
    tx.commit().await.unwrap();

    let redeem = |purpose, hash: &'static str, at| async move {
        let mut tx = db.begin().await.unwrap();
        let used = tokens::redeem(&mut tx, purpose, hash, at).await.unwrap();
        tx.commit().await.unwrap();
        used
    };
    // Only for its own purpose.
    assert_eq!(redeem(Purpose::Reset, "t-sign-in", now).await, None);
    assert_eq!(
        tokens::refusal(db, Purpose::Reset, "t-sign-in")
            .await
            .unwrap(),
        Refusal::Unknown
    );
    assert_eq!(
        redeem(Purpose::SignIn, "t-sign-in", now).await.as_deref(),
        Some("reader-1")
    );
    // Once.
    assert_eq!(redeem(Purpose::SignIn, "t-sign-in", now).await, None);
    assert_eq!(
        tokens::refusal(db, Purpose::SignIn, "t-sign-in")
            .await
            .unwrap(),
        Refusal::AlreadyUsed
    );
    // Not once expired.
    assert_eq!(redeem(Purpose::Confirm, "t-old", now).await, None);
    assert_eq!(
        tokens::refusal(db, Purpose::Confirm, "t-old")
            .await
            .unwrap(),
        Refusal::Expired
    );
    assert_eq!(
        redeem(Purpose::Confirm, "t-confirm", now + hour).await,
        None
    );
    assert_eq!(
        tokens::refusal(db, Purpose::Confirm, "nobody")
            .await
            .unwrap(),
        Refusal::Unknown
    );
    // A transaction that rolls back leaves the token usable.
    let mut tx = db.begin().await.unwrap();
    assert!(tokens::redeem(&mut tx, Purpose::Confirm, "t-confirm", now)
        .await
        .unwrap()
        .is_some());
    tx.rollback().await.unwrap();
    assert_eq!(
        redeem(Purpose::Confirm, "t-confirm", now).await.as_deref(),
        Some("reader-1")
    );

    // Voiding the unused tokens of some purposes keeps the others.
    let mut tx = db.begin().await.unwrap();
    tokens::issue(
        &mut tx,
        "reader-1",
        Purpose::SignIn,
        "t-sign-in-2",
        now + hour,
    )
    .await
    .unwrap();
    tokens::void_unused(&mut tx, "reader-1", &[Purpose::Reset])
        .await
        .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(redeem(Purpose::Reset, "t-reset-2", now).await, None);
    assert_eq!(
        redeem(Purpose::SignIn, "t-sign-in-2", now).await.as_deref(),
        Some("reader-1")
    );

    // Expired a while ago: swept; forgetting a reader takes their sessions and tokens.
    assert_eq!(tokens::delete_expired(db, now).await.unwrap(), 1);
    let mut tx = db.begin().await.unwrap();
    tokens::issue(&mut tx, "reader-2", Purpose::Confirm, "t-new", now + hour)
        .await
        .unwrap();
    tokens::forget_reader(&mut tx, "reader-2").await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(
        tokens::refusal(db, Purpose::Confirm, "t-new")
            .await
            .unwrap(),
        Refusal::Unknown
    );
}

/// Contributor profiles: one per member, one member per address, the address found again,
/// what it shows changed; the rules for names and addresses on top of the store.
pub async fn profiles(db: &Db) {
    use crate::profiles::{profile_store_for, Profiles, Shown};

    let users = crate::store::store_for(db);
    let now = kernel::ids::now();
    users
        .insert("p1", "Maya Okafor", "writer", now)
        .await
        .unwrap();
    users
        .insert("p2", "Maya Ortiz", "writer", now)
        .await
        .unwrap();
    users
        .insert("p3", "Leo", "content-director", now)
        .await
        .unwrap();
    let store = profile_store_for(db);
    assert!(store.profile("p1").await.unwrap().is_none());
    assert!(store.create("p1", "maya-o", now).await.unwrap());
    assert!(
        !store.create("p1", "other", now).await.unwrap(),
        "one profile per member"
    );
    assert!(
        !store.create("p2", "maya-o", now).await.unwrap(),
        "one member per address"
    );
    assert!(
        store.profile("p2").await.unwrap().is_none(),
        "nothing made on a refusal"
    );
    assert!(
        store.create("ghost", "ghost", now).await.is_err(),
        "only a member has a profile"
    );
    let row = store.profile_by_slug("maya-o").await.unwrap().unwrap();
    assert_eq!(
        (row.user_id.as_str(), row.full_name_shown, row.bio.as_str()),
        ("p1", false, "")
    );

    let later = now + chrono::Duration::seconds(5);
    let shown = Shown {
        full_name_shown: true,
        bio: "I write about the UN.\nAnd climate.".into(),
        photo: Some("/media/covers/maya.jpg".into()),
    };
    assert!(store.update("p1", &shown, later).await.unwrap());
    assert!(
        !store.update("p2", &Shown::default(), later).await.unwrap(),
        "no profile yet"
    );
    let row = store.profile("p1").await.unwrap().unwrap();
    assert!(row.full_name_shown);
    assert_eq!(row.bio, "I write about the UN.\nAnd climate.");
    assert_eq!(row.photo.as_deref(), Some("/media/covers/maya.jpg"));
    assert_eq!(row.updated_at, later);
    // The photo taken off again.
    let without = Shown {
        photo: None,
        ..shown.clone()
    };
    assert!(store.update("p1", &without, later).await.unwrap());
    assert_eq!(store.profile("p1").await.unwrap().unwrap().photo, None);
    assert!(store.update("p1", &shown, later).await.unwrap());
    // Many at once: only those who have one.
    let found: Vec<String> = store
        .profiles(&["p1".into(), "p2".into(), "ghost".into()])
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.user_id)
        .collect();
    assert_eq!(found, ["p1"]);
    assert!(store.profiles(&[]).await.unwrap().is_empty());

    // Through the rules: the second Maya O. gets the next address; a second call finds it.
    let profiles = Profiles::new(store);
    let ortiz = profiles
        .ensure("p2", "Maya Ortiz", now)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (ortiz.slug.as_str(), ortiz.shown_name.as_str()),
        ("maya-o-2", "Maya O.")
    );
    let again = profiles
        .ensure("p2", "Maya Ortiz", later)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(again, ortiz);
    let okafor = profiles
        .ensure("p1", "Maya Okafor", now)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (okafor.slug.as_str(), okafor.shown_name.as_str()),
        ("maya-o", "Maya Okafor")
    );
    let leo = profiles.ensure("p3", "Leo", now).await.unwrap().unwrap();
    assert_eq!(leo.slug, "leo");
    assert_eq!(
        profiles
            .by_slug("maya-o-2")
            .await
            .unwrap()
            .map(|r| r.user_id),
        Some("p2".to_string())
    );
    assert!(profiles.by_slug("nobody").await.unwrap().is_none());

    // At once: one member's first visits make one profile; five Sam L.s get five addresses.
    let profiles = Arc::new(profiles);
    let sams = ["Sam Lee", "Sam Li", "Sam Lopez", "Sam Lund", "Sam Low"];
    for (i, name) in sams.iter().enumerate() {
        users
            .insert(&format!("s{i}"), name, "writer", now)
            .await
            .unwrap();
    }
    let mut tasks = Vec::new();
    for i in 0..10 {
        let profiles = profiles.clone();
        let (id, name) = if i < 5 {
            ("s0".to_string(), sams[0])
        } else {
            (format!("s{}", i - 5), sams[i - 5])
        };
        tasks.push(tokio::spawn(async move {
            let p = profiles.ensure(&id, name, now).await.unwrap().unwrap();
            (id, p.slug)
        }));
    }
    let mut made = std::collections::BTreeMap::new();
    for task in tasks {
        let (id, slug) = task.await.unwrap();
        let first = made.entry(id.clone()).or_insert_with(|| slug.clone());
        assert_eq!(*first, slug, "{id} has one address");
    }
    let mut slugs: Vec<String> = made.into_values().collect();
    slugs.sort();
    assert_eq!(slugs, ["sam-l", "sam-l-2", "sam-l-3", "sam-l-4", "sam-l-5"]);
}
