//! The web client's built files, held in memory with their gzip and brotli twins (made at
//! build time). Fingerprinted files under `/assets/` are immutable.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use bytes::Bytes;
use poem::http::{header, HeaderMap, Method, StatusCode};
use poem::{Endpoint, IntoResponse, Request, Response, Result};

use super::represent::Coding;

struct Asset {
    body: Bytes,
    gzip: Option<Bytes>,
    brotli: Option<Bytes>,
    content_type: &'static str,
    immutable: bool,
}

pub struct Assets {
    files: HashMap<String, Asset>,
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or_default() {
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "json" | "map" => "application/json",
        "txt" => "text/plain; charset=utf-8",
        "webmanifest" => "application/manifest+json",
        _ => "application/octet-stream",
    }
}

fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

impl Assets {
    /// Loads every file under `root` except the page template.
    pub fn load(root: &Path) -> anyhow::Result<Assets> {
        let mut paths = Vec::new();
        walk(root, &mut paths)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", root.display()))?;
        let mut files = HashMap::new();
        for path in &paths {
            let rel = path
                .strip_prefix(root)?
                .to_string_lossy()
                .replace('\\', "/");
            if rel == "index.html"
                || rel.ends_with(".gz")
                || rel.ends_with(".br")
                || rel.starts_with(".vite/")
            {
                continue;
            }
            let twin = |ext: &str| std::fs::read(format!("{}.{ext}", path.display())).ok();
            let url = format!("/{rel}");
            files.insert(
                url.clone(),
                Asset {
                    body: Bytes::from(std::fs::read(path)?),
                    gzip: twin("gz").map(Bytes::from),
                    brotli: twin("br").map(Bytes::from),
                    content_type: content_type(&rel),
                    immutable: url.starts_with("/assets/"),
                },
            );
        }
        Ok(Assets { files })
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The response for `path`, if it is a built file.
    pub fn serve(&self, path: &str, headers: &HeaderMap) -> Option<Response> {
        let asset = self.files.get(path)?;
        let coding = super::represent::choose(
            headers.get(header::ACCEPT_ENCODING),
            asset.gzip.is_some(),
            asset.brotli.is_some(),
        );
        let (body, encoding) = match (coding, &asset.brotli, &asset.gzip) {
            (Coding::Brotli, Some(br), _) => (br.clone(), Some("br")),
            (Coding::Gzip, _, Some(gz)) => (gz.clone(), Some("gzip")),
            _ => (asset.body.clone(), None),
        };
        let cache = if asset.immutable {
            "public, max-age=31536000, immutable"
        } else {
            "public, max-age=3600"
        };
        let mut builder = Response::builder()
            .content_type(asset.content_type)
            .header(header::CACHE_CONTROL, cache)
            .header(header::VARY, "Accept-Encoding")
            .header("x-content-type-options", "nosniff");
        if let Some(enc) = encoding {
            builder = builder.header(header::CONTENT_ENCODING, enc);
        }
        Some(builder.body(body))
    }
}

/// Serves `/assets/…`; anything not built is a 404.
pub struct AssetEndpoint(pub Arc<Assets>);

impl Endpoint for AssetEndpoint {
    type Output = Response;

    async fn call(&self, req: Request) -> Result<Response> {
        if req.method() != Method::GET && req.method() != Method::HEAD {
            return Ok(StatusCode::METHOD_NOT_ALLOWED.into_response());
        }
        let path = format!("/assets{}", req.uri().path());
        Ok(self
            .0
            .serve(&path, req.headers())
            .unwrap_or_else(|| StatusCode::NOT_FOUND.into_response()))
    }
}
