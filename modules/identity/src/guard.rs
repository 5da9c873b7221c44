//! The staff guard every staff endpoint takes: a live session cookie, checked on the server.

use std::sync::Arc;

use poem::Request;
use poem_openapi::auth::ApiKey;
use poem_openapi::SecurityScheme;

use crate::model::{Role, StaffUser};
use crate::service::IdentityService;

pub const SESSION_COOKIE: &str = "agora_session";

/// A signed-in staff member (from the `agora_session` cookie). Requests without a live
/// session are answered 401 before the handler runs; 503 when the session cannot be checked.
#[derive(SecurityScheme)]
#[oai(
    ty = "api_key",
    key_name = "agora_session",
    key_in = "cookie",
    checker = "check_session"
)]
pub struct StaffSession(pub StaffUser);

/// The staff member of a live session; 401 without one, 503 when it cannot be checked.
async fn check_session(req: &Request, key: ApiKey) -> poem::Result<StaffUser> {
    let service = req
        .data::<Arc<IdentityService>>()
        .ok_or_else(kernel::http::unavailable)?;
    match service.authenticate(&key.key).await {
        Ok(Some(user)) => Ok(user),
        Ok(None) => Err(kernel::http::not_signed_in()),
        Err(e) => {
            tracing::error!(error = ?e, "session check failed");
            Err(kernel::http::unavailable())
        }
    }
}

impl StaffSession {
    pub fn user(&self) -> &StaffUser {
        &self.0
    }

    /// Whether this staff member may do `action`, by the rules of the module that owns it.
    pub fn may(&self, action: impl StaffAction) -> bool {
        action.permitted(self.0.role)
    }
}

/// Something staff do that a module guards. Each module lists its own in an enum and decides
/// who may, in one pure function of the role (tested as a table), not in its handlers.
pub trait StaffAction: Copy {
    fn permitted(self, role: Role) -> bool;

    /// The roles that may, in [`Role::ALL`]'s order (the rule as a table row).
    fn roles(self) -> Vec<Role> {
        Role::ALL
            .into_iter()
            .filter(|role| self.permitted(*role))
            .collect()
    }
}

/// The session cookie, marked `Secure` when the site is served over https.
pub fn cookie(secure: bool) -> kernel::http::SessionCookie {
    kernel::http::SessionCookie {
        name: SESSION_COOKIE,
        secure,
    }
}
