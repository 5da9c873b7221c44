use super::*;
use moka::Expiry;

fn stored(status: StatusCode) -> CachedPage {
    CachedPage {
        version: 1,
        path: Arc::from("/"),
        article: false,
        stored_at: Instant::now(),
        page: Arc::new(Representation::build(
            status,
            Bytes::from_static(b"<p>page</p>"),
            &HeaderMap::new(),
            Effort::Fast,
            None,
        )),
    }
}

#[test]
fn a_page_stored_again_gets_a_whole_lifetime() {
    let now = std::time::Instant::now();
    let key = "/".to_string();
    let ok = stored(StatusCode::OK);
    let missing = stored(StatusCode::NOT_FOUND);
    let after = |p: &CachedPage| {
        PageExpiry.expire_after_update(&key, p, now, Some(Duration::from_millis(1)))
    };
    assert_eq!(after(&ok), Some(KEEP_FOR));
    assert_eq!(after(&missing), Some(Duration::from_secs(30)));
    assert_eq!(
        PageExpiry.expire_after_create(&key, &ok, now),
        Some(KEEP_FOR)
    );
}
