//! The store conformance suite: every method of the magazine store, run against every engine
//! by the app's tests.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use chrono::Duration;
use kernel::Db;

use crate::magazines::store::{store_for, MagazineRow, Publication};

fn issue(title: &str, minutes_ago: i64) -> MagazineRow {
    let id = kernel::ids::new_id();
    MagazineRow {
        file_key: format!("magazines/{id}.pdf"),
        file_url: format!("/media/magazines/{id}.pdf"),
        id,
        title: title.into(),
        size_bytes: 1234,
        uploaded_at: kernel::ids::now() - Duration::minutes(minutes_ago),
        content_sha256: Some(format!("sha-{title}")),
        slug: None,
        issue_date: None,
        description: None,
        cover_url: None,
        published_at: None,
    }
}

fn publication(title: &str, date: &str) -> Publication {
    Publication {
        title: title.into(),
        issue_date: date.into(),
        description: format!("About {title}"),
        cover_url: "/media/covers/c.png".into(),
    }
}

/// Runs every check against the store of `db`, an empty database.
pub async fn run(db: &Db) {
    let store = store_for(db);
    assert!(store.list().await.unwrap().is_empty());

    let october = issue("October", 30);
    let november = issue("November", 5);
    store.insert(&october).await.unwrap();
    store.insert(&november).await.unwrap();
    assert!(
        store.insert(&october).await.is_err(),
        "an id is stored once"
    );

    // Newest first, every field round-trips (times to the microsecond).
    let listed = store.list().await.unwrap();
    let titles: Vec<_> = listed.iter().map(|m| m.title.as_str()).collect();
    assert_eq!(titles, ["November", "October"]);
    assert_eq!(listed[1].file_key, october.file_key);
    assert_eq!(listed[1].file_url, october.file_url);
    assert_eq!(listed[1].size_bytes, 1234);
    assert_eq!(listed[1].uploaded_at, october.uploaded_at);
    assert_eq!(listed[1].content_sha256.as_deref(), Some("sha-October"));

    // Found by the hash of its file; the same file is stored once, however it is named.
    let found = store.by_hash("sha-November").await.unwrap().unwrap();
    assert_eq!(found.id, november.id);
    assert!(store.by_hash("sha-none").await.unwrap().is_none());
    let mut again = issue("November (copy)", 1);
    again.content_sha256 = november.content_sha256.clone();
    assert!(store.insert(&again).await.is_err(), "a file is stored once");
    // Issues from before hashes were kept may be many.
    let (mut old_a, mut old_b) = (issue("Old A", 60), issue("Old B", 61));
    old_a.content_sha256 = None;
    old_b.content_sha256 = None;
    store.insert(&old_a).await.unwrap();
    store.insert(&old_b).await.unwrap();
    store.delete(&old_a.id).await.unwrap();
    store.delete(&old_b.id).await.unwrap();

    // Renaming returns the renamed row; an unknown id is none.
    let renamed = store
        .rename(&october.id, "October, revised")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(renamed.title, "October, revised");
    assert_eq!(renamed.file_key, october.file_key);
    assert!(store.rename("no-such-id", "x").await.unwrap().is_none());

    // Deleting returns the row (for its file), once.
    let gone = store.delete(&october.id).await.unwrap().unwrap();
    assert_eq!(gone.file_key, october.file_key);
    assert!(store.delete(&october.id).await.unwrap().is_none());
    let left: Vec<_> = store
        .list()
        .await
        .unwrap()
        .into_iter()
        .map(|m| m.id)
        .collect();
    assert_eq!(left, std::slice::from_ref(&november.id));

    // Publishing: the slug is given once (kept through later publications), the fields
    // round-trip, and only published issues are listed, the latest issue date first.
    assert!(store.published().await.unwrap().is_empty());
    let now = kernel::ids::now();
    let p = store
        .publish(
            &november.id,
            &publication("November", "2026-11-01"),
            "november",
            now,
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(p.slug.as_deref(), Some("november"));
    assert_eq!(p.issue_date.as_deref(), Some("2026-11-01"));
    assert_eq!(p.description.as_deref(), Some("About November"));
    assert_eq!(p.cover_url.as_deref(), Some("/media/covers/c.png"));
    assert_eq!(p.published_at, Some(now));
    let again = store
        .publish(
            &november.id,
            &publication("November!", "2026-11-02"),
            "other",
            now + Duration::minutes(1),
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(again.slug.as_deref(), Some("november"), "the slug is kept");
    assert_eq!(again.published_at, Some(now), "first publication time kept");
    assert_eq!(again.title, "November!");
    let december = issue("December", 1);
    store.insert(&december).await.unwrap();
    assert!(
        store
            .publish(
                &december.id,
                &publication("December", "2026-12-01"),
                "november",
                now
            )
            .await
            .is_err(),
        "a slug belongs to one issue"
    );
    store
        .publish(
            &december.id,
            &publication("December", "2026-12-01"),
            "december",
            now,
        )
        .await
        .unwrap();
    let order: Vec<_> = store
        .published()
        .await
        .unwrap()
        .into_iter()
        .map(|m| m.slug.unwrap_or_default())
        .collect();
    assert_eq!(order, ["december", "november"]);
    assert_eq!(
        store.by_slug("december").await.unwrap().unwrap().id,
        december.id
    );
    assert!(store
        .publish("no-such-id", &publication("x", "2026-01-01"), "x", now)
        .await
        .unwrap()
        .is_none());

    // Taken back: unlisted, the slug kept for a later publication.
    let back = store.unpublish(&november.id).await.unwrap().unwrap();
    assert_eq!(back.published_at, None);
    assert_eq!(back.slug.as_deref(), Some("november"));
    assert_eq!(store.published().await.unwrap().len(), 1);
    assert!(store.unpublish("no-such-id").await.unwrap().is_none());
}
