//! Control characters are refused at the edge, the same way on both engines: PostgreSQL text
//! cannot hold a NUL byte, and no address or form field of this site has a use for one.
//! - an address (path or query, once percent-decoded) with a C0 control character or DEL;
//! - a JSON, form or text body carrying NUL (raw, `\u0000` in JSON, `%00` in a form).
//!
//! Multipart forms are checked field by field by the modules that read them.

use kernel::Common;
use kernel::ErrorBody;
use poem::http::{header, StatusCode};
use poem::web::Json;
use poem::{Body, Endpoint, IntoResponse, Request, Response, Result};

const CODE: Common = Common::InvalidCharacters;
const IN_ADDRESS: &str =
    "The address contains control characters (such as NUL), which are not allowed.";
const IN_BODY: &str = "The request contains a NUL character, which is not allowed in text.";

fn has_control(bytes: impl IntoIterator<Item = u8>) -> bool {
    bytes.into_iter().any(|b| b < 0x20 || b == 0x7f)
}

/// Whether the percent-decoded path or query holds a control character.
pub fn address_has_control(path: &str, query: Option<&str>) -> bool {
    // Decoded byte by byte, without a copy: this runs on every request.
    fn decoded(s: &str) -> percent_encoding::PercentDecode<'_> {
        percent_encoding::percent_decode(s.as_bytes())
    }
    has_control(decoded(path)) || query.is_some_and(|q| has_control(decoded(q)))
}

/// Whether a JSON text holds NUL, raw or escaped (`\u0000`); escapes are read in order, so
/// `\\u0000` (a backslash, then the letters) is not mistaken for one.
fn json_has_nul(body: &[u8]) -> bool {
    let mut i = 0;
    while i < body.len() {
        match body[i] {
            0 => return true,
            b'\\' => {
                if body.get(i + 1) == Some(&b'u') && body.get(i + 2..i + 6) == Some(b"0000") {
                    return true;
                }
                i += 2;
            }
            _ => i += 1,
        }
    }
    false
}

fn form_has_nul(body: &[u8]) -> bool {
    form_urlencoded::parse(body).any(|(k, v)| k.contains('\0') || v.contains('\0'))
}

fn bad_request(message: &'static str, api: bool) -> Response {
    if api {
        (StatusCode::BAD_REQUEST, Json(ErrorBody::new(CODE, message))).into_response()
    } else {
        Response::builder()
            .status(StatusCode::BAD_REQUEST)
            .content_type("text/plain; charset=utf-8")
            .body(message)
    }
}

/// Every route: refuses addresses with control characters.
pub async fn clean_address<E: Endpoint>(next: E, req: Request) -> Result<Response> {
    let uri = req.original_uri();
    if address_has_control(uri.path(), uri.query()) {
        let api = uri.path().starts_with("/api/");
        return Ok(bad_request(IN_ADDRESS, api));
    }
    next.call(req).await.map(IntoResponse::into_response)
}

/// API routes (inside the body cap): refuses text bodies that carry NUL.
pub async fn clean_body<E: Endpoint>(next: E, mut req: Request) -> Result<Response> {
    let kind = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.to_ascii_lowercase())
        .unwrap_or_default();
    let json = kind.starts_with("application/json") || kind.contains("+json");
    let form = kind.starts_with("application/x-www-form-urlencoded");
    let text = kind.starts_with("text/");
    if !(json || form || text) {
        return next.call(req).await.map(IntoResponse::into_response);
    }
    let body = req.take_body().into_bytes().await?;
    let nul = if json {
        json_has_nul(&body)
    } else if form {
        form_has_nul(&body)
    } else {
        body.contains(&0)
    };
    if nul {
        return Ok(bad_request(IN_BODY, true));
    }
    req.set_body(Body::from(body));
    next.call(req).await.map(IntoResponse::into_response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_with_control_characters_are_spotted() {
        assert!(address_has_control("/api/v1/articles/a%00b", None));
        assert!(address_has_control("/articles", Some("q=a%00b")));
        assert!(address_has_control("/articles", Some("q=a%0Ab")));
        assert!(address_has_control("/articles", Some("q=%7F")));
        assert!(!address_has_control("/articles", Some("q=caf%C3%A9+50%25")));
        assert!(!address_has_control("/article/vote-at-16", None));
    }

    #[test]
    fn nul_in_json_is_found_raw_or_escaped_but_not_in_an_escaped_backslash() {
        assert!(json_has_nul(br#"{"name":"a\u0000b"}"#));
        assert!(json_has_nul(b"{\"name\":\"a\0b\"}"));
        assert!(!json_has_nul(br#"{"name":"a\\u0000b"}"#));
        assert!(json_has_nul(br#"{"name":"a\\\u0000b"}"#));
        assert!(!json_has_nul(br#"{"name":"\u00e9 \n \"quoted\""}"#));
        assert!(!json_has_nul(br#"{"name":"ends with a backslash\\"}"#));
    }

    #[test]
    fn nul_in_a_form_is_found_once_decoded() {
        assert!(form_has_nul(b"name=a%00b"));
        assert!(form_has_nul(b"a%00=b"));
        assert!(!form_has_nul(b"name=a%2500b"));
    }
}
