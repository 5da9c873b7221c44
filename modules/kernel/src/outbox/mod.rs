//! Durable email. A request that must send mail stores the message in the `outbox` table in
//! the same transaction as its own data ([`enqueue_sqlite`] / [`enqueue_pg`]); a background
//! job ([`Outbox::deliver_due`]) sends due messages, retrying with exponential backoff and
//! giving up only after a configured number of attempts, leaving the message for an operator.
//!
//! A message's body may carry single-use links (account confirmation, unsubscribe), so it is
//! kept only while the message may still be sent: on delivery the body is removed and the
//! attachment files are deleted (the delivered message is then their only copy), leaving the
//! metadata an operator needs (id, recipients, subject, status, attempts, times, last error).
//! A message that was given up on keeps its body for [`OutboxSettings::failed_retention`] after
//! it was queued, so an operator can retry it; then, or when an operator discards it, it is
//! redacted the same way.

mod mailer;
mod message;
mod store;

#[cfg(feature = "conformance")]
pub mod conformance;

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::Duration;

pub use mailer::{Mailer, MailerError};
pub use message::{Attachment, Email};
pub use store::{enqueue, enqueue_bulk, outbox_store_for, OutboxRow, OutboxStore};

use crate::storage::Storage;

#[derive(Debug, Clone)]
pub struct OutboxSettings {
    pub max_attempts: i32,
    /// Delay before the first retry; doubles with each attempt, up to `max_backoff`.
    pub base_backoff: Duration,
    pub max_backoff: Duration,
    /// How long a message that was given up on keeps its body (and attachments), counted from
    /// when it was queued; then they are removed.
    pub failed_retention: Duration,
    /// How long a claimed batch stays with the instance that claimed it without word from it
    /// ([`DEFAULT_CLAIM`]); the sender renews the claim every third of it while it sends.
    pub claim: Duration,
}

/// Default of [`OutboxSettings::claim`]: 30 seconds, long enough to send a batch even when
/// each message takes the mail server's whole timeout.
pub const DEFAULT_CLAIM: Duration = Duration::from_secs(30);

/// Default of [`OutboxSettings::failed_retention`]: 7 days.
pub const DEFAULT_FAILED_RETENTION: Duration = Duration::from_secs(7 * 24 * 3600);

/// How often [`Outbox::deliver_due`] also looks for bodies to remove.
const PURGE_EVERY: Duration = Duration::from_secs(600);

impl Default for OutboxSettings {
    fn default() -> Self {
        OutboxSettings {
            max_attempts: 8,
            base_backoff: Duration::from_secs(30),
            max_backoff: Duration::from_secs(3600),
            failed_retention: DEFAULT_FAILED_RETENTION,
            claim: DEFAULT_CLAIM,
        }
    }
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct DeliveryReport {
    pub sent: usize,
    pub retrying: usize,
    pub gave_up: usize,
    /// Bodies removed from messages given up on long ago (or left over).
    pub redacted: usize,
}

/// Messages without attachments sent at the same time, and taken per batch: an instance
/// holds no more messages than it is sending.
const SENDERS: usize = 4;
const BATCH: i64 = SENDERS as i64;
// A claimed batch stays with the instance that claimed it for `OutboxSettings::claim`; the
// sender renews the claim every third of it while it sends. An instance that dies holds its
// messages at most that long: then another sends them. A message the mail server had accepted
// when the instance died (at most [`SENDERS`]) is sent again, under the same `Message-ID`.

/// What became of one message.
enum Delivered {
    Sent,
    Retrying,
    GaveUp,
}

impl DeliveryReport {
    fn count(&mut self, d: Delivered) {
        match d {
            Delivered::Sent => self.sent += 1,
            Delivered::Retrying => self.retrying += 1,
            Delivered::GaveUp => self.gave_up += 1,
        }
    }
}
/// A delivery run stops taking new batches after this long (the next run goes on).
const RUN_BUDGET: Duration = Duration::from_secs(60);

pub struct Outbox {
    store: Arc<dyn OutboxStore>,
    mailer: Mailer,
    storage: Arc<Storage>,
    settings: OutboxSettings,
    /// When the last purge ran (Unix seconds; 0: not yet).
    last_purge: AtomicI64,
    /// Held while a delivery run is going: the scheduler may fire again before a slow run (large
    /// attachments, a slow relay) ends, and two runs would hold two messages in memory.
    running: tokio::sync::Mutex<()>,
}

impl Outbox {
    pub fn new(
        store: Arc<dyn OutboxStore>,
        mailer: Mailer,
        storage: Arc<Storage>,
        settings: OutboxSettings,
    ) -> Self {
        Self {
            store,
            mailer,
            storage,
            settings,
            last_purge: AtomicI64::new(0),
            running: tokio::sync::Mutex::new(()),
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

    /// Sends every due message once (and, every few minutes, removes the bodies of messages
    /// given up on for longer than the retention, see [`Outbox::purge`]).
    #[tracing::instrument(skip(self))]
    pub async fn deliver_due(&self) -> Result<DeliveryReport, sqlx::Error> {
        let Ok(_running) = self.running.try_lock() else {
            // The previous run is still sending; it will pick up what is due.
            return Ok(DeliveryReport::default());
        };
        let now = crate::ids::now();
        let mut report = DeliveryReport::default();
        let last = self.last_purge.load(Ordering::Relaxed);
        let every = i64::try_from(PURGE_EVERY.as_secs()).unwrap_or(600);
        if now.timestamp() - last >= every
            && self
                .last_purge
                .compare_exchange(last, now.timestamp(), Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
        {
            // Removing old bodies must not hold up delivery.
            match self.purge().await {
                Ok(n) => report.redacted = n,
                Err(e) => tracing::warn!(error = %e, "outbox: old bodies not removed; will retry"),
            }
        }
        // Batch after batch while messages are due (an announcement queues thousands), each
        // batch taking transactional email first, for at most a minute per run.
        let started = std::time::Instant::now();
        loop {
            // The batch is ours until the lease ends, long enough to send every message of
            // it even when each one takes the mail server's whole timeout.
            let now = crate::ids::now();
            let lease = chrono::Duration::from_std(self.settings.claim)
                .unwrap_or(chrono::Duration::seconds(30));
            let renew_every = (self.settings.claim / 3).max(Duration::from_millis(100));
            let batch = self.store.claim_due(now, now + lease, BATCH).await?;
            let full = batch.len() == usize::try_from(BATCH).unwrap_or(usize::MAX);
            // The claim is renewed while the batch is being sent (large attachments, a slow
            // relay), for the messages not done yet.
            let unsent: Arc<std::sync::Mutex<Vec<String>>> = Arc::new(std::sync::Mutex::new(
                batch.iter().map(|r| r.id.clone()).collect(),
            ));
            let renewal = {
                let (store, unsent) = (self.store.clone(), unsent.clone());
                tokio::spawn(async move {
                    let mut tick = tokio::time::interval(renew_every);
                    tick.tick().await;
                    loop {
                        tick.tick().await;
                        let ids = unsent.lock().map(|ids| ids.clone()).unwrap_or_default();
                        if let Err(e) = store.extend_lease(&ids, crate::ids::now() + lease).await {
                            tracing::warn!(error = %e, "outbox: claim not renewed");
                        }
                    }
                })
            };
            let done = |id: &str| {
                if let Ok(mut ids) = unsent.lock() {
                    ids.retain(|i| i != id);
                }
            };
            // Messages without attachments go a few at a time (each waits on the mail server
            // most of its time); those with attachments, built whole in memory, one at a time.
            let (heavy, light): (Vec<OutboxRow>, Vec<OutboxRow>) = batch
                .into_iter()
                .partition(|row| row.attachments.trim() != "[]");
            let mut light = light.into_iter().peekable();
            while light.peek().is_some() {
                let group: Vec<OutboxRow> = light.by_ref().take(SENDERS).collect();
                let outcomes = futures_util::future::join_all(group.into_iter().map(|row| async {
                    let id = row.id.clone();
                    let outcome = self.deliver(row).await;
                    done(&id);
                    outcome
                }))
                .await;
                for outcome in outcomes {
                    match outcome {
                        Ok(d) => report.count(d),
                        Err(e) => {
                            renewal.abort();
                            return Err(e);
                        }
                    }
                }
            }
            for row in heavy {
                let id = row.id.clone();
                let outcome = self.deliver(row).await;
                done(&id);
                match outcome {
                    Ok(d) => report.count(d),
                    Err(e) => {
                        renewal.abort();
                        return Err(e);
                    }
                }
            }
            renewal.abort();
            if !full || started.elapsed() > RUN_BUDGET {
                break;
            }
        }
        Ok(report)
    }

    /// Sends one claimed message and records how it went.
    async fn deliver(&self, row: OutboxRow) -> Result<Delivered, sqlx::Error> {
        let result = self.mailer.send(&row, &self.storage).await;
        if row.attachments.trim() != "[]" {
            // A message with attachments was built whole in memory (tens of MB): hand the
            // freed pages back rather than keep them for the life of the process.
            crate::memory::release_free_memory();
        }
        match result {
            Ok(()) => {
                self.store.mark_sent(&row.id, crate::ids::now()).await?;
                // The delivered message is now the documents' only copy.
                self.remove_attachments(&row.id, &row.attachments).await?;
                Ok(Delivered::Sent)
            }
            Err(e) => {
                let attempts = row.attempts + 1;
                // A permanent refusal is final at once: retrying it for hours would only end
                // the same way, later.
                let gave_up = e.is_permanent() || attempts >= self.settings.max_attempts;
                let next = crate::ids::now()
                    + chrono::Duration::from_std(self.backoff(attempts))
                        .unwrap_or(chrono::Duration::hours(1));
                if gave_up {
                    // Kept whole (attachments too) until an operator decides.
                    tracing::error!(
                        id = %row.id, attempts, permanent = e.is_permanent(), error = %e,
                        "email given up: kept for `agora outbox retry {}` or `discard`", row.id
                    );
                } else {
                    tracing::warn!(id = %row.id, attempts, error = %e, "email not delivered; will retry");
                }
                self.store
                    .mark_failed(&row.id, attempts, next, &e.to_string(), gave_up)
                    .await?;
                Ok(if gave_up {
                    Delivered::GaveUp
                } else {
                    Delivered::Retrying
                })
            }
        }
    }

    /// How many messages were given up on and wait for an operator (`agora outbox retry` or
    /// `discard`).
    pub async fn given_up(&self) -> Result<i64, sqlx::Error> {
        self.store.given_up().await
    }

    /// How many messages wait to be sent, and how old the oldest is (seconds; 0 when none).
    pub async fn queue(&self) -> Result<(i64, i64), sqlx::Error> {
        let (pending, oldest) = self.store.pending().await?;
        let age = oldest.map_or(0, |t| (crate::ids::now() - t).num_seconds().max(0));
        Ok((pending, age))
    }

    pub async fn list(&self, limit: i64) -> Result<Vec<OutboxRow>, sqlx::Error> {
        self.store.list(limit).await
    }

    /// Puts a message (typically one that was given up on) back in line now; false when there
    /// is no unsent message with this id whose body is still kept.
    pub async fn retry(&self, id: &str) -> Result<bool, sqlx::Error> {
        self.store.retry(id, crate::ids::now()).await
    }

    /// Gives up on an unsent message for good: removes its body and deletes its attachment
    /// files, keeping the metadata. False when there is no such unsent message.
    pub async fn discard(&self, id: &str) -> Result<bool, sqlx::Error> {
        let Some(attachments) = self
            .store
            .discard(id, crate::ids::now(), "discarded by an operator")
            .await?
        else {
            return Ok(false);
        };
        self.remove_attachments(id, &attachments).await?;
        Ok(true)
    }

    /// Removes the bodies (and attachment files) of messages given up on and queued more than
    /// the retention ago, and finishes any removal left half done (a sent message whose files
    /// could not be deleted, or rows delivered before bodies were removed on delivery).
    /// Returns how many bodies it removed.
    pub async fn purge(&self) -> Result<usize, sqlx::Error> {
        let now = crate::ids::now();
        let retention = chrono::Duration::from_std(self.settings.failed_retention)
            .unwrap_or(chrono::Duration::days(7));
        let cutoff = now - retention;
        let mut redacted = 0;
        loop {
            let rows = self.store.expired(cutoff, 100).await?;
            let mut progress = false;
            for row in &rows {
                if row.redacted_at.is_none() {
                    if !self.store.redact(&row.id, now).await? {
                        continue;
                    }
                    redacted += 1;
                    progress = true;
                }
                if self.remove_attachments(&row.id, &row.attachments).await? {
                    progress = true;
                }
            }
            // Stop when a batch changed nothing (e.g. files that cannot be deleted now).
            if rows.len() < 100 || !progress {
                break;
            }
        }
        if redacted > 0 {
            tracing::info!(redacted, "outbox: removed the bodies of old messages");
        }
        Ok(redacted)
    }

    /// Deletes the files of a redacted message's attachments, then forgets the list; true when
    /// the list was cleared (false when a file could not be deleted: the next purge retries).
    async fn remove_attachments(&self, id: &str, attachments: &str) -> Result<bool, sqlx::Error> {
        let list: Vec<Attachment> = serde_json::from_str(attachments).unwrap_or_default();
        if list.is_empty() && attachments.trim() == "[]" {
            return Ok(false);
        }
        for a in &list {
            if let Err(e) = self.storage.delete(&a.storage_key).await {
                tracing::warn!(id, key = %a.storage_key, error = %e, "attachment not deleted; will retry");
                return Ok(false);
            }
        }
        self.store.clear_attachments(id).await?;
        Ok(true)
    }
}
