//! What the outreach endpoints answer: each operation's statuses, the messages people read,
//! and the small pages links from emails land on.

use kernel::Common;
use kernel::ErrorBody;
use poem_openapi::payload::{Html, Json};
use poem_openapi::ApiResponse;

use crate::model::{Accepted, ApplicationAccepted};
use crate::service::OutreachError;

#[derive(ApiResponse)]
pub enum FormResponse {
    #[oai(status = 200)]
    Ok(Json<Accepted>),
    /// A field is missing or invalid; `title` and `message` are the product's wording.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// Fields that each pass their rules but disagree: the password typed twice
    /// (`password_mismatch`).
    #[oai(status = 422)]
    Unprocessable(Json<ErrorBody>),
    /// The link's token is not one we sent (`not_found`, with the product's wording).
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    /// Too many submissions from this address; try again after `Retry-After` seconds.
    #[oai(status = 429)]
    TooMany(Json<ErrorBody>, #[oai(header = "Retry-After")] u64),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

#[derive(ApiResponse)]
pub enum ApplicationResponse {
    #[oai(status = 201)]
    Created(Json<ApplicationAccepted>),
    /// A field is missing or breaks its rule; `title` and `message` are the product's wording.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// Fields that disagree: a portfolio or writing samples the chosen roles need
    /// (`portfolio_required`, `writing_samples_required`), a link and a file for the same
    /// thing (`link_or_file`); or an empty file (`empty_file`).
    #[oai(status = 422)]
    Unprocessable(Json<ErrorBody>),
    /// A file is not a PDF, DOC or DOCX, judged by its bytes (`unsupported_file`).
    #[oai(status = 415)]
    Unsupported(Json<ErrorBody>),
    /// A file is over 10 MB.
    #[oai(status = 413)]
    TooLarge(Json<ErrorBody>),
    /// Too many submissions from this address; try again after `Retry-After` seconds.
    #[oai(status = 429)]
    TooMany(Json<ErrorBody>, #[oai(header = "Retry-After")] u64),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

#[derive(ApiResponse)]
pub enum ConfirmResponse {
    /// The account is confirmed (now, or by an earlier use of the link).
    #[oai(status = 200)]
    Ok(Html<String>),
    /// The link is not one we sent.
    #[oai(status = 404)]
    Unknown(Html<String>),
    /// The link has expired.
    #[oai(status = 410)]
    Expired(Html<String>),
    /// The account could not be looked up just now: try the link again in a moment.
    #[oai(status = 503)]
    Unavailable(Html<String>, #[oai(header = "Retry-After")] u64),
}

#[derive(ApiResponse)]
pub enum UnsubscribeResponse {
    #[oai(status = 200)]
    Ok(Html<String>),
    /// To the page that asks for one press.
    #[oai(status = 303)]
    SeeOther(#[oai(header = "Location")] String),
    /// The link is unknown.
    #[oai(status = 404)]
    NotFound(Html<String>),
    /// The list could not be reached just now: try again in a moment.
    #[oai(status = 503)]
    Unavailable(Html<String>, #[oai(header = "Retry-After")] u64),
}

/// A small standalone page for links followed from emails.
pub(super) fn page(heading: &str, text: &str, link: (&str, &str)) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex\"><title>{heading}</title></head>\
         <body style=\"font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem\">\
         <main><h1>{heading}</h1><p>{text}</p><p><a href=\"{}\">{}</a></p></main></body></html>",
        link.0, link.1
    )
}

pub(crate) fn limited(retry_after: u64) -> (Json<ErrorBody>, u64) {
    let minutes = retry_after.div_ceil(60).max(1);
    let unit = if minutes == 1 { "minute" } else { "minutes" };
    (
        Json(ErrorBody::titled(
            Common::TooManyRequests,
            "Too Many Requests",
            format!(
                "You've sent this form many times in a short while. Please try again in {minutes} {unit}."
            ),
        )),
        retry_after,
    )
}

pub(super) fn answer(r: Result<(), OutreachError>, ok: &str) -> FormResponse {
    match r {
        Ok(()) => FormResponse::Ok(Json(Accepted {
            message: ok.to_string(),
        })),
        Err(OutreachError::Invalid {
            code,
            title,
            message,
        }) if code == Common::NotFound => {
            FormResponse::NotFound(Json(ErrorBody::titled(Common::NotFound, title, message)))
        }
        Err(OutreachError::Invalid {
            code,
            title,
            message,
        }) => {
            let body = Json(ErrorBody::titled(code, title, message));
            match code.refusal() {
                kernel::Refusal::Unprocessable => FormResponse::Unprocessable(body),
                kernel::Refusal::Invalid | kernel::Refusal::Unsupported => {
                    FormResponse::BadRequest(body)
                }
            }
        }
        Err(OutreachError::RateLimited { retry_after }) => {
            let (body, after) = limited(retry_after);
            FormResponse::TooMany(body, after)
        }
        Err(e) => {
            tracing::error!(error = ?e, "outreach request failed");
            FormResponse::Internal(Json(ErrorBody::titled(
                Common::InternalError,
                "Error",
                "Something went wrong. Please try again.",
            )))
        }
    }
}

pub(super) fn application_answer(r: Result<u32, OutreachError>) -> ApplicationResponse {
    match r {
        Ok(attachments) => ApplicationResponse::Created(Json(ApplicationAccepted {
            message:
                "Thank you for your interest. We'll review your application and contact you soon."
                    .to_string(),
            attachments,
        })),
        Err(OutreachError::Invalid {
            code,
            title,
            message,
        }) => {
            let body = Json(ErrorBody::titled(code, title, message));
            match code.refusal() {
                kernel::Refusal::Invalid => ApplicationResponse::BadRequest(body),
                kernel::Refusal::Unprocessable => ApplicationResponse::Unprocessable(body),
                kernel::Refusal::Unsupported => ApplicationResponse::Unsupported(body),
            }
        }
        Err(OutreachError::TooLarge { title, message }) => ApplicationResponse::TooLarge(Json(
            ErrorBody::titled(Common::FileTooLarge, title, message),
        )),
        Err(OutreachError::RateLimited { retry_after }) => {
            let (body, after) = limited(retry_after);
            ApplicationResponse::TooMany(body, after)
        }
        Err(e) => {
            tracing::error!(error = ?e, "application failed");
            ApplicationResponse::Internal(Json(ErrorBody::titled(
                Common::InternalError,
                "Unexpected Error",
                "An unexpected error occurred. Please try again later.",
            )))
        }
    }
}
