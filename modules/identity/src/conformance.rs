//! The identity store conformance suite, run against every engine by the app's tests.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::sync::Arc;

use crate::store::{Deactivation, IdentityStore};

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

    // Sessions: live until they expire or sit idle, each use keeping them awake.
    let s = chrono::Duration::seconds;
    let expires = now + chrono::Duration::hours(1);
    store
        .create_session("s1", "u4", now, expires)
        .await
        .unwrap();
    let user = store.session_user("s1", now, now - s(600)).await.unwrap();
    assert_eq!(user.unwrap().id, "u4");
    assert!(store
        .session_user("nope", now, now - s(600))
        .await
        .unwrap()
        .is_none());
    // Used at now+10: awake; a use at now+20 that needs a use since now+5 finds it.
    assert!(store
        .session_user("s1", now + s(10), now - s(590))
        .await
        .unwrap()
        .is_some());
    assert!(store
        .session_user("s1", now + s(20), now + s(5))
        .await
        .unwrap()
        .is_some());
    assert!(
        store
            .session_user("s1", now + s(60), now + s(30))
            .await
            .unwrap()
            .is_none(),
        "idle: not used since now+20"
    );
    assert!(
        store
            .session_user("s1", expires + s(1), now - s(600))
            .await
            .unwrap()
            .is_none(),
        "expired"
    );
    store.delete_session("s1").await.unwrap();
    assert!(store
        .session_user("s1", now, now - s(600))
        .await
        .unwrap()
        .is_none());
    store
        .create_session("s2", "u4", now, expires)
        .await
        .unwrap();
    store
        .create_session("s3", "u4", now, expires)
        .await
        .unwrap();
    store
        .create_session("s4", "u1", now, expires)
        .await
        .unwrap();
    store.delete_sessions_of("u4").await.unwrap();
    assert!(store
        .session_user("s2", now, now - s(600))
        .await
        .unwrap()
        .is_none());
    assert!(store
        .session_user("s3", now, now - s(600))
        .await
        .unwrap()
        .is_none());
    assert!(store
        .session_user("s4", now, now - s(600))
        .await
        .unwrap()
        .is_some());
    assert!(store.set_active("u1", false).await.unwrap());
    assert!(
        store
            .session_user("s4", now, now - s(600))
            .await
            .unwrap()
            .is_none(),
        "a disabled member's session opens nothing"
    );
}
