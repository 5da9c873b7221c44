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
