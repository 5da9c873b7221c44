//! The reader guard the account endpoints take: a live reader session cookie (`agora_reader`),
//! checked on the server. Staff cookies are a different cookie over a different table.

use std::sync::Arc;

use poem::Request;
use poem_openapi::auth::ApiKey;
use poem_openapi::SecurityScheme;

use super::Readers;

pub const READER_COOKIE: &str = "agora_reader";

/// A signed-in reader: their account id, and the session's token (to keep this session when
/// the password changes). Requests without a live reader session are answered 401; 503 when
/// the session cannot be checked.
#[derive(SecurityScheme)]
#[oai(
    ty = "api_key",
    key_name = "agora_reader",
    key_in = "cookie",
    checker = "check_reader"
)]
pub struct ReaderSession(pub ReaderIdentity);

pub struct ReaderIdentity {
    pub account: String,
    pub token: String,
}

/// The account of a live reader session; 401 without one, 503 when it cannot be checked.
async fn check_reader(req: &Request, key: ApiKey) -> poem::Result<ReaderIdentity> {
    let readers = req
        .data::<Arc<Readers>>()
        .ok_or_else(kernel::http::unavailable)?;
    match readers.authenticate(&key.key).await {
        Ok(Some(account)) => Ok(ReaderIdentity {
            account,
            token: key.key,
        }),
        Ok(None) => Err(kernel::http::not_signed_in()),
        Err(e) => {
            tracing::error!(error = ?e, "reader session check failed");
            Err(kernel::http::unavailable())
        }
    }
}

/// The session cookie, marked `Secure` when the site is served over https.
pub fn cookie(secure: bool) -> kernel::http::SessionCookie {
    kernel::http::SessionCookie {
        name: READER_COOKIE,
        secure,
    }
}
