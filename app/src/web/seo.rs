//! robots.txt, sitemap.xml and the Atom feed, made once (the sitemap and the feed once per
//! content version, for a minute at most) and served precompressed with validators like the
//! pages.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use content::{Category, ContentService, ListQuery};
use poem::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use poem::web::{Data, Path};
use poem::{handler, IntoResponse, Request, Response};

use super::feed::{atom, Scope, FEED_TYPE};
use super::represent::{Effort, Representation};
use crate::public_pages::{public_page, PUBLIC_PAGES};
use crate::ssr::escape_html;

/// Other instances may publish too: a sitemap or feed is rebuilt after this long at most.
const HELD_TTL: Duration = Duration::from_secs(60);

/// A document made from content, kept for one content version and a minute at most (other
/// instances may publish too).
#[derive(Default)]
struct Held(Mutex<Option<(u64, Instant, Arc<Representation>)>>);

impl Held {
    fn current(&self, version: u64) -> Option<Arc<Representation>> {
        let held = self.0.lock().ok()?;
        held.as_ref()
            .filter(|(v, at, _)| *v == version && at.elapsed() < HELD_TTL)
            .map(|(_, _, r)| r.clone())
    }

    fn keep(&self, version: u64, r: Arc<Representation>) {
        if let Ok(mut held) = self.0.lock() {
            *held = Some((version, Instant::now(), r));
        }
    }
}

pub struct Seo {
    content: Arc<ContentService>,
    magazines: Arc<media::MagazineService>,
    site_url: String,
    site_name: String,
    xml: HeaderMap,
    atom: HeaderMap,
    robots: Representation,
    sitemap: Held,
    /// The feed of every article, then one per category in `Category::ALL` order.
    feeds: Vec<Held>,
}

impl Seo {
    pub fn new(
        content: Arc<ContentService>,
        magazines: Arc<media::MagazineService>,
        site_url: String,
        site_name: String,
        cache_control: HeaderValue,
    ) -> Seo {
        let mut headers = HeaderMap::new();
        headers.insert(header::CACHE_CONTROL, cache_control);
        headers.insert(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        );
        let typed = |mime: &'static str| {
            let mut h = headers.clone();
            h.insert(header::CONTENT_TYPE, HeaderValue::from_static(mime));
            h
        };
        let text_body = format!(
            "User-agent: *\nAllow: /\nDisallow: /dashboard/\nDisallow: /api/\n\nSitemap: {site_url}/sitemap.xml\n"
        );
        let robots_txt = Representation::build(
            StatusCode::OK,
            Bytes::from(text_body),
            &typed("text/plain; charset=utf-8"),
            Effort::Best,
            None,
        );
        Seo {
            content,
            magazines,
            site_url,
            site_name,
            xml: typed("application/xml; charset=utf-8"),
            atom: typed(FEED_TYPE),
            robots: robots_txt,
            sitemap: Held::default(),
            feeds: (0..=Category::ALL.len()).map(|_| Held::default()).collect(),
        }
    }

    /// The held document, or a new one made by `make` and compressed once (off the runtime).
    async fn held<F, Fut>(
        &self,
        held: &Held,
        headers: &HeaderMap,
        make: F,
    ) -> Result<Arc<Representation>, content::ContentError>
    where
        F: FnOnce() -> Fut,
        Fut: std::future::Future<Output = Result<String, content::ContentError>>,
    {
        let version = self.content.version();
        if let Some(r) = held.current(version) {
            return Ok(r);
        }
        let body = make().await?;
        let headers = headers.clone();
        let built = tokio::task::spawn_blocking(move || {
            Representation::build(
                StatusCode::OK,
                Bytes::from(body),
                &headers,
                Effort::Best,
                None,
            )
        })
        .await
        .map_err(|e| content::ContentError::Unexpected(Box::new(e)))?;
        let built = Arc::new(built);
        held.keep(version, built.clone());
        Ok(built)
    }

    async fn sitemap_xml(&self) -> Result<String, content::ContentError> {
        let slugs = self.content.published_slugs().await?;
        let mut xml = String::from(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
        );
        for page in PUBLIC_PAGES.iter().filter(|p| p.indexable) {
            xml.push_str(&format!(
                "<url><loc>{}{}</loc></url>\n",
                self.site_url, page.path
            ));
        }
        let issues = self
            .magazines
            .issues()
            .await
            .map_err(|e| content::ContentError::Unexpected(Box::new(e)))?;
        for issue in issues {
            xml.push_str(&format!(
                "<url><loc>{}/magazine/{}</loc><lastmod>{}</lastmod></url>\n",
                self.site_url,
                escape_html(&issue.slug),
                issue.published_at.format("%Y-%m-%d")
            ));
        }
        for (slug, updated) in slugs {
            xml.push_str(&format!(
                "<url><loc>{}/article/{}</loc><lastmod>{}</lastmod></url>\n",
                self.site_url,
                escape_html(&slug),
                updated.format("%Y-%m-%d")
            ));
        }
        xml.push_str("</urlset>\n");
        Ok(xml)
    }

    async fn feed_xml(&self, category: Option<Category>) -> Result<String, content::ContentError> {
        let list = self.content.list(&ListQuery::feed(category)).await?;
        let description = public_page("/").map_or("", |p| p.description);
        let scope = Scope::of(&self.site_name, category);
        Ok(atom(&self.site_url, &scope, description, &list))
    }

    fn feed_slot(&self, category: Option<Category>) -> &Held {
        let index = category
            .and_then(|c| Category::ALL.iter().position(|a| *a == c))
            .map_or(0, |i| i + 1);
        &self.feeds[index.min(self.feeds.len() - 1)]
    }
}

fn answer(
    req: &Request,
    what: &str,
    made: Result<Arc<Representation>, content::ContentError>,
) -> Response {
    match made {
        Ok(doc) => doc
            .answer(req.headers(), req.method() == Method::HEAD)
            .into_poem(),
        Err(e) => {
            tracing::error!(error = ?e, "{what} failed");
            StatusCode::SERVICE_UNAVAILABLE.into_response()
        }
    }
}

#[handler]
pub fn robots(req: &Request, seo: Data<&Arc<Seo>>) -> Response {
    seo.robots
        .answer(req.headers(), req.method() == Method::HEAD)
        .into_poem()
}

#[handler]
pub async fn sitemap(req: &Request, seo: Data<&Arc<Seo>>) -> Response {
    let made = seo.held(&seo.sitemap, &seo.xml, || seo.sitemap_xml()).await;
    answer(req, "sitemap", made)
}

async fn feed_of(req: &Request, seo: &Seo, category: Option<Category>) -> Response {
    let made = seo
        .held(seo.feed_slot(category), &seo.atom, || {
            seo.feed_xml(category)
        })
        .await;
    answer(req, "feed", made)
}

#[handler]
pub async fn feed(req: &Request, seo: Data<&Arc<Seo>>) -> Response {
    feed_of(req, &seo, None).await
}

/// `/feed/{category}.xml`: the feed of one category; any other name is not found.
#[handler]
pub async fn category_feed(req: &Request, file: Path<String>, seo: Data<&Arc<Seo>>) -> Response {
    match file.strip_suffix(".xml").and_then(Category::from_slug) {
        Some(category) => feed_of(req, &seo, Some(category)).await,
        None => StatusCode::NOT_FOUND.into_response(),
    }
}
