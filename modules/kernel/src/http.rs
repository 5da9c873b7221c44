//! HTTP helpers shared by the modules' APIs.

use std::marker::PhantomData;

use bytes::Bytes;
use poem::{IntoResponse, Response};
use poem_openapi::payload::Payload;
use poem_openapi::registry::{MetaSchemaRef, Registry};
use poem_openapi::types::Type;

/// A JSON body that was serialised earlier (e.g. taken from a cache) and is sent as is.
/// The contract still describes it as `T`.
pub struct CachedJson<T> {
    body: Bytes,
    _schema: PhantomData<fn() -> T>,
}

impl<T> CachedJson<T> {
    pub fn new(body: Bytes) -> Self {
        Self {
            body,
            _schema: PhantomData,
        }
    }
}

impl<T: Type> Payload for CachedJson<T> {
    const CONTENT_TYPE: &'static str = "application/json; charset=utf-8";

    fn check_content_type(content_type: &str) -> bool {
        content_type.starts_with("application/json")
    }

    fn schema_ref() -> MetaSchemaRef {
        T::schema_ref()
    }

    fn register(registry: &mut Registry) {
        T::register(registry);
    }
}

impl<T: Send> IntoResponse for CachedJson<T> {
    fn into_response(self) -> Response {
        Response::builder()
            .content_type("application/json; charset=utf-8")
            .body(self.body)
    }
}

/// The client's address: the socket peer, or, behind a trusted reverse proxy, the last
/// address it appended to `X-Forwarded-For`.
pub fn client_address(req: &poem::Request, trust_proxy: bool) -> String {
    client_address_of(
        req.headers(),
        req.remote_addr().as_socket_addr().copied(),
        trust_proxy,
    )
}

/// `client_address` from the parts of a request.
pub fn client_address_of(
    headers: &poem::http::HeaderMap,
    remote: Option<std::net::SocketAddr>,
    trust_proxy: bool,
) -> String {
    if trust_proxy {
        if let Some(forwarded) = headers
            .get("x-forwarded-for")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.rsplit(',').next())
        {
            let forwarded = forwarded.trim();
            if !forwarded.is_empty() {
                return forwarded.to_string();
            }
        }
    }
    match remote {
        Some(addr) => addr.ip().to_string(),
        None => "unknown".to_string(),
    }
}
