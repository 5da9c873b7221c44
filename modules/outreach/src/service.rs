//! Validation in the product's order and wording, then storage with the queued email.

use std::sync::Arc;

use kernel::outbox::Email;
use rand::RngCore;
use sha2::{Digest, Sha256};

use crate::model::{ContactInput, InquiryType, NotifyList};
use crate::store::{ContactRow, OutreachStore};
use crate::validate::is_email;

pub const MAX_NAME_CHARS: usize = 100;
pub const MAX_EMAIL_CHARS: usize = 254;
pub const MAX_SUBJECT_CHARS: usize = 200;
pub const MAX_MESSAGE_CHARS: usize = 5000;

#[derive(Debug, thiserror::Error)]
pub enum OutreachError {
    /// A fault in what the visitor sent, with the product's heading and message.
    #[error("{title}: {message}")]
    Invalid {
        code: &'static str,
        title: &'static str,
        message: String,
    },
    #[error(transparent)]
    Unexpected(#[from] sqlx::Error),
}

fn invalid(code: &'static str, title: &'static str, message: impl Into<String>) -> OutreachError {
    OutreachError::Invalid {
        code,
        title,
        message: message.into(),
    }
}

#[derive(Debug, Clone)]
pub struct OutreachSettings {
    pub site_url: String,
    pub site_name: String,
    pub inbox_general: String,
    pub inbox_education: String,
}

pub struct OutreachService {
    store: Arc<dyn OutreachStore>,
    settings: OutreachSettings,
}

fn token() -> String {
    let mut bytes = [0u8; 24];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

fn hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

fn too_long(field: &str, value: &str, max: usize) -> Result<(), OutreachError> {
    if value.chars().count() > max {
        return Err(invalid(
            "too_long",
            "Too Long",
            format!("The {field} must be at most {max} characters."),
        ));
    }
    Ok(())
}

impl OutreachService {
    pub fn new(store: Arc<dyn OutreachStore>, settings: OutreachSettings) -> Self {
        Self { store, settings }
    }

    /// Signs `email` up for `list`. Signing up twice is fine (nothing new is sent).
    #[tracing::instrument(skip(self, email))]
    pub async fn notify(&self, list: NotifyList, email: &str) -> Result<(), OutreachError> {
        let email = email.trim().to_lowercase();
        if email.is_empty() {
            return Err(invalid(
                "email_required",
                "Email required",
                "Please enter your email address.",
            ));
        }
        too_long("email", &email, MAX_EMAIL_CHARS)?;
        if !is_email(&email) {
            return Err(invalid(
                "invalid_email",
                "Invalid Email",
                "Please enter a valid email address.",
            ));
        }
        let token = token();
        let s = &self.settings;
        let link = format!("{}/api/v1/notify/unsubscribe?token={token}", s.site_url);
        let confirmation = Email {
            to: vec![email.clone()],
            reply_to: None,
            subject: format!("You're on the list for {}", list.label()),
            body: format!(
                "Hi!\n\nThanks for signing up. We'll email you as soon as {} from {} is live.\n\n\
                 Changed your mind? Unsubscribe with one click:\n{link}\n",
                list.label(),
                s.site_name
            ),
            attachments: vec![],
        };
        let added = self
            .store
            .subscribe(
                list,
                &email,
                &hash(&token),
                kernel::ids::now(),
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
            .unsubscribe(&hash(token), kernel::ids::now())
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
        let Some(kind) = input.inquiry_type else {
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
                "invalid_email",
                "Invalid Email",
                "Please enter a valid email address.",
            ));
        }
        too_long("first name", &first, MAX_NAME_CHARS)?;
        too_long("last name", &last, MAX_NAME_CHARS)?;
        too_long("email", &email, MAX_EMAIL_CHARS)?;
        too_long("subject", &subject, MAX_SUBJECT_CHARS)?;
        too_long("message", &message, MAX_MESSAGE_CHARS)?;
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
            created_at: kernel::ids::now(),
        };
        let mail = Email {
            to: vec![inbox.clone()],
            reply_to: Some(email),
            subject: format!("[Contact: {kind_name}] {subject}"),
            body: format!(
                "From: {} {} <{}>\nInquiry type: {kind_name}\n\n{}\n",
                row.first_name, row.last_name, row.email, row.message
            ),
            attachments: vec![],
        };
        self.store.save_contact(&row, &mail).await?;
        Ok(())
    }
}

fn missing() -> OutreachError {
    invalid(
        "missing_information",
        "Missing Information",
        "Please fill in all required fields.",
    )
}
