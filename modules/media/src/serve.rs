//! Serves stored files under `/media/…`, with the WebP twin of a cover for browsers that
//! accept it, and range, ETag and caching support.

use std::path::PathBuf;
use std::sync::Arc;

use kernel::storage::LocalStorage;
use poem::http::{header, Method, StatusCode};
use poem::web::StaticFileRequest;
use poem::{Endpoint, FromRequest, IntoResponse, Request, Response, Result};

pub struct MediaEndpoint {
    storage: Arc<LocalStorage>,
}

impl MediaEndpoint {
    pub fn new(storage: Arc<LocalStorage>) -> Self {
        Self { storage }
    }

    fn pick(&self, key: &str, accepts_webp: bool) -> Option<(PathBuf, bool)> {
        let path = self.storage.path_of(key)?;
        let is_raster = key.ends_with(".png") || key.ends_with(".jpg");
        if is_raster {
            let webp = path.with_extension("webp");
            if accepts_webp && webp.is_file() {
                return Some((webp, true));
            }
        }
        Some((path, is_raster))
    }
}

impl Endpoint for MediaEndpoint {
    type Output = Response;

    async fn call(&self, req: Request) -> Result<Response> {
        if req.method() != Method::GET && req.method() != Method::HEAD {
            return Ok(StatusCode::METHOD_NOT_ALLOWED.into_response());
        }
        let key = req.uri().path().trim_start_matches('/').to_string();
        let key = match percent_decode(&key) {
            Some(k) => k,
            None => return Ok(StatusCode::NOT_FOUND.into_response()),
        };
        let accepts_webp = req
            .headers()
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("image/webp"));
        let Some((path, negotiated)) = self.pick(&key, accepts_webp) else {
            return Ok(StatusCode::NOT_FOUND.into_response());
        };
        if !path.is_file() {
            return Ok(StatusCode::NOT_FOUND.into_response());
        }
        let file = StaticFileRequest::from_request_without_body(&req).await?;
        let mut resp = file.create_response(&path, false, false)?.into_response();
        let headers = resp.headers_mut();
        headers.insert(
            header::CACHE_CONTROL,
            header::HeaderValue::from_static("public, max-age=86400"),
        );
        headers.insert(
            "x-content-type-options",
            header::HeaderValue::from_static("nosniff"),
        );
        if key.ends_with(".pdf") {
            // Magazine issues open in the browser's PDF viewer (which a sandboxing policy
            // would block); they are checked to be PDFs on upload.
            headers.insert(
                header::CONTENT_DISPOSITION,
                header::HeaderValue::from_static("inline"),
            );
        } else {
            // Uploaded files are data, never active content, even when opened directly.
            headers.insert(
                header::CONTENT_SECURITY_POLICY,
                header::HeaderValue::from_static(
                    "default-src 'none'; style-src 'unsafe-inline'; sandbox",
                ),
            );
        }
        if negotiated {
            headers.insert(header::VARY, header::HeaderValue::from_static("Accept"));
        }
        Ok(resp)
    }
}

fn percent_decode(s: &str) -> Option<String> {
    percent_encoding::percent_decode_str(s)
        .decode_utf8()
        .ok()
        .map(|c| c.into_owned())
}
