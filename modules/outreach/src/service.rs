//! Validation in the product's order and wording, then storage with the queued email.

use kernel::Common;
use std::sync::Arc;
use std::time::Duration;

use kernel::clock::SharedClock;
use kernel::limiter::{Admission, Limiter, Rule};
use kernel::outbox::Email;
use kernel::secret::{hash_token, new_token};
use kernel::storage::Storage;

use crate::limits::*;
use crate::model::{ContactInput, InquiryType, NotifyList};
use crate::store::{ContactRow, OutreachStore};
use kernel::email::is_email;
use kernel::ErrorCode;

use crate::links::UNSUBSCRIBE_PAGE;

#[derive(Debug, thiserror::Error)]
pub enum OutreachError {
    /// A fault in what the visitor sent, with the product's heading and message.
    #[error("{title}: {message}")]
    Invalid {
        code: ErrorCode,
        title: &'static str,
        message: String,
    },
    /// A file over the size limit.
    #[error("{title}: {message}")]
    TooLarge {
        title: &'static str,
        message: String,
    },
    /// Too many submissions from one address; try again after `retry_after` seconds.
    #[error("too many submissions")]
    RateLimited { retry_after: u64 },
    #[error("storage failed: {0}")]
    Storage(std::io::Error),
    #[error("password hashing failed: {0}")]
    Hashing(String),
    #[error(transparent)]
    Unexpected(sqlx::Error),
}

impl From<sqlx::Error> for OutreachError {
    fn from(e: sqlx::Error) -> Self {
        kernel::http::note_database_error(&e);
        OutreachError::Unexpected(e)
    }
}

pub(crate) fn invalid(
    code: impl Into<ErrorCode>,
    title: &'static str,
    message: impl Into<String>,
) -> OutreachError {
    OutreachError::Invalid {
        code: code.into(),
        title,
        message: message.into(),
    }
}

/// Default of [`OutreachSettings::attach_at_most`]: 10 MB, well under the 25-35 MB many mail
/// relays accept (attachments grow by a third in base64).
pub const DEFAULT_ATTACH_AT_MOST: u64 = 10 * 1024 * 1024;
/// Default of [`OutreachSettings::documents_ttl`]: 30 days.
pub const DEFAULT_DOCUMENTS_TTL: Duration = Duration::from_secs(30 * 24 * 3600);

#[derive(Debug, Clone)]
pub struct OutreachSettings {
    pub site_url: String,
    pub site_name: String,
    pub inbox_general: String,
    pub inbox_education: String,
    pub inbox_applications: String,
    /// Submissions of one public form accepted from one address per window.
    pub form_limit: i64,
    pub form_window: Duration,
    /// How long an email confirmation link works.
    pub confirmation_ttl: Duration,
    /// An application's documents are attached to the team's email up to this many bytes in
    /// all; above it (a relay would refuse the message) the email links to them instead.
    pub attach_at_most: u64,
    /// How long linked documents can be downloaded (then they are deleted).
    pub documents_ttl: Duration,
    /// Signs the links to linked documents.
    pub link_key: kernel::secret::Secret<Vec<u8>>,
}

impl OutreachSettings {
    /// Sensible settings for a site at `site_url` (tests and tools adjust what they need).
    pub fn for_site(site_url: &str) -> Self {
        OutreachSettings {
            site_url: site_url.trim_end_matches('/').to_string(),
            site_name: "The Agora".to_string(),
            inbox_general: "hello@localhost".to_string(),
            inbox_education: "education@localhost".to_string(),
            inbox_applications: "applications@localhost".to_string(),
            form_limit: 10,
            form_window: Duration::from_secs(600),
            confirmation_ttl: Duration::from_secs(48 * 3600),
            attach_at_most: DEFAULT_ATTACH_AT_MOST,
            documents_ttl: DEFAULT_DOCUMENTS_TTL,
            link_key: kernel::secret::Secret::new(kernel::secret::new_token().into_bytes()),
        }
    }
}

/// Responses to articles one address may send in a window, as a multiple of the other forms'
/// budget (`FORM_LIMIT_PER_ADDRESS`): 50 in 10 minutes by default.
pub const RESPONSES_PER_FORM: i64 = 5;

/// The public forms, each with its own submission budget per address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Notify,
    Contact,
    Application,
    Registration,
    /// A response to an article.
    Response,
}

impl Form {
    fn name(self) -> &'static str {
        match self {
            Form::Notify => "notify",
            Form::Contact => "contact",
            Form::Application => "application",
            Form::Registration => "registration",
            Form::Response => "response",
        }
    }
}

pub struct OutreachService {
    pub(crate) store: Arc<dyn OutreachStore>,
    pub(crate) settings: OutreachSettings,
    /// Private storage (never served publicly) for applicants' documents.
    pub(crate) files: Arc<Storage>,
    limiter: Limiter,
    pub(crate) clock: SharedClock,
}

pub(crate) fn too_long(field: &str, value: &str, max: usize) -> Result<(), OutreachError> {
    if value.chars().count() > max {
        return Err(invalid(
            Common::TooLong,
            "Too Long",
            format!("The {field} must be at most {max} characters."),
        ));
    }
    Ok(())
}

impl OutreachService {
    pub fn new(
        store: Arc<dyn OutreachStore>,
        settings: OutreachSettings,
        files: Arc<Storage>,
        limiter: Limiter,
        clock: SharedClock,
    ) -> Self {
        Self {
            store,
            settings,
            files,
            limiter,
            clock,
        }
    }

    /// Counts a submission of `form` from `client`; refuses it once the address has used up
    /// its budget for the window (sliding: the window ends now). The counts live in the
    /// database, so every app instance shares them.
    pub async fn admit(&self, form: Form, client: &str) -> Result<(), OutreachError> {
        let bucket = format!("form:{}:{client}", form.name());
        let limit = match form {
            // Sent by signed-in readers, each with limits of their own: a class on one
            // school network responding to the piece they read together is not refused.
            Form::Response => self.settings.form_limit * RESPONSES_PER_FORM,
            _ => self.settings.form_limit,
        };
        let admission = self
            .limiter
            .hit(Rule {
                bucket: &bucket,
                window: self.settings.form_window,
                limit: Some(limit),
            })
            .await?;
        if let Admission::Refused { retry_after } = admission {
            tracing::info!(form = form.name(), client, "form rate limit reached");
            return Err(OutreachError::RateLimited { retry_after });
        }
        Ok(())
    }

    /// Signs `email` up for `list`. Signing up twice is fine (nothing new is sent). A `bot`
    /// (the honeypot field filled in) is checked like anyone, then told it worked while
    /// nothing is kept.
    #[tracing::instrument(skip(self, sent))]
    pub async fn notify(
        &self,
        list: NotifyList,
        sent: &str,
        bot: bool,
    ) -> Result<(), OutreachError> {
        let email = sent.trim().to_lowercase();
        if email.is_empty() {
            return Err(invalid(
                Common::EmailRequired,
                "Email required",
                "Please enter your email address.",
            ));
        }
        too_long("email", sent, MAX_EMAIL_CHARS)?;
        if !is_email(&email) {
            return Err(invalid(
                Common::InvalidEmail,
                "Invalid Email",
                kernel::email::INVALID_EMAIL,
            ));
        }
        if bot {
            tracing::info!("notify honeypot filled; ignored");
            return Ok(());
        }
        let token = new_token();
        let s = &self.settings;
        let link = format!("{}{UNSUBSCRIBE_PAGE}?token={token}", s.site_url);
        let confirmation = Email {
            html: None,
            to: vec![email.clone()],
            reply_to: None,
            subject: format!("You're on the list for {}", list.label()),
            body: format!(
                "Hi!\n\nThanks for signing up. We'll email you as soon as {} from {} {} live.\n\n\
                 Changed your mind? Unsubscribe with one click:\n{link}\n",
                list.label(),
                s.site_name,
                list.verb()
            ),
            attachments: vec![],
            // Mail clients' own "Unsubscribe" button posts here (RFC 8058).
            list_unsubscribe: Some(format!(
                "{}/api/v1/notify/unsubscribe?token={token}",
                s.site_url
            )),
        };
        let added = self
            .store
            .subscribe(
                list,
                &email,
                &hash_token(&token),
                self.clock.now(),
                &confirmation,
            )
            .await?;
        tracing::info!(added, "notify signup");
        Ok(())
    }

    /// One-click, idempotent unsubscribe; false when the link is unknown.
    pub async fn unsubscribe(&self, token: &str) -> Result<bool, OutreachError> {
        if token.is_empty() || token.len() > 200 {
            return Ok(false);
        }
        Ok(self
            .store
            .unsubscribe(&hash_token(token), self.clock.now())
            .await?)
    }

    pub async fn is_subscribed(
        &self,
        list: NotifyList,
        email: &str,
    ) -> Result<bool, OutreachError> {
        Ok(self
            .store
            .is_subscribed(list, &email.trim().to_lowercase())
            .await?)
    }

    /// Stores a contact message and queues it for the inbox of its inquiry type, with the
    /// sender as reply-to.
    #[tracing::instrument(skip(self, input))]
    pub async fn contact(&self, input: ContactInput) -> Result<(), OutreachError> {
        let first = input.first_name.trim().to_string();
        let last = input.last_name.trim().to_string();
        let email = input.email.trim().to_string();
        let subject = input.subject.trim().to_string();
        let message = input.message.trim().to_string();
        let Some(kind) = input.inquiry_type.0 else {
            return Err(missing());
        };
        if [&first, &last, &email, &subject, &message]
            .iter()
            .any(|v| v.is_empty())
        {
            return Err(missing());
        }
        if !is_email(&email) {
            return Err(invalid(
                Common::InvalidEmail,
                "Invalid Email",
                kernel::email::INVALID_EMAIL,
            ));
        }
        // Counted as sent, as the contract states them.
        too_long("first name", &input.first_name, MAX_NAME_CHARS)?;
        too_long("last name", &input.last_name, MAX_NAME_CHARS)?;
        too_long("email", &input.email, MAX_EMAIL_CHARS)?;
        too_long("subject", &input.subject, MAX_SUBJECT_CHARS)?;
        too_long("message", &input.message, MAX_MESSAGE_CHARS)?;
        // A bot (the honeypot filled in) is checked like anyone, then told it worked.
        if !input.website.is_empty() {
            tracing::info!("contact honeypot filled; ignored");
            return Ok(());
        }
        let (inbox, kind_name) = match kind {
            InquiryType::General => (&self.settings.inbox_general, "general"),
            InquiryType::Education => (&self.settings.inbox_education, "education"),
        };
        let row = ContactRow {
            id: kernel::ids::new_id(),
            first_name: first,
            last_name: last,
            email: email.clone(),
            subject: subject.clone(),
            inquiry_type: kind_name,
            message,
            created_at: self.clock.now(),
        };
        let mail = Email {
            html: None,
            to: vec![inbox.clone()],
            reply_to: Some(email),
            subject: format!("[Contact: {kind_name}] {subject}"),
            body: format!(
                "From: {} {} <{}>\nInquiry type: {kind_name}\n\n{}\n",
                row.first_name, row.last_name, row.email, row.message
            ),
            attachments: vec![],
            list_unsubscribe: None,
        };
        self.store.save_contact(&row, &mail).await?;
        Ok(())
    }
}

fn missing() -> OutreachError {
    invalid(
        Common::MissingInformation,
        "Missing Information",
        "Please fill in all required fields.",
    )
}
