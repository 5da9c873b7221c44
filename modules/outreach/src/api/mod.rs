//! Public outreach endpoints: notify-me, unsubscribe, contact.

use crate::access::OutreachAction;
use kernel::Common;
use std::sync::Arc;

use kernel::ErrorBody;
use poem::Request;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::{Attachment, AttachmentType, Html, Json};
use poem_openapi::{ApiResponse, OpenApi, Tags};

use kernel::upload::MultipartStream;

use crate::application::DownloadError;
use crate::model::{ApplicationForm, ContactInput, NotifyInput, RegistrationInput};
use crate::service::{Form, OutreachError, OutreachService};
use identity::readers::{LinkRequest, LinkToken};

mod answers;
mod application_form;

pub(crate) use answers::limited;
use answers::{
    answer, application_answer, page, ApplicationResponse, ConfirmResponse, FormResponse,
    UnsubscribeResponse,
};
use application_form::{part_error, read_application};

#[derive(ApiResponse)]
pub enum DocumentResponse {
    /// The document, as a download.
    #[oai(status = 200)]
    Ok(
        Attachment<poem::Body>,
        #[oai(header = "Content-Security-Policy")] String,
        #[oai(header = "Cache-Control")] String,
        #[oai(header = "Content-Length")] u64,
    ),
    /// No live staff session.
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    /// Not an admin or content director, or a link that was changed.
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    /// No such application or document.
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    /// The link expired: the documents are deleted.
    #[oai(status = 410)]
    Gone(Json<ErrorBody>),
    /// Storage or the database cannot answer: try again after `Retry-After` seconds.
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>, #[oai(header = "Retry-After")] u64),
}

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

    /// A link from an email, pressed: `act` on its token, answered as a form is.
    async fn link_action(
        &self,
        req: &Request,
        token: &str,
        act: fn(&'static str) -> String,
        resubscribe: bool,
    ) -> FormResponse {
        if let Err(e) = self.admit(Form::Notify, req).await {
            return answer(Err(e), "");
        }
        let done = if resubscribe {
            self.service.resubscribe_words(token).await
        } else {
            self.service.unsubscribe_words(token).await
        };
        match done {
            Ok(Some(words)) => answer(Ok(()), &act(words)),
            Ok(None) => answer(
                Err(crate::service::invalid(
                    Common::NotFound,
                    "Link not recognised",
                    "This unsubscribe link is not valid. It may have been copied incompletely.",
                )),
                "",
            ),
            Err(e) => answer(Err(e), ""),
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
        let bot = !body.0.website.is_empty();
        answer(
            self.service.notify(body.0.list, &body.0.email, bot).await,
            OK,
        )
    }

    /// The unsubscribe link of emails sent before the site had its own page: it leads to
    /// that page, which names the list and asks for one press (opening a link changes
    /// nothing: mail scanners open links).
    #[oai(
        path = "/v1/notify/unsubscribe",
        method = "get",
        operation_id = "unsubscribe"
    )]
    async fn unsubscribe(&self, token: Query<String>) -> UnsubscribeResponse {
        let token: String = form_urlencoded::byte_serialize(token.0.as_bytes()).collect();
        UnsubscribeResponse::SeeOther(format!("{}?token={token}", crate::UNSUBSCRIBE_PAGE))
    }

    /// One-click unsubscribe for mail clients (RFC 8058): a POST unsubscribes at once.
    #[oai(
        path = "/v1/notify/unsubscribe",
        method = "post",
        operation_id = "unsubscribeOneClick"
    )]
    async fn unsubscribe_post(&self, token: Query<String>) -> UnsubscribeResponse {
        let l = self.service.one_click_landing(&token.0).await;
        let html = Html(page(&l.heading, &l.text, (l.link_href, l.link_label)));
        match l.status {
            200 => UnsubscribeResponse::Ok(html),
            404 => UnsubscribeResponse::NotFound(html),
            _ => UnsubscribeResponse::Unavailable(html, kernel::http::RETRY_AFTER_SECONDS),
        }
    }

    /// Unsubscribe, pressed on the page an unsubscribe link leads to.
    #[oai(
        path = "/v1/email/unsubscribe",
        method = "post",
        operation_id = "unsubscribeByLink"
    )]
    async fn unsubscribe_by_link(&self, req: &Request, body: Json<LinkToken>) -> FormResponse {
        self.link_action(
            req,
            &body.0.token,
            |words| format!("You're unsubscribed: you won't get {words} any more."),
            false,
        )
        .await
    }

    /// Resubscribe, pressed on the same page after unsubscribing (undoes it).
    #[oai(
        path = "/v1/email/resubscribe",
        method = "post",
        operation_id = "resubscribeByLink"
    )]
    async fn resubscribe_by_link(&self, req: &Request, body: Json<LinkToken>) -> FormResponse {
        self.link_action(
            req,
            &body.0.token,
            |words| format!("Welcome back: you'll get {words} again."),
            true,
        )
        .await
    }

    /// Send the team a message.
    #[oai(path = "/v1/contact", method = "post", operation_id = "contact")]
    async fn contact(&self, req: &Request, body: Json<ContactInput>) -> FormResponse {
        const OK: &str = "Thank you for your message. We'll get back to you within 24-48 hours.";
        if let Err(e) = self.admit(Form::Contact, req).await {
            return answer(Err(e), OK);
        }
        answer(self.service.contact(body.0).await, OK)
    }

    /// Apply to contribute. Files (CV, portfolio, writing samples, research samples) are PDF,
    /// DOC or DOCX, checked by content, at most 10 MB each; they are attached to the email the
    /// team receives, or, over `MAIL_ATTACHMENTS_MAX_MB` in all, linked from it
    /// (`downloadApplicationDocument`).
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

    /// An application's document, from the link in the team's email (documents too large to
    /// attach). Admins and content directors, signed in; the link is signed for this document
    /// and expires with the documents (then 410). Every download is recorded.
    #[oai(
        path = "/v1/staff/applications/:id/documents/:field",
        method = "get",
        operation_id = "downloadApplicationDocument"
    )]
    async fn download_document(
        &self,
        auth: identity::StaffSession,
        id: Path<String>,
        field: Path<String>,
        expires: Query<i64>,
        signature: Query<String>,
    ) -> DocumentResponse {
        if !auth.may(OutreachAction::ReadApplications) {
            return DocumentResponse::Forbidden(identity::forbidden());
        }
        let found = self
            .service
            .download_document(&id.0, &field.0, expires.0, &signature.0, &auth.user().id)
            .await;
        match found {
            Ok(d) => DocumentResponse::Ok(
                Attachment::new(poem::Body::from_bytes_stream(d.body))
                    .attachment_type(AttachmentType::Attachment)
                    .filename(d.filename),
                kernel::http::UPLOAD_CSP.to_string(),
                "private, no-store".to_string(),
                d.size,
            ),
            Err(DownloadError::NotSigned) => DocumentResponse::Forbidden(Json(ErrorBody::new(
                Common::Forbidden,
                "This download link is not valid. Open it exactly as the email gave it.",
            ))),
            Err(DownloadError::Expired) => DocumentResponse::Gone(Json(ErrorBody::new(
                identity::codes::Code::LinkExpired,
                "This download link has expired and the documents were deleted. \
                 Ask the applicant to send them again.",
            ))),
            Err(DownloadError::NotFound) => DocumentResponse::NotFound(Json(ErrorBody::new(
                Common::NotFound,
                "No such document.",
            ))),
            Err(DownloadError::Storage(e)) => {
                tracing::error!(error = %e, "application document unreadable");
                DocumentResponse::Unavailable(
                    Json(ErrorBody::unavailable()),
                    kernel::http::RETRY_AFTER_SECONDS,
                )
            }
            Err(DownloadError::Unexpected(e)) => {
                tracing::error!(error = %e, "application document download failed");
                DocumentResponse::Unavailable(
                    Json(ErrorBody::unavailable()),
                    kernel::http::RETRY_AFTER_SECONDS,
                )
            }
        }
    }

    /// Register a reader account. The answer is the same whether or not the address already
    /// has an account; a confirmation link (or, for an existing account, a notice) is emailed.
    #[oai(path = "/v1/accounts", method = "post", operation_id = "register")]
    async fn register(&self, req: &Request, body: Json<RegistrationInput>) -> FormResponse {
        if let Err(e) = self.admit(Form::Registration, req).await {
            return answer(Err(e), crate::accounts::REGISTERED);
        }
        answer(
            self.service.register(body.0).await,
            crate::accounts::REGISTERED,
        )
    }

    /// Email me a new confirmation link (for an account that is not confirmed yet). The
    /// answer is the same for every address and comes before anything is looked up.
    #[oai(
        path = "/v1/accounts/confirmation",
        method = "post",
        operation_id = "resendConfirmation"
    )]
    async fn resend_confirmation(&self, req: &Request, body: Json<LinkRequest>) -> FormResponse {
        const OK: &str =
            "If this address has an account waiting for confirmation, we've emailed it a new link.";
        if let Err(e) = self.admit(Form::Registration, req).await {
            return answer(Err(e), OK);
        }
        let email = match identity::readers::checked_email(&body.0.email) {
            Ok(email) => email,
            Err(e) => {
                return answer(
                    Err(crate::service::invalid(
                        e.code(),
                        "Invalid Email",
                        e.to_string(),
                    )),
                    OK,
                )
            }
        };
        let service = self.service.clone();
        tokio::spawn(async move {
            if let Err(e) = service.resend_confirmation(&email).await {
                tracing::error!(error = ?e, "sending a confirmation link failed");
            }
        });
        answer(Ok(()), OK)
    }

    /// The link in the confirmation email: confirms the account once.
    #[oai(
        path = "/v1/accounts/confirm",
        method = "get",
        operation_id = "confirmAccount"
    )]
    async fn confirm(&self, token: Query<String>) -> ConfirmResponse {
        let l = self.service.confirm_landing(&token.0).await;
        let html = Html(page(&l.heading, &l.text, (l.link_href, l.link_label)));
        match l.status {
            200 => ConfirmResponse::Ok(html),
            410 => ConfirmResponse::Expired(html),
            404 => ConfirmResponse::Unknown(html),
            _ => ConfirmResponse::Unavailable(html, kernel::http::RETRY_AFTER_SECONDS),
        }
    }
}
