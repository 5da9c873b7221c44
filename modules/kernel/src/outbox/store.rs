//! The outbox table, on both engines.

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::Email;
use crate::sql::On;
use crate::Db;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OutboxRow {
    pub id: String,
    pub created_at: DateTime<Utc>,
    /// JSON array of addresses.
    pub recipients: String,
    pub reply_to: Option<String>,
    pub subject: String,
    pub body: String,
    /// The HTML alternative of the body, if any; removed with the body.
    pub html: Option<String>,
    /// JSON array of [`super::Attachment`].
    pub attachments: String,
    pub status: String,
    pub attempts: i32,
    pub next_attempt_at: DateTime<Utc>,
    pub last_error: Option<String>,
    pub sent_at: Option<DateTime<Utc>>,
    /// When the body was removed (on delivery, discard or expiry); the row then keeps only its
    /// metadata and is never sent again.
    pub redacted_at: Option<DateTime<Utc>>,
    /// The one-click unsubscribe address of a list email; removed with the body.
    pub list_unsubscribe: Option<String>,
    /// 0 for transactional email, 1 for bulk (announcements, digests).
    pub priority: i32,
}

#[async_trait]
pub trait OutboxStore: Send + Sync {
    async fn due(&self, now: DateTime<Utc>, limit: i64) -> Result<Vec<OutboxRow>, sqlx::Error>;
    /// Takes up to `limit` due messages (transactional first) for delivery until `lease` and
    /// returns them, first to send first. Instances claiming at the same time take disjoint
    /// sets: PostgreSQL skips rows another claim holds (`FOR UPDATE SKIP LOCKED`); SQLite
    /// runs one write at a time.
    async fn claim_due(
        &self,
        now: DateTime<Utc>,
        lease: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<OutboxRow>, sqlx::Error>;
    /// Keeps the claim on the messages `ids` still pending until `until` (a sender renews it
    /// while it sends).
    async fn extend_lease(&self, ids: &[String], until: DateTime<Utc>) -> Result<(), sqlx::Error>;
    /// Records the delivery and removes the body (the attachment list stays until their files
    /// are deleted, see [`OutboxStore::clear_attachments`]).
    async fn mark_sent(&self, id: &str, at: DateTime<Utc>) -> Result<(), sqlx::Error>;
    async fn mark_failed(
        &self,
        id: &str,
        attempts: i32,
        next: DateTime<Utc>,
        error: &str,
        gave_up: bool,
    ) -> Result<(), sqlx::Error>;
    async fn list(&self, limit: i64) -> Result<Vec<OutboxRow>, sqlx::Error>;
    /// How many messages wait to be sent, and when the oldest of them was queued.
    async fn pending(&self) -> Result<(i64, Option<DateTime<Utc>>), sqlx::Error>;
    /// How many messages were given up on and still hold their body (for an operator).
    async fn given_up(&self) -> Result<i64, sqlx::Error>;
    /// Puts an unsent message whose body is still there back in line.
    async fn retry(&self, id: &str, now: DateTime<Utc>) -> Result<bool, sqlx::Error>;
    /// Takes an unsent message out of line for good (status `failed`, `last_error` saying
    /// why) and removes its body; returns its attachment list (JSON) when it did.
    async fn discard(
        &self,
        id: &str,
        at: DateTime<Utc>,
        note: &str,
    ) -> Result<Option<String>, sqlx::Error>;
    /// Messages with something left to remove: sent but not yet redacted, given up on and
    /// queued before `failed_before` (not those with attachments: they wait for an operator),
    /// or redacted with attachment files still listed.
    async fn expired(
        &self,
        failed_before: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<OutboxRow>, sqlx::Error>;
    /// Removes the body of a message that is not pending; true when it did.
    async fn redact(&self, id: &str, at: DateTime<Utc>) -> Result<bool, sqlx::Error>;
    /// Forgets the attachment list of a redacted message once its files are deleted.
    async fn clear_attachments(&self, id: &str) -> Result<(), sqlx::Error>;
}

const COLUMNS: &str = "id, created_at, recipients, reply_to, subject, body, attachments, status, \
                       attempts, next_attempt_at, last_error, sent_at, redacted_at, \
                       list_unsubscribe, priority, html";

fn encode(email: &Email) -> (String, String) {
    (
        serde_json::to_string(&email.to).unwrap_or_else(|_| "[]".into()),
        serde_json::to_string(&email.attachments).unwrap_or_else(|_| "[]".into()),
    )
}

/// Transactional email (confirmations, links, contact and application mail) goes first.
const TRANSACTIONAL: i32 = 0;
/// Announcements and digests wait for it.
const BULK: i32 = 1;

/// Queues `email` where the caller writes (its transaction, usually); returns the message id.
pub async fn enqueue<'a>(on: impl Into<On<'a>>, email: &Email) -> Result<String, sqlx::Error> {
    queue(on.into(), email, TRANSACTIONAL).await
}

/// Queues bulk `email` (an announcement, a digest) where the caller writes: sent after any
/// transactional email that is due.
pub async fn enqueue_bulk<'a>(on: impl Into<On<'a>>, email: &Email) -> Result<String, sqlx::Error> {
    queue(on.into(), email, BULK).await
}

async fn queue(on: On<'_>, email: &Email, priority: i32) -> Result<String, sqlx::Error> {
    let id = crate::ids::new_id();
    let now = crate::ids::now();
    let (recipients, attachments) = encode(email);
    let mut q = on.sql(
        "INSERT INTO outbox (id, created_at, recipients, reply_to, subject, body, \
         attachments, status, attempts, next_attempt_at, list_unsubscribe, priority, \
         html) VALUES (",
    );
    q.separated()
        .bind(id.clone())
        .bind(now)
        .bind(recipients)
        .bind(email.reply_to.clone())
        .bind(email.subject.clone())
        .bind(email.body.clone())
        .bind(attachments);
    q.push(", 'pending', 0, ")
        .bind(now)
        .push(", ")
        .bind(email.list_unsubscribe.clone())
        .push(", ")
        .bind(priority)
        .push(", ")
        .bind(email.html.clone())
        .push(")");
    q.execute(on).await?;
    Ok(id)
}

/// The outbox on either engine.
pub struct SqlOutboxStore {
    db: Db,
}

#[async_trait]
impl OutboxStore for SqlOutboxStore {
    #[tracing::instrument(target = "trace_only", name = "OutboxStore.due", skip_all)]
    async fn due(&self, now: DateTime<Utc>, limit: i64) -> Result<Vec<OutboxRow>, sqlx::Error> {
        let mut q = self.db.sql(&format!(
            "SELECT {COLUMNS} FROM outbox WHERE status = 'pending' AND redacted_at IS NULL \
             AND next_attempt_at <= "
        ));
        q.bind(now)
            .push(" ORDER BY priority, next_attempt_at LIMIT ")
            .bind(limit);
        q.fetch_all(&self.db).await
    }

    #[tracing::instrument(target = "trace_only", name = "OutboxStore.claim_due", skip_all)]
    async fn claim_due(
        &self,
        now: DateTime<Utc>,
        lease: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<OutboxRow>, sqlx::Error> {
        // The rows are picked once (a subquery under IN may be run again, and with SKIP LOCKED
        // each run could pick others), then taken.
        let mut q = self.db.sql(
            "WITH picked AS MATERIALIZED (SELECT id AS picked_id FROM outbox \
             WHERE status = 'pending' AND redacted_at IS NULL AND next_attempt_at <= ",
        );
        q.bind(now)
            .push(" ORDER BY priority, next_attempt_at LIMIT ")
            .bind(limit);
        if self.db.is_postgres() {
            // Rows another instance is claiming are left to it, not waited for (SQLite runs
            // one write at a time: a claim never meets another).
            q.push(" FOR UPDATE SKIP LOCKED");
        }
        q.push(") UPDATE outbox SET next_attempt_at = ")
            .bind(lease)
            .push(&format!(
                " FROM picked WHERE outbox.id = picked.picked_id AND status = 'pending' \
                 RETURNING {COLUMNS}"
            ));
        let mut rows: Vec<OutboxRow> = q.fetch_all(&self.db).await?;
        // RETURNING keeps no order.
        rows.sort_by(|a, b| {
            (a.priority, a.created_at, &a.id).cmp(&(b.priority, b.created_at, &b.id))
        });
        Ok(rows)
    }

    #[tracing::instrument(target = "trace_only", name = "OutboxStore.extend_lease", skip_all)]
    async fn extend_lease(&self, ids: &[String], until: DateTime<Utc>) -> Result<(), sqlx::Error> {
        if ids.is_empty() {
            return Ok(());
        }
        let mut q = self.db.sql("UPDATE outbox SET next_attempt_at = ");
        q.bind(until)
            .push(" WHERE status = 'pending' AND id IN (")
            .bind_list(ids.to_vec())
            .push(")");
        q.execute(&self.db).await?;
        Ok(())
    }

    #[tracing::instrument(target = "trace_only", name = "OutboxStore.mark_sent", skip_all)]
    async fn mark_sent(&self, id: &str, at: DateTime<Utc>) -> Result<(), sqlx::Error> {
        // A message discarded while it was being sent was still delivered: say so.
        let mut q = self.db.sql(
            "UPDATE outbox SET status = 'sent', attempts = attempts + 1, last_error = NULL, \
             body = '', html = NULL, list_unsubscribe = NULL, sent_at = ",
        );
        q.bind(at)
            .push(", redacted_at = COALESCE(redacted_at, ")
            .bind(at)
            .push(") WHERE id = ")
            .bind(id.to_string());
        q.execute(&self.db).await?;
        Ok(())
    }

    #[tracing::instrument(target = "trace_only", name = "OutboxStore.mark_failed", skip_all)]
    async fn mark_failed(
        &self,
        id: &str,
        attempts: i32,
        next: DateTime<Utc>,
        error: &str,
        gave_up: bool,
    ) -> Result<(), sqlx::Error> {
        let mut q = self.db.sql("UPDATE outbox SET attempts = ");
        q.bind(attempts)
            .push(", next_attempt_at = ")
            .bind(next)
            .push(", last_error = ")
            .bind(error.chars().take(1000).collect::<String>())
            .push(", status = ")
            .bind(if gave_up { "failed" } else { "pending" }.to_string())
            .push(" WHERE redacted_at IS NULL AND id = ")
            .bind(id.to_string());
        q.execute(&self.db).await?;
        Ok(())
    }

    #[tracing::instrument(target = "trace_only", name = "OutboxStore.list", skip_all)]
    async fn list(&self, limit: i64) -> Result<Vec<OutboxRow>, sqlx::Error> {
        let mut q = self.db.sql(&format!(
            "SELECT {COLUMNS} FROM outbox ORDER BY created_at DESC LIMIT "
        ));
        q.bind(limit);
        q.fetch_all(&self.db).await
    }

    #[tracing::instrument(target = "trace_only", name = "OutboxStore.pending", skip_all)]
    async fn pending(&self) -> Result<(i64, Option<DateTime<Utc>>), sqlx::Error> {
        self.db
            .sql(
                "SELECT COUNT(*), MIN(created_at) FROM outbox \
                 WHERE status = 'pending' AND redacted_at IS NULL",
            )
            .fetch_one(&self.db)
            .await
    }

    #[tracing::instrument(target = "trace_only", name = "OutboxStore.given_up", skip_all)]
    async fn given_up(&self) -> Result<i64, sqlx::Error> {
        self.db
            .sql("SELECT COUNT(*) FROM outbox WHERE status = 'failed' AND redacted_at IS NULL")
            .scalar(&self.db)
            .await
    }

    #[tracing::instrument(target = "trace_only", name = "OutboxStore.retry", skip_all)]
    async fn retry(&self, id: &str, now: DateTime<Utc>) -> Result<bool, sqlx::Error> {
        let mut q = self
            .db
            .sql("UPDATE outbox SET status = 'pending', next_attempt_at = ");
        q.bind(now)
            .push(" WHERE status <> 'sent' AND redacted_at IS NULL AND id = ")
            .bind(id.to_string());
        Ok(q.execute(&self.db).await? == 1)
    }

    #[tracing::instrument(target = "trace_only", name = "OutboxStore.discard", skip_all)]
    async fn discard(
        &self,
        id: &str,
        at: DateTime<Utc>,
        note: &str,
    ) -> Result<Option<String>, sqlx::Error> {
        const UNSENT: &str = " WHERE status <> 'sent' AND redacted_at IS NULL AND id = ";
        let mut q = self
            .db
            .sql(&format!("SELECT attachments FROM outbox{UNSENT}"));
        q.bind(id.to_string());
        let Some(attachments) = q.scalar_optional::<String>(&self.db).await? else {
            return Ok(None);
        };
        let mut q = self.db.sql(
            "UPDATE outbox SET status = 'failed', body = '', html = NULL, \
             list_unsubscribe = NULL, redacted_at = ",
        );
        q.bind(at)
            .push(", last_error = ")
            .bind(note.to_string())
            .push(" || COALESCE('; last error: ' || last_error, '')")
            .push(UNSENT)
            .bind(id.to_string());
        let done = q.execute(&self.db).await? == 1;
        Ok(done.then_some(attachments))
    }

    #[tracing::instrument(target = "trace_only", name = "OutboxStore.expired", skip_all)]
    async fn expired(
        &self,
        failed_before: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<OutboxRow>, sqlx::Error> {
        let mut q = self.db.sql(&format!(
            "SELECT {COLUMNS} FROM outbox WHERE (redacted_at IS NULL AND (status = 'sent' \
             OR (status = 'failed' AND created_at < "
        ));
        // A message with documents given up on keeps them until an operator retries or
        // discards it: they are an applicant's, and the team never got them.
        q.bind(failed_before)
            .push(
                " AND attachments = '[]'))) OR (redacted_at IS NOT NULL AND attachments <> '[]') \
                 ORDER BY created_at LIMIT ",
            )
            .bind(limit);
        q.fetch_all(&self.db).await
    }

    #[tracing::instrument(target = "trace_only", name = "OutboxStore.redact", skip_all)]
    async fn redact(&self, id: &str, at: DateTime<Utc>) -> Result<bool, sqlx::Error> {
        let mut q = self.db.sql(
            "UPDATE outbox SET body = '', html = NULL, list_unsubscribe = NULL, redacted_at = ",
        );
        q.bind(at)
            .push(" WHERE status <> 'pending' AND redacted_at IS NULL AND id = ")
            .bind(id.to_string());
        Ok(q.execute(&self.db).await? == 1)
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "OutboxStore.clear_attachments",
        skip_all
    )]
    async fn clear_attachments(&self, id: &str) -> Result<(), sqlx::Error> {
        let mut q = self
            .db
            .sql("UPDATE outbox SET attachments = '[]' WHERE redacted_at IS NOT NULL AND id = ");
        q.bind(id.to_string());
        q.execute(&self.db).await?;
        Ok(())
    }
}

pub fn outbox_store_for(db: &Db) -> Arc<dyn OutboxStore> {
    Arc::new(SqlOutboxStore { db: db.clone() })
}
