//! Reading a posted form: its fields, the values kept to show again, the error an operation
//! answered, and bodies read within their caps.

use crate::codes::Code;
use bytes::Bytes;
use kernel::upload::{self, Spooled};
use kernel::Common;
use kernel::{ErrorBody, ErrorCode};
use poem::http::{header, HeaderValue, StatusCode};
use poem::web::Multipart;
use poem::{Body, FromRequest, Request, Response};
use serde::Deserialize;

use serde_json::Value;

use super::{Posted, MAX_TEXT_FIELD_BYTES, NEVER_KEPT};

pub(super) fn field(fields: &[(String, String)], name: &str) -> Option<String> {
    fields
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.clone())
}

/// The values to show again: every text field but the secret ones, a repeated name as a list,
/// without control characters (a NUL was refused; it is not put back into the field).
pub(super) fn kept_values(fields: &[(String, String)]) -> serde_json::Map<String, Value> {
    let mut values = serde_json::Map::new();
    for (name, value) in fields {
        if NEVER_KEPT.contains(&name.as_str()) {
            continue;
        }
        let value: String = value
            .chars()
            .filter(|c| !c.is_control() || matches!(c, '\n' | '\r' | '\t'))
            .collect();
        match values.get_mut(name) {
            None => {
                values.insert(name.clone(), Value::from(value.as_str()));
            }
            Some(Value::Array(list)) => list.push(Value::from(value.as_str())),
            Some(first) => {
                let earlier = first.take();
                *first = Value::from(vec![earlier, Value::from(value.as_str())]);
            }
        }
    }
    values
}

/// The error an operation answered, in its own words when it gave them.
pub(super) fn error_of(status: StatusCode, body: &[u8]) -> ErrorBody {
    #[derive(Deserialize)]
    struct Said {
        message: String,
        #[serde(default)]
        title: Option<String>,
    }
    let code = |status: StatusCode| -> ErrorCode {
        match status {
            StatusCode::TOO_MANY_REQUESTS => Common::TooManyRequests.into(),
            StatusCode::PAYLOAD_TOO_LARGE => Code::PayloadTooLarge.into(),
            StatusCode::FORBIDDEN => Common::Forbidden.into(),
            s if s.is_server_error() => Common::InternalError.into(),
            _ => Common::InvalidRequest.into(),
        }
    };
    if let Ok(full) = serde_json::from_slice::<Value>(body) {
        if let (Some(c), Ok(said)) = (
            full.get("code")
                .and_then(|c| serde_json::from_value::<ErrorCode>(c.clone()).ok()),
            serde_json::from_value::<Said>(full.clone()),
        ) {
            return ErrorBody {
                code: c,
                message: said.message,
                title: said.title,
            };
        }
    }
    if status.is_server_error() {
        ErrorBody::internal()
    } else {
        ErrorBody::new(code(status), "Something went wrong. Please try again.")
    }
}

pub(super) fn refused(status: StatusCode, message: &str) -> Response {
    Response::builder()
        .status(status)
        .content_type("text/plain; charset=utf-8")
        .body(message.to_string())
}

pub(super) async fn read_capped(body: Body, max: usize) -> Option<Bytes> {
    use futures_util::StreamExt;
    let mut stream = body.into_bytes_stream();
    let mut all = bytes::BytesMut::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.ok()?;
        if all.len() + chunk.len() > max {
            return None;
        }
        all.extend_from_slice(&chunk);
    }
    Some(all.freeze())
}

/// A body reading the spooled form from its file (`None` when the file cannot be opened).
pub(super) async fn spooled_body(spooled: &Spooled) -> Option<Body> {
    let path = spooled.path()?;
    match tokio::fs::File::open(path).await {
        Ok(file) => Some(Body::from_async_read(file)),
        Err(e) => {
            tracing::error!(error = %e, "opening a spooled form failed");
            None
        }
    }
}

/// The text fields of a multipart body (files are the operation's business: they are read
/// past, never kept).
/// The text fields of a multipart form, and its attached files (part name, file name).
pub(super) async fn multipart_text(
    kind: &HeaderValue,
    body: Body,
) -> (Vec<(String, String)>, Vec<(String, String)>) {
    let req = Request::builder()
        .header(header::CONTENT_TYPE, kind.clone())
        .body(body);
    let (req, mut body) = req.split();
    let mut fields = Vec::new();
    let mut files = Vec::new();
    let mut form = match Multipart::from_request(&req, &mut body).await {
        Ok(form) => form,
        Err(e) => {
            tracing::warn!(error = %e, "a posted form's fields could not be read to show again");
            return (fields, files);
        }
    };
    loop {
        let part = match form.next_field().await {
            Ok(Some(part)) => part,
            Ok(None) => break,
            Err(e) => {
                tracing::warn!(
                    error = %e,
                    read = fields.len(),
                    "a posted form's fields could not all be read to show again"
                );
                break;
            }
        };
        if let Some(file_name) = part.file_name() {
            // An empty file input is sent with an empty file name: no file.
            if let (false, Some(name)) = (file_name.is_empty(), part.name()) {
                files.push((name.to_string(), file_name.to_string()));
            }
            continue;
        }
        let Some(name) = part.name().map(str::to_string) else {
            continue;
        };
        match upload::read_text(part, MAX_TEXT_FIELD_BYTES).await {
            Ok(text) => fields.push((name, text)),
            Err(e) => tracing::warn!(error = %e, field = %name, "a posted form field was not kept"),
        }
    }
    (fields, files)
}

/// Files a form came back without: the parts named in `reattach` (the page lists the files
/// attached before the form came back with an error) that are not attached now, unless the
/// sender chose to go on without them (`reattach_skip`).
pub(super) fn files_not_kept(posted: &Posted) -> Vec<(String, String)> {
    fn named<'a>(
        fields: &'a [(String, String)],
        key: &'a str,
    ) -> impl Iterator<Item = &'a str> + 'a {
        fields
            .iter()
            .filter(move |(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
    let mut missing: Vec<(String, String)> = Vec::new();
    for part in named(&posted.fields, "reattach") {
        let attached = posted.files.iter().any(|(name, _)| name == part);
        let skipped = named(&posted.fields, "reattach_skip").any(|s| s == part);
        if attached || skipped || missing.iter().any(|(p, _)| p == part) {
            continue;
        }
        let key = format!("attached_{part}");
        let file = named(&posted.fields, &key).next().unwrap_or(part);
        missing.push((part.to_string(), file.to_string()));
    }
    missing
}

/// The fields to show again when a form comes back: every file that was attached is named
/// (`reattach`, `attached_<part>`), so the page asks for it again instead of losing it.
pub(super) fn with_files(
    posted: &Posted,
    still_missing: &[(String, String)],
) -> Vec<(String, String)> {
    let mut fields: Vec<(String, String)> = posted
        .fields
        .iter()
        .filter(|(k, _)| k != "reattach" && k != "reattach_skip" && !k.starts_with("attached_"))
        .cloned()
        .collect();
    for (part, file) in posted.files.iter().chain(still_missing) {
        if fields.iter().any(|(k, v)| k == "reattach" && v == part) {
            continue;
        }
        fields.push(("reattach".into(), part.clone()));
        fields.push((format!("attached_{part}"), file.clone()));
    }
    fields
}
