//! The account page's endpoints.

mod responses;

use std::sync::Arc;

use identity::readers::failure;
use identity::readers::Failure;
use identity::ReaderSession;
use poem_openapi::payload::Json;
use poem_openapi::{OpenApi, Tags};

use super::model::{AccountDeletion, PasswordChange, ProfileInput, Subscriptions};
use super::Readers;
use responses::{AccountResponse, ChangedResponse, DeletedResponse, ExportResponse};

#[derive(Tags)]
enum ApiTags {
    /// Reader accounts: sign-in, emailed links, the account page.
    Readers,
}

pub struct ReaderApi {
    readers: Arc<Readers>,
}

impl ReaderApi {
    pub fn new(readers: Arc<Readers>) -> Self {
        ReaderApi { readers }
    }
}

#[OpenApi(tag = "ApiTags::Readers")]
impl ReaderApi {
    /// The signed-in reader's account.
    #[oai(
        path = "/v1/reader/account",
        method = "get",
        operation_id = "getAccount"
    )]
    async fn account(&self, auth: ReaderSession) -> AccountResponse {
        match self.readers.account(&auth.0.account).await {
            Ok(a) => AccountResponse::Ok(Json(a)),
            Err(e) => failure(e).into(),
        }
    }

    /// Change name, country and interests.
    #[oai(
        path = "/v1/reader/account",
        method = "put",
        operation_id = "updateAccount"
    )]
    async fn update(&self, auth: ReaderSession, body: Json<ProfileInput>) -> AccountResponse {
        match self.readers.update_profile(&auth.0.account, body.0).await {
            Ok(a) => AccountResponse::Ok(Json(a)),
            Err(e) => failure(e).into(),
        }
    }

    /// Choose the emails to get: magazine launch, packs launch, weekly digest.
    #[oai(
        path = "/v1/reader/account/subscriptions",
        method = "put",
        operation_id = "setSubscriptions"
    )]
    async fn subscriptions(
        &self,
        auth: ReaderSession,
        body: Json<Subscriptions>,
    ) -> AccountResponse {
        match self
            .readers
            .set_subscriptions(&auth.0.account, body.0)
            .await
        {
            Ok(a) => AccountResponse::Ok(Json(a)),
            Err(e) => failure(e).into(),
        }
    }

    /// Change the password (the current one asked again); other sessions end.
    #[oai(
        path = "/v1/reader/account/password",
        method = "put",
        operation_id = "changePassword"
    )]
    async fn change_password(
        &self,
        auth: ReaderSession,
        body: Json<PasswordChange>,
    ) -> ChangedResponse {
        let b = body.0;
        match self
            .readers
            .auth()
            .change_password(
                &auth.0.account,
                &b.current_password,
                &b.password,
                &b.confirm_password,
                &auth.0.token,
            )
            .await
        {
            Ok(()) => ChangedResponse::Done,
            Err(e) => failure(e).into(),
        }
    }

    /// Download everything kept about the account (JSON).
    #[oai(
        path = "/v1/reader/account/export",
        method = "get",
        operation_id = "exportAccount"
    )]
    async fn export(&self, auth: ReaderSession) -> ExportResponse {
        let data = match self.readers.export(&auth.0.account).await {
            Ok(data) => data,
            Err(e) => {
                return match failure(e) {
                    Failure::NotSignedIn(b) => ExportResponse::NotSignedIn(b),
                    Failure::BadRequest(b)
                    | Failure::Unprocessable(b)
                    | Failure::LinkGone(b)
                    | Failure::Unconfirmed(b)
                    | Failure::Limited(b, _)
                    | Failure::Internal(b) => ExportResponse::Internal(b),
                }
            }
        };
        ExportResponse::Ok(
            Json(data),
            "attachment; filename=\"my-agora-account.json\"".into(),
        )
    }

    /// Delete the account (the password asked again): the profile, sessions, links and list
    /// entries are removed at once.
    #[oai(
        path = "/v1/reader/account",
        method = "delete",
        operation_id = "deleteAccount"
    )]
    async fn delete(&self, auth: ReaderSession, body: Json<AccountDeletion>) -> DeletedResponse {
        match self.readers.delete(&auth.0.account, &body.0.password).await {
            Ok(()) => DeletedResponse::Done(self.readers.auth().cookie().0.end()),
            Err(e) => failure(e).into(),
        }
    }
}
