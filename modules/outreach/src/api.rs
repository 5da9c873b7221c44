//! Public outreach endpoints: notify-me, unsubscribe, contact.

use std::sync::Arc;

use kernel::ErrorBody;
use poem_openapi::param::Query;
use poem_openapi::payload::{Html, Json};
use poem_openapi::{ApiResponse, OpenApi, Tags};

use crate::model::{Accepted, ContactInput, NotifyInput};
use crate::service::{OutreachError, OutreachService};

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
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
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
}

impl OutreachApi {
    pub fn new(service: Arc<OutreachService>) -> Self {
        Self { service }
    }

    async fn unsubscribe_page(&self, token: &str) -> UnsubscribeResponse {
        let page = |heading: &str, text: &str| {
            format!(
                "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
                 <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
                 <meta name=\"robots\" content=\"noindex\"><title>{heading}</title></head>\
                 <body style=\"font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem\">\
                 <h1>{heading}</h1><p>{text}</p><p><a href=\"/\">Back to Home</a></p></body></html>"
            )
        };
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
    async fn notify(&self, body: Json<NotifyInput>) -> FormResponse {
        const OK: &str = "Thanks! You'll be the first to know when it's live.";
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
    async fn contact(&self, body: Json<ContactInput>) -> FormResponse {
        const OK: &str = "Thank you for your message. We'll get back to you within 24-48 hours.";
        if !body.0.website.is_empty() {
            tracing::info!("contact honeypot filled; ignored");
            return answer(Ok(()), OK);
        }
        answer(self.service.contact(body.0).await, OK)
    }
}
