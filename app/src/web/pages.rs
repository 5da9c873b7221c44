//! Server-rendered pages: resolve the route, load its data, render through the sidecar,
//! cache the HTML (keyed by content version), or fall back to the client-rendered shell.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use content::{Article, Category, ContentService, ListQuery, Lookup, Sort, MAX_LIMIT};
use moka::future::Cache;
use moka::Expiry;
use poem::http::{header, Method, StatusCode};
use poem::{Endpoint, IntoResponse, Request, Response, Result};
use serde::Serialize;
use serde_json::value::RawValue;

use super::assets::Assets;
use super::routes_meta::{is_private, static_page, HOME_DESCRIPTION};
use crate::ssr::{Head, PageRequest, Renderer};

/// Listing pages grow by this many articles per "Load More".
const PAGE_STEP: i64 = 6;
const MAX_CACHED_BYTES: u64 = 64 * 1024 * 1024;

#[derive(Clone)]
struct CachedPage {
    status: StatusCode,
    html: Bytes,
}

/// Missing pages are kept briefly, everything else until the content changes.
struct PageExpiry;

impl Expiry<String, CachedPage> for PageExpiry {
    fn expire_after_create(
        &self,
        _key: &String,
        page: &CachedPage,
        _now: std::time::Instant,
    ) -> Option<Duration> {
        if page.status == StatusCode::NOT_FOUND {
            Some(Duration::from_secs(30))
        } else {
            Some(Duration::from_secs(60))
        }
    }
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
    cache: Option<Cache<String, CachedPage>>,
    views: Arc<analytics::Recorder>,
    trust_proxy: bool,
}

enum Outcome {
    Page(CachedPage),
    Redirect(String),
}

impl PageEndpoint {
    pub fn new(
        content: Arc<ContentService>,
        renderer: Arc<Renderer>,
        assets: Arc<Assets>,
        use_cache: bool,
        views: Arc<analytics::Recorder>,
        trust_proxy: bool,
    ) -> Self {
        let cache = use_cache.then(|| {
            Cache::builder()
                .max_capacity(MAX_CACHED_BYTES)
                .weigher(|k: &String, v: &CachedPage| {
                    u32::try_from(k.len() + v.html.len()).unwrap_or(u32::MAX)
                })
                .expire_after(PageExpiry)
                .build()
        });
        Self {
            content,
            renderer,
            assets,
            cache,
            views,
            trust_proxy,
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
    ) -> (CachedPage, bool) {
        let page = self
            .renderer
            .render(&PageRequest {
                url,
                head,
                data_json,
            })
            .await;
        (
            CachedPage {
                status,
                html: Bytes::from(page.html),
            },
            page.server_rendered,
        )
    }

    fn title(&self, page: &str) -> String {
        format!("{page} | {}", self.renderer.site_name())
    }

    async fn not_found(&self, path: &str, url: &str) -> (CachedPage, bool) {
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
                CachedPage {
                    status: StatusCode::OK,
                    html: Bytes::from(html),
                },
                false,
            )
        } else {
            self.not_found(path, url).await
        };
        Ok((Outcome::Page(page.clone()), cacheable))
    }

    /// The cache key: the content version and the page as the server understands it, so
    /// arbitrary query strings cannot fill the cache.
    fn cache_key(&self, path: &str, query: &str) -> String {
        let version = self.content.version();
        if path == "/articles" {
            // The page echoes the search box as typed, so its key keeps the casing
            // (the listing data underneath is shared through the case-folded listing key).
            let (list, _) = listing_query(query);
            format!("{version}|/articles|{}|{}", list.cache_key(), list.q)
        } else {
            format!("{version}|{path}")
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

fn html_response(page: &CachedPage, head_only: bool) -> Response {
    let builder = Response::builder()
        .status(page.status)
        .content_type("text/html; charset=utf-8")
        .header(header::CACHE_CONTROL, "no-cache")
        .header("x-content-type-options", "nosniff")
        .header("referrer-policy", "strict-origin-when-cross-origin")
        .header("x-frame-options", "DENY")
        .header(
            "content-security-policy",
            "default-src 'self'; img-src 'self' https: data:; style-src 'self' 'unsafe-inline'; \
             script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; \
             frame-ancestors 'none'",
        );
    if head_only {
        builder.body(())
    } else {
        builder.body(page.html.clone())
    }
}

impl PageEndpoint {
    /// Counts a reader's view of a page that was found (HEAD requests and errors are not views).
    fn count_view(&self, req: &Request, page: &CachedPage, head_only: bool) {
        if head_only || page.status != StatusCode::OK {
            return;
        }
        let ua = req
            .headers()
            .get(header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        let client = kernel::http::client_address(req, self.trust_proxy);
        self.views.record(req.uri().path(), &client, ua);
    }
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
        let key = self.cache_key(path, query);
        if let Some(cache) = &self.cache {
            if let Some(page) = cache.get(&key).await {
                self.count_view(&req, &page, head_only);
                return Ok(html_response(&page, head_only));
            }
        }
        let url = match req.uri().path_and_query() {
            Some(pq) => pq.as_str(),
            None => path,
        };
        match self.resolve(path, url, query).await {
            Ok((Outcome::Redirect(to), _)) => Ok(Response::builder()
                .status(StatusCode::MOVED_PERMANENTLY)
                .header(header::LOCATION, to)
                .finish()),
            Ok((Outcome::Page(page), cacheable)) => {
                if let (Some(cache), true) = (&self.cache, cacheable) {
                    cache.insert(key, page.clone()).await;
                }
                self.count_view(&req, &page, head_only);
                Ok(html_response(&page, head_only))
            }
            Err(e) => {
                tracing::error!(error = ?e, path, "page failed");
                Ok(StatusCode::INTERNAL_SERVER_ERROR.into_response())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::listing_query;

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
