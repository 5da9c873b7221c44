//! Responses made once and served many times. A public page (or the sitemap) is stored with
//! its gzip and brotli twins, compressed once at high settings, each with a strong `ETag`,
//! `Content-Length` and every header prebuilt, so a cache hit costs a lookup and a clone.
//! Conditional requests (`If-None-Match`, `If-Modified-Since`) are answered 304 from the
//! same entry.

use std::io::Write as _;
use std::time::SystemTime;

use bytes::Bytes;
use poem::http::{header, HeaderMap, HeaderValue, StatusCode};

pub use super::negotiate::{choose, Coding};
use super::negotiate::{choose_among, Offered};

/// Bodies smaller than this are stored once: compression would save next to nothing.
pub const MIN_COMPRESS_BYTES: usize = 1024;

/// Public pages: browsers revalidate on every visit (a 304 when nothing changed); a shared
/// cache (CDN) may hold a page for `s-maxage` and serve it stale while it refetches.
pub fn public_cache_control(shared_seconds: u64) -> HeaderValue {
    let stale = shared_seconds.saturating_mul(5);
    HeaderValue::from_str(&format!(
        "public, max-age=0, s-maxage={shared_seconds}, stale-while-revalidate={stale}"
    ))
    .unwrap_or(HeaderValue::from_static("no-cache"))
}

/// Anything for one person: never stored by a browser's disk cache or a shared cache.
pub const PRIVATE: HeaderValue = HeaderValue::from_static("private, no-store");

/// How hard to compress: once per content version (`Best`), or for one response (`Fast`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effort {
    Best,
    Fast,
}

impl Effort {
    /// Whether a page compressed at this effort has a brotli twin. Only at the best settings:
    /// at quick settings this encoder takes twice gzip's time for the same size, so a page
    /// compressed quickly is sent gzip until it is polished.
    pub fn makes_brotli(self) -> bool {
        self == Effort::Best
    }
}

fn gzip(body: &[u8], effort: Effort) -> Option<Vec<u8>> {
    let level = match effort {
        Effort::Best => flate2::Compression::best(),
        Effort::Fast => flate2::Compression::new(4),
    };
    let mut out = flate2::write::GzEncoder::new(Vec::with_capacity(body.len() / 3), level);
    out.write_all(body).ok()?;
    out.finish().ok()
}

/// zstd level for a response made for one request: level 1 takes about 40% less time than the
/// default (3) on an article page for about 5% more bytes; a page kept is polished to brotli
/// and gzip at their best settings (see `Effort::Best`).
const ONCE_ZSTD_LEVEL: i32 = 1;

/// zstd for a response made for one request. Each thread keeps its compression context:
/// making one is a tenth of the work of compressing a page.
fn zstd(body: &[u8]) -> Option<Vec<u8>> {
    thread_local! {
        static CONTEXT: std::cell::RefCell<Option<zstd::bulk::Compressor<'static>>> =
            const { std::cell::RefCell::new(None) };
    }
    CONTEXT.with(|context| {
        let mut context = context.try_borrow_mut().ok()?;
        if context.is_none() {
            *context = zstd::bulk::Compressor::new(ONCE_ZSTD_LEVEL).ok();
        }
        context.as_mut()?.compress(body).ok()
    })
}

/// Brotli at its best settings (pages compressed quickly are sent gzip: see `build_at`).
fn brotli(body: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(body.len() / 3);
    // A window just larger than the page: the encoder zeroes tables sized by the window.
    let fits = usize::BITS - (body.len() + 16).leading_zeros();
    let params = brotli::enc::BrotliEncoderParams {
        quality: 11,
        lgwin: i32::try_from(fits.clamp(10, 22)).unwrap_or(22),
        size_hint: body.len(),
        ..Default::default()
    };
    brotli::BrotliCompress(&mut &body[..], &mut out, &params).ok()?;
    Some(out)
}

/// One encoding of a response: its bytes and the headers of a 200 and of a 304.
#[derive(Debug)]
struct Variant {
    body: Bytes,
    full: HeaderMap,
    not_modified: HeaderMap,
    etag: HeaderValue,
}

/// A response held in every encoding worth having.
#[derive(Debug)]
pub struct Representation {
    status: StatusCode,
    identity: Variant,
    gzip: Option<Variant>,
    brotli: Option<Variant>,
    zstd: Option<Variant>,
    last_modified: Option<SystemTime>,
    effort: Effort,
}

/// What to send: the status, headers and body (empty for HEAD and 304).
pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Answer {
    /// As hyper's response, for the server loop: the stored bytes as they are.
    pub fn into_hyper(self) -> hyper::Response<http_body_util::Full<Bytes>> {
        let mut response = hyper::Response::new(http_body_util::Full::new(self.body));
        *response.status_mut() = self.status;
        *response.headers_mut() = self.headers;
        response
    }

    pub fn into_poem(self) -> poem::Response {
        let mut response = poem::Response::builder()
            .status(self.status)
            .body(self.body);
        *response.headers_mut() = self.headers;
        response
    }
}

impl Representation {
    /// Builds the representation of `body`. `headers` are sent with every variant (type,
    /// cache policy, security headers). `only` limits the twins to one coding (for a response
    /// that is not kept); `Effort::Best` takes tens of milliseconds on a large page, so call it
    /// off the async threads.
    pub fn build(
        status: StatusCode,
        body: Bytes,
        headers: &HeaderMap,
        effort: Effort,
        only: Option<Coding>,
    ) -> Representation {
        let last_modified = (status == StatusCode::OK).then(|| {
            let now = httpdate::HttpDate::from(SystemTime::now());
            SystemTime::from(now)
        });
        Self::build_at(status, body, headers, effort, only, last_modified)
    }

    /// The representation of `body` for one response to `request` (not kept): compressed
    /// quickly, in the one coding the request takes of those quick compression makes.
    pub fn once(
        status: StatusCode,
        body: Bytes,
        headers: &HeaderMap,
        request: &HeaderMap,
    ) -> Representation {
        let coding = choose_among(
            request.get(header::ACCEPT_ENCODING),
            Offered {
                gzip: true,
                brotli: Effort::Fast.makes_brotli(),
                zstd: true,
            },
        );
        Self::build(status, body, headers, Effort::Fast, Some(coding))
    }

    /// The same response compressed at the best settings, keeping its validators'
    /// meaning: the identity tag and `Last-Modified` stay (the bytes it stands for are the
    /// same); the compressed twins get tags of their own (their bytes differ).
    pub fn polished(&self, headers: &HeaderMap) -> Representation {
        Self::build_at(
            self.status,
            self.identity.body.clone(),
            headers,
            Effort::Best,
            None,
            self.last_modified,
        )
    }

    /// Whether this stands for exactly `body` answered with `status`.
    pub fn is_same(&self, status: StatusCode, body: &[u8]) -> bool {
        self.status == status && self.identity.body.as_ref() == body
    }

    pub fn effort(&self) -> Effort {
        self.effort
    }

    fn build_at(
        status: StatusCode,
        body: Bytes,
        headers: &HeaderMap,
        effort: Effort,
        only: Option<Coding>,
        last_modified: Option<SystemTime>,
    ) -> Representation {
        // A validator, not a signature: a fast 128-bit hash of the bytes (SHA-256 was a
        // twentieth of the CPU of a page made for one request).
        let tag = format!("{:032x}", xxhash_rust::xxh3::xxh3_128(&body));
        let with_validators = status == StatusCode::OK;
        let compressible = body.len() >= MIN_COMPRESS_BYTES;
        let wanted = |c: Coding| compressible && only.is_none_or(|o| o == c);
        // Twins compressed quickly are other bytes than the best ones: another tag.
        let quick = match effort {
            Effort::Fast => "-fast",
            Effort::Best => "",
        };
        let variant = |coding: Coding, bytes: Bytes| {
            let etag = match coding {
                Coding::Identity => format!("\"{tag}\""),
                _ => format!("\"{tag}{}{quick}\"", coding.suffix()),
            };
            let etag = HeaderValue::from_str(&etag).unwrap_or(HeaderValue::from_static("\"\""));
            let mut full = headers.clone();
            full.insert(header::VARY, HeaderValue::from(header::ACCEPT_ENCODING));
            if let Some(enc) = coding.header() {
                full.insert(header::CONTENT_ENCODING, enc);
            }
            full.insert(header::CONTENT_LENGTH, HeaderValue::from(bytes.len()));
            let mut not_modified = HeaderMap::new();
            if with_validators {
                full.insert(header::ETAG, etag.clone());
                if let Some(at) = last_modified {
                    if let Ok(v) = HeaderValue::from_str(&httpdate::fmt_http_date(at)) {
                        full.insert(header::LAST_MODIFIED, v.clone());
                        not_modified.insert(header::LAST_MODIFIED, v);
                    }
                }
                not_modified.insert(header::ETAG, etag.clone());
                not_modified.insert(header::VARY, HeaderValue::from(header::ACCEPT_ENCODING));
                for name in [header::CACHE_CONTROL, header::STRICT_TRANSPORT_SECURITY] {
                    if let Some(v) = headers.get(&name) {
                        not_modified.insert(name, v.clone());
                    }
                }
            }
            Variant {
                body: bytes,
                full,
                not_modified,
                etag,
            }
        };
        // A twin is kept only when it is smaller than the original.
        let twin = |coding: Coding, out: Option<Vec<u8>>| {
            out.filter(|b| b.len() < body.len())
                .map(|b| variant(coding, Bytes::from(b)))
        };
        let gzip = if wanted(Coding::Gzip) {
            twin(Coding::Gzip, gzip(&body, effort))
        } else {
            None
        };
        let brotli = if wanted(Coding::Brotli) && effort.makes_brotli() {
            twin(Coding::Brotli, brotli(&body))
        } else {
            None
        };
        // Made only when asked for by name: a response for one request (see `once`).
        let zstd = if only == Some(Coding::Zstd) && compressible {
            twin(Coding::Zstd, zstd(&body))
        } else {
            None
        };
        Representation {
            status,
            identity: variant(Coding::Identity, body),
            gzip,
            brotli,
            zstd,
            last_modified,
            effort,
        }
    }

    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// Bytes held, for the cache's weigher.
    pub fn weight(&self) -> usize {
        self.identity.body.len()
            + self.gzip.as_ref().map_or(0, |v| v.body.len())
            + self.brotli.as_ref().map_or(0, |v| v.body.len())
            + self.zstd.as_ref().map_or(0, |v| v.body.len())
    }

    fn variant(&self, coding: Coding) -> &Variant {
        match coding {
            Coding::Brotli => self.brotli.as_ref().unwrap_or(&self.identity),
            Coding::Gzip => self.gzip.as_ref().unwrap_or(&self.identity),
            Coding::Zstd => self.zstd.as_ref().unwrap_or(&self.identity),
            Coding::Identity => &self.identity,
        }
    }

    /// The answer to a GET (or HEAD) with these request headers: the variant the client
    /// accepts, or a 304 when its validators still match.
    pub fn answer(&self, request: &HeaderMap, head_only: bool) -> Answer {
        let coding = choose_among(
            request.get(header::ACCEPT_ENCODING),
            Offered {
                gzip: self.gzip.is_some(),
                brotli: self.brotli.is_some(),
                zstd: self.zstd.is_some(),
            },
        );
        let variant = self.variant(coding);
        if self.status == StatusCode::OK && self.not_modified(request, &variant.etag) {
            return Answer {
                status: StatusCode::NOT_MODIFIED,
                headers: variant.not_modified.clone(),
                body: Bytes::new(),
            };
        }
        Answer {
            status: self.status,
            headers: variant.full.clone(),
            body: if head_only {
                Bytes::new()
            } else {
                variant.body.clone()
            },
        }
    }

    /// RFC 9110 §13.1.2 / §13.1.3: `If-None-Match` (weak comparison) decides when present;
    /// otherwise `If-Modified-Since` against the time this representation was made.
    fn not_modified(&self, request: &HeaderMap, etag: &HeaderValue) -> bool {
        if let Some(inm) = request.get(header::IF_NONE_MATCH) {
            let ours = etag.as_bytes();
            return inm.to_str().is_ok_and(|list| {
                list.split(',').any(|t| {
                    let t = t.trim();
                    t == "*" || t.strip_prefix("W/").unwrap_or(t).as_bytes() == ours
                })
            });
        }
        let (Some(ims), Some(at)) = (request.get(header::IF_MODIFIED_SINCE), self.last_modified)
        else {
            return false;
        };
        ims.to_str()
            .ok()
            .and_then(|s| httpdate::parse_http_date(s).ok())
            .is_some_and(|since| at <= since)
    }
}

#[cfg(test)]
mod tests;
