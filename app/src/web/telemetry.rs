//! One span per request: method, route, status and latency.

use std::sync::Arc;
use std::time::Instant;

use poem::{Endpoint, IntoResponse, Request, Response, Result};
use tracing::Instrument;

use crate::public_pages::public_page;

/// The route template of a path, so spans group requests by route rather than by URL.
pub fn route_of(path: &str) -> &'static str {
    const OTHER: [&str; 10] = [
        "/healthz",
        "/metrics",
        "/readyz",
        "/robots.txt",
        "/sitemap.xml",
        "/feed.xml",
        "/email/confirm",
        "/email/unsubscribe",
        "/api/openapi.json",
        "/favicon.svg",
    ];
    if let Some(r) = OTHER.iter().find(|r| **r == path) {
        return r;
    }
    if let Some(page) = public_page(path) {
        return page.path;
    }
    let prefixes: [(&str, &'static str); 10] = [
        ("/sitemap-", "/sitemap-{n}.xml"),
        ("/article/", "/article/{slug}"),
        ("/category/", "/category/{slug}"),
        ("/author/", "/author/{slug}"),
        ("/feed/author/", "/feed/author/{slug}.xml"),
        ("/feed/", "/feed/{category}.xml"),
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

/// The API's route templates, read from the contract, so that every operation is labelled
/// by its own template (`/api/v1/staff/articles/{id}`) without a list kept by hand.
#[derive(Debug, Default)]
pub struct ApiRoutes {
    /// Templates split into segments (`None` for a parameter), fewest parameters first so
    /// that `/api/v1/notify/unsubscribe` wins over a `{param}` in the same place.
    templates: Vec<(Vec<Option<String>>, String)>,
    /// The methods each template answers (`GET, POST`), for the `Allow` header of a 405.
    methods: std::collections::HashMap<String, String>,
}

impl ApiRoutes {
    /// From the OpenAPI document; its paths are relative to the `/api` server.
    pub fn from_spec(spec: &str) -> Self {
        let paths = serde_json::from_str::<serde_json::Value>(spec)
            .ok()
            .and_then(|v| v.get("paths").and_then(|p| p.as_object()).cloned())
            .unwrap_or_default();
        let methods = paths
            .iter()
            .map(|(path, item)| {
                let mut verbs: Vec<String> = item
                    .as_object()
                    .map(|ops| ops.keys().map(|m| m.to_ascii_uppercase()).collect())
                    .unwrap_or_default();
                verbs.sort();
                (format!("/api{path}"), verbs.join(", "))
            })
            .collect();
        let mut templates: Vec<(Vec<Option<String>>, String)> = paths
            .keys()
            .map(|path| {
                let template = format!("/api{path}");
                let segments = template
                    .split('/')
                    .map(|s| (!s.starts_with('{')).then(|| s.to_string()))
                    .collect();
                (segments, template)
            })
            .collect();
        templates.sort_by_key(|(segments, _)| segments.iter().filter(|s| s.is_none()).count());
        Self { templates, methods }
    }

    /// The methods an API path answers, as an `Allow` header value.
    pub fn allowed(&self, path: &str) -> Option<&str> {
        self.template(path)
            .and_then(|t| self.methods.get(t))
            .map(String::as_str)
    }

    /// The template of an API path, if it is one of the contract's.
    pub fn template(&self, path: &str) -> Option<&str> {
        self.templates
            .iter()
            .find(|(segments, _)| {
                let mut parts = path.split('/');
                segments.iter().all(|seg| match (seg, parts.next()) {
                    (Some(lit), Some(part)) => lit == part,
                    (None, Some(part)) => !part.is_empty(),
                    (_, None) => false,
                }) && parts.next().is_none()
            })
            .map(|(_, template)| template.as_str())
    }

    /// The route label of any path: an API template, else a page or file route.
    pub fn label<'a>(&'a self, path: &str) -> &'a str {
        if path.starts_with("/api/v1/") {
            if let Some(template) = self.template(path) {
                return template;
            }
        }
        route_of(path)
    }
}

/// A 405 says which methods the path does answer.
pub async fn allow_header<E: Endpoint>(
    next: E,
    req: Request,
    api: Arc<ApiRoutes>,
) -> Result<Response> {
    let path = req.original_uri().path().to_string();
    let mut response = next.call(req).await?.into_response();
    if response.status() == poem::http::StatusCode::METHOD_NOT_ALLOWED {
        if let Some(value) = api
            .allowed(&path)
            .and_then(|m| poem::http::HeaderValue::from_str(m).ok())
        {
            response
                .headers_mut()
                .insert(poem::http::header::ALLOW, value);
        }
    }
    Ok(response)
}

pub async fn trace_request<E: Endpoint>(
    next: E,
    req: Request,
    api: Arc<ApiRoutes>,
) -> Result<Response> {
    let route = api.label(req.uri().path()).to_string();
    let method = req.method().clone();
    let span = tracing::info_span!(
        "request",
        http.method = %req.method(),
        http.route = %route,
        http.status_code = tracing::field::Empty,
        latency_ms = tracing::field::Empty,
    );
    let header = |name: &str| req.headers().get(name).and_then(|v| v.to_str().ok());
    observability::continue_trace(&span, header("traceparent"), header("tracestate"));
    async move {
        let start = Instant::now();
        let response = match next.call(req).await {
            Ok(r) => r.into_response(),
            Err(e) => e.into_response(),
        };
        let status = response.status().as_u16();
        let latency = start.elapsed().as_secs_f64() * 1000.0;
        crate::metrics::request(route, method.as_str(), status, start.elapsed());
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
    use super::{route_of, ApiRoutes};

    #[test]
    fn api_routes_come_from_the_contract() {
        let spec = r#"{"paths": {
            "/v1/articles": {}, "/v1/articles/{slug_or_id}": {},
            "/v1/notify/unsubscribe": {}, "/v1/notify/{list}": {},
            "/v1/staff/articles/{id}/publish": {}
        }}"#;
        let api = ApiRoutes::from_spec(spec);
        assert_eq!(api.label("/api/v1/articles"), "/api/v1/articles");
        assert_eq!(
            api.label("/api/v1/articles/some-slug"),
            "/api/v1/articles/{slug_or_id}"
        );
        assert_eq!(
            api.label("/api/v1/notify/unsubscribe"),
            "/api/v1/notify/unsubscribe"
        );
        assert_eq!(api.label("/api/v1/notify/packs"), "/api/v1/notify/{list}");
        assert_eq!(
            api.label("/api/v1/staff/articles/42/publish"),
            "/api/v1/staff/articles/{id}/publish"
        );
        assert_eq!(api.label("/api/v1/staff/articles/42/publish/x"), "other");
        assert_eq!(api.label("/api/v1/articles/"), "other");
        assert_eq!(api.label("/article/a-slug"), "/article/{slug}");
    }

    #[test]
    fn allowed_methods_come_from_the_contract() {
        let spec = r#"{"paths": {
            "/v1/session": {"post": {}, "delete": {}},
            "/v1/articles/{slug_or_id}": {"get": {}}
        }}"#;
        let api = ApiRoutes::from_spec(spec);
        assert_eq!(api.allowed("/api/v1/session"), Some("DELETE, POST"));
        assert_eq!(api.allowed("/api/v1/articles/x"), Some("GET"));
        assert_eq!(api.allowed("/api/v1/nothing"), None);
    }

    #[test]
    fn routes_are_templates() {
        assert_eq!(route_of("/article/some-slug"), "/article/{slug}");
        assert_eq!(route_of("/articles"), "/articles");
        assert_eq!(route_of("/category/human-rights"), "/category/{slug}");
        assert_eq!(route_of("/author/maya-o"), "/author/{slug}");
        assert_eq!(
            route_of("/feed/author/maya-o.xml"),
            "/feed/author/{slug}.xml"
        );
        assert_eq!(route_of("/feed/human-rights.xml"), "/feed/{category}.xml");
        assert_eq!(route_of("/nope"), "other");
    }
}
