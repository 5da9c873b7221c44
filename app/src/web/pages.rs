//! Server-rendered pages: resolve the route, load its data, render through the sidecar,
//! cache the HTML (keyed by content version), or fall back to the client-rendered shell.

use std::borrow::Cow;
use std::sync::Arc;

use bytes::Bytes;
use content::{Article, Category, ContentService, ListQuery, Lookup, Sort, MAX_LIMIT};
use poem::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use poem::{Endpoint, IntoResponse, Request, Response, Result};
use serde::Serialize;
use serde_json::value::RawValue;

use super::assets::Assets;
use super::page_cache::{signed_in, CachedPages, Lookup as CacheLookup, Rendered};
use super::represent::{self, Effort, Representation, PRIVATE};
use super::routes_meta::{is_private, static_page, HOME_DESCRIPTION};
use crate::ssr::{Head, PageRequest, Renderer};

/// Listing pages grow by this many articles per "Load More".
const PAGE_STEP: i64 = 6;

/// A page as rendered: what `resolve` produces.
#[derive(Clone)]
struct RenderedHtml {
    status: StatusCode,
    html: Bytes,
}

#[derive(Serialize)]
struct Site<'a> {
    name: &'a str,
    url: &'a str,
}

#[derive(Serialize)]
struct ListQueryData<'a> {
    q: &'a str,
    categories: Vec<&'static str>,
    limit: i64,
}

/// The data a page is rendered from, shared by the sidecar and the hydrating browser.
#[derive(Serialize)]
struct PageData<'a> {
    site: Site<'a>,
    path: &'a str,
    status: u16,
    #[serde(skip_serializing_if = "Option::is_none")]
    home: Option<&'a RawValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    list: Option<&'a RawValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    list_query: Option<ListQueryData<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    article: Option<&'a Article>,
}

#[derive(Clone)]
pub struct PageEndpoint {
    content: Arc<ContentService>,
    renderer: Arc<Renderer>,
    assets: Arc<Assets>,
    cached: Option<CachedPages>,
    views: Arc<analytics::Recorder>,
    trust_proxy: bool,
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

enum Outcome {
    Page(RenderedHtml),
    Redirect(String),
}

impl PageEndpoint {
    pub fn new(
        content: Arc<ContentService>,
        renderer: Arc<Renderer>,
        assets: Arc<Assets>,
        policy: PagePolicy,
        views: Arc<analytics::Recorder>,
        trust_proxy: bool,
    ) -> Self {
        let cached = policy
            .cache
            .then(|| CachedPages::new(content.clone(), views.clone(), trust_proxy));
        Self {
            content,
            renderer,
            assets,
            cached,
            views,
            trust_proxy,
            security: security_headers(policy.https),
            public: represent::public_cache_control(policy.shared_seconds),
            public_missing: represent::public_cache_control(policy.shared_seconds.min(30)),
        }
    }

    fn data_json<'a>(
        &'a self,
        path: &'a str,
        status: StatusCode,
        fill: impl FnOnce(&mut PageData<'a>),
    ) -> String {
        let mut data = PageData {
            site: Site {
                name: self.renderer.site_name(),
                url: self.renderer.site_url(),
            },
            path,
            status: status.as_u16(),
            home: None,
            list: None,
            list_query: None,
            article: None,
        };
        fill(&mut data);
        serde_json::to_string(&data).unwrap_or_else(|_| "{}".to_string())
    }

    async fn render(
        &self,
        url: &str,
        status: StatusCode,
        head: Head,
        data_json: String,
    ) -> (RenderedHtml, bool) {
        let page = self
            .renderer
            .render(&PageRequest {
                url,
                head,
                data_json,
            })
            .await;
        (
            RenderedHtml {
                status,
                html: Bytes::from(page.html),
            },
            page.server_rendered,
        )
    }

    fn title(&self, page: &str) -> String {
        format!("{page} | {}", self.renderer.site_name())
    }

    async fn not_found(&self, path: &str, url: &str) -> (RenderedHtml, bool) {
        tracing::info!(path, "page not found");
        let head = Head {
            title: self.title("Page not found"),
            description: "Oops! Page not found".into(),
            path: path.into(),
            noindex: true,
            ..Head::default()
        };
        let json = self.data_json(url, StatusCode::NOT_FOUND, |_| {});
        self.render(url, StatusCode::NOT_FOUND, head, json).await
    }

    /// Resolves and renders one page. The flag says whether it may be cached.
    async fn resolve(
        &self,
        path: &str,
        url: &str,
        query: &str,
    ) -> Result<(Outcome, bool), content::ContentError> {
        let (page, cacheable) = if path == "/" {
            let q = ListQuery::from_params(None, vec![], Some(3), None, Some(Sort::Featured))?;
            let home = self.content.list_json(&q).await?;
            let raw = raw_json(&home);
            let head = Head {
                title: format!(
                    "{} | Youth voices on global politics",
                    self.renderer.site_name()
                ),
                description: HOME_DESCRIPTION.into(),
                path: "/".into(),
                ..Head::default()
            };
            let json = self.data_json(url, StatusCode::OK, |d| d.home = raw.as_deref());
            self.render(url, StatusCode::OK, head, json).await
        } else if path == "/articles" {
            let (q, categories) = listing_query(query);
            let list = self.content.list_json(&q).await?;
            let raw = raw_json(&list);
            let (title, description) = static_page("/articles").unwrap_or_default();
            let head = Head {
                title: self.title(title),
                description: description.into(),
                path: "/articles".into(),
                ..Head::default()
            };
            let json = self.data_json(url, StatusCode::OK, |d| {
                d.list = raw.as_deref();
                d.list_query = Some(ListQueryData {
                    q: &q.q,
                    categories,
                    limit: q.limit,
                });
            });
            self.render(url, StatusCode::OK, head, json).await
        } else if let Some(slug) = path.strip_prefix("/article/").filter(|s| !s.contains('/')) {
            match self.content.lookup(slug).await? {
                Lookup::Moved(to) => {
                    return Ok((Outcome::Redirect(format!("/article/{to}")), true))
                }
                Lookup::Missing => self.not_found(path, url).await,
                Lookup::Found(article) => {
                    let head = Head {
                        title: self.title(&article.card.title),
                        description: article.description.clone(),
                        path: path.into(),
                        og_type: "article",
                        image: article.card.cover_image.clone(),
                        published_time: Some(article.card.created_at.to_rfc3339()),
                        noindex: false,
                    };
                    let json = self.data_json(url, StatusCode::OK, |d| d.article = Some(&article));
                    self.render(url, StatusCode::OK, head, json).await
                }
            }
        } else if let Some((title, description)) = static_page(path) {
            let head = Head {
                title: self.title(title),
                description: description.into(),
                path: path.into(),
                noindex: is_private(path),
                ..Head::default()
            };
            let json = self.data_json(url, StatusCode::OK, |_| {});
            self.render(url, StatusCode::OK, head, json).await
        } else if path.starts_with("/dashboard/") {
            // Dashboards are rendered in the browser and never cached.
            let head = Head {
                title: self.title("Dashboard"),
                description: "Staff dashboard".into(),
                path: path.into(),
                noindex: true,
                ..Head::default()
            };
            let json = self.data_json(url, StatusCode::OK, |_| {});
            let html = self.renderer.shell(&head, &json);
            (
                RenderedHtml {
                    status: StatusCode::OK,
                    html: Bytes::from(html),
                },
                false,
            )
        } else {
            self.not_found(path, url).await
        };
        Ok((Outcome::Page(page), cacheable))
    }

    /// The cache key: the page as the server understands it, so arbitrary query strings
    /// cannot fill the cache. Borrowed from the request for every page but a searched or
    /// filtered listing, so a cache hit allocates nothing for its key.
    fn cache_key<'a>(&self, path: &'a str, query: &str) -> Cow<'a, str> {
        if path == "/articles" && !query.is_empty() {
            // The page echoes the search box as typed, so its key keeps the casing
            // (the listing data underneath is shared through the case-folded listing key).
            let (list, _) = listing_query(query);
            Cow::Owned(format!("/articles?{}|{}", list.cache_key(), list.q))
        } else {
            Cow::Borrowed(path)
        }
    }
}

fn raw_json(bytes: &Bytes) -> Option<Box<RawValue>> {
    let text = String::from_utf8(bytes.to_vec()).ok()?;
    RawValue::from_string(text).ok()
}

/// Listing parameters of the `/articles` page, read leniently: unknown categories are ignored
/// and the size is rounded to the page step.
fn listing_query(query: &str) -> (ListQuery, Vec<&'static str>) {
    let mut q = String::new();
    let mut categories = Vec::new();
    let mut limit = PAGE_STEP;
    for (k, v) in form_urlencoded::parse(query.as_bytes()) {
        match k.as_ref() {
            "q" => q = v.chars().take(200).collect(),
            "category" => {
                if let Some(c) = Category::parse(&v) {
                    if !categories.contains(&c) {
                        categories.push(c);
                    }
                }
            }
            "limit" => {
                if let Ok(n) = v.parse::<i64>() {
                    let max = MAX_LIMIT - MAX_LIMIT % PAGE_STEP;
                    limit = (n.div_euclid(PAGE_STEP) * PAGE_STEP).clamp(PAGE_STEP, max);
                }
            }
            _ => {}
        }
    }
    let names = categories.iter().map(|c| c.as_str()).collect();
    let q = ListQuery {
        q: q.trim().to_string(),
        categories,
        limit,
        offset: 0,
        sort: Sort::Newest,
    };
    (q, names)
}

impl PageEndpoint {
    /// The page cache, for the server loop to answer hits before routing.
    pub fn cached(&self) -> Option<CachedPages> {
        self.cached.clone()
    }

    fn count_view(&self, req: &Request, status: StatusCode, head_only: bool) {
        if head_only || status != StatusCode::OK {
            return;
        }
        let remote = req.remote_addr().as_socket_addr().copied();
        super::page_cache::count_view(
            &self.views,
            req.uri().path(),
            req.headers(),
            remote,
            self.trust_proxy,
        );
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

/// Security headers of every page (set once, cloned into each representation).
fn security_headers(https: bool) -> HeaderMap {
    let mut h = HeaderMap::new();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("strict-origin-when-cross-origin"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' https: data:; style-src 'self' 'unsafe-inline'; \
             script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; \
             frame-ancestors 'none'",
        ),
    );
    if https {
        h.insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static(super::headers::HSTS),
        );
    }
    h
}

impl Endpoint for PageEndpoint {
    type Output = Response;

    async fn call(&self, req: Request) -> Result<Response> {
        let head_only = req.method() == Method::HEAD;
        if req.method() != Method::GET && !head_only {
            return Ok(StatusCode::METHOD_NOT_ALLOWED.into_response());
        }
        let path = req.uri().path();
        if let Some(asset) = self.assets.serve(path, req.headers()) {
            return Ok(asset);
        }
        let query = req.uri().query().unwrap_or_default();
        let personal = signed_in(req.headers());
        let key = self.cache_key(path, query);
        let version = self.content.version();
        let url = match req.uri().path_and_query() {
            Some(pq) => pq.as_str(),
            None => path,
        };
        let Some(cached) = self.cached.as_ref().filter(|_| !personal) else {
            let resolved = not_kept(self.resolve(path, url, query).await);
            return self.answer_once(&req, &resolved, personal, head_only);
        };
        let remote = req.remote_addr().as_socket_addr().copied();
        let stale = match cached
            .lookup(&key, path, req.headers(), remote, head_only)
            .await
        {
            CacheLookup::Answered(answer) => return Ok(answer.into_poem()),
            CacheLookup::Missed(stale) => stale,
        };
        let render = async {
            match self.resolve(path, url, query).await {
                Ok((Outcome::Page(page), true)) => Ok(Rendered {
                    status: page.status,
                    headers: self.page_headers(self.public_policy(page.status)),
                    html: page.html,
                    // Pages anyone can mint (searches, 404s) are never worth the best
                    // compression; the site's own pages are, once per content version.
                    polish: page.status == StatusCode::OK && query.is_empty(),
                }),
                other => Err(not_kept(other)),
            }
        };
        match cached.get_or_render(&key, version, stale, render).await {
            Ok(page) => {
                self.count_view(&req, page.status(), head_only);
                Ok(page.answer(req.headers(), head_only).into_poem())
            }
            Err(shared) => self.answer_once(&req, &shared, personal, head_only),
        }
    }
}

/// A page answer that is not stored in the shared cache.
enum NotKept {
    Redirect(String),
    /// Rendered, with whether it could be shared by a CDN (the cache being off).
    Page(RenderedHtml, bool),
    Failed,
}

fn not_kept(resolved: Result<(Outcome, bool), content::ContentError>) -> NotKept {
    match resolved {
        Ok((Outcome::Redirect(to), _)) => NotKept::Redirect(to),
        Ok((Outcome::Page(page), cacheable)) => NotKept::Page(page, cacheable),
        Err(e) => {
            tracing::error!(error = ?e, "page failed");
            NotKept::Failed
        }
    }
}

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
            NotKept::Failed => return Ok(StatusCode::INTERNAL_SERVER_ERROR.into_response()),
        };
        self.count_view(req, page.status, head_only);
        let policy = if personal || !cacheable {
            PRIVATE
        } else {
            self.public_policy(page.status)
        };
        let headers = self.page_headers(policy);
        let coding = represent::choose(req.headers().get(header::ACCEPT_ENCODING), true, true);
        let once = Representation::build(
            page.status,
            page.html.clone(),
            &headers,
            Effort::Fast,
            Some(coding),
        );
        Ok(once.answer(req.headers(), head_only).into_poem())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listing_query_is_lenient_and_canonical() {
        let (q, names) = listing_query(
            "q=+Climate+&category=Human%20Rights&category=Bogus&category=Human%20Rights&limit=13",
        );
        assert_eq!(q.q, "Climate");
        assert_eq!(names, vec!["Human Rights"]);
        assert_eq!(q.limit, 12);
        let (q, _) = listing_query("limit=-5");
        assert_eq!(q.limit, 6);
        let (q, _) = listing_query("limit=9999");
        assert_eq!(q.limit, 48);
    }
}
