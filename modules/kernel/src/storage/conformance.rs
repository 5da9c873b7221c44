//! The suite every storage backend passes (the local directory and an S3-compatible bucket).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use futures_util::TryStreamExt;

use super::Storage;

async fn read_all(storage: &Storage, key: &str, range: Option<std::ops::Range<u64>>) -> Vec<u8> {
    let chunks: Vec<bytes::Bytes> = storage
        .stream(key, range)
        .await
        .unwrap()
        .try_collect()
        .await
        .unwrap();
    chunks.concat()
}

/// Runs every check against `storage`, an empty area.
pub async fn run(storage: &Storage) {
    // Nothing there yet.
    assert_eq!(storage.get("covers/a.png").await.unwrap(), None);
    assert_eq!(storage.head("covers/a.png").await.unwrap(), None);
    storage.delete("covers/a.png").await.unwrap();

    // Put, then read back whole, in part, and as metadata.
    let bytes: Vec<u8> = (0..=255u8).cycle().take(3000).collect();
    storage.put("covers/a.png", &bytes).await.unwrap();
    assert_eq!(storage.get("covers/a.png").await.unwrap().unwrap(), bytes);
    let meta = storage.head("covers/a.png").await.unwrap().unwrap();
    assert_eq!(meta.size, 3000);
    assert!(meta
        .etag
        .as_deref()
        .is_some_and(|t| !t.is_empty() && !t.contains('"')));
    assert!(
        (chrono::Utc::now() - meta.last_modified)
            .num_minutes()
            .abs()
            < 5
    );
    assert_eq!(read_all(storage, "covers/a.png", None).await, bytes);
    assert_eq!(
        read_all(storage, "covers/a.png", Some(10..20)).await,
        &bytes[10..20]
    );
    assert_eq!(
        read_all(storage, "covers/a.png", Some(2990..3000)).await,
        &bytes[2990..]
    );

    // Replaced whole: the new bytes, a new tag.
    storage.put("covers/a.png", b"second").await.unwrap();
    assert_eq!(
        storage.get("covers/a.png").await.unwrap().unwrap(),
        &b"second"[..]
    );
    let replaced = storage.head("covers/a.png").await.unwrap().unwrap();
    assert_eq!(replaced.size, 6);
    assert_ne!(replaced.etag, meta.etag);

    // A file streamed in, larger than one part of a multipart upload.
    let dir = tempfile::tempdir().unwrap();
    let local = dir.path().join("issue.pdf");
    let big: Vec<u8> = (0..12 * 1024 * 1024u32).map(|i| (i % 251) as u8).collect();
    std::fs::write(&local, &big).unwrap();
    storage
        .put_file("magazines/issue.pdf", &local)
        .await
        .unwrap();
    assert!(local.exists(), "the source file is left as it was");
    assert_eq!(
        storage
            .head("magazines/issue.pdf")
            .await
            .unwrap()
            .unwrap()
            .size,
        big.len() as u64
    );
    assert_eq!(
        read_all(storage, "magazines/issue.pdf", Some(5_000_000..5_000_100)).await,
        &big[5_000_000..5_000_100]
    );
    assert_eq!(
        storage
            .get("magazines/issue.pdf")
            .await
            .unwrap()
            .unwrap()
            .len(),
        big.len()
    );

    // Keys are made by the app, and still never leave their area.
    for bad in ["../x", "/etc/passwd", "a/../../b", "", "./a", "a/"] {
        let e = storage.put(bad, b"x").await.unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput, "{bad}");
        assert!(storage.get(bad).await.is_err(), "{bad}");
    }

    // Delete: gone, and deleting again is fine.
    storage.delete("covers/a.png").await.unwrap();
    assert_eq!(storage.get("covers/a.png").await.unwrap(), None);
    assert_eq!(storage.head("covers/a.png").await.unwrap(), None);
    assert!(storage.stream("covers/a.png", None).await.is_err());
    storage.delete("covers/a.png").await.unwrap();
    storage.delete("magazines/issue.pdf").await.unwrap();

    // URLs and back.
    assert_eq!(storage.url("covers/b.png"), "/media/covers/b.png");
    assert_eq!(
        storage.key_of("/media/covers/b.png?v=2"),
        Some("covers/b.png")
    );
    assert_eq!(storage.key_of("/media/../etc/passwd"), None);
    assert_eq!(storage.key_of("/other/covers/b.png"), None);
}
