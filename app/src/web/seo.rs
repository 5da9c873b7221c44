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

mod files;
pub use files::{sitemap_files, sitemap_part, SITEMAP_URLS};

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

/// A sitemap's `<url>` entries, with the content version and time they were made at.
type HeldEntries = (u64, Instant, Arc<Vec<String>>);

pub struct Seo {
    content: Arc<ContentService>,
    identity: Arc<identity::IdentityService>,
    magazines: Arc<media::MagazineService>,
    site_url: String,
    site_name: String,
    xml: HeaderMap,
    atom: HeaderMap,
    robots: Representation,
    sitemap: Held,
    /// The sitemap's `<url>` entries, for its parts.
    entries: Mutex<Option<HeldEntries>>,
    /// Parts of a sitemap too large for one file, by content version and number.
    parts: moka::sync::Cache<(u64, usize), Arc<Representation>>,
    /// The feed of every article, then one per category in `Category::ALL` order.
    feeds: Vec<Held>,
    /// Contributors' feeds, by content version and page address.
    author_feeds: moka::future::Cache<(u64, String), Arc<Representation>>,
}

impl Seo {
    pub fn new(
        content: Arc<ContentService>,
        identity: Arc<identity::IdentityService>,
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
            identity,
            magazines,
            site_url,
            site_name,
            xml: typed("application/xml; charset=utf-8"),
            atom: typed(FEED_TYPE),
            robots: robots_txt,
            sitemap: Held::default(),
            entries: Mutex::new(None),
            parts: moka::sync::Cache::builder()
                .max_capacity(16)
                .time_to_live(HELD_TTL)
                .build(),
            feeds: (0..=Category::ALL.len()).map(|_| Held::default()).collect(),
            author_feeds: moka::future::Cache::builder()
                .max_capacity(256)
                .time_to_live(HELD_TTL)
                .build(),
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
        let built = compressed(make().await?, headers, Effort::Best).await?;
        held.keep(version, built.clone());
        Ok(built)
    }

    /// Every URL of the sitemap as its `<url>` element: the public pages, the category
    /// pages, the magazine issues, then the articles, newest first. Made once per content version.
    async fn sitemap_entries(&self) -> Result<Arc<Vec<String>>, content::ContentError> {
        let version = self.content.version();
        if let Ok(held) = self.entries.lock() {
            if let Some((v, at, entries)) = held.as_ref() {
                if *v == version && at.elapsed() < HELD_TTL {
                    return Ok(entries.clone());
                }
            }
        }
        let slugs = self.content.published_slugs().await?;
        let issues = self
            .magazines
            .issues()
            .await
            .map_err(|e| content::ContentError::Unexpected(Box::new(e)))?;
        let mut entries = Vec::with_capacity(
            slugs.len() + issues.len() + PUBLIC_PAGES.len() + content::Category::ALL.len(),
        );
        for page in PUBLIC_PAGES.iter().filter(|p| p.indexable) {
            entries.push(format!(
                "<url><loc>{}{}</loc></url>\n",
                self.site_url, page.path
            ));
        }
        for category in content::Category::ALL {
            entries.push(format!(
                "<url><loc>{}{}</loc></url>\n",
                self.site_url,
                category.page_path()
            ));
        }
        let authors = self.content.published_authors().await?;
        let ids: Vec<String> = authors.iter().map(|(id, _)| id.clone()).collect();
        let bylines = self.identity.bylines(&ids).await.map_err(identity_failed)?;
        for (id, updated) in &authors {
            let Some(slug) = bylines.get(id).and_then(|b| b.slug.as_deref()) else {
                continue;
            };
            entries.push(format!(
                "<url><loc>{}/author/{}</loc><lastmod>{}</lastmod></url>\n",
                self.site_url,
                escape_html(slug),
                updated.format("%Y-%m-%d")
            ));
        }
        for issue in issues {
            entries.push(format!(
                "<url><loc>{}/magazine/{}</loc><lastmod>{}</lastmod></url>\n",
                self.site_url,
                escape_html(&issue.slug),
                issue.published_at.format("%Y-%m-%d")
            ));
        }
        for (slug, updated) in slugs {
            entries.push(format!(
                "<url><loc>{}/article/{}</loc><lastmod>{}</lastmod></url>\n",
                self.site_url,
                escape_html(&slug),
                updated.format("%Y-%m-%d")
            ));
        }
        let entries = Arc::new(entries);
        if let Ok(mut held) = self.entries.lock() {
            *held = Some((version, Instant::now(), entries.clone()));
        }
        Ok(entries)
    }

    async fn sitemap_xml(&self) -> Result<String, content::ContentError> {
        let entries = self.sitemap_entries().await?;
        Ok(sitemap_files(&entries, SITEMAP_URLS, &self.site_url).0)
    }

    /// Part `n` of a sitemap split into several files; `None` when there is no such part.
    async fn sitemap_part(
        &self,
        n: usize,
    ) -> Result<Option<Arc<Representation>>, content::ContentError> {
        let version = self.content.version();
        if let Some(held) = self.parts.get(&(version, n)) {
            return Ok(Some(held));
        }
        let entries = self.sitemap_entries().await?;
        let Some(body) = sitemap_part(&entries, SITEMAP_URLS, n) else {
            return Ok(None);
        };
        // Parts are large (a few MB): compressed quickly, not best.
        let built = compressed(body, &self.xml, Effort::Fast).await?;
        self.parts.insert((version, n), built.clone());
        Ok(Some(built))
    }

    async fn feed_xml(&self, category: Option<Category>) -> Result<String, content::ContentError> {
        let list = self.content.list(&ListQuery::feed(category)).await?;
        let description = public_page("/").map_or("", |p| p.description);
        let scope = Scope::of(&self.site_name, category);
        Ok(atom(&self.site_url, &scope, description, &list))
    }

    /// The feed of the contributor at `/author/{slug}`; `None` when there is none (no such
    /// contributor, or nothing of theirs published).
    async fn author_feed(
        &self,
        slug: &str,
    ) -> Result<Option<Arc<Representation>>, content::ContentError> {
        let key = (self.content.version(), slug.to_string());
        if let Some(held) = self.author_feeds.get(&key).await {
            return Ok(Some(held));
        }
        let Some((id, who)) = self.content.author(slug).await? else {
            return Ok(None);
        };
        let list = self
            .content
            .list(&ListQuery::by_author(&id, content::FEED_ARTICLES))
            .await?;
        let scope = Scope::of_author(&self.site_name, &who.name, &who.slug);
        let description = format!(
            "Articles by {}, {} at {}.",
            who.name, who.role, self.site_name
        );
        let built = compressed(
            atom(&self.site_url, &scope, &description, &list),
            &self.atom,
            Effort::Best,
        )
        .await?;
        self.author_feeds.insert(key, built.clone()).await;
        Ok(Some(built))
    }

    fn feed_slot(&self, category: Option<Category>) -> &Held {
        let index = category
            .and_then(|c| Category::ALL.iter().position(|a| *a == c))
            .map_or(0, |i| i + 1);
        &self.feeds[index.min(self.feeds.len() - 1)]
    }
}

fn identity_failed(e: identity::IdentityError) -> content::ContentError {
    content::ContentError::Unexpected(Box::new(e))
}

/// `body` as a document served with `headers`, compressed once (off the runtime).
async fn compressed(
    body: String,
    headers: &HeaderMap,
    effort: Effort,
) -> Result<Arc<Representation>, content::ContentError> {
    let headers = headers.clone();
    tokio::task::spawn_blocking(move || {
        Arc::new(Representation::build(
            StatusCode::OK,
            Bytes::from(body),
            &headers,
            effort,
            None,
        ))
    })
    .await
    .map_err(|e| content::ContentError::Unexpected(Box::new(e)))
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

/// `/sitemap-{n}.xml`: a part of a sitemap too large for one file.
#[handler]
pub async fn sitemap_part_of(req: &Request, file: Path<String>, seo: Data<&Arc<Seo>>) -> Response {
    let n = file
        .strip_prefix("sitemap-")
        .and_then(|f| f.strip_suffix(".xml"))
        .and_then(|n| n.parse::<usize>().ok());
    let Some(n) = n else {
        return StatusCode::NOT_FOUND.into_response();
    };
    match seo.sitemap_part(n).await {
        Ok(None) => StatusCode::NOT_FOUND.into_response(),
        Ok(Some(doc)) => answer(req, "sitemap", Ok(doc)),
        Err(e) => answer(req, "sitemap", Err(e)),
    }
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

/// `/feed/author/{slug}.xml`: a contributor's feed; not found without a public page.
#[handler]
pub async fn author_feed(req: &Request, file: Path<String>, seo: Data<&Arc<Seo>>) -> Response {
    let Some(slug) = file.strip_suffix(".xml") else {
        return StatusCode::NOT_FOUND.into_response();
    };
    match seo.author_feed(slug).await {
        Ok(None) => StatusCode::NOT_FOUND.into_response(),
        Ok(Some(doc)) => answer(req, "feed", Ok(doc)),
        Err(e) => answer(req, "feed", Err(e)),
    }
}

#[cfg(test)]
mod tests;
