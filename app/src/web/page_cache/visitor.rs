//! Who is asking, from the request's cookies: which copy of a page they get, or whether
//! they get one made for them alone.

use std::borrow::Cow;

use poem::http::{header, HeaderMap};

/// The cache key of a page for this request: a request with a reader's session cookie gets
/// the page every signed-in reader gets (its header offers "Account"), kept beside the
/// signed-out one under its own key.
pub(in crate::web) fn visitor_key(key: Cow<'_, str>, reader: bool) -> Cow<'_, str> {
    if reader {
        Cow::Owned(format!("{key}|reader"))
    } else {
        key
    }
}

/// The request carries a reader's session cookie (live or not: the page only offers the
/// account page, which checks).
pub(in crate::web) fn reader_cookie(headers: &HeaderMap) -> bool {
    cookie(headers, identity::READER_COOKIE).is_some()
}

/// Who is asking: a signed-in staff member, or someone whose form the page is answering,
/// gets a page made for them alone.
pub(in crate::web) fn signed_in(headers: &HeaderMap) -> bool {
    cookie(headers, identity::SESSION_COOKIE).is_some()
        || cookie(headers, crate::web::forms::ANSWER_COOKIE).is_some()
}

/// The value of the cookie `name` (the first one that is not empty), from every `Cookie`
/// header of the request.
pub(in crate::web) fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| c.split_once('='))
        .find(|(n, value)| n.trim() == name && !value.trim().is_empty())
        .map(|(_, value)| value.trim().to_string())
}
