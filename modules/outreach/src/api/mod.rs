//! Public outreach endpoints: notify-me, unsubscribe, contact.

use std::sync::Arc;

use poem::Request;
use poem_openapi::param::Query;
use poem_openapi::payload::{Html, Json};
use poem_openapi::{OpenApi, Tags};

use kernel::upload::MultipartStream;

use crate::model::{ApplicationForm, ContactInput, NotifyInput, RegistrationInput};
use crate::service::{Form, OutreachError, OutreachService};
use crate::store::Confirmation;

mod answers;
mod application_form;

use answers::{
    answer, application_answer, page, ApplicationResponse, ConfirmResponse, FormResponse,
    UnsubscribeResponse, HOME,
};
use application_form::{part_error, read_application};

#[derive(Tags)]
enum ApiTags {
    /// What visitors send the team.
    Outreach,
}

pub struct OutreachApi {
    service: Arc<OutreachService>,
    trust_proxy: bool,
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
