//! Cross-site request protection for state-changing API calls, on top of the SameSite cookie:
//! a browser request must come from the site's own origin.

use crate::codes::Code;
use kernel::ErrorBody;
use poem::http::{header, Method, StatusCode};
use poem::web::Json;
use poem::{Endpoint, IntoResponse, Request, Response, Result};

/// The site's public origin (`SITE_URL`).
#[derive(Clone)]
pub struct SiteOrigin(pub String);

fn origin_of(url: &str) -> &str {
    match url.find("://") {
        Some(i) => match url[i + 3..].find('/') {
            Some(j) => &url[..i + 3 + j],
            None => url,
        },
        None => url,
    }
}

/// Whether a request that changes state may proceed.
fn allowed(req: &Request, site: &str) -> bool {
    if matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        return true;
    }
    let headers = req.headers();
    if let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) {
        if origin == origin_of(site) {
            return true;
        }
        // The host the browser used (e.g. 127.0.0.1 vs localhost during development).
        let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
        return host
            .is_some_and(|h| origin == format!("http://{h}") || origin == format!("https://{h}"));
    }
    // No Origin: not a browser form or fetch from another site, unless it says so.
    headers
        .get("sec-fetch-site")
        .and_then(|v| v.to_str().ok())
        .is_none_or(|v| v != "cross-site")
}

pub async fn same_origin_only<E: Endpoint>(next: E, req: Request) -> Result<Response> {
    let site = req
        .data::<SiteOrigin>()
        .map(|s| s.0.clone())
        .unwrap_or_default();
    if !allowed(&req, &site) {
        return Ok((
            StatusCode::FORBIDDEN,
            Json(ErrorBody::new(
                Code::CrossSiteRequest,
                "Requests from other sites are not accepted.",
            )),
        )
            .into_response());
    }
    next.call(req).await.map(IntoResponse::into_response)
}

#[cfg(test)]
mod tests {
    use super::origin_of;

    #[test]
    fn origins() {
        assert_eq!(
            origin_of("https://agora.example/path"),
            "https://agora.example"
        );
        assert_eq!(origin_of("http://127.0.0.1:8080"), "http://127.0.0.1:8080");
    }
}
