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
    client_of(headers, remote, trust_proxy).to_string()
}

/// The client as `client_address` names it, without making a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Client<'a> {
    Ip(std::net::IpAddr),
    /// The last `X-Forwarded-For` hop, as the trusted proxy wrote it.
    Forwarded(&'a str),
    Unknown,
}

impl std::fmt::Display for Client<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Client::Ip(ip) => ip.fmt(f),
            Client::Forwarded(s) => f.write_str(s),
            Client::Unknown => f.write_str("unknown"),
        }
    }
}

pub fn client_of<'a>(
    headers: &'a poem::http::HeaderMap,
    remote: Option<std::net::SocketAddr>,
    trust_proxy: bool,
) -> Client<'a> {
    if trust_proxy {
        if let Some(forwarded) = headers
            .get("x-forwarded-for")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.rsplit(',').next())
        {
            let forwarded = forwarded.trim();
            if !forwarded.is_empty() {
                return Client::Forwarded(forwarded);
            }
        }
    }
    match remote {
        Some(addr) => Client::Ip(addr.ip()),
        None => Client::Unknown,
    }
}

/// The policy of every uploaded file served back (covers, issues, packs, applicants'
/// documents): nothing in it runs, and a framed copy is refused, while a browser's own PDF
/// viewer still shows a PDF opened from a link.
pub const UPLOAD_CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

tokio::task_local! {
    static DATABASE_OUTAGE: std::cell::Cell<bool>;
}

/// Notes, for the request being answered (see [`answering`]), that `e` says the database
/// cannot be reached. Modules call it where they turn a database error into their own.
pub fn note_database_error(e: &sqlx::Error) {
    if crate::db::is_unavailable(e) {
        note_outage();
    }
}

/// Notes, for the request being answered, that the database could not be reached: for a
/// failure met by another request this one waited on (a coalesced load), whose database error
/// was noted in that request's task, not this one's.
pub fn note_outage() {
    let _ = DATABASE_OUTAGE.try_with(|seen| seen.set(true));
}

/// Whether the request being answered has met the database unreachable so far.
pub fn outage_noted() -> bool {
    DATABASE_OUTAGE.try_with(|seen| seen.get()).unwrap_or(false)
}

/// Runs `answer` (the handling of a request) and says whether it met the database
/// unreachable: a failure then is the outage's (503), not a fault (500).
pub async fn answering<F: std::future::Future>(answer: F) -> (F::Output, bool) {
    DATABASE_OUTAGE
        .scope(std::cell::Cell::new(false), async move {
            let out = answer.await;
            (out, outage_noted())
        })
        .await
}

/// Seconds a client is asked to wait (`Retry-After`) when the server cannot answer for a
/// moment.
pub const RETRY_AFTER_SECONDS: u64 = 5;

/// The error of a guard that could not check a session (its store failed: the database is
/// unreachable or restarting). The API answers it 503 `service_unavailable` with
/// `Retry-After`: a client that is signed in must not be told it is not.
pub fn unavailable() -> poem::Error {
    poem::Error::from_status(poem::http::StatusCode::SERVICE_UNAVAILABLE)
}

/// The error of a guard that found no live session: answered 401 `not_signed_in`.
pub fn not_signed_in() -> poem::Error {
    poem::Error::from_status(poem::http::StatusCode::UNAUTHORIZED)
}

/// A session cookie: HttpOnly, SameSite=Lax, for the whole site. `Set-Cookie` value that
/// starts a session (`Some(token)` for `max_age`) or ends it (`None`).
pub struct SessionCookie {
    pub name: &'static str,
    /// Mark it `Secure` (the site is served over https).
    pub secure: bool,
}

impl SessionCookie {
    /// The `Set-Cookie` value that starts a session.
    pub fn start(&self, token: &str, max_age: std::time::Duration) -> String {
        self.value(token, max_age.as_secs())
    }

    /// The `Set-Cookie` value that ends it.
    pub fn end(&self) -> String {
        self.value("", 0)
    }

    fn value(&self, token: &str, max_age: u64) -> String {
        format!(
            "{}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{}",
            self.name,
            if self.secure { "; Secure" } else { "" }
        )
    }

    /// The token a request carries in this cookie, if any.
    pub fn token(&self, req: &poem::Request) -> Option<String> {
        let header = req
            .headers()
            .get(poem::http::header::COOKIE)?
            .to_str()
            .ok()?;
        header.split(';').find_map(|pair| {
            let (name, value) = pair.trim().split_once('=')?;
            (name == self.name).then(|| value.to_string())
        })
    }
}
