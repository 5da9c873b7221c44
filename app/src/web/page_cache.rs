//! The page cache: public pages, each held as one [`Representation`] per content version.
//!
//! A page is stored compressed quickly, so the reader who asked for it is not kept waiting,
//! then compressed again at the best settings in the background (one page at a time, off
//! the async threads) and swapped in. A page rendered again for a new content version that
//! came out byte for byte the same keeps its stored representation: no compression at all,
//! and its `ETag` and `Last-Modified` stay valid, so revisits still get a 304.
//!
//! A content change makes stale only the pages it changes (see [`kernel::Scope`]): every page
//! that lists content, and the changed articles' own pages; other articles' pages stay as
//! they are (what they show of other pieces, such as what to read next, is at most
//! [`REFRESH_AFTER`] old). A stale page is still sent, at once, while one render per page
//! runs in the background. Readers wait for a render, shared by everyone asking for that
//! page meanwhile, only for a page never rendered (or gone past [`KEEP_FOR`]), a missing
//! page, the page of an article changed itself, and after a withdrawal.

use std::borrow::Cow;
use std::collections::HashSet;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tracing::Instrument;

use bytes::Bytes;
use moka::future::Cache;
use moka::ops::compute::Op;

use poem::http::{HeaderMap, Method, StatusCode};
use tokio::sync::Semaphore;

use super::represent::{Answer, Effort, Representation};
use crate::metrics::CacheResult;

const MAX_CACHED_BYTES: u64 = 64 * 1024 * 1024;

/// A page older than this is rendered again in the background when next asked for: what an
/// article's page shows of other pieces (what to read next, the author's box), or an
/// author's new name, changes without a change of that article.
pub const REFRESH_AFTER: Duration = Duration::from_secs(60);

/// How long a page is kept at most: sent stale, while it renders again, for that long.
pub const KEEP_FOR: Duration = Duration::from_secs(600);

/// Background renders at once: the rest of the sidecar's capacity stays with pages nobody
/// has rendered yet.
const REFRESHING_AT_ONCE: usize = 2;

/// A page in the cache, with the content version it was rendered from.
#[derive(Clone)]
struct CachedPage {
    version: u64,
    /// The page's path (without the reader's variant).
    path: Arc<str>,
    /// An article's page: stale only when that article (or everything) changes.
    article: bool,
    stored_at: Instant,
    page: Arc<Representation>,
}

/// A page just rendered, to be kept: its bytes, the headers of every answer, and whether
/// it is worth the best compression (the site's own pages, not those anyone can mint).
pub(super) struct Rendered {
    pub status: StatusCode,
    pub html: Bytes,
    pub headers: HeaderMap,
    pub polish: bool,
}

/// Why a render in the background stored nothing.
pub(super) enum Unkept {
    /// The page is no longer one to keep (it moved): the stale one is dropped.
    Gone,
    /// The render failed (the sidecar is busy or down): the stale page is still sent, and
    /// the next request tries again.
    Failed,
}

/// How a stored page stands against the content now.
enum State {
    Current,
    /// Out of date, but to be sent while it renders again.
    Stale,
    /// Not to be sent again: rendered anew first.
    Outdated,
}

/// What a lookup found.
pub(super) enum Lookup {
    Answered(Answer),
    /// A page that is out of date, to send while it is rendered again.
    Stale(Arc<Representation>),
    /// Nothing to send: render, comparing with the older page if there is one.
    Missed(Option<Arc<Representation>>),
}

/// The page cache, and the answer to a request it can serve: a GET or HEAD of a page
/// without query string from someone not signed in. Used by the page endpoint and, before
/// the router, by the server loop (see `server.rs`), so a cache hit skips building a poem
/// request and the middleware that has nothing to do for a stored public page.
#[derive(Clone)]
pub struct CachedPages {
    cache: Cache<String, CachedPage>,
    generation: kernel::Generation,
    /// Best-effort compression runs one page at a time, so a burst of new pages after a
    /// content change never takes every core from the readers.
    polishing: Arc<Semaphore>,
    /// Pages being rendered in the background (one render per page at a time).
    refreshing: Arc<Mutex<HashSet<String>>>,
    refresh_slots: Arc<Semaphore>,
}

impl CachedPages {
    pub(super) fn new(generation: kernel::Generation) -> Self {
        let cache = Cache::builder()
            .max_capacity(MAX_CACHED_BYTES)
            .weigher(|k: &String, v: &CachedPage| {
                u32::try_from(k.len() + v.page.weight()).unwrap_or(u32::MAX)
            })
            .expire_after(PageExpiry)
            .build();
        CachedPages {
            cache,
            generation,
            polishing: Arc::new(Semaphore::new(1)),
            refreshing: Arc::default(),
            refresh_slots: Arc::new(Semaphore::new(REFRESHING_AT_ONCE)),
        }
    }

    /// The content version to store a page rendered from now with.
    pub(super) fn version(&self) -> u64 {
        self.generation.current()
    }

    /// The answer to a request from the cache, if it holds the page up to date; `now` is when
    /// the request came (one clock reading serves the request's timing and the page's age).
    pub async fn answer(
        &self,
        method: &Method,
        uri: &poem::http::Uri,
        headers: &HeaderMap,
        now: Instant,
    ) -> Option<Answer> {
        let head_only = method == Method::HEAD;
        // Most readers send no cookie: one lookup then, not one per cookie asked about.
        let cookies = headers.contains_key(poem::http::header::COOKIE);
        if (method != Method::GET && !head_only)
            || uri.query().is_some()
            || (cookies && signed_in(headers))
        {
            return None;
        }
        let key = visitor_key(Cow::Borrowed(uri.path()), cookies && reader_cookie(headers));
        match self.lookup(&key, headers, head_only, now).await {
            Lookup::Answered(answer) => Some(answer),
            // The page endpoint sends it and starts its render.
            Lookup::Stale(_) | Lookup::Missed(_) => None,
        }
    }

    /// Whether `page` may be sent as it is, sent while it renders again, or must render
    /// first, as far as the content versions tell.
    fn state(&self, page: &CachedPage, now: Instant) -> State {
        let current = page.version >= self.generation.current()
            || (page.article && page.version >= self.generation.page(&page.path));
        if current && now.saturating_duration_since(page.stored_at) < REFRESH_AFTER {
            return State::Current;
        }
        // A missing page may have been published since; a page from before a piece was
        // withdrawn may show it; a page whose own subject changed since (an article's typo
        // fixed, an issue of the magazine out) is read as changed by the next reader.
        if page.page.status() != StatusCode::OK
            || page.version < self.generation.withdrawn_at()
            || page.version < self.generation.page_itself(&page.path)
        {
            State::Outdated
        } else {
            State::Stale
        }
    }

    /// Answers from the cache when it holds `key` up to date (views are counted by the
    /// page's own beacon, or its image without scripts).
    pub(super) async fn lookup(
        &self,
        key: &str,
        headers: &HeaderMap,
        head_only: bool,
        now: Instant,
    ) -> Lookup {
        let Some(hit) = self.cache.get(key).await else {
            return Lookup::Missed(None);
        };
        match self.state(&hit, now) {
            State::Current => {
                crate::metrics::page_cache(CacheResult::Hit);
                Lookup::Answered(hit.page.answer(headers, head_only))
            }
            State::Stale => Lookup::Stale(hit.page),
            State::Outdated => Lookup::Missed(Some(hit.page)),
        }
    }

    /// One render per page and content version: requests for `key` that arrive meanwhile
    /// wait for `render` and share its result — the stored page, or the error `E` when the
    /// page is not to be kept — instead of rendering and compressing again each. `older` is
    /// what the lookup found for an older version; `path` the page's path.
    pub(super) async fn get_or_render<E>(
        &self,
        key: &str,
        version: u64,
        path: &str,
        older: Option<Arc<Representation>>,
        render: impl Future<Output = Result<Rendered, E>>,
    ) -> Result<Arc<Representation>, Arc<E>>
    where
        E: Send + Sync + 'static,
    {
        if older.is_some() {
            self.cache.invalidate(key).await;
        }
        let stored = self
            .cache
            .try_get_with_by_ref(key, async {
                crate::metrics::page_cache(CacheResult::Miss);
                let rendered = render
                    .instrument(tracing::info_span!(
                        target: observability::TRACE_ONLY,
                        "page render",
                        cache = "miss",
                        page = key,
                    ))
                    .await?;
                Ok(self.keep(key, version, path, older, rendered))
            })
            .await?;
        Ok(stored.page)
    }

    /// Sends `stale` for `key` now, and (unless that page is already being rendered) renders
    /// it again in the background and stores it: `render` is started once a background
    /// slot is free.
    pub(super) fn refresh_later<F>(
        &self,
        key: &str,
        path: &str,
        stale: Arc<Representation>,
        render: F,
    ) where
        F: Future<Output = Result<Rendered, Unkept>> + Send + 'static,
    {
        crate::metrics::page_cache(CacheResult::Stale);
        let Some(turn) = Refreshing::begin(&self.refreshing, key) else {
            return;
        };
        let this = self.clone();
        let key = key.to_string();
        let path = path.to_string();
        let span = tracing::info_span!(
            target: observability::TRACE_ONLY,
            "page render",
            cache = "stale",
            page = key.as_str(),
        );
        tokio::spawn(
            async move {
                let _turn = turn;
                let Ok(_slot) = this.refresh_slots.acquire().await else {
                    return;
                };
                // Read before the render: a change made meanwhile leaves the page stale.
                let version = this.version();
                match render.await {
                    Ok(rendered) => {
                        let page = this.keep(&key, version, &path, Some(stale), rendered);
                        this.cache
                            .entry(key)
                            .and_compute_with(|entry| {
                                std::future::ready(match entry {
                                    Some(e) if e.value().version > version => Op::Nop,
                                    _ => Op::Put(page),
                                })
                            })
                            .await;
                    }
                    Err(Unkept::Gone) => this.cache.invalidate(&key).await,
                    Err(Unkept::Failed) => {}
                }
            }
            .instrument(span),
        );
    }

    /// The entry for `rendered`: the older page itself when it came out the same (its
    /// validators stay valid), and its best compression to follow.
    fn keep(
        &self,
        key: &str,
        version: u64,
        path: &str,
        older: Option<Arc<Representation>>,
        rendered: Rendered,
    ) -> CachedPage {
        let (page, polish) = match older {
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
            self.polish_later(key, page.clone(), rendered.headers);
        }
        CachedPage {
            version,
            path: Arc::from(path),
            article: path
                .strip_prefix("/article/")
                .is_some_and(|slug| !slug.contains('/')),
            stored_at: Instant::now(),
            page,
        }
    }

    /// Compresses `page` at the best settings in the background and swaps it in, if the
    /// cache still holds that very entry then.
    fn polish_later(&self, key: &str, page: Arc<Representation>, headers: HeaderMap) {
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
                            page: best,
                            ..e.into_value()
                        }),
                        _ => Op::Nop,
                    };
                    std::future::ready(op)
                })
                .await;
        });
    }
}

mod expiry;
mod refreshing;
mod visitor;

use expiry::PageExpiry;
use refreshing::Refreshing;
pub(super) use visitor::{cookie, reader_cookie, signed_in, visitor_key};

#[cfg(test)]
mod tests;
