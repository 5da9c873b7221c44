//! The one guard every signed-in endpoint takes: a live session cookie of the principal's
//! kind, checked on the server, yielding the typed principal. Staff and readers have a cookie
//! each (`agora_session`, `agora_reader`) over a sessions table each.

use std::sync::Arc;

use async_trait::async_trait;
use poem::Request;
use poem_openapi::auth::ApiKey;
use poem_openapi::SecurityScheme;

use crate::model::{Role, StaffUser};
use crate::principal::{Kind, Reader};
use crate::service::{IdentityError, IdentityService};

pub const SESSION_COOKIE: &str = "agora_session";
pub const READER_COOKIE: &str = "agora_reader";

/// A kind of principal a session can yield.
#[async_trait]
pub trait Principal: Sized + Send {
    const KIND: Kind;

    /// The principal of a live session token of this kind.
    async fn of_session(
        identity: &IdentityService,
        token: &str,
    ) -> Result<Option<Self>, IdentityError>;
}

#[async_trait]
impl Principal for StaffUser {
    const KIND: Kind = Kind::Staff;

    async fn of_session(
        identity: &IdentityService,
        token: &str,
    ) -> Result<Option<Self>, IdentityError> {
        identity.staff_of(token).await
    }
}

#[async_trait]
impl Principal for Reader {
    const KIND: Kind = Kind::Reader;

    async fn of_session(
        identity: &IdentityService,
        token: &str,
    ) -> Result<Option<Self>, IdentityError> {
        identity.reader_of(token).await
    }
}

/// The principal of a live session of kind `P`; 401 without one, 503 when the session cannot
/// be checked.
async fn check<P: Principal>(req: &Request, key: ApiKey) -> poem::Result<P> {
    let identity = req
        .data::<Arc<IdentityService>>()
        .ok_or_else(kernel::http::unavailable)?;
    match P::of_session(identity, &key.key).await {
        Ok(Some(principal)) => Ok(principal),
        Ok(None) => Err(kernel::http::not_signed_in()),
        Err(e) => {
            tracing::error!(error = ?e, kind = ?P::KIND, "session check failed");
            Err(kernel::http::unavailable())
        }
    }
}

async fn check_staff(req: &Request, key: ApiKey) -> poem::Result<StaffUser> {
    check(req, key).await
}

async fn check_reader(req: &Request, key: ApiKey) -> poem::Result<Reader> {
    check(req, key).await
}

/// A signed-in staff member (from the `agora_session` cookie). Requests without a live
/// session are answered 401 before the handler runs; 503 when the session cannot be checked.
#[derive(SecurityScheme)]
#[oai(
    ty = "api_key",
    key_name = "agora_session",
    key_in = "cookie",
    checker = "check_staff"
)]
pub struct StaffSession(pub StaffUser);

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
pub struct ReaderSession(pub Reader);

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

/// The session cookie of `kind`, marked `Secure` when the site is served over https.
pub fn cookie(kind: Kind, secure: bool) -> kernel::http::SessionCookie {
    kernel::http::SessionCookie {
        name: kind.cookie_name(),
        secure,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_has_its_own_cookie() {
        assert_eq!(Kind::Staff.cookie_name(), SESSION_COOKIE);
        assert_eq!(Kind::Reader.cookie_name(), READER_COOKIE);
        assert_ne!(SESSION_COOKIE, READER_COOKIE);
    }
}
