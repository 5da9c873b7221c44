//! Serves stored files under `/media/…` from whichever storage holds them (the local disk or
//! an S3-compatible bucket): the WebP twin of a cover for browsers that accept it (when it is
//! the smaller file), a cover's width copies (made from the original, once, for covers stored
//! before uploads made them), a single
//! byte range, validators (ETag, Last-Modified) and conditional requests, caching and
//! security headers — the same on every backend.

use std::ops::Bound;
use std::sync::Arc;
use std::time::SystemTime;

use futures_util::StreamExt;
use kernel::http::UPLOAD_CSP;
use kernel::storage::{Meta, Storage};
use poem::http::{header, HeaderValue, Method, StatusCode};
use poem::web::headers::{
    ETag, HeaderMapExt, IfMatch, IfModifiedSince, IfNoneMatch, IfRange, IfUnmodifiedSince,
    LastModified, Range,
};
use poem::{Body, Endpoint, IntoResponse, Request, Response, Result};
use tokio::sync::Semaphore;

use crate::covers::{cover_at_width, parse_width_key, MAX_COVER_BYTES};

pub struct MediaEndpoint {
    storage: Arc<Storage>,
    /// Width copies made at once (older covers' copies, made on first request).
    makers: Arc<Semaphore>,
}

impl MediaEndpoint {
    pub fn new(storage: Arc<Storage>) -> Self {
        Self {
            storage,
            makers: Arc::new(Semaphore::new(1)),
        }
    }

    /// The file to serve for `key` and its metadata, and whether the choice depended on
    /// `Accept` (a raster cover whose WebP twin exists).
    async fn pick(
        &self,
        key: &str,
        accepts_webp: bool,
    ) -> std::io::Result<Option<(String, Meta, bool)>> {
        let raster = key.ends_with(".png") || key.ends_with(".jpg");
        let Some(meta) = self.storage.head(key).await? else {
            return Ok(self
                .make_width_copy(key)
                .await?
                .map(|meta| (key.to_string(), meta, false)));
        };
        if raster && accepts_webp {
            let twin = format!(
                "{}.webp",
                key.rsplit_once('.').map_or(key, |(stem, _)| stem)
            );
            // Covers stored before twins were lossy have a twin larger than the original.
            if let Some(twin_meta) = self.storage.head(&twin).await? {
                if twin_meta.size < meta.size {
                    return Ok(Some((twin, twin_meta, true)));
                }
            }
        }
        Ok(Some((key.to_string(), meta, raster)))
    }

    /// Makes and stores the missing width copy named `key` from its cover's original, and
    /// returns its metadata; `None` when `key` names no width copy of a stored cover.
    async fn make_width_copy(&self, key: &str) -> std::io::Result<Option<Meta>> {
        let Some((stem, width)) = parse_width_key(key) else {
            return Ok(None);
        };
        let mut original = None;
        for extension in ["jpg", "png"] {
            let candidate = format!("{stem}.{extension}");
            if let Some(meta) = self.storage.head(&candidate).await? {
                original = Some((candidate, meta));
                break;
            }
        }
        let Some((original, meta)) = original else {
            return Ok(None);
        };
        if meta.size > MAX_COVER_BYTES as u64 {
            return Ok(None);
        }
        let _permit = self.makers.acquire().await.map_err(std::io::Error::other)?;
        // Another request may have made it while this one waited.
        if let Some(made) = self.storage.head(key).await? {
            return Ok(Some(made));
        }
        let Some(bytes) = self.storage.get(&original).await? else {
            return Ok(None);
        };
        let made = tokio::task::spawn_blocking(move || cover_at_width(&bytes, width))
            .await
            .map_err(std::io::Error::other)?;
        let made = match made {
            Ok(made) => made,
            Err(e) => {
                tracing::warn!(error = %e, original, "media: no width copy of a stored cover");
                return Ok(None);
            }
        };
        self.storage.put(key, &made).await?;
        self.storage.head(key).await
    }
}

fn content_type(key: &str) -> String {
    mime_guess::from_path(key)
        .first_raw()
        .unwrap_or("application/octet-stream")
        .to_string()
}

/// The first satisfiable range of `range` in a file of `size` bytes, as `start..end`;
/// `Err(())` when none is.
fn first_range(range: &Range, size: u64) -> std::result::Result<std::ops::Range<u64>, ()> {
    let (start, end) = range.satisfiable_ranges(size).next().ok_or(())?;
    let start = match start {
        Bound::Included(n) => n,
        Bound::Excluded(n) => n + 1,
        Bound::Unbounded => 0,
    };
    let end = match end {
        Bound::Included(n) => n + 1,
        Bound::Excluded(n) => n,
        Bound::Unbounded => size,
    }
    // A last byte past the end means the end (RFC 9110 §14.1.2).
    .min(size);
    if start >= end {
        return Err(());
    }
    Ok(start..end)
}

impl Endpoint for MediaEndpoint {
    type Output = Response;

    async fn call(&self, req: Request) -> Result<Response> {
        if req.method() != Method::GET && req.method() != Method::HEAD {
            return Ok(StatusCode::METHOD_NOT_ALLOWED.into_response());
        }
        let key = req.uri().path().trim_start_matches('/').to_string();
        let Some(key) = percent_decode(&key) else {
            return Ok(StatusCode::NOT_FOUND.into_response());
        };
        let headers = req.headers();
        let accepts_webp = headers
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("image/webp"));
        let (key, meta, negotiated) = match self.pick(&key, accepts_webp).await {
            Ok(Some(found)) => found,
            Ok(None) => return Ok(StatusCode::NOT_FOUND.into_response()),
            Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
                return Ok(StatusCode::NOT_FOUND.into_response())
            }
            Err(e) => {
                tracing::error!(error = %e, "media: storage unavailable");
                return Ok(StatusCode::SERVICE_UNAVAILABLE.into_response());
            }
        };
        let etag = meta
            .etag
            .as_deref()
            .and_then(|t| format!("\"{t}\"").parse::<ETag>().ok());
        let modified = SystemTime::from(meta.last_modified);

        // Conditional requests (RFC 9110 §13.2.2 order).
        let precondition_failed = headers
            .typed_get::<IfMatch>()
            .is_some_and(|m| etag.as_ref().is_none_or(|t| !m.precondition_passes(t)))
            || headers
                .typed_get::<IfUnmodifiedSince>()
                .is_some_and(|s| !s.precondition_passes(modified));
        if precondition_failed {
            return Ok(StatusCode::PRECONDITION_FAILED.into_response());
        }
        let not_modified = match headers.typed_get::<IfNoneMatch>() {
            Some(none_match) => etag
                .as_ref()
                .is_some_and(|t| !none_match.precondition_passes(t)),
            None => headers
                .typed_get::<IfModifiedSince>()
                .is_some_and(|s| !s.is_modified(modified)),
        };

        let mut builder = Response::builder()
            .header(header::CACHE_CONTROL, "public, max-age=86400")
            .header(header::LAST_MODIFIED, httpdate::fmt_http_date(modified))
            .header("x-content-type-options", "nosniff");
        if let Some(tag) = &etag {
            builder = builder.typed_header(tag.clone());
        }
        if key.ends_with(".pdf") {
            // Magazine issues and packs open in the browser's PDF viewer.
            builder = builder.header(header::CONTENT_DISPOSITION, "inline");
        }
        // Uploaded files are data, never active content, even when opened directly: a PDF's
        // own scripts get an opaque origin. Chromium's viewer shows a PDF opened this way (it
        // refuses only one framed in a sandbox, which no page of ours does); e2e checks it.
        builder = builder.header(header::CONTENT_SECURITY_POLICY, UPLOAD_CSP);
        if negotiated {
            builder = builder.header(header::VARY, "Accept");
        }
        if not_modified {
            return Ok(builder.status(StatusCode::NOT_MODIFIED).finish());
        }
        builder = builder
            .header(header::ACCEPT_RANGES, "bytes")
            .content_type(content_type(&key));

        // One range at most; a range for another version of the file gets the whole file.
        let range = headers.typed_get::<Range>().filter(|_| {
            headers.typed_get::<IfRange>().is_none_or(|if_range| {
                !if_range.is_modified(etag.as_ref(), Some(&LastModified::from(modified)))
            })
        });
        let (status, span) = match range.map(|r| first_range(&r, meta.size)) {
            Some(Err(())) => {
                return Ok(builder
                    .status(StatusCode::RANGE_NOT_SATISFIABLE)
                    .header(header::CONTENT_RANGE, format!("bytes */{}", meta.size))
                    .finish());
            }
            Some(Ok(r)) if r.start != 0 || r.end != meta.size => {
                builder = builder.header(
                    header::CONTENT_RANGE,
                    format!("bytes {}-{}/{}", r.start, r.end - 1, meta.size),
                );
                (StatusCode::PARTIAL_CONTENT, Some(r))
            }
            _ => (StatusCode::OK, None),
        };
        let length = span.as_ref().map_or(meta.size, |r| r.end - r.start);
        builder = builder
            .status(status)
            .header(header::CONTENT_LENGTH, HeaderValue::from(length));
        if req.method() == Method::HEAD || length == 0 {
            return Ok(builder.finish());
        }
        match self.storage.stream(&key, span).await {
            Ok(stream) => Ok(builder.body(Body::from_bytes_stream(stream.map(|chunk| {
                chunk.map_err(|e| {
                    tracing::warn!(error = %e, "media: read failed mid-response");
                    e
                })
            })))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                Ok(StatusCode::NOT_FOUND.into_response())
            }
            Err(e) => {
                tracing::error!(error = %e, "media: storage unavailable");
                Ok(StatusCode::SERVICE_UNAVAILABLE.into_response())
            }
        }
    }
}

fn percent_decode(s: &str) -> Option<String> {
    percent_encoding::percent_decode_str(s)
        .decode_utf8()
        .ok()
        .map(|c| c.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(v: &str) -> Range {
        let mut h = poem::http::HeaderMap::new();
        h.insert(header::RANGE, HeaderValue::from_str(v).unwrap());
        h.typed_get::<Range>().unwrap()
    }

    #[test]
    fn ranges() {
        assert_eq!(first_range(&range("bytes=0-9"), 100), Ok(0..10));
        assert_eq!(first_range(&range("bytes=90-"), 100), Ok(90..100));
        assert_eq!(first_range(&range("bytes=-5"), 100), Ok(95..100));
        assert_eq!(first_range(&range("bytes=50-500"), 100), Ok(50..100));
        assert_eq!(first_range(&range("bytes=100-"), 100), Err(()));
        assert_eq!(first_range(&range("bytes=0-0"), 0), Err(()));
    }

    #[test]
    fn content_types() {
        assert_eq!(content_type("covers/a.webp"), "image/webp");
        assert_eq!(content_type("magazines/x.pdf"), "application/pdf");
        assert_eq!(content_type("covers/a.svg"), "image/svg+xml");
        assert_eq!(content_type("x.unknown"), "application/octet-stream");
    }
}
