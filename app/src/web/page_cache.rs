//! The page cache: public pages, each held as one [`Representation`] per content version.
//!
//! A page is stored compressed quickly, so the reader who asked for it is not kept waiting,
//! then compressed again at the best settings in the background (one page at a time, off
//! the async threads) and swapped in. A page rendered again for a new content version that
//! came out byte for byte the same keeps its stored representation: no compression at all,
//! and its `ETag` and `Last-Modified` stay valid, so revisits still get a 304.

use std::borrow::Cow;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tracing::Instrument;

use bytes::Bytes;
use content::ContentService;
use moka::future::Cache;
use moka::ops::compute::Op;
use moka::Expiry;
use poem::http::{header, HeaderMap, Method, StatusCode};
use tokio::sync::Semaphore;

use super::represent::{Answer, Effort, Representation};

const MAX_CACHED_BYTES: u64 = 64 * 1024 * 1024;

/// A page in the cache, with the content version it was rendered from (an entry from an
/// older version is a miss).
#[derive(Clone)]
struct CachedPage {
    version: u64,
    page: Arc<Representation>,
}

/// Missing pages are kept briefly, everything else a minute (other instances may change
/// content too) or until the content changes.
struct PageExpiry;

impl PageExpiry {
    fn lifetime(page: &CachedPage) -> Duration {
        if page.page.status() == StatusCode::NOT_FOUND {
            Duration::from_secs(30)
        } else {
            Duration::from_secs(60)
        }
    }
}

impl Expiry<String, CachedPage> for PageExpiry {
    fn expire_after_create(
        &self,
        _key: &String,
        page: &CachedPage,
        _now: std::time::Instant,
    ) -> Option<Duration> {
        Some(Self::lifetime(page))
    }

    /// A page rendered again (new content version, or the old one expired) gets a whole
    /// lifetime. moka's default keeps the old deadline: a page re-rendered after expiring
    /// would be born expired, and every request would render it again.
    fn expire_after_update(
        &self,
        _key: &String,
        page: &CachedPage,
        _now: std::time::Instant,
        _remaining: Option<Duration>,
    ) -> Option<Duration> {
        Some(Self::lifetime(page))
    }
}

/// A page just rendered, to be kept: its bytes, the headers of every answer, and whether
/// it is worth the best compression (the site's own pages, not those anyone can mint).
pub(super) struct Rendered {
    pub status: StatusCode,
    pub html: Bytes,
    pub headers: HeaderMap,
    pub polish: bool,
}

/// What a lookup found: an answer, or (on a miss) the entry of an older content version.
pub(super) enum Lookup {
    Answered(Answer),
    Missed(Option<Arc<Representation>>),
}

/// The page cache, and the answer to a request it can serve: a GET or HEAD of a page
/// without query string from someone not signed in. Used by the page endpoint and, before
/// the router, by the server loop (see `server.rs`), so a cache hit skips building a poem
/// request and the middleware that has nothing to do for a stored public page.
#[derive(Clone)]
pub struct CachedPages {
    cache: Cache<String, CachedPage>,
    content: Arc<ContentService>,
    /// Best-effort compression runs one page at a time, so a burst of new pages after a
    /// content change never takes every core from the readers.
    polishing: Arc<Semaphore>,
}

impl CachedPages {
    pub(super) fn new(content: Arc<ContentService>) -> Self {
        let cache = Cache::builder()
            .max_capacity(MAX_CACHED_BYTES)
            .weigher(|k: &String, v: &CachedPage| {
                u32::try_from(k.len() + v.page.weight()).unwrap_or(u32::MAX)
            })
            .expire_after(PageExpiry)
            .build();
        CachedPages {
            cache,
            content,
            polishing: Arc::new(Semaphore::new(1)),
        }
    }

    pub async fn answer(
        &self,
        method: &Method,
        uri: &poem::http::Uri,
        headers: &HeaderMap,
    ) -> Option<Answer> {
        let head_only = method == Method::HEAD;
        if (method != Method::GET && !head_only) || uri.query().is_some() || signed_in(headers) {
            return None;
        }
        let key = visitor_key(Cow::Borrowed(uri.path()), reader_cookie(headers));
        match self.lookup(&key, headers, head_only).await {
            Lookup::Answered(answer) => Some(answer),
            Lookup::Missed(_) => None,
        }
    }

    /// Answers from the cache when it holds `key` for the current content version (views
    /// are counted by the page's own beacon, or its image without scripts).
    pub(super) async fn lookup(&self, key: &str, headers: &HeaderMap, head_only: bool) -> Lookup {
        let Some(hit) = self.cache.get(key).await else {
            return Lookup::Missed(None);
        };
        if hit.version != self.content.version() {
            return Lookup::Missed(Some(hit.page));
        }
        crate::metrics::page_cache(true);
        Lookup::Answered(hit.page.answer(headers, head_only))
    }

    /// One render per page and content version: requests for `key` that arrive meanwhile
    /// wait for `render` and share its result — the stored page, or the error `E` when the
    /// page is not to be kept — instead of rendering and compressing again each. `stale` is
    /// what the lookup found for an older version.
    pub(super) async fn get_or_render<E>(
        &self,
        key: &str,
        version: u64,
        stale: Option<Arc<Representation>>,
        render: impl Future<Output = Result<Rendered, E>>,
    ) -> Result<Arc<Representation>, Arc<E>>
    where
        E: Send + Sync + 'static,
    {
        if stale.is_some() {
            self.cache.invalidate(key).await;
        }
        let stored = self
            .cache
            .try_get_with_by_ref(key, async {
                crate::metrics::page_cache(false);
                let rendered = render
                    .instrument(tracing::info_span!(
                        target: observability::TRACE_ONLY,
                        "page render",
                        cache = "miss",
                        page = key,
                    ))
                    .await?;
                let (page, polish) = match stale {
                    Some(old) if old.is_same(rendered.status, &rendered.html) => {
                        let polish = rendered.polish && old.effort() == Effort::Fast;
                        (old, polish)
                    }
                    _ => (
                        Arc::new(Representation::build(
                            rendered.status,
                            rendered.html,
                            &rendered.headers,
                            Effort::Fast,
                            None,
                        )),
                        rendered.polish,
                    ),
                };
                if polish {
                    self.polish_later(key, version, page.clone(), rendered.headers);
                }
                Ok(CachedPage { version, page })
            })
            .await?;
        Ok(stored.page)
    }

    /// Compresses `page` at the best settings in the background and swaps it in, if the
    /// cache still holds that very entry then.
    fn polish_later(&self, key: &str, version: u64, page: Arc<Representation>, headers: HeaderMap) {
        let cache = self.cache.clone();
        let polishing = self.polishing.clone();
        let key = key.to_string();
        tokio::spawn(async move {
            let Ok(_turn) = polishing.acquire_owned().await else {
                return;
            };
            let fast = page.clone();
            let best = match tokio::task::spawn_blocking(move || fast.polished(&headers)).await {
                Ok(best) => Arc::new(best),
                Err(e) => {
                    tracing::warn!(error = %e, "compressing a page failed");
                    return;
                }
            };
            cache
                .entry(key)
                .and_compute_with(|entry| {
                    let op = match entry {
                        Some(e) if Arc::ptr_eq(&e.value().page, &page) => Op::Put(CachedPage {
                            version,
                            page: best,
                        }),
                        _ => Op::Nop,
                    };
                    std::future::ready(op)
                })
                .await;
        });
    }
}

/// The cache key of a page for this request: a request with a reader's session cookie gets
/// the page every signed-in reader gets (its header offers "Account"), kept beside the
/// signed-out one under its own key.
pub(super) fn visitor_key(key: Cow<'_, str>, reader: bool) -> Cow<'_, str> {
    if reader {
        Cow::Owned(format!("{key}|reader"))
    } else {
        key
    }
}

/// The request carries a reader's session cookie (live or not: the page only offers the
/// account page, which checks).
pub(super) fn reader_cookie(headers: &HeaderMap) -> bool {
    cookie(headers, outreach::READER_COOKIE).is_some()
}

/// Who is asking: a signed-in staff member, or someone whose form the page is answering,
/// gets a page made for them alone.
pub(super) fn signed_in(headers: &HeaderMap) -> bool {
    cookie(headers, identity::SESSION_COOKIE).is_some()
        || cookie(headers, super::forms::ANSWER_COOKIE).is_some()
}

/// The value of the cookie `name` (the first one that is not empty), from every `Cookie`
/// header of the request.
pub(super) fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| c.split_once('='))
        .find(|(n, value)| n.trim() == name && !value.trim().is_empty())
        .map(|(_, value)| value.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(status: StatusCode) -> CachedPage {
        CachedPage {
            version: 1,
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
        assert_eq!(after(&ok), Some(Duration::from_secs(60)));
        assert_eq!(after(&missing), Some(Duration::from_secs(30)));
        assert_eq!(
            PageExpiry.expire_after_create(&key, &ok, now),
            Some(Duration::from_secs(60))
        );
    }
}
