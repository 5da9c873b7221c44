//! The staff guard every staff endpoint takes: a live session cookie, checked on the server.

use std::sync::Arc;

use poem::Request;
use poem_openapi::auth::ApiKey;
use poem_openapi::SecurityScheme;

use crate::model::{Role, StaffUser};
use crate::service::IdentityService;

pub const SESSION_COOKIE: &str = "agora_session";

/// A signed-in staff member (from the `agora_session` cookie). Requests without a live
/// session are answered 401 before the handler runs.
#[derive(SecurityScheme)]
#[oai(
    ty = "api_key",
    key_name = "agora_session",
    key_in = "cookie",
    checker = "check_session"
)]
pub struct StaffSession(pub StaffUser);

async fn check_session(req: &Request, key: ApiKey) -> Option<StaffUser> {
    let service = req.data::<Arc<IdentityService>>()?;
    match service.authenticate(&key.key).await {
        Ok(user) => user,
        Err(e) => {
            tracing::error!(error = ?e, "session check failed");
            None
        }
    }
}

impl StaffSession {
    pub fn user(&self) -> &StaffUser {
        &self.0
    }

    pub fn has_role(&self, roles: &[Role]) -> bool {
        roles.contains(&self.0.role)
    }
}

/// The session cookie, marked `Secure` when the site is served over https.
pub fn cookie(secure: bool) -> kernel::http::SessionCookie {
    kernel::http::SessionCookie {
        name: SESSION_COOKIE,
        secure,
    }
}
