//! robots.txt and sitemap.xml, made once (the sitemap once per content version, for a minute
//! at most) and served precompressed with validators like the pages.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use content::ContentService;
use poem::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use poem::web::Data;
use poem::{handler, IntoResponse, Request, Response};

use super::represent::{Effort, Representation};
use super::routes_meta::INDEXABLE;
use crate::ssr::escape_html;

/// Other instances may publish too: a sitemap is rebuilt after this long at most.
const SITEMAP_TTL: Duration = Duration::from_secs(60);

pub struct Seo {
    content: Arc<ContentService>,
    site_url: String,
    headers: HeaderMap,
    robots: Representation,
    sitemap: Mutex<Option<(u64, Instant, Arc<Representation>)>>,
}

impl Seo {
    pub fn new(content: Arc<ContentService>, site_url: String, cache_control: HeaderValue) -> Seo {
        let mut headers = HeaderMap::new();
        headers.insert(header::CACHE_CONTROL, cache_control);
        headers.insert(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        );
        let mut text = headers.clone();
        text.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        );
        let text_body = format!(
            "User-agent: *\nAllow: /\nDisallow: /dashboard/\nDisallow: /api/\n\nSitemap: {site_url}/sitemap.xml\n"
        );
        let robots_txt = Representation::build(
            StatusCode::OK,
            Bytes::from(text_body),
            &text,
            Effort::Best,
            None,
        );
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/xml; charset=utf-8"),
        );
        Seo {
            content,
            site_url,
            headers,
            robots: robots_txt,
            sitemap: Mutex::new(None),
        }
    }

    fn current_sitemap(&self, version: u64) -> Option<Arc<Representation>> {
        let held = self.sitemap.lock().ok()?;
        held.as_ref()
            .filter(|(v, at, _)| *v == version && at.elapsed() < SITEMAP_TTL)
            .map(|(_, _, r)| r.clone())
    }

    async fn build_sitemap(&self) -> Result<Arc<Representation>, content::ContentError> {
        let version = self.content.version();
        if let Some(held) = self.current_sitemap(version) {
            return Ok(held);
        }
        let slugs = self.content.published_slugs().await?;
        let mut xml = String::from(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
        );
        for path in INDEXABLE {
            xml.push_str(&format!(
                "<url><loc>{}{}</loc></url>\n",
                self.site_url, path
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
        let headers = self.headers.clone();
        let built = tokio::task::spawn_blocking(move || {
            Representation::build(
                StatusCode::OK,
                Bytes::from(xml),
                &headers,
                Effort::Best,
                None,
            )
        })
        .await
        .map_err(|e| content::ContentError::Unexpected(Box::new(e)))?;
        let built = Arc::new(built);
        if let Ok(mut held) = self.sitemap.lock() {
            *held = Some((version, Instant::now(), built.clone()));
        }
        Ok(built)
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
    match seo.build_sitemap().await {
        Ok(map) => map
            .answer(req.headers(), req.method() == Method::HEAD)
            .into_poem(),
        Err(e) => {
            tracing::error!(error = ?e, "sitemap failed");
            StatusCode::SERVICE_UNAVAILABLE.into_response()
        }
    }
}
