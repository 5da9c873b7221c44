//! Delivery through lettre: `.eml` files in a folder (the default, so a newcomer can read what
//! was sent) or SMTP (STARTTLS/TLS and credentials in `SMTP_URL`).

use std::path::PathBuf;

use lettre::message::header::{ContentTransferEncoding, ContentType, HeaderName, HeaderValue};
use lettre::message::{Attachment as LettreAttachment, Body, Mailbox, MultiPart, SinglePart};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use super::{Attachment, OutboxRow};
use crate::storage::Storage;

#[derive(Debug, thiserror::Error)]
pub enum MailerError {
    #[error("invalid address {0:?}")]
    Address(String),
    #[error("cannot build the message: {0}")]
    Build(String),
    #[error("attachment {0} is missing: {1}")]
    Attachment(String, std::io::Error),
    #[error("delivery failed: {0}")]
    Transport(String),
    /// The mail server refused the message for good (a 5xx answer: too large, no such
    /// mailbox…): sending it again would be refused again.
    #[error("refused by the mail server: {0}")]
    Refused(String),
}

impl MailerError {
    /// Whether trying again cannot help: the message cannot be built, or the server refused
    /// it for good.
    pub fn is_permanent(&self) -> bool {
        match self {
            MailerError::Transport(_) => false,
            // A file store that does not answer now may later; a file that is gone will not
            // come back.
            MailerError::Attachment(_, e) => e.kind() == std::io::ErrorKind::NotFound,
            MailerError::Address(_) | MailerError::Build(_) | MailerError::Refused(_) => true,
        }
    }
}

enum Transport {
    /// Each message is written whole beside the folder, then moved into it (a rename), so
    /// whoever reads the folder never finds half a message.
    Files {
        dir: PathBuf,
        partial: PathBuf,
    },
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
}

pub struct Mailer {
    transport: Transport,
    from: Mailbox,
}

impl Mailer {
    /// Writes each message as a file under `dir` (`<id>.eml`).
    pub fn files(dir: PathBuf, from: &str) -> Result<Mailer, MailerError> {
        let partial = dir.with_extension("partial");
        for d in [&dir, &partial] {
            std::fs::create_dir_all(d).map_err(|e| MailerError::Build(e.to_string()))?;
        }
        Ok(Mailer {
            transport: Transport::Files { dir, partial },
            from: parse(from)?,
        })
    }

    /// Sends over SMTP: `smtp://user:pass@host:587?tls=required` (STARTTLS), `smtps://…` (TLS)
    /// or `smtp://host:25` (plain, for local relays and tests).
    pub fn smtp(url: &str, from: &str) -> Result<Mailer, MailerError> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|e| MailerError::Build(e.to_string()))?
            .timeout(Some(std::time::Duration::from_secs(20)))
            .build();
        Ok(Mailer {
            transport: Transport::Smtp(transport),
            from: parse(from)?,
        })
    }

    pub async fn send(&self, row: &OutboxRow, storage: &Storage) -> Result<(), MailerError> {
        let message = self.build(row, storage).await?;
        match &self.transport {
            Transport::Files { dir, partial } => {
                let name = format!("{}.eml", crate::ids::new_id());
                let written = partial.join(&name);
                let failed = |e: std::io::Error| MailerError::Transport(e.to_string());
                tokio::fs::write(&written, message.formatted())
                    .await
                    .map_err(failed)?;
                tokio::fs::rename(&written, dir.join(&name))
                    .await
                    .map_err(failed)
            }
            Transport::Smtp(t) => t.send(message).await.map(|_| ()).map_err(|e| {
                if e.is_permanent() {
                    MailerError::Refused(e.to_string())
                } else {
                    MailerError::Transport(e.to_string())
                }
            }),
        }
    }

    async fn build(&self, row: &OutboxRow, storage: &Storage) -> Result<Message, MailerError> {
        let to: Vec<String> =
            serde_json::from_str(&row.recipients).map_err(|e| MailerError::Build(e.to_string()))?;
        let attachments: Vec<Attachment> = serde_json::from_str(&row.attachments)
            .map_err(|e| MailerError::Build(e.to_string()))?;
        let mut builder = Message::builder()
            .from(self.from.clone())
            .subject(row.subject.clone())
            .message_id(Some(format!("<{}@agora>", row.id)));
        for addr in &to {
            builder = builder.to(parse(addr)?);
        }
        if let Some(reply) = &row.reply_to {
            builder = builder.reply_to(parse(reply)?);
        }
        if let Some(url) = &row.list_unsubscribe {
            // RFC 2369 and RFC 8058: mail clients offer "Unsubscribe" and POST to the address.
            builder = builder
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str("List-Unsubscribe"),
                    format!("<{url}>"),
                ))
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
                    "List-Unsubscribe=One-Click".to_string(),
                ));
        }
        let text = SinglePart::plain(row.body.clone());
        let message = if attachments.is_empty() {
            match &row.html {
                Some(html) => builder.multipart(MultiPart::alternative_plain_html(
                    row.body.clone(),
                    html.clone(),
                )),
                None => builder.singlepart(text),
            }
        } else {
            let mut parts = match &row.html {
                Some(html) => MultiPart::mixed().multipart(MultiPart::alternative_plain_html(
                    row.body.clone(),
                    html.clone(),
                )),
                None => MultiPart::mixed().singlepart(text),
            };
            for a in attachments {
                let bytes = storage
                    .get(&a.storage_key)
                    .await
                    .and_then(|found| {
                        found.ok_or_else(|| {
                            std::io::Error::new(std::io::ErrorKind::NotFound, "no such file")
                        })
                    })
                    .map_err(|e| MailerError::Attachment(a.filename.clone(), e))?
                    .to_vec();
                let content_type = ContentType::parse(&a.content_type).unwrap_or(
                    ContentType::parse("application/octet-stream")
                        .map_err(|e| MailerError::Build(e.to_string()))?,
                );
                // Files are always sent base64: documents are binary even when they look like
                // text, and 7-bit transfer would not survive every relay.
                let body = Body::new_with_encoding(bytes, ContentTransferEncoding::Base64)
                    .map_err(|_| MailerError::Build("cannot encode attachment".into()))?;
                parts =
                    parts.singlepart(LettreAttachment::new(a.filename).body(body, content_type));
            }
            builder.multipart(parts)
        };
        message.map_err(|e| MailerError::Build(e.to_string()))
    }
}

fn parse(addr: &str) -> Result<Mailbox, MailerError> {
    addr.parse()
        .map_err(|_| MailerError::Address(addr.to_string()))
}
