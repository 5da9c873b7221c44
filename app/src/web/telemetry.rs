//! One span per request: method, route, status and latency.

use std::time::Instant;

use poem::{Endpoint, IntoResponse, Request, Response, Result};
use tracing::Instrument;

use super::routes_meta::STATIC_PAGES;

/// The route template of a path, so spans group requests by route rather than by URL.
pub fn route_of(path: &str) -> &'static str {
    const OTHER: [&str; 8] = [
        "/",
        "/healthz",
        "/readyz",
        "/robots.txt",
        "/sitemap.xml",
        "/api/openapi.json",
        "/api/v1/articles",
        "/favicon.svg",
    ];
    if let Some(r) = OTHER.iter().find(|r| **r == path) {
        return r;
    }
    if let Some((page, _, _)) = STATIC_PAGES.iter().find(|(p, _, _)| *p == path) {
        return page;
    }
    let prefixes: [(&str, &'static str); 6] = [
        ("/article/", "/article/{slug}"),
        ("/api/v1/articles/", "/api/v1/articles/{slug_or_id}"),
        ("/api/docs", "/api/docs"),
        ("/assets/", "/assets/{file}"),
        ("/media/", "/media/{file}"),
        ("/dashboard/", "/dashboard/{role}"),
    ];
    prefixes
        .iter()
        .find(|(p, _)| path.starts_with(p))
        .map(|(_, r)| *r)
        .unwrap_or("other")
}

pub async fn trace_request<E: Endpoint>(next: E, req: Request) -> Result<Response> {
    let route = route_of(req.uri().path());
    let span = tracing::info_span!(
        "request",
        http.method = %req.method(),
        http.route = route,
        http.status_code = tracing::field::Empty,
        latency_ms = tracing::field::Empty,
    );
    async move {
        let start = Instant::now();
        let response = match next.call(req).await {
            Ok(r) => r.into_response(),
            Err(e) => e.into_response(),
        };
        let status = response.status().as_u16();
        let latency = start.elapsed().as_secs_f64() * 1000.0;
        let span = tracing::Span::current();
        span.record("http.status_code", status);
        span.record("latency_ms", latency);
        if response.status().is_server_error() {
            tracing::error!(status, latency_ms = latency, "request failed");
        } else {
            tracing::debug!(status, latency_ms = latency, "request");
        }
        Ok(response)
    }
    .instrument(span)
    .await
}

#[cfg(test)]
mod tests {
    use super::route_of;

    #[test]
    fn routes_are_templates() {
        assert_eq!(route_of("/article/some-slug"), "/article/{slug}");
        assert_eq!(route_of("/articles"), "/articles");
        assert_eq!(route_of("/nope"), "other");
    }
}
