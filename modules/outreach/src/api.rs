//! Public outreach endpoints: notify-me, unsubscribe, contact.

use std::sync::Arc;

use kernel::ErrorBody;
use poem::Request;
use poem_openapi::param::Query;
use poem_openapi::payload::{Html, Json};
use poem_openapi::{ApiResponse, OpenApi, Tags};

use kernel::upload::{read_text, spool, MultipartStream, PartError};

use crate::application::{ApplicationInput, IncomingFile};
use crate::files::MAX_DOCUMENT_BYTES;
use crate::model::{
    Accepted, ApplicationAccepted, ApplicationForm, ContactInput, NotifyInput, RegistrationInput,
};
use crate::service::{Form, OutreachError, OutreachService};
use crate::store::Confirmation;

#[derive(Tags)]
enum ApiTags {
    /// What visitors send the team.
    Outreach,
}

#[derive(ApiResponse)]
pub enum FormResponse {
    #[oai(status = 200)]
    Ok(Json<Accepted>),
    /// A field is missing or invalid; `title` and `message` are the product's wording.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
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
    /// A field is missing or invalid, or a file is not a PDF/DOC/DOCX; `title` and `message`
    /// are the product's wording.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
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
    /// The link is unknown or has expired.
    #[oai(status = 400)]
    Invalid(Html<String>),
}

#[derive(ApiResponse)]
pub enum UnsubscribeResponse {
    #[oai(status = 200)]
    Ok(Html<String>),
    /// The link is unknown.
    #[oai(status = 404)]
    NotFound(Html<String>),
}

pub struct OutreachApi {
    service: Arc<OutreachService>,
    trust_proxy: bool,
}

/// A small standalone page for links followed from emails.
fn page(heading: &str, text: &str, link: (&str, &str)) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex\"><title>{heading}</title></head>\
         <body style=\"font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem\">\
         <main><h1>{heading}</h1><p>{text}</p><p><a href=\"{}\">{}</a></p></main></body></html>",
        link.0, link.1
    )
}

const HOME: (&str, &str) = ("/", "Back to Home");

fn limited(retry_after: u64) -> (Json<ErrorBody>, u64) {
    let minutes = retry_after.div_ceil(60).max(1);
    let unit = if minutes == 1 { "minute" } else { "minutes" };
    (
        Json(ErrorBody::titled(
            "too_many_requests",
            "Too Many Requests",
            format!(
                "You've sent this form many times in a short while. Please try again in {minutes} {unit}."
            ),
        )),
        retry_after,
    )
}

/// Longest text kept from one multipart text field; no valid answer comes near it (the longest
/// allowed is 5,000 characters), so a longer one is still refused by its length rule.
const MAX_TEXT_FIELD_BYTES: usize = 32 * 1024;
/// Longest role id kept (longer ones are unknown either way).
const MAX_ROLE_BYTES: usize = 256;
/// Role parts kept (more than there are roles is refused by the roles rule).
const MAX_ROLE_PARTS: usize = 64;

fn part_error(e: PartError) -> ApplicationResponse {
    match e {
        PartError::Nul => ApplicationResponse::BadRequest(Json(ErrorBody::new(
            kernel::upload::NUL_CODE,
            kernel::upload::NUL_MESSAGE,
        ))),
        e @ PartError::Malformed(_) => {
            ApplicationResponse::BadRequest(Json(ErrorBody::new("invalid_request", e.to_string())))
        }
        PartError::Io(e) => application_answer(Err(OutreachError::Storage(e))),
    }
}

/// Reads the application part by part: text fields capped, files spooled to temporary files
/// as they arrive (over 10 MB, nothing of a file is kept). Returns the input and whether the
/// honeypot was filled.
async fn read_application(
    form: &mut MultipartStream<ApplicationForm>,
) -> Result<(ApplicationInput, bool), PartError> {
    let mut input = ApplicationInput::default();
    let mut website = String::new();
    let mut seen: Vec<String> = Vec::new();
    while let Some(field) = form.next_field().await? {
        let Some(name) = field.name().map(str::to_string) else {
            continue;
        };
        if name == "roles" {
            let role = read_text(field, MAX_ROLE_BYTES).await?;
            if input.roles.len() < MAX_ROLE_PARTS {
                input.roles.push(role);
            }
            continue;
        }
        let file_slot = match name.as_str() {
            "cv_file" => Some(&mut input.cv_file),
            "portfolio_file" => Some(&mut input.portfolio_file),
            "writing_samples_file" => Some(&mut input.writing_samples_file),
            "research_samples_file" => Some(&mut input.research_samples_file),
            _ => None,
        };
        let text_slot = match name.as_str() {
            "full_name" => Some(&mut input.full_name),
            "age" => Some(&mut input.age),
            "country" => Some(&mut input.country),
            "email" => Some(&mut input.email),
            "time_zone" => Some(&mut input.time_zone),
            "weekly_availability" => Some(&mut input.weekly_availability),
            "english_level" => Some(&mut input.english_level),
            "how_did_you_hear" => Some(&mut input.how_did_you_hear),
            "previous_experience" => Some(&mut input.previous_experience),
            "portfolio" => Some(&mut input.portfolio),
            "writing_samples" => Some(&mut input.writing_samples),
            "research_samples" => Some(&mut input.research_samples),
            "why_join" => Some(&mut input.why_join),
            "contribution" => Some(&mut input.contribution),
            "additional" => Some(&mut input.additional),
            "website" => Some(&mut website),
            _ => None,
        };
        if file_slot.is_none() && text_slot.is_none() {
            // Not a field of the form: skipped unread.
            continue;
        }
        if seen.contains(&name) {
            return Err(PartError::form(format!(
                "failed to parse field `{name}`: repeated field"
            )));
        }
        seen.push(name);
        if let Some(slot) = file_slot {
            let upload = spool(field, MAX_DOCUMENT_BYTES as u64).await?;
            let file_name = upload.file_name().unwrap_or_default().to_string();
            // An empty file input sent by some browsers is no file.
            if !(file_name.is_empty() && upload.size() == 0) {
                *slot = Some(IncomingFile {
                    name: file_name,
                    upload,
                });
            }
        } else if let Some(slot) = text_slot {
            *slot = read_text(field, MAX_TEXT_FIELD_BYTES).await?;
        }
    }
    Ok((input, !website.is_empty()))
}

impl OutreachApi {
    pub fn new(service: Arc<OutreachService>, trust_proxy: bool) -> Self {
        Self {
            service,
            trust_proxy,
        }
    }

    async fn admit(&self, form: Form, req: &Request) -> Result<(), OutreachError> {
        let client = kernel::http::client_address(req, self.trust_proxy);
        self.service.admit(form, &client).await
    }

    async fn unsubscribe_page(&self, token: &str) -> UnsubscribeResponse {
        let page = |heading: &str, text: &str| page(heading, text, HOME);
        match self.service.unsubscribe(token).await {
            Ok(true) => UnsubscribeResponse::Ok(Html(page(
                "You're unsubscribed",
                "You won't get launch emails from this list any more.",
            ))),
            Ok(false) => UnsubscribeResponse::NotFound(Html(page(
                "Link not recognised",
                "This unsubscribe link is not valid. It may have been copied incompletely.",
            ))),
            Err(e) => {
                tracing::error!(error = ?e, "unsubscribe failed");
                UnsubscribeResponse::NotFound(Html(page(
                    "Something went wrong",
                    "Please try the link again in a moment.",
                )))
            }
        }
    }
}

fn answer(r: Result<(), OutreachError>, ok: &str) -> FormResponse {
    match r {
        Ok(()) => FormResponse::Ok(Json(Accepted {
            message: ok.to_string(),
        })),
        Err(OutreachError::Invalid {
            code,
            title,
            message,
        }) => FormResponse::BadRequest(Json(ErrorBody::titled(code, title, message))),
        Err(OutreachError::RateLimited { retry_after }) => {
            let (body, after) = limited(retry_after);
            FormResponse::TooMany(body, after)
        }
        Err(e) => {
            tracing::error!(error = ?e, "outreach request failed");
            FormResponse::Internal(Json(ErrorBody::titled(
                "internal_error",
                "Error",
                "Something went wrong. Please try again.",
            )))
        }
    }
}

#[OpenApi(tag = "ApiTags::Outreach")]
impl OutreachApi {
    /// Sign up to hear when the magazine or the packs launch. Signing up twice is a success.
    #[oai(path = "/v1/notify", method = "post", operation_id = "notifySignup")]
    async fn notify(&self, req: &Request, body: Json<NotifyInput>) -> FormResponse {
        const OK: &str = "Thanks! You'll be the first to know when it's live.";
        if let Err(e) = self.admit(Form::Notify, req).await {
            return answer(Err(e), OK);
        }
        if !body.0.website.is_empty() {
            tracing::info!("notify honeypot filled; ignored");
            return answer(Ok(()), OK);
        }
        answer(self.service.notify(body.0.list, &body.0.email).await, OK)
    }

    /// One-click unsubscribe (the link in every notify email).
    #[oai(
        path = "/v1/notify/unsubscribe",
        method = "get",
        operation_id = "unsubscribe"
    )]
    async fn unsubscribe(&self, token: Query<String>) -> UnsubscribeResponse {
        self.unsubscribe_page(&token.0).await
    }

    /// One-click unsubscribe for mail clients (RFC 8058).
    #[oai(
        path = "/v1/notify/unsubscribe",
        method = "post",
        operation_id = "unsubscribeOneClick"
    )]
    async fn unsubscribe_post(&self, token: Query<String>) -> UnsubscribeResponse {
        self.unsubscribe_page(&token.0).await
    }

    /// Send the team a message.
    #[oai(path = "/v1/contact", method = "post", operation_id = "contact")]
    async fn contact(&self, req: &Request, body: Json<ContactInput>) -> FormResponse {
        const OK: &str = "Thank you for your message. We'll get back to you within 24-48 hours.";
        if let Err(e) = self.admit(Form::Contact, req).await {
            return answer(Err(e), OK);
        }
        if !body.0.website.is_empty() {
            tracing::info!("contact honeypot filled; ignored");
            return answer(Ok(()), OK);
        }
        answer(self.service.contact(body.0).await, OK)
    }

    /// Apply to contribute. Files (CV, portfolio, writing samples, research samples) are PDF,
    /// DOC or DOCX, checked by content, at most 10 MB each; they are attached to the email the
    /// team receives.
    #[oai(
        path = "/v1/applications",
        method = "post",
        operation_id = "submitApplication"
    )]
    async fn apply(
        &self,
        req: &Request,
        mut form: MultipartStream<ApplicationForm>,
    ) -> ApplicationResponse {
        if let Err(e) = self.admit(Form::Application, req).await {
            return application_answer(Err(e));
        }
        let (input, honeypot) = match read_application(&mut form).await {
            Ok(read) => read,
            Err(e) => return part_error(e),
        };
        if honeypot {
            tracing::info!("application honeypot filled; ignored");
            return application_answer(Ok(0));
        }
        application_answer(self.service.apply(input).await)
    }

    /// Register a reader account. The answer is the same whether or not the address already
    /// has an account; a confirmation link (or, for an existing account, a notice) is emailed.
    #[oai(path = "/v1/accounts", method = "post", operation_id = "register")]
    async fn register(&self, req: &Request, body: Json<RegistrationInput>) -> FormResponse {
        if let Err(e) = self.admit(Form::Registration, req).await {
            return answer(Err(e), crate::accounts::REGISTERED);
        }
        if !body.0.website.is_empty() {
            tracing::info!("registration honeypot filled; ignored");
            return answer(Ok(()), crate::accounts::REGISTERED);
        }
        answer(
            self.service.register(body.0).await,
            crate::accounts::REGISTERED,
        )
    }

    /// The link in the confirmation email: confirms the account once.
    #[oai(
        path = "/v1/accounts/confirm",
        method = "get",
        operation_id = "confirmAccount"
    )]
    async fn confirm(&self, token: Query<String>) -> ConfirmResponse {
        const LOGIN: (&str, &str) = ("/login", "Go to login");
        match self.service.confirm_account(&token.0).await {
            Ok(Confirmation::Confirmed) => ConfirmResponse::Ok(Html(page(
                "Your email is confirmed",
                "Thank you! Your account is now active.",
                LOGIN,
            ))),
            Ok(Confirmation::AlreadyUsed) => ConfirmResponse::Ok(Html(page(
                "Already confirmed",
                "This link has already been used, and your account is active.",
                LOGIN,
            ))),
            Ok(Confirmation::Expired) => ConfirmResponse::Invalid(Html(page(
                "This link has expired",
                "Confirmation links work for a limited time. Register again with the same email address and we'll send you a new link.",
                ("/signup", "Register again"),
            ))),
            Ok(Confirmation::Unknown) => ConfirmResponse::Invalid(Html(page(
                "Link not recognised",
                "This confirmation link is not valid. It may have been copied incompletely.",
                HOME,
            ))),
            Err(e) => {
                tracing::error!(error = ?e, "account confirmation failed");
                ConfirmResponse::Invalid(Html(page(
                    "Something went wrong",
                    "Please try the link again in a moment.",
                    HOME,
                )))
            }
        }
    }
}

fn application_answer(r: Result<u32, OutreachError>) -> ApplicationResponse {
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
        }) => ApplicationResponse::BadRequest(Json(ErrorBody::titled(code, title, message))),
        Err(OutreachError::TooLarge { title, message }) => {
            ApplicationResponse::TooLarge(Json(ErrorBody::titled("file_too_large", title, message)))
        }
        Err(OutreachError::RateLimited { retry_after }) => {
            let (body, after) = limited(retry_after);
            ApplicationResponse::TooMany(body, after)
        }
        Err(e) => {
            tracing::error!(error = ?e, "application failed");
            ApplicationResponse::Internal(Json(ErrorBody::titled(
                "internal_error",
                "Unexpected Error",
                "An unexpected error occurred. Please try again later.",
            )))
        }
    }
}
