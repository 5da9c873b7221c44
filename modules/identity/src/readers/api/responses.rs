//! What the reader endpoints answer: a failure mapped to the statuses each operation declares
//! (here and on outreach's account page), and the response of each sign-in operation.

use kernel::Common;
use kernel::{ErrorBody, ErrorCode};
use poem_openapi::payload::Json;
use poem_openapi::ApiResponse;

use crate::codes::Code;
use crate::readers::model::{Done, ReaderSignedIn};
use crate::readers::ReaderError;

/// How a failure is answered, before each operation picks the statuses it declares.
pub enum Failure {
    BadRequest(Json<ErrorBody>),
    /// Fields that each pass their rules but disagree (the password typed twice), or a
    /// password that is not the account's: 422.
    Unprocessable(Json<ErrorBody>),
    /// A link that is used, expired or not one we sent: 410.
    LinkGone(Json<ErrorBody>),
    NotSignedIn(Json<ErrorBody>),
    Unconfirmed(Json<ErrorBody>),
    Limited(Json<ErrorBody>, u64),
    Internal(Json<ErrorBody>),
}

pub fn failure(e: ReaderError) -> Failure {
    let body = |code: ErrorCode| Json(ErrorBody::new(code, e.to_string()));
    match &e {
        ReaderError::Invalid { code, message } => {
            let body = Json(ErrorBody::new(*code, message.clone()));
            match code.refusal() {
                kernel::Refusal::Unprocessable => Failure::Unprocessable(body),
                kernel::Refusal::Invalid | kernel::Refusal::Unsupported => {
                    Failure::BadRequest(body)
                }
            }
        }
        ReaderError::LinkInvalid => Failure::LinkGone(body(Code::LinkExpired.into())),
        ReaderError::WrongPassword => Failure::Unprocessable(body(Code::WrongPassword.into())),
        ReaderError::InvalidCredentials => {
            Failure::NotSignedIn(body(Code::InvalidCredentials.into()))
        }
        ReaderError::Gone => Failure::NotSignedIn(body(Common::NotSignedIn.into())),
        ReaderError::Unconfirmed => Failure::Unconfirmed(body(Code::AccountUnconfirmed.into())),
        ReaderError::RateLimited { retry_after } => {
            Failure::Limited(body(Common::TooManyAttempts.into()), *retry_after)
        }
        ReaderError::Hashing(_) | ReaderError::Unexpected(_) => {
            tracing::error!(error = ?e, "reader request failed");
            Failure::Internal(Json(ErrorBody::internal()))
        }
    }
}

/// `impl From<Failure>` for a response enum: which of its variants answers each failure
/// (`limited = V retry` for a variant that sends `Retry-After`; without `retry`, the variant
/// takes the body alone).
#[macro_export]
macro_rules! answers_failures {
    ($ty:ident: bad = $bad:ident, unprocessable = $unp:ident, gone = $gone:ident, signed_out = $out:ident, unconfirmed = $unc:ident, limited = $lim:ident retry) => {
        $crate::answers_failures!(@impl $ty, $bad, $unp, $gone, $out, $unc, |b, after| $ty::$lim(b, after));
    };
    ($ty:ident: bad = $bad:ident, unprocessable = $unp:ident, gone = $gone:ident, signed_out = $out:ident, unconfirmed = $unc:ident, limited = $lim:ident) => {
        $crate::answers_failures!(@impl $ty, $bad, $unp, $gone, $out, $unc, |b, _after| $ty::$lim(b));
    };
    (@impl $ty:ident, $bad:ident, $unp:ident, $gone:ident, $out:ident, $unc:ident, $limited:expr) => {
        impl From<$crate::readers::api::Failure> for $ty {
            fn from(f: $crate::readers::api::Failure) -> Self {
                use $crate::readers::api::Failure;
                match f {
                    Failure::BadRequest(b) => $ty::$bad(b),
                    Failure::Unprocessable(b) => $ty::$unp(b),
                    Failure::LinkGone(b) => $ty::$gone(b),
                    Failure::NotSignedIn(b) => $ty::$out(b),
                    Failure::Unconfirmed(b) => $ty::$unc(b),
                    Failure::Limited(b, after) => $limited(b, after),
                    Failure::Internal(b) => $ty::Internal(b),
                }
            }
        }
    };
}

#[derive(ApiResponse)]
pub enum SignInResponse {
    /// Signed in; the reader session cookie is set.
    #[oai(status = 200)]
    Ok(Json<ReaderSignedIn>, #[oai(header = "Set-Cookie")] String),
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// Wrong email or password (the same answer for an address without an account).
    #[oai(status = 401)]
    Invalid(Json<ErrorBody>),
    /// The password is right but the address is not confirmed yet.
    #[oai(status = 403)]
    Unconfirmed(Json<ErrorBody>),
    /// Too many failed attempts from this address or for this account.
    #[oai(status = 429)]
    Limited(Json<ErrorBody>, #[oai(header = "Retry-After")] u64),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}
crate::answers_failures!(SignInResponse: bad = BadRequest, unprocessable = BadRequest, gone = BadRequest, signed_out = Invalid, unconfirmed = Unconfirmed, limited = Limited retry);

#[derive(ApiResponse)]
pub enum LinkSentResponse {
    /// The same answer whether or not the address has an account.
    #[oai(status = 200)]
    Ok(Json<Done>),
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    #[oai(status = 429)]
    Limited(Json<ErrorBody>, #[oai(header = "Retry-After")] u64),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}
crate::answers_failures!(LinkSentResponse: bad = BadRequest, unprocessable = BadRequest, gone = BadRequest, signed_out = BadRequest, unconfirmed = BadRequest, limited = Limited retry);

#[derive(ApiResponse)]
pub enum LinkUsedResponse {
    /// The link worked; the reader is signed in.
    #[oai(status = 200)]
    Ok(Json<ReaderSignedIn>, #[oai(header = "Set-Cookie")] String),
    /// The new password breaks a rule.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// The new password was not typed twice alike (`password_mismatch`).
    #[oai(status = 422)]
    Unprocessable(Json<ErrorBody>),
    /// The link is used, expired or not one we sent (`link_expired`).
    #[oai(status = 410)]
    Gone(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

crate::answers_failures!(LinkUsedResponse: bad = BadRequest, unprocessable = Unprocessable, gone = Gone, signed_out = BadRequest, unconfirmed = BadRequest, limited = Internal);

#[derive(ApiResponse)]
pub enum SignOutResponse {
    /// Signed out; the session is over and the cookie cleared.
    #[oai(status = 204)]
    Done(#[oai(header = "Set-Cookie")] String),
}
