//! robots.txt and sitemap.xml.

use std::sync::Arc;

use content::ContentService;
use poem::http::StatusCode;
use poem::web::Data;
use poem::{handler, IntoResponse, Response};

use super::routes_meta::INDEXABLE;
use crate::ssr::escape_html;

#[derive(Clone)]
pub struct Seo {
    pub content: Arc<ContentService>,
    pub site_url: String,
}

#[handler]
pub fn robots(seo: Data<&Seo>) -> Response {
    format!(
        "User-agent: *\nAllow: /\nDisallow: /dashboard/\nDisallow: /api/\n\nSitemap: {}/sitemap.xml\n",
        seo.site_url
    )
    .with_content_type("text/plain; charset=utf-8")
    .into_response()
}

#[handler]
pub async fn sitemap(seo: Data<&Seo>) -> Response {
    let slugs = match seo.content.published_slugs().await {
        Ok(s) => s,
        Err(e) => {
            tracing::error!(error = ?e, "sitemap failed");
            return StatusCode::SERVICE_UNAVAILABLE.into_response();
        }
    };
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for path in INDEXABLE {
        xml.push_str(&format!("<url><loc>{}{}</loc></url>\n", seo.site_url, path));
    }
    for (slug, updated) in slugs {
        xml.push_str(&format!(
            "<url><loc>{}/article/{}</loc><lastmod>{}</lastmod></url>\n",
            seo.site_url,
            escape_html(&slug),
            updated.format("%Y-%m-%d")
        ));
    }
    xml.push_str("</urlset>\n");
    xml.with_content_type("application/xml; charset=utf-8")
        .into_response()
}
