//! A message as a module queues it.

use serde::{Deserialize, Serialize};

/// A file to attach, already stored (by key) in the outbox's storage. The message owns the
/// file: it is deleted once the message is delivered, discarded or expired, so a file must not
/// be shared between messages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attachment {
    pub filename: String,
    pub content_type: String,
    pub storage_key: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email {
    pub to: Vec<String>,
    pub reply_to: Option<String>,
    pub subject: String,
    /// The plain text, always sent.
    pub body: String,
    /// An HTML alternative of the same message (inline CSS, no scripts), sent beside the text
    /// as multipart/alternative; readers' mail programs show the one they prefer.
    pub html: Option<String>,
    pub attachments: Vec<Attachment>,
    /// For email to a list: the one-click unsubscribe address (an https URL taking a POST,
    /// RFC 8058), sent as `List-Unsubscribe` with `List-Unsubscribe-Post`.
    pub list_unsubscribe: Option<String>,
}
