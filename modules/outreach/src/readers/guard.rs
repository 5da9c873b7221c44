//! The reader guard the account endpoints take: a live reader session cookie (`agora_reader`),
//! checked on the server. Staff cookies are a different cookie over a different table.

use std::sync::Arc;

use poem::Request;
use poem_openapi::auth::ApiKey;
use poem_openapi::SecurityScheme;

use super::Readers;

pub const READER_COOKIE: &str = "agora_reader";

/// A signed-in reader: their account id, and the session's token (to keep this session when
/// the password changes). Requests without a live reader session are answered 401.
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

async fn check_reader(req: &Request, key: ApiKey) -> Option<ReaderIdentity> {
    let readers = req.data::<Arc<Readers>>()?;
    match readers.authenticate(&key.key).await {
        Ok(Some(account)) => Some(ReaderIdentity {
            account,
            token: key.key,
        }),
        Ok(None) => None,
        Err(e) => {
            tracing::error!(error = ?e, "reader session check failed");
            None
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
