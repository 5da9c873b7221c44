use super::*;

#[test]
fn a_polished_page_keeps_its_validators_where_its_bytes_are_the_same() {
    let body: String = (0..300).map(|i| format!("<p>line {i}</p>")).collect();
    let mut headers = HeaderMap::new();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("public"));
    let quick = Representation::build(
        StatusCode::OK,
        Bytes::from(body.clone()),
        &headers,
        Effort::Fast,
        None,
    );
    let best = quick.polished(&headers);
    assert_eq!(best.effort(), Effort::Best);
    assert_eq!(best.identity.etag, quick.identity.etag);
    assert_eq!(best.last_modified, quick.last_modified);
    // Quickly, gzip only: a browser is sent gzip until the page is polished.
    assert!(quick.brotli.is_none());
    let browser = HeaderMap::from_iter([(
        header::ACCEPT_ENCODING,
        HeaderValue::from_static("gzip, deflate, br, zstd"),
    )]);
    let (qa, ba) = (quick.answer(&browser, false), best.answer(&browser, false));
    assert_eq!(qa.headers[header::CONTENT_ENCODING], "gzip");
    assert_eq!(ba.headers[header::CONTENT_ENCODING], "br");
    let (qg, bg) = (quick.gzip.as_ref().unwrap(), best.gzip.as_ref().unwrap());
    assert_ne!(qg.etag, bg.etag);
    assert!(qg.etag.to_str().unwrap().ends_with("-gz-fast\""));
    assert!(bg.etag.to_str().unwrap().ends_with("-gz\""));
    assert!(ba.body.len() < qa.body.len());
    assert_eq!(
        best.gzip.as_ref().unwrap().full.get(header::CACHE_CONTROL),
        headers.get(header::CACHE_CONTROL)
    );
    assert!(best.is_same(StatusCode::OK, body.as_bytes()));
    assert!(!best.is_same(StatusCode::NOT_FOUND, body.as_bytes()));
}

#[test]
fn a_page_made_for_one_request_is_sent_zstd_to_browsers_that_take_it() {
    let body: String = (0..300).map(|i| format!("<p>line {i}</p>")).collect();
    let asking = |accept: &'static str| {
        HeaderMap::from_iter([(header::ACCEPT_ENCODING, HeaderValue::from_static(accept))])
    };
    let headers = HeaderMap::new();
    let browser = asking("gzip, deflate, br, zstd");
    let once = Representation::once(
        StatusCode::OK,
        Bytes::from(body.clone()),
        &headers,
        &browser,
    );
    let answer = once.answer(&browser, false);
    assert_eq!(answer.headers[header::CONTENT_ENCODING], "zstd");
    assert_eq!(answer.headers[header::VARY], "accept-encoding");
    assert!(answer.body.len() < body.len() / 4);
    let unpacked = zstd::bulk::decompress(&answer.body, body.len()).unwrap();
    assert_eq!(unpacked, body.as_bytes());
    assert!(answer.headers[header::ETAG]
        .to_str()
        .unwrap()
        .ends_with("-zst-fast\""));

    // A browser without zstd (Safari) gets gzip, and no zstd is made for it.
    let safari = asking("gzip, deflate, br");
    let once = Representation::once(StatusCode::OK, Bytes::from(body.clone()), &headers, &safari);
    assert!(once.zstd.is_none());
    assert_eq!(
        once.answer(&safari, false).headers[header::CONTENT_ENCODING],
        "gzip"
    );
    // A page kept for everyone holds no zstd twin.
    let kept = Representation::build(
        StatusCode::OK,
        Bytes::from(body),
        &headers,
        Effort::Fast,
        None,
    );
    assert!(kept.zstd.is_none());
    assert_eq!(
        kept.answer(&browser, false).headers[header::CONTENT_ENCODING],
        "gzip"
    );
}

#[test]
fn small_bodies_are_stored_once() {
    let r = Representation::build(
        StatusCode::OK,
        Bytes::from_static(b"<p>short</p>"),
        &HeaderMap::new(),
        Effort::Best,
        None,
    );
    assert!(r.gzip.is_none() && r.brotli.is_none());
    let a = r.answer(&HeaderMap::new(), false);
    assert_eq!(a.headers.get(header::CONTENT_ENCODING), None);
    assert_eq!(a.body.as_ref(), b"<p>short</p>");
}
