//! The outbox table, on both engines.

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::Email;
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

crate::traced_store! {
pub trait OutboxStore: Send + Sync, traced as TracedOutboxStore {
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

macro_rules! sql_outbox {
    ($store:ident, $enqueue:ident, $enqueue_bulk:ident, $db:ty, $pool:ty, $conn:ty) => {
        /// Queues `email` inside the caller's transaction; returns the message id.
        pub async fn $enqueue(conn: &mut $conn, email: &Email) -> Result<String, sqlx::Error> {
            queue(conn, email, TRANSACTIONAL).await
        }

        /// Queues bulk `email` (an announcement, a digest) inside the caller's transaction:
        /// sent after any transactional email that is due.
        pub async fn $enqueue_bulk(
            conn: &mut $conn,
            email: &Email,
        ) -> Result<String, sqlx::Error> {
            queue(conn, email, BULK).await
        }

        async fn queue(
            conn: &mut $conn,
            email: &Email,
            priority: i32,
        ) -> Result<String, sqlx::Error> {
            let id = crate::ids::new_id();
            let now = crate::ids::now();
            let (recipients, attachments) = encode(email);
            let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                "INSERT INTO outbox (id, created_at, recipients, reply_to, subject, body, \
                 attachments, status, attempts, next_attempt_at, list_unsubscribe, priority, \
                 html) VALUES (",
            );
            let mut sep = qb.separated(", ");
            sep.push_bind(id.clone())
                .push_bind(now)
                .push_bind(recipients)
                .push_bind(email.reply_to.clone())
                .push_bind(email.subject.clone())
                .push_bind(email.body.clone())
                .push_bind(attachments)
                .push_bind("pending")
                .push_bind(0i32)
                .push_bind(now)
                .push_bind(email.list_unsubscribe.clone())
                .push_bind(priority)
                .push_bind(email.html.clone());
            qb.push(")");
            qb.build().execute(&mut *conn).await?;
            Ok(id)
        }

        pub struct $store {
            pub(super) pool: $pool,
        }

        #[async_trait]
        impl OutboxStore for $store {
            async fn due(
                &self,
                now: DateTime<Utc>,
                limit: i64,
            ) -> Result<Vec<OutboxRow>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                    "SELECT {COLUMNS} FROM outbox WHERE status = 'pending' AND redacted_at IS NULL \
                     AND next_attempt_at <= "
                ));
                qb.push_bind(now);
                qb.push(" ORDER BY priority, next_attempt_at LIMIT ");
                qb.push_bind(limit);
                qb.build_query_as().fetch_all(&self.pool).await
            }

            async fn claim_due(
                &self,
                now: DateTime<Utc>,
                lease: DateTime<Utc>,
                limit: i64,
            ) -> Result<Vec<OutboxRow>, sqlx::Error> {
                // The rows are picked once (a subquery under IN may be run again, and with
                // SKIP LOCKED each run could pick others), then taken.
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "WITH picked AS MATERIALIZED (SELECT id AS picked_id FROM outbox \
                     WHERE status = 'pending' AND redacted_at IS NULL AND next_attempt_at <= ",
                );
                qb.push_bind(now);
                qb.push(" ORDER BY priority, next_attempt_at LIMIT ");
                qb.push_bind(limit);
                qb.push(SKIP_LOCKED);
                qb.push(") UPDATE outbox SET next_attempt_at = ");
                qb.push_bind(lease);
                qb.push(format!(
                    " FROM picked WHERE outbox.id = picked.picked_id AND status = 'pending' \
                     RETURNING {COLUMNS}"
                ));
                let mut rows: Vec<OutboxRow> = qb.build_query_as().fetch_all(&self.pool).await?;
                // RETURNING keeps no order.
                rows.sort_by(|a, b| {
                    (a.priority, a.created_at, &a.id).cmp(&(b.priority, b.created_at, &b.id))
                });
                Ok(rows)
            }

            async fn extend_lease(
                &self,
                ids: &[String],
                until: DateTime<Utc>,
            ) -> Result<(), sqlx::Error> {
                if ids.is_empty() {
                    return Ok(());
                }
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("UPDATE outbox SET next_attempt_at = ");
                qb.push_bind(until);
                qb.push(" WHERE status = 'pending' AND id IN (");
                let mut listed = qb.separated(", ");
                for id in ids {
                    listed.push_bind(id.clone());
                }
                qb.push(")");
                qb.build().execute(&self.pool).await?;
                Ok(())
            }

            async fn mark_sent(&self, id: &str, at: DateTime<Utc>) -> Result<(), sqlx::Error> {
                // A message discarded while it was being sent was still delivered: say so.
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "UPDATE outbox SET status = 'sent', attempts = attempts + 1, last_error = NULL, \
                     body = '', html = NULL, list_unsubscribe = NULL, sent_at = ",
                );
                qb.push_bind(at);
                qb.push(", redacted_at = COALESCE(redacted_at, ");
                qb.push_bind(at);
                qb.push(") WHERE id = ");
                qb.push_bind(id.to_string());
                qb.build().execute(&self.pool).await?;
                Ok(())
            }

            async fn mark_failed(
                &self,
                id: &str,
                attempts: i32,
                next: DateTime<Utc>,
                error: &str,
                gave_up: bool,
            ) -> Result<(), sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("UPDATE outbox SET attempts = ");
                qb.push_bind(attempts);
                qb.push(", next_attempt_at = ").push_bind(next);
                qb.push(", last_error = ").push_bind(error.chars().take(1000).collect::<String>());
                qb.push(", status = ").push_bind(if gave_up { "failed" } else { "pending" });
                qb.push(" WHERE redacted_at IS NULL AND id = ").push_bind(id.to_string());
                qb.build().execute(&self.pool).await?;
                Ok(())
            }

            async fn list(&self, limit: i64) -> Result<Vec<OutboxRow>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                    "SELECT {COLUMNS} FROM outbox ORDER BY created_at DESC LIMIT "
                ));
                qb.push_bind(limit);
                qb.build_query_as().fetch_all(&self.pool).await
            }

            async fn pending(&self) -> Result<(i64, Option<DateTime<Utc>>), sqlx::Error> {
                sqlx::query_as::<$db, (i64, Option<DateTime<Utc>>)>(
                    "SELECT COUNT(*), MIN(created_at) FROM outbox \
                     WHERE status = 'pending' AND redacted_at IS NULL",
                )
                .fetch_one(&self.pool)
                .await
            }

            async fn given_up(&self) -> Result<i64, sqlx::Error> {
                sqlx::query_scalar::<$db, i64>(
                    "SELECT COUNT(*) FROM outbox WHERE status = 'failed' AND redacted_at IS NULL",
                )
                .fetch_one(&self.pool)
                .await
            }

            async fn retry(&self, id: &str, now: DateTime<Utc>) -> Result<bool, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "UPDATE outbox SET status = 'pending', next_attempt_at = ",
                );
                qb.push_bind(now);
                qb.push(" WHERE status <> 'sent' AND redacted_at IS NULL AND id = ");
                qb.push_bind(id.to_string());
                Ok(qb.build().execute(&self.pool).await?.rows_affected() == 1)
            }

            async fn discard(
                &self,
                id: &str,
                at: DateTime<Utc>,
                note: &str,
            ) -> Result<Option<String>, sqlx::Error> {
                const UNSENT: &str = " WHERE status <> 'sent' AND redacted_at IS NULL AND id = ";
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new(format!("SELECT attachments FROM outbox{UNSENT}"));
                qb.push_bind(id.to_string());
                let attachments: Option<String> =
                    qb.build_query_scalar().fetch_optional(&self.pool).await?;
                let Some(attachments) = attachments else {
                    return Ok(None);
                };
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "UPDATE outbox SET status = 'failed', body = '', html = NULL, list_unsubscribe = NULL, \
                     redacted_at = ",
                );
                qb.push_bind(at);
                qb.push(", last_error = ").push_bind(note.to_string());
                qb.push(" || COALESCE('; last error: ' || last_error, '')");
                qb.push(UNSENT).push_bind(id.to_string());
                let done = qb.build().execute(&self.pool).await?.rows_affected() == 1;
                Ok(done.then_some(attachments))
            }

            async fn expired(
                &self,
                failed_before: DateTime<Utc>,
                limit: i64,
            ) -> Result<Vec<OutboxRow>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                    "SELECT {COLUMNS} FROM outbox WHERE (redacted_at IS NULL AND (status = 'sent' \
                     OR (status = 'failed' AND created_at < "
                ));
                qb.push_bind(failed_before);
                // A message with documents given up on keeps them until an operator retries
                // or discards it: they are an applicant's, and the team never got them.
                qb.push(" AND attachments = '[]'))) OR (redacted_at IS NOT NULL AND attachments <> '[]') ");
                qb.push("ORDER BY created_at LIMIT ");
                qb.push_bind(limit);
                qb.build_query_as().fetch_all(&self.pool).await
            }

            async fn redact(&self, id: &str, at: DateTime<Utc>) -> Result<bool, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new(
                        "UPDATE outbox SET body = '', html = NULL, list_unsubscribe = NULL, redacted_at = ",
                    );
                qb.push_bind(at);
                qb.push(" WHERE status <> 'pending' AND redacted_at IS NULL AND id = ");
                qb.push_bind(id.to_string());
                Ok(qb.build().execute(&self.pool).await?.rows_affected() == 1)
            }

            async fn clear_attachments(&self, id: &str) -> Result<(), sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "UPDATE outbox SET attachments = '[]' WHERE redacted_at IS NOT NULL AND id = ",
                );
                qb.push_bind(id.to_string());
                qb.build().execute(&self.pool).await?;
                Ok(())
            }
        }
    };
}

mod sqlite {
    use super::*;
    /// One write at a time: a claim never meets another.
    const SKIP_LOCKED: &str = "";
    sql_outbox!(
        SqliteOutboxStore,
        enqueue_sqlite,
        enqueue_bulk_sqlite,
        sqlx::Sqlite,
        sqlx::SqlitePool,
        sqlx::SqliteConnection
    );
}
mod postgres {
    use super::*;
    /// Rows another instance is claiming are left to it, not waited for.
    const SKIP_LOCKED: &str = " FOR UPDATE SKIP LOCKED";
    sql_outbox!(
        PgOutboxStore,
        enqueue_pg,
        enqueue_bulk_pg,
        sqlx::Postgres,
        sqlx::PgPool,
        sqlx::PgConnection
    );
}
pub use postgres::{enqueue_bulk_pg, enqueue_pg, PgOutboxStore};
pub use sqlite::{enqueue_bulk_sqlite, enqueue_sqlite, SqliteOutboxStore};

pub fn outbox_store_for(db: &Db) -> Arc<dyn OutboxStore> {
    match db {
        Db::Sqlite(pool) => Arc::new(TracedOutboxStore(SqliteOutboxStore { pool: pool.clone() })),
        Db::Postgres(pool) => Arc::new(TracedOutboxStore(PgOutboxStore { pool: pool.clone() })),
    }
}
