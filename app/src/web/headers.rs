//! Headers the edge adds: HSTS when the site is served over https, `nosniff` on every API
//! answer, a content security policy with frame protection on the API docs and on pages,
//! `Allow` on a 405.

use poem::http::{header, HeaderMap, HeaderValue};
use poem::{Endpoint, IntoResponse, Request, Response, Result};

/// Two years, the usual preload-ready figure; set only when `SITE_URL` is https.
pub const HSTS: &str = "max-age=63072000";
/// The docs page carries its script and styles inline.
const DOCS_CSP: &str = "default-src 'self'; script-src 'self' 'unsafe-inline'; \
     style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
     object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

fn set_if_absent(response: &mut Response, name: header::HeaderName, value: &'static str) {
    if !response.headers().contains_key(&name) {
        response
            .headers_mut()
            .insert(name, HeaderValue::from_static(value));
    }
}

/// Every answer: `Strict-Transport-Security` when `https` is true; a 405 says what is allowed
/// (the API's own routes say it themselves; every other route is read-only).
pub async fn site<E: Endpoint>(next: E, req: Request, https: bool) -> Result<Response> {
    let mut response = match next.call(req).await {
        Ok(r) => r.into_response(),
        Err(e) => e.into_response(),
    };
    if https {
        set_if_absent(&mut response, header::STRICT_TRANSPORT_SECURITY, HSTS);
    }
    if response.status() == poem::http::StatusCode::METHOD_NOT_ALLOWED {
        set_if_absent(&mut response, header::ALLOW, "GET, HEAD");
    }
    Ok(response)
}

/// API answers are data, never to be sniffed into something else, and unless an operation
/// says otherwise they may concern one person (a session, a staff list): never stored.
pub async fn api<E: Endpoint>(next: E, req: Request) -> Result<Response> {
    let mut response = next.call(req).await?.into_response();
    set_if_absent(&mut response, header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set_if_absent(&mut response, header::CACHE_CONTROL, "private, no-store");
    Ok(response)
}

/// The interactive docs: no framing, scripts only from the page itself.
pub async fn docs<E: Endpoint>(next: E, req: Request) -> Result<Response> {
    let mut response = next.call(req).await?.into_response();
    set_if_absent(&mut response, header::CONTENT_SECURITY_POLICY, DOCS_CSP);
    set_if_absent(&mut response, header::X_FRAME_OPTIONS, "DENY");
    set_if_absent(&mut response, header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    Ok(response)
}

/// Type and security headers of every page (set once, cloned into each representation).
pub fn page(https: bool) -> HeaderMap {
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
            HeaderValue::from_static(HSTS),
        );
    }
    h
}
