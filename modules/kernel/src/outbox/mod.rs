//! Durable email. A request that must send mail stores the message in the `outbox` table in
//! the same transaction as its own data ([`enqueue_sqlite`] / [`enqueue_pg`]); a background
//! job ([`Outbox::deliver_due`]) sends due messages, retrying with exponential backoff and
//! giving up only after a configured number of attempts, leaving the message for an operator.

mod mailer;
mod store;

use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

pub use mailer::{Mailer, MailerError};
pub use store::{enqueue_pg, enqueue_sqlite, outbox_store_for, OutboxRow, OutboxStore};

use crate::storage::LocalStorage;

/// A file to attach, already stored (by key) in the uploads storage.
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
    pub body: String,
    pub attachments: Vec<Attachment>,
}

#[derive(Debug, Clone)]
pub struct OutboxSettings {
    pub max_attempts: i32,
    /// Delay before the first retry; doubles with each attempt, up to `max_backoff`.
    pub base_backoff: Duration,
    pub max_backoff: Duration,
}

impl Default for OutboxSettings {
    fn default() -> Self {
        OutboxSettings {
            max_attempts: 8,
            base_backoff: Duration::from_secs(30),
            max_backoff: Duration::from_secs(3600),
        }
    }
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct DeliveryReport {
    pub sent: usize,
    pub retrying: usize,
    pub gave_up: usize,
}

pub struct Outbox {
    store: Arc<dyn OutboxStore>,
    mailer: Mailer,
    storage: Arc<LocalStorage>,
    settings: OutboxSettings,
}

impl Outbox {
    pub fn new(
        store: Arc<dyn OutboxStore>,
        mailer: Mailer,
        storage: Arc<LocalStorage>,
        settings: OutboxSettings,
    ) -> Self {
        Self {
            store,
            mailer,
            storage,
            settings,
        }
    }

    fn backoff(&self, attempts: i32) -> Duration {
        let exp = u32::try_from(attempts.saturating_sub(1))
            .unwrap_or(0)
            .min(20);
        self.settings
            .base_backoff
            .saturating_mul(2u32.saturating_pow(exp))
            .min(self.settings.max_backoff)
    }

    /// Sends every due message once.
    #[tracing::instrument(skip(self))]
    pub async fn deliver_due(&self) -> Result<DeliveryReport, sqlx::Error> {
        let now = crate::ids::now();
        let mut report = DeliveryReport::default();
        for row in self.store.due(now, 50).await? {
            // Claim it, so another instance does not send it too.
            let lease = now + chrono::Duration::minutes(5);
            if !self
                .store
                .claim(&row.id, row.next_attempt_at, lease)
                .await?
            {
                continue;
            }
            match self.mailer.send(&row, &self.storage).await {
                Ok(()) => {
                    self.store.mark_sent(&row.id, crate::ids::now()).await?;
                    report.sent += 1;
                }
                Err(e) => {
                    let attempts = row.attempts + 1;
                    let gave_up = attempts >= self.settings.max_attempts;
                    let next = crate::ids::now()
                        + chrono::Duration::from_std(self.backoff(attempts))
                            .unwrap_or(chrono::Duration::hours(1));
                    tracing::warn!(id = %row.id, attempts, gave_up, error = %e, "email not delivered");
                    self.store
                        .mark_failed(&row.id, attempts, next, &e.to_string(), gave_up)
                        .await?;
                    if gave_up {
                        report.gave_up += 1;
                    } else {
                        report.retrying += 1;
                    }
                }
            }
        }
        Ok(report)
    }

    pub async fn list(&self, limit: i64) -> Result<Vec<OutboxRow>, sqlx::Error> {
        self.store.list(limit).await
    }

    /// Puts a message (typically one that was given up on) back in line now.
    pub async fn retry(&self, id: &str) -> Result<bool, sqlx::Error> {
        self.store.retry(id, crate::ids::now()).await
    }
}
