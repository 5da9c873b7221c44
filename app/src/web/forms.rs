//! Public forms without JavaScript. Every public form is also a plain HTML form that posts to
//! its own page (form-encoded, or multipart for the application). The post is answered by the
//! same API operation the page's script calls — the same rules, limits, wording and cookies —
//! and then the browser is redirected (303, post/redirect/get, so a reload never sends it
//! again): where a success leads, or back to the page, which shows the answer (the messages
//! beside the fields, the values as typed but never a password), read once from the answer
//! kept under a cookie scoped to that page.

use crate::codes::Code;
use std::sync::Arc;

use bytes::Bytes;
use kernel::flash::{Flash, KEEP_FOR};
use kernel::upload::{self, Spooled};
use kernel::ErrorBody;
use poem::http::{header, HeaderValue, StatusCode, Uri};
use poem::web::{LocalAddr, RemoteAddr};
use poem::{Body, Endpoint, IntoResponse, Request, RequestParts, Response};
use serde::Serialize;
use tokio::io::AsyncReadExt;

use serde_json::Value;

use super::body_types::BodyShapes;

mod operations;
mod posted;

pub use operations::takes_forms;
use operations::{operation, After, Operation};

use posted::{
    error_of, field, files_not_kept, kept_values, multipart_text, read_capped, refused,
    spooled_body, with_files,
};

/// Where a page shows a form's answer: the fragment the browser is sent back to.
const ANSWER_ID: &str = "answer";

/// The cookie naming the kept answer of a form posted without JavaScript.
pub const ANSWER_COOKIE: &str = "agora_form";

/// Fields never kept to be shown again (and the form's own plumbing).
const NEVER_KEPT: &[&str] = &[
    "password",
    "confirm_password",
    "new_password",
    "current_password",
    "access_key",
    "token",
    "website",
    "intent",
];

/// What a form's page is told after the redirect: sent to the renderer and the browser as the
/// page data's `form`.
#[derive(Debug, Clone, Serialize)]
pub struct FormAnswer {
    /// Which form on the page answered (its `intent` field, or "" for the page's one form).
    pub intent: String,
    /// The values as sent (text fields; never a password, key or token), to fill in again.
    pub values: serde_json::Map<String, Value>,
    /// What went wrong, in the product's words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorBody>,
    /// What the operation answered on success, e.g. `{ "message": "…" }`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub done: Option<Value>,
}

#[derive(Clone)]
pub struct Forms {
    /// The `/api` stack (limits, type checks, same-origin check, every operation).
    api: Arc<dyn poem::endpoint::DynEndpoint<Output = Response>>,
    shapes: Arc<BodyShapes>,
    flash: Flash,
    secure_cookie: bool,
    /// The largest form body read (the application's, its files included).
    max_body: u64,
}

/// A posted form, read.
struct Posted {
    fields: Vec<(String, String)>,
    /// The files attached (multipart): each part's name and file name.
    files: Vec<(String, String)>,
    /// The body as sent, for an operation that reads the form itself (multipart), kept in a
    /// temporary file (removed when this is dropped) so that files are never held in memory.
    raw: Option<(Spooled, HeaderValue)>,
}

/// The most kept of one text field of a multipart form, to be shown again (no field of the
/// application form is valid at this length; the operation reads the form itself).
const MAX_TEXT_FIELD_BYTES: usize = 64 * 1024;

/// The largest form-encoded body read (the API's own cap for a JSON body).
const MAX_URLENCODED_BYTES: usize = 1024 * 1024;

impl Forms {
    pub fn new(
        api: Arc<dyn poem::endpoint::DynEndpoint<Output = Response>>,
        shapes: Arc<BodyShapes>,
        flash: Flash,
        secure_cookie: bool,
    ) -> Self {
        Self {
            api,
            shapes,
            flash,
            secure_cookie,
            max_body: outreach::MAX_APPLICATION_BODY_BYTES,
        }
    }

    pub fn flash(&self) -> &Flash {
        &self.flash
    }

    /// Answers a form posted to `req`'s page.
    pub async fn submit(&self, mut req: Request) -> Response {
        let page = req.uri().path().to_string();
        let back = req
            .uri()
            .path_and_query()
            .map_or(page.clone(), |pq| pq.as_str().to_string());
        let posted = match self.read(&mut req).await {
            Ok(posted) => posted,
            Err(answer) => return answer,
        };
        let intent = field(&posted.fields, "intent").unwrap_or_default();
        let target = field(&posted.fields, "response").unwrap_or_default();
        let Some(op) = operation(&page, &intent, &target) else {
            return StatusCode::METHOD_NOT_ALLOWED.into_response();
        };
        // A file attached before the form came back is never dropped silently: the form
        // comes back again, asking for it at its field.
        let not_kept = files_not_kept(&posted);
        let (status, set_cookies, body) = if not_kept.is_empty() {
            self.call(&req, &op, &posted).await
        } else {
            let names: Vec<&str> = not_kept.iter().map(|(_, f)| f.as_str()).collect();
            let refusal = ErrorBody {
                code: Code::FileNotKept.into(),
                title: Some("Attach your files again".into()),
                message: format!(
                    "Files are not kept when the form comes back: choose {} again, or tick \
                     \"Send without it\".",
                    names.join(" and ")
                ),
            };
            let body = serde_json::to_vec(&refusal).unwrap_or_default();
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                Vec::new(),
                Bytes::from(body),
            )
        };
        let mut answer = Response::builder().status(StatusCode::SEE_OTHER);
        for cookie in set_cookies {
            answer = answer.header(header::SET_COOKIE, cookie);
        }
        if status.is_success() {
            let to = match op.after {
                After::To(to) => Some(to.to_string()),
                After::Dashboard => serde_json::from_slice::<Value>(&body)
                    .ok()
                    .and_then(|v| v.get("role").and_then(Value::as_str).map(str::to_string))
                    .map(|role| format!("/dashboard/{role}")),
                After::Stay => None,
            };
            if let Some(to) = to {
                return answer.header(header::LOCATION, to).finish();
            }
        }
        let kept = FormAnswer {
            intent,
            values: kept_values(&with_files(&posted, &not_kept)),
            error: (!status.is_success()).then(|| error_of(status, &body)),
            done: status
                .is_success()
                .then(|| serde_json::from_slice(&body).unwrap_or(Value::Null)),
        };
        let text = serde_json::to_string(&kept).unwrap_or_else(|_| "{}".into());
        match self.flash.keep(&page, &text).await {
            Ok(token) => answer
                .header(header::SET_COOKIE, self.answer_cookie(&page, &token))
                .header(header::LOCATION, format!("{back}#{ANSWER_ID}"))
                .finish(),
            Err(e) => {
                tracing::error!(error = ?e, "keeping a form's answer failed");
                StatusCode::SERVICE_UNAVAILABLE.into_response()
            }
        }
    }

    /// The cookie naming a kept answer, sent back only to its page.
    fn answer_cookie(&self, page: &str, token: &str) -> String {
        let secure = if self.secure_cookie { "; Secure" } else { "" };
        format!(
            "{ANSWER_COOKIE}={token}; Path={page}; Max-Age={}; HttpOnly; SameSite=Lax{secure}",
            KEEP_FOR.as_secs()
        )
    }

    /// The cookie that forgets the answer once its page has shown it.
    pub fn forget_cookie(&self, page: &str) -> String {
        let secure = if self.secure_cookie { "; Secure" } else { "" };
        format!("{ANSWER_COOKIE}=; Path={page}; Max-Age=0; HttpOnly; SameSite=Lax{secure}")
    }

    async fn read(&self, req: &mut Request) -> Result<Posted, Response> {
        let kind = req
            .headers()
            .get(header::CONTENT_TYPE)
            .cloned()
            .unwrap_or(HeaderValue::from_static(""));
        let lower = kind.to_str().unwrap_or("").to_ascii_lowercase();
        let too_large = || refused(StatusCode::PAYLOAD_TOO_LARGE, "The form is too large.");
        let body = req.take_body();
        if lower.starts_with("application/x-www-form-urlencoded") {
            let Some(bytes) = read_capped(body, MAX_URLENCODED_BYTES).await else {
                return Err(too_large());
            };
            let fields = form_urlencoded::parse(&bytes).into_owned().collect();
            return Ok(Posted {
                fields,
                files: Vec::new(),
                raw: None,
            });
        }
        if lower.starts_with("multipart/form-data") {
            // Read no further than one byte past the cap: that is enough to know it is over.
            let reader = body.into_async_read().take(self.max_body + 1);
            let spooled = match upload::spool_reader(reader, self.max_body).await {
                Ok(spooled) if !spooled.over_limit() => spooled,
                Ok(_) => return Err(too_large()),
                Err(e) => {
                    tracing::warn!(error = %e, "reading a posted form failed");
                    return Err(refused(
                        StatusCode::BAD_REQUEST,
                        "The form could not be read.",
                    ));
                }
            };
            let (fields, files) = match spooled_body(&spooled).await {
                Some(body) => multipart_text(&kind, body).await,
                None => (Vec::new(), Vec::new()),
            };
            return Ok(Posted {
                fields,
                files,
                raw: Some((spooled, kind)),
            });
        }
        Err(refused(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Forms are sent as application/x-www-form-urlencoded or multipart/form-data.",
        ))
    }

    /// Calls the operation as the page's script would: same client address, cookies, origin.
    async fn call(
        &self,
        req: &Request,
        op: &Operation,
        posted: &Posted,
    ) -> (StatusCode, Vec<HeaderValue>, Bytes) {
        let full = format!("/api{}", op.path);
        let (body, length, kind) = match &posted.raw {
            Some((spooled, kind)) => {
                let Some(body) = spooled_body(spooled).await else {
                    return (StatusCode::SERVICE_UNAVAILABLE, vec![], Bytes::new());
                };
                (body, spooled.size(), kind.clone())
            }
            None => {
                let key = format!("{} /api{}", op.method, op.template);
                let json = self
                    .shapes
                    .form_json(&key, &posted.fields)
                    .unwrap_or(Value::Object(serde_json::Map::new()));
                let json = json.to_string();
                let length = json.len() as u64;
                (
                    Body::from_string(json),
                    length,
                    HeaderValue::from_static("application/json"),
                )
            }
        };
        let Ok(uri) = full.parse::<Uri>() else {
            return (StatusCode::INTERNAL_SERVER_ERROR, vec![], Bytes::new());
        };
        let mut builder = poem::http::Request::builder()
            .method(op.method.clone())
            .uri(uri);
        for name in [
            header::COOKIE,
            header::ORIGIN,
            header::HOST,
            header::REFERER,
            header::USER_AGENT,
            header::HeaderName::from_static("sec-fetch-site"),
            header::HeaderName::from_static("x-forwarded-for"),
            header::HeaderName::from_static("x-real-ip"),
            header::HeaderName::from_static("traceparent"),
        ] {
            for value in req.headers().get_all(&name) {
                builder = builder.header(name.clone(), value.clone());
            }
        }
        builder = builder
            .header(header::CONTENT_TYPE, kind)
            .header(header::CONTENT_LENGTH, length);
        let Ok(inner) = builder.body(()) else {
            return (StatusCode::INTERNAL_SERVER_ERROR, vec![], Bytes::new());
        };
        let (parts, ()) = inner.into_parts();
        let parts = RequestParts::from((
            parts,
            LocalAddr(req.local_addr().0.clone()),
            RemoteAddr(req.remote_addr().0.clone()),
            req.scheme().clone(),
        ));
        let mut api_req = Request::from_parts(parts, body);
        // As the `/api` nest hands it on: the operation's path without the prefix.
        if let Ok(inner_uri) = op.path.as_ref().parse::<Uri>() {
            *api_req.uri_mut() = inner_uri;
        }
        let response = match self.api.call(api_req).await {
            Ok(r) => r,
            Err(e) => e.into_response(),
        };
        let status = response.status();
        let cookies = response
            .headers()
            .get_all(header::SET_COOKIE)
            .iter()
            .cloned()
            .collect();
        let bytes = response.into_body().into_bytes().await.unwrap_or_default();
        (status, cookies, bytes)
    }
}

#[cfg(test)]
mod tests;
