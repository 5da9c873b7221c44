//! What the account page's endpoints answer (failures mapped as identity's reader endpoints
//! map them).

use identity::answers_failures;
use kernel::ErrorBody;
use poem_openapi::payload::Json;
use poem_openapi::ApiResponse;

use crate::readers::model::Account;

#[derive(ApiResponse)]
pub enum AccountResponse {
    #[oai(status = 200)]
    Ok(Json<Account>),
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// No live reader session.
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

answers_failures!(AccountResponse: bad = BadRequest, unprocessable = BadRequest, gone = BadRequest, signed_out = NotSignedIn, unconfirmed = NotSignedIn, limited = Internal);

#[derive(ApiResponse)]
pub enum ChangedResponse {
    /// Done; other sessions of the account have ended.
    #[oai(status = 204)]
    Done,
    /// The new password breaks a rule.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// The current password is not right (`wrong_password`), or the new one was not typed
    /// twice alike (`password_mismatch`).
    #[oai(status = 422)]
    Unprocessable(Json<ErrorBody>),
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

answers_failures!(ChangedResponse: bad = BadRequest, unprocessable = Unprocessable, gone = BadRequest, signed_out = NotSignedIn, unconfirmed = NotSignedIn, limited = Internal);

#[derive(ApiResponse)]
pub enum DeletedResponse {
    /// The account and everything kept about it are gone; the cookie is cleared.
    #[oai(status = 204)]
    Done(#[oai(header = "Set-Cookie")] String),
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// The password is not right (`wrong_password`).
    #[oai(status = 422)]
    Unprocessable(Json<ErrorBody>),
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

answers_failures!(DeletedResponse: bad = BadRequest, unprocessable = Unprocessable, gone = BadRequest, signed_out = NotSignedIn, unconfirmed = NotSignedIn, limited = Internal);

#[derive(ApiResponse)]
pub enum ExportResponse {
    /// Everything kept about the account, as a JSON file to save.
    #[oai(status = 200)]
    Ok(
        Json<serde_json::Value>,
        #[oai(header = "Content-Disposition")] String,
    ),
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}
