//! The page endpoint: assets, then the page cache, then a render (shared by everyone asking
//! for it at once), or an answer made for one request (signed in, dashboards, fallbacks).

use std::sync::Arc;

use poem::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use poem::{Endpoint, IntoResponse, Request, Response, Result};

use super::assets::Assets;
use super::forms::{takes_forms, Forms, ANSWER_COOKIE};
use super::page_cache::{
    cookie, signed_in, visitor_key, CachedPages, Lookup as CacheLookup, Rendered, Unkept,
};
use super::page_resolve::{Outcome, PageResolver, RenderedHtml, Route, ACCOUNT_PAGE};
use super::represent::{self, Representation, PRIVATE};
use crate::ssr::Renderer;

#[derive(Clone)]
pub struct PageEndpoint {
    resolver: Arc<PageResolver>,
    assets: Arc<Assets>,
    cached: Option<CachedPages>,
    /// Forms posted to pages (without JavaScript).
    forms: Forms,
    /// Type and security headers of every page.
    security: HeaderMap,
    /// `Cache-Control` of public pages, and of public "not found" pages.
    public: HeaderValue,
    public_missing: HeaderValue,
}

/// How pages are cached and shared.
#[derive(Clone, Copy, Debug)]
pub struct PagePolicy {
    /// Keep rendered pages in memory (`PAGE_CACHE`).
    pub cache: bool,
    /// How long a shared cache (CDN) may hold a public page (`CDN_MAX_AGE_SECONDS`).
    pub shared_seconds: u64,
    /// `SITE_URL` is https: pages carry HSTS.
    pub https: bool,
}

impl PageEndpoint {
    /// Pages of the site built from `services` (content, outreach, magazines).
    pub fn new(
        services: &crate::state::Services,
        renderer: Arc<Renderer>,
        assets: Arc<Assets>,
        forms: Forms,
        policy: PagePolicy,
    ) -> Self {
        let content = services.content.clone();
        let cached = policy.cache.then(|| CachedPages::new(content.generation()));
        Self {
            resolver: Arc::new(PageResolver::new(services, renderer)),
            assets,
            forms,
            cached,
            security: super::headers::page(policy.https),
            public: represent::public_cache_control(policy.shared_seconds),
            public_missing: represent::public_cache_control(policy.shared_seconds.min(30)),
        }
    }
}

impl PageEndpoint {
    /// The page cache, for the server loop to answer hits before routing.
    pub fn cached(&self) -> Option<CachedPages> {
        self.cached.clone()
    }

    /// The headers every page answer carries, with its cache policy.
    fn page_headers(&self, cache_control: HeaderValue) -> HeaderMap {
        let mut headers = self.security.clone();
        headers.insert(header::CACHE_CONTROL, cache_control);
        headers
    }

    /// The cache policy of a page for everyone: missing pages are shared for less long.
    fn public_policy(&self, status: StatusCode) -> HeaderValue {
        if status == StatusCode::OK {
            self.public.clone()
        } else {
            self.public_missing.clone()
        }
    }
}

impl Endpoint for PageEndpoint {
    type Output = Response;

    /// A page that failed while the database could not be reached says so (503 with
    /// `Retry-After`), so a reader, a crawler or a CDN tries again later.
    async fn call(&self, req: Request) -> Result<Response> {
        // Built files need no database: served before the outage watch is set up.
        if matches!(*req.method(), Method::GET | Method::HEAD) {
            if let Some(asset) = self.assets.serve(req.uri().path(), req.headers()) {
                return Ok(asset);
            }
        }
        let (answer, outage) = kernel::http::answering(Box::pin(self.answer(req))).await;
        let answer = answer?;
        if outage && answer.status() == StatusCode::INTERNAL_SERVER_ERROR {
            return Ok(Response::builder()
                .status(StatusCode::SERVICE_UNAVAILABLE)
                .header(
                    header::RETRY_AFTER,
                    kernel::http::RETRY_AFTER_SECONDS.to_string(),
                )
                .header(header::CACHE_CONTROL, "no-store")
                .content_type("text/html; charset=utf-8")
                .body(UNAVAILABLE_PAGE));
        }
        Ok(answer)
    }
}

impl PageEndpoint {
    async fn answer(&self, req: Request) -> Result<Response> {
        let head_only = req.method() == Method::HEAD;
        if req.method() == Method::POST && takes_forms(req.uri().path()) {
            return Ok(self.forms.submit(req).await);
        }
        if req.method() != Method::GET && !head_only {
            return Ok(StatusCode::METHOD_NOT_ALLOWED.into_response());
        }
        let path = req.uri().path();
        if let Some(token) = cookie(req.headers(), ANSWER_COOKIE).filter(|_| takes_forms(path)) {
            return self.answered_form(&req, Some(&token), head_only).await;
        }
        if path == ACCOUNT_PAGE {
            // The reader's own page: made for them, from their session.
            return self.answered_form(&req, None, head_only).await;
        }
        // A signed-in reader has nothing to do on the sign-in and sign-up pages.
        if path == "/login" || path == "/signup" {
            if let Some(token) = cookie(req.headers(), identity::READER_COOKIE) {
                if self.resolver.is_reader(&token).await {
                    return Ok(Response::builder()
                        .status(StatusCode::SEE_OTHER)
                        .header(header::LOCATION, ACCOUNT_PAGE)
                        .header(header::CACHE_CONTROL, "private, no-store")
                        .finish());
                }
            }
        }
        let query = req.uri().query().unwrap_or_default();
        let personal = signed_in(req.headers());
        let url = match req.uri().path_and_query() {
            Some(pq) => pq.as_str(),
            None => path,
        };
        let one_off = Route::is_per_request(path);
        // A reader's session cookie: the page is the one every signed-in reader gets (its
        // header offers "Account"), kept beside the signed-out one.
        let reader = cookie(req.headers(), identity::READER_COOKIE);
        let Some(cached) = self.cached.as_ref().filter(|_| !personal && !one_off) else {
            let resolved = not_kept(
                self.resolver
                    .resolve(path, url, query, None, reader.as_deref())
                    .await,
            );
            return self.answer_once(&req, &resolved, personal, head_only);
        };
        let version = cached.version();
        let key = visitor_key(self.resolver.cache_key(path, query), reader.is_some());
        let older = match cached
            .lookup(&key, req.headers(), head_only, std::time::Instant::now())
            .await
        {
            CacheLookup::Answered(answer) => return Ok(answer.into_poem()),
            CacheLookup::Stale(stale) => {
                // Sent as it is while one render brings it up to date: nobody waits on a
                // render after a content change.
                let this = self.clone();
                let (path, url, query) = (path.to_string(), url.to_string(), query.to_string());
                let render = async move {
                    this.render(&path, &url, &query, reader.as_deref())
                        .await
                        .map_err(|not_kept| match not_kept {
                            NotKept::Redirect(_) => Unkept::Gone,
                            NotKept::Page(..) | NotKept::Failed { .. } => Unkept::Failed,
                        })
                };
                cached.refresh_later(&key, req.uri().path(), stale.clone(), render);
                return Ok(stale.answer(req.headers(), head_only).into_poem());
            }
            CacheLookup::Missed(older) => older,
        };
        let render = self.render(path, url, query, reader.as_deref());
        match cached
            .get_or_render(&key, version, path, older, render)
            .await
        {
            Ok(page) => Ok(page.answer(req.headers(), head_only).into_poem()),
            Err(shared) => self.answer_once(&req, &shared, personal, head_only),
        }
    }
}

impl PageEndpoint {
    /// Renders a page to keep in the cache (for everyone, or for every signed-in reader),
    /// or says what it is instead: a redirect, a page not to keep (the sidecar's fallback
    /// shell), a failure.
    async fn render(
        &self,
        path: &str,
        url: &str,
        query: &str,
        reader: Option<&str>,
    ) -> Result<Rendered, NotKept> {
        match self.resolver.resolve(path, url, query, None, reader).await {
            Ok((Outcome::Page(page), true)) => Ok(Rendered {
                status: page.status,
                // A shared cache (a CDN) must not hand the reader's page to others.
                headers: self.page_headers(if reader.is_some() {
                    HeaderValue::from_static("private, no-cache")
                } else {
                    self.public_policy(page.status)
                }),
                html: page.html,
                // Pages anyone can mint (searches, 404s) are never worth the best
                // compression; the site's own pages are, once per content version.
                polish: page.status == StatusCode::OK && query.is_empty(),
            }),
            other => Err(not_kept(other)),
        }
    }
}

/// The value of cookie `name` (not empty), from the request.
impl PageEndpoint {
    /// The page a form was posted to, showing what the server answered (once: the answer
    /// is forgotten as it is read, and so is the cookie naming it).
    async fn answered_form(
        &self,
        req: &Request,
        token: Option<&str>,
        head_only: bool,
    ) -> Result<Response> {
        let path = req.uri().path();
        let url = req.uri().path_and_query().map_or(path, |pq| pq.as_str());
        let query = req.uri().query().unwrap_or_default();
        let kept = match token {
            None => None,
            Some(token) => match self.forms.flash().take(token, path).await {
                Ok(kept) => kept,
                Err(e) => {
                    tracing::error!(error = ?e, "reading a form's answer failed");
                    None
                }
            },
        };
        let raw = kept.and_then(|text| serde_json::value::RawValue::from_string(text).ok());
        let reader = cookie(req.headers(), identity::READER_COOKIE);
        let resolved = not_kept(
            self.resolver
                .resolve(path, url, query, raw.as_deref(), reader.as_deref())
                .await,
        );
        let mut answer = self.answer_once(req, &resolved, true, head_only)?;
        if token.is_some() {
            if let Ok(forget) = HeaderValue::from_str(&self.forms.forget_cookie(path)) {
                answer.headers_mut().append(header::SET_COOKIE, forget);
            }
        }
        Ok(answer)
    }
}

/// A page answer that is not stored in the shared cache.
enum NotKept {
    Redirect(String),
    /// Rendered, with whether it could be shared by a CDN (the cache being off).
    Page(RenderedHtml, bool),
    /// Failed, with whether the database could not be reached meanwhile: readers waiting on
    /// this render in other requests are then answered 503 like the one that rendered.
    Failed {
        outage: bool,
    },
}

fn not_kept(resolved: Result<(Outcome, bool), content::ContentError>) -> NotKept {
    match resolved {
        Ok((Outcome::Redirect(to), _)) => NotKept::Redirect(to),
        Ok((Outcome::Page(page), cacheable)) => NotKept::Page(page, cacheable),
        Err(e) => {
            tracing::error!(error = ?e, "page failed");
            NotKept::Failed {
                outage: e.is_outage() || kernel::http::outage_noted(),
            }
        }
    }
}

/// What a reader gets when the database cannot be reached for a moment.
const UNAVAILABLE_PAGE: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>The Agora</title></head><body style=\"font-family: system-ui, sans-serif; \
max-width: 36rem; margin: 3rem auto; padding: 0 1rem\"><h1>Back in a moment</h1>\
<p>The site cannot reach its database just now. Please try again in a few seconds.</p>\
</body></html>";

impl PageEndpoint {
    /// The answer to a page that is not kept: a redirect, an error, or a page made for this
    /// request only (signed in, a dashboard, a fallback shell, or the cache is off), compressed
    /// quickly in the one coding asked for.
    fn answer_once(
        &self,
        req: &Request,
        resolved: &NotKept,
        personal: bool,
        head_only: bool,
    ) -> Result<Response> {
        let (page, cacheable) = match resolved {
            NotKept::Redirect(to) => {
                return Ok(Response::builder()
                    .status(StatusCode::MOVED_PERMANENTLY)
                    .header(header::LOCATION, to.as_str())
                    .finish())
            }
            NotKept::Page(page, cacheable) => (page, *cacheable),
            NotKept::Failed { outage } => {
                if *outage {
                    kernel::http::note_outage();
                }
                return Ok(StatusCode::INTERNAL_SERVER_ERROR.into_response());
            }
        };
        let policy = if personal || !cacheable {
            PRIVATE
        } else {
            self.public_policy(page.status)
        };
        let headers = self.page_headers(policy);
        let once = Representation::once(page.status, page.html.clone(), &headers, req.headers());
        Ok(once.answer(req.headers(), head_only).into_poem())
    }
}

#[cfg(test)]
mod tests {
    use super::{not_kept, NotKept};

    /// A render that failed because the database was down says so, for the readers who
    /// waited on it in other requests (answered 503, not 500).
    #[test]
    fn a_failed_render_says_whether_the_database_was_down() {
        let outage = |e: sqlx::Error| match not_kept(Err(content::ContentError::from(e))) {
            NotKept::Failed { outage } => outage,
            _ => panic!("a failure"),
        };
        assert!(outage(sqlx::Error::PoolTimedOut));
        assert!(!outage(sqlx::Error::RowNotFound));
    }
}
