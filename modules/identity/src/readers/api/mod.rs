//! Reader sign-in's endpoints: password, emailed links, reset, sign-out.

mod responses;

use std::sync::Arc;

use poem::Request;
use poem_openapi::payload::Json;
use poem_openapi::{OpenApi, Tags};

use super::model::{Done, LinkRequest, LinkToken, PasswordReset, ReaderSignIn, ReaderSignedIn};
use super::store::LinkPurpose;
use super::{checked_email, ReaderAuth, ReaderError, SignedIn};
pub use responses::{
    failure, Failure, LinkSentResponse, LinkUsedResponse, SignInResponse, SignOutResponse,
};

#[derive(Tags)]
enum ApiTags {
    /// Reader accounts: sign-in, emailed links, the account page.
    Readers,
}

/// What the "send me a link" forms answer, whether or not the address has an account.
pub const LINK_SENT: &str =
    "If an account exists for this address, we've emailed it a link. It works once and expires soon.";

pub struct ReaderSignInApi {
    readers: Arc<ReaderAuth>,
    trust_proxy: bool,
}

impl ReaderSignInApi {
    pub fn new(readers: Arc<ReaderAuth>, trust_proxy: bool) -> Self {
        ReaderSignInApi {
            readers,
            trust_proxy,
        }
    }

    fn cookie(&self, signed_in: &SignedIn) -> String {
        let (cookie, lasts) = self.readers.cookie();
        cookie.start(&signed_in.token, lasts)
    }

    fn signed_in(
        &self,
        r: Result<SignedIn, ReaderError>,
    ) -> Result<(Json<ReaderSignedIn>, String), Failure> {
        let signed_in = r.map_err(failure)?;
        let cookie = self.cookie(&signed_in);
        Ok((
            Json(ReaderSignedIn {
                first_name: signed_in.first_name,
            }),
            cookie,
        ))
    }

    /// Checks the address and the request budget, answers at once, and sends the link (if
    /// the address has an account) in the background: the answer and its timing say nothing
    /// about the address.
    async fn send_link(
        &self,
        req: &Request,
        purpose: LinkPurpose,
        email: &str,
    ) -> LinkSentResponse {
        let email = match checked_email(email) {
            Ok(email) => email,
            Err(e) => return failure(e).into(),
        };
        let client = kernel::http::client_address(req, self.trust_proxy);
        if let Err(e) = self.readers.admit_link_request(&client).await {
            return failure(e).into();
        }
        let readers = self.readers.clone();
        tokio::spawn(async move {
            if let Err(e) = readers.send_link(purpose, &email).await {
                tracing::error!(error = ?e, "sending an account link failed");
            }
        });
        LinkSentResponse::Ok(Json(Done {
            message: LINK_SENT.into(),
        }))
    }
}

#[OpenApi(tag = "ApiTags::Readers")]
impl ReaderSignInApi {
    /// Sign in as a reader with email and password.
    #[oai(
        path = "/v1/reader/session",
        method = "post",
        operation_id = "readerSignIn"
    )]
    async fn sign_in(&self, req: &Request, body: Json<ReaderSignIn>) -> SignInResponse {
        let client = kernel::http::client_address(req, self.trust_proxy);
        let r = self
            .readers
            .sign_in(&body.0.email, &body.0.password, &client)
            .await;
        match self.signed_in(r) {
            Ok((who, cookie)) => SignInResponse::Ok(who, cookie),
            Err(f) => f.into(),
        }
    }

    /// Sign out: ends the reader session on the server.
    #[oai(
        path = "/v1/reader/session",
        method = "delete",
        operation_id = "readerSignOut"
    )]
    async fn sign_out(&self, req: &Request) -> SignOutResponse {
        let (cookie, _) = self.readers.cookie();
        if let Some(token) = cookie.token(req) {
            if let Err(e) = self.readers.sign_out(&token).await {
                tracing::error!(error = ?e, "reader sign-out failed");
            }
        }
        SignOutResponse::Done(cookie.end())
    }

    /// Email me a one-time sign-in link.
    #[oai(
        path = "/v1/reader/sign-in-link",
        method = "post",
        operation_id = "requestSignInLink"
    )]
    async fn request_sign_in_link(
        &self,
        req: &Request,
        body: Json<LinkRequest>,
    ) -> LinkSentResponse {
        self.send_link(req, LinkPurpose::SignIn, &body.0.email)
            .await
    }

    /// Sign in with the emailed link's token (once). Using it also confirms the address.
    #[oai(
        path = "/v1/reader/sign-in-link/use",
        method = "post",
        operation_id = "useSignInLink"
    )]
    async fn use_sign_in_link(&self, body: Json<LinkToken>) -> LinkUsedResponse {
        match self.signed_in(self.readers.use_sign_in_link(&body.0.token).await) {
            Ok((who, cookie)) => LinkUsedResponse::Ok(who, cookie),
            Err(f) => f.into(),
        }
    }

    /// Email me a password reset link.
    #[oai(
        path = "/v1/reader/password-reset",
        method = "post",
        operation_id = "requestPasswordReset"
    )]
    async fn request_reset(&self, req: &Request, body: Json<LinkRequest>) -> LinkSentResponse {
        self.send_link(req, LinkPurpose::Reset, &body.0.email).await
    }

    /// Set a new password with the emailed reset link's token (once); other sessions end and
    /// the reader is signed in.
    #[oai(
        path = "/v1/reader/password-reset/use",
        method = "post",
        operation_id = "resetPassword"
    )]
    async fn reset(&self, body: Json<PasswordReset>) -> LinkUsedResponse {
        let b = body.0;
        let r = self
            .readers
            .reset_password(&b.token, &b.password, &b.confirm_password)
            .await;
        match self.signed_in(r) {
            Ok((who, cookie)) => LinkUsedResponse::Ok(who, cookie),
            Err(f) => f.into(),
        }
    }
}
