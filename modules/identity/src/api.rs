//! Sign-in, sign-out and who-am-I.

use crate::access::StaffListAction;
use crate::codes::Code;
use kernel::Common;
use std::sync::Arc;

use kernel::ErrorBody;
use poem::Request;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi, Tags};

use crate::guard::{cookie, StaffSession};
use crate::model::{StaffUser, Writer};
use crate::principal::Kind;
use crate::service::{IdentityError, IdentityService};

#[derive(Tags)]
enum ApiTags {
    /// Staff sign-in with an access key.
    Session,
}

/// Longest access key accepted (keys are much shorter; this only bounds the work).
const MAX_KEY_CHARS: usize = 200;

#[derive(Debug, Object)]
#[oai(deny_unknown_fields)]
pub struct LoginRequest {
    /// The access key issued to the staff member.
    pub access_key: kernel::text::Text<kernel::text::NotBlank<1, MAX_KEY_CHARS>>,
}

#[derive(ApiResponse)]
pub enum LoginResponse {
    /// Signed in; the session cookie is set.
    #[oai(status = 200)]
    Ok(Json<StaffUser>, #[oai(header = "Set-Cookie")] String),
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// No staff member has this key.
    #[oai(status = 401)]
    Invalid(Json<ErrorBody>),
    /// Too many failed attempts from this address.
    #[oai(status = 429)]
    Limited(Json<ErrorBody>, #[oai(header = "Retry-After")] u64),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

#[derive(ApiResponse)]
pub enum LogoutResponse {
    /// Signed out; the session is over and the cookie cleared.
    #[oai(status = 204)]
    Done(#[oai(header = "Set-Cookie")] String),
}

#[derive(ApiResponse)]
pub enum MeResponse {
    /// No live staff session (signed out, expired, or the user was disabled).
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    #[oai(status = 200)]
    Ok(Json<StaffUser>),
}

#[derive(ApiResponse)]
pub enum WritersResponse {
    /// No live staff session (signed out, expired, or the user was disabled).
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    #[oai(status = 200)]
    Ok(Json<Vec<Writer>>),
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

pub struct IdentityApi {
    service: Arc<IdentityService>,
    trust_proxy: bool,
}

impl IdentityApi {
    pub fn new(service: Arc<IdentityService>, trust_proxy: bool) -> Self {
        Self {
            service,
            trust_proxy,
        }
    }

    /// The client's address: the socket peer, or the last proxy hop when behind a proxy.
    fn client(&self, req: &Request) -> String {
        kernel::http::client_address(req, self.trust_proxy)
    }
}

pub fn forbidden() -> Json<ErrorBody> {
    Json(ErrorBody::new(
        Common::Forbidden,
        "Your role does not allow this.",
    ))
}

#[OpenApi(tag = "ApiTags::Session")]
impl IdentityApi {
    /// Sign in with an access key.
    #[oai(path = "/v1/session", method = "post", operation_id = "login")]
    async fn login(&self, req: &Request, body: Json<LoginRequest>) -> LoginResponse {
        let sent = &body.0.access_key;
        let key = sent.trim();
        if key.is_empty() || sent.chars().count() > MAX_KEY_CHARS {
            return LoginResponse::BadRequest(Json(ErrorBody::new(
                Code::InvalidKey,
                "Please enter your access key.",
            )));
        }
        match self.service.login(key, &self.client(req)).await {
            Ok((user, token)) => {
                let s = self.service.settings();
                LoginResponse::Ok(
                    Json(user),
                    cookie(Kind::Staff, s.secure_cookie).start(&token, s.staff_sessions.max),
                )
            }
            Err(IdentityError::InvalidKey) => LoginResponse::Invalid(Json(ErrorBody::new(
                Code::InvalidKey,
                "Invalid access key.",
            ))),
            Err(e @ IdentityError::RateLimited { retry_after }) => LoginResponse::Limited(
                Json(ErrorBody::new(Common::TooManyAttempts, e.to_string())),
                retry_after,
            ),
            Err(e) => {
                tracing::error!(error = ?e, "sign-in failed");
                LoginResponse::Internal(Json(ErrorBody::internal()))
            }
        }
    }

    /// Sign out: ends the session on the server.
    #[oai(path = "/v1/session", method = "delete", operation_id = "logout")]
    async fn logout(&self, req: &Request) -> LogoutResponse {
        let cookie = cookie(Kind::Staff, self.service.settings().secure_cookie);
        if let Some(token) = cookie.token(req) {
            if let Err(e) = self.service.logout(&token).await {
                tracing::error!(error = ?e, "sign-out failed");
            }
        }
        LogoutResponse::Done(cookie.end())
    }

    /// The signed-in staff member (restores the UI after a reload).
    #[oai(path = "/v1/me", method = "get", operation_id = "me")]
    async fn me(&self, auth: StaffSession) -> MeResponse {
        MeResponse::Ok(Json(auth.0))
    }

    /// Active writers, for the content director's author choice.
    #[oai(
        path = "/v1/staff/writers",
        method = "get",
        operation_id = "listWriters"
    )]
    async fn writers(&self, auth: StaffSession) -> WritersResponse {
        if !auth.may(StaffListAction::ListWriters) {
            return WritersResponse::Forbidden(forbidden());
        }
        match self.service.writers().await {
            Ok(w) => WritersResponse::Ok(Json(w)),
            Err(e) => {
                tracing::error!(error = ?e, "listing writers failed");
                WritersResponse::Internal(Json(ErrorBody::internal()))
            }
        }
    }
}
