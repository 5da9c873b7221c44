//! Where responses are kept: the responses, readers' reports of them, the readers the desk
//! blocked and the articles whose responses staff closed. The same statements on both engines.

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use kernel::Db;

pub use super::rows::{Counts, NewResponse, QueuedRow, Reported, ResponseRow, ShownRow};

#[async_trait]
pub trait ResponseStore: Send + Sync {
    async fn insert(&self, r: &NewResponse) -> Result<(), sqlx::Error>;
    /// Keeps `r` only while its reader has fewer than `max_pending` waiting and fewer than
    /// `max_since` sent at or after `since`: counted and written as one, per reader, so
    /// responses sent at once cannot pass the limits together. False when refused.
    async fn insert_within(
        &self,
        r: &NewResponse,
        max_pending: i64,
        since: DateTime<Utc>,
        max_since: i64,
    ) -> Result<bool, sqlx::Error>;
    async fn get(&self, id: &str) -> Result<Option<ResponseRow>, sqlx::Error>;
    /// How many readers reported the response `id` since the desk last approved it.
    async fn reports(&self, id: &str) -> Result<i64, sqlx::Error>;
    /// The reader's responses waiting, sent at or after `since`, and whether they are blocked.
    async fn counts(&self, account_id: &str, since: DateTime<Utc>) -> Result<Counts, sqlx::Error>;
    /// An article's approved responses, oldest first.
    async fn shown(&self, article_id: &str) -> Result<Vec<ShownRow>, sqlx::Error>;
    /// A reader's responses, newest first.
    async fn of_reader(&self, account_id: &str) -> Result<Vec<ResponseRow>, sqlx::Error>;
    /// Deletes the reader's own response; false when they have none with this id.
    async fn delete_own(&self, id: &str, account_id: &str) -> Result<bool, sqlx::Error>;
    /// Responses waiting for the desk, oldest first.
    async fn queue(&self) -> Result<Vec<QueuedRow>, sqlx::Error>;
    /// Approves (clearing its reports) or rejects a waiting response; false when it is not
    /// waiting (decided meanwhile, deleted, or never there).
    async fn decide(
        &self,
        id: &str,
        approve: bool,
        reason: Option<&str>,
        by: &str,
        at: DateTime<Utc>,
    ) -> Result<bool, sqlx::Error>;
    /// A reader reports an approved response; at `threshold` reports it waits again.
    async fn report(
        &self,
        id: &str,
        account_id: &str,
        threshold: i64,
        at: DateTime<Utc>,
    ) -> Result<Reported, sqlx::Error>;
    /// Stops a reader from responding; false when they were already.
    async fn block(
        &self,
        account_id: &str,
        by: &str,
        at: DateTime<Utc>,
    ) -> Result<bool, sqlx::Error>;
    async fn is_closed(&self, article_id: &str) -> Result<bool, sqlx::Error>;
    /// Closes (or opens again) an article's responses.
    async fn set_closed(
        &self,
        article_id: &str,
        closed: bool,
        by: &str,
        at: DateTime<Utc>,
    ) -> Result<(), sqlx::Error>;
}

const COLUMNS: &str = "id, article_id, account_id, body, status, reason, created_at, decided_at";

struct SqlResponseStore {
    db: Db,
}

pub fn response_store_for(db: &Db) -> Arc<dyn ResponseStore> {
    Arc::new(SqlResponseStore { db: db.clone() })
}

#[async_trait]
impl ResponseStore for SqlResponseStore {
    #[tracing::instrument(target = "trace_only", name = "ResponseStore.insert", skip_all)]
    async fn insert(&self, r: &NewResponse) -> Result<(), sqlx::Error> {
        let mut q = self.db.sql(
            "INSERT INTO article_responses (id, article_id, account_id, body, status, created_at) \
             VALUES (",
        );
        q.separated()
            .bind(r.id.clone())
            .bind(r.article_id.clone())
            .bind(r.account_id.clone())
            .bind(r.body.clone())
            .bind("pending".to_string())
            .bind(r.created_at);
        q.push(")");
        q.execute(&self.db).await.map(|_| ())
    }

    #[tracing::instrument(target = "trace_only", name = "ResponseStore.insert_within", skip_all)]
    async fn insert_within(
        &self,
        r: &NewResponse,
        max_pending: i64,
        since: DateTime<Utc>,
        max_since: i64,
    ) -> Result<bool, sqlx::Error> {
        let mut tx = self.db.begin().await?;
        // The reader's row is written first: on PostgreSQL that locks it until the commit, so
        // a second send by the same reader counts after this one; SQLite writes one at a time.
        let mut q = self.db.sql("UPDATE accounts SET id = id WHERE id = ");
        q.bind(r.account_id.clone());
        q.execute(&mut tx).await?;
        let mut q = self.db.sql(
            "INSERT INTO article_responses (id, article_id, account_id, body, status, created_at) \
             SELECT ",
        );
        q.separated()
            .bind(r.id.clone())
            .bind(r.article_id.clone())
            .bind(r.account_id.clone())
            .bind(r.body.clone())
            .bind("pending".to_string())
            .bind(r.created_at);
        q.push(" WHERE (SELECT COUNT(*) FROM article_responses WHERE status = 'pending' AND account_id = ")
            .bind(r.account_id.clone())
            .push(") < ")
            .bind(max_pending)
            .push(" AND (SELECT COUNT(*) FROM article_responses WHERE account_id = ")
            .bind(r.account_id.clone())
            .push(" AND created_at >= ")
            .bind(since)
            .push(") < ")
            .bind(max_since);
        let kept = q.execute(&mut tx).await? == 1;
        tx.commit().await?;
        Ok(kept)
    }

    #[tracing::instrument(target = "trace_only", name = "ResponseStore.get", skip_all)]
    async fn get(&self, id: &str) -> Result<Option<ResponseRow>, sqlx::Error> {
        let mut q = self.db.sql(&format!(
            "SELECT {COLUMNS} FROM article_responses WHERE id = "
        ));
        q.bind(id.to_string());
        q.fetch_optional(&self.db).await
    }

    #[tracing::instrument(target = "trace_only", name = "ResponseStore.reports", skip_all)]
    async fn reports(&self, id: &str) -> Result<i64, sqlx::Error> {
        let mut q = self
            .db
            .sql("SELECT COUNT(*) FROM response_reports WHERE response_id = ");
        q.bind(id.to_string());
        q.scalar(&self.db).await
    }

    #[tracing::instrument(target = "trace_only", name = "ResponseStore.counts", skip_all)]
    async fn counts(&self, account_id: &str, since: DateTime<Utc>) -> Result<Counts, sqlx::Error> {
        let mut q = self.db.sql(
            "SELECT COUNT(*) FROM article_responses WHERE status = 'pending' AND account_id = ",
        );
        q.bind(account_id.to_string());
        let pending: i64 = q.scalar(&self.db).await?;
        let mut q = self
            .db
            .sql("SELECT COUNT(*) FROM article_responses WHERE account_id = ");
        q.bind(account_id.to_string())
            .push(" AND created_at >= ")
            .bind(since);
        let sent: i64 = q.scalar(&self.db).await?;
        let mut q = self
            .db
            .sql("SELECT COUNT(*) FROM response_blocks WHERE account_id = ");
        q.bind(account_id.to_string());
        let blocked: i64 = q.scalar(&self.db).await?;
        let mut q = self
            .db
            .sql("SELECT COUNT(*) FROM accounts WHERE confirmed_at IS NOT NULL AND id = ");
        q.bind(account_id.to_string());
        let confirmed: i64 = q.scalar(&self.db).await?;
        Ok(Counts {
            confirmed: confirmed > 0,
            pending,
            since: sent,
            blocked: blocked > 0,
        })
    }

    #[tracing::instrument(target = "trace_only", name = "ResponseStore.shown", skip_all)]
    async fn shown(&self, article_id: &str) -> Result<Vec<ShownRow>, sqlx::Error> {
        let mut q = self.db.sql(
            "SELECT r.id, r.body, r.created_at, a.first_name, a.last_name \
             FROM article_responses r JOIN accounts a ON a.id = r.account_id \
             WHERE r.status = 'approved' AND r.article_id = ",
        );
        q.bind(article_id.to_string())
            .push(" ORDER BY r.created_at, r.id");
        q.fetch_all(&self.db).await
    }

    #[tracing::instrument(target = "trace_only", name = "ResponseStore.of_reader", skip_all)]
    async fn of_reader(&self, account_id: &str) -> Result<Vec<ResponseRow>, sqlx::Error> {
        let mut q = self.db.sql(&format!(
            "SELECT {COLUMNS} FROM article_responses WHERE account_id = "
        ));
        q.bind(account_id.to_string())
            .push(" ORDER BY created_at DESC, id DESC");
        q.fetch_all(&self.db).await
    }

    #[tracing::instrument(target = "trace_only", name = "ResponseStore.delete_own", skip_all)]
    async fn delete_own(&self, id: &str, account_id: &str) -> Result<bool, sqlx::Error> {
        let mut q = self.db.sql("DELETE FROM article_responses WHERE id = ");
        q.bind(id.to_string())
            .push(" AND account_id = ")
            .bind(account_id.to_string());
        Ok(q.execute(&self.db).await? == 1)
    }

    #[tracing::instrument(target = "trace_only", name = "ResponseStore.queue", skip_all)]
    async fn queue(&self) -> Result<Vec<QueuedRow>, sqlx::Error> {
        self.db
            .sql(
                "SELECT r.id, r.article_id, r.account_id, r.body, r.created_at, \
                 a.first_name, a.last_name, \
                 (SELECT COUNT(*) FROM response_reports p WHERE p.response_id = r.id) AS reports \
                 FROM article_responses r JOIN accounts a ON a.id = r.account_id \
                 WHERE r.status = 'pending' ORDER BY r.created_at, r.id",
            )
            .fetch_all(&self.db)
            .await
    }

    #[tracing::instrument(target = "trace_only", name = "ResponseStore.decide", skip_all)]
    async fn decide(
        &self,
        id: &str,
        approve: bool,
        reason: Option<&str>,
        by: &str,
        at: DateTime<Utc>,
    ) -> Result<bool, sqlx::Error> {
        let mut tx = self.db.begin().await?;
        let mut q = self.db.sql("UPDATE article_responses SET status = ");
        q.bind(if approve { "approved" } else { "rejected" }.to_string())
            .push(", reason = ")
            .bind(reason.filter(|_| !approve).map(str::to_string))
            .push(", decided_at = ")
            .bind(at)
            .push(", decided_by = ")
            .bind(by.to_string())
            .push(" WHERE status = 'pending' AND id = ")
            .bind(id.to_string());
        if q.execute(&mut tx).await? != 1 {
            return Ok(false);
        }
        // Approved again after reports: it takes three new ones to come back.
        let mut q = self
            .db
            .sql("DELETE FROM response_reports WHERE response_id = ");
        q.bind(id.to_string());
        q.execute(&mut tx).await?;
        tx.commit().await?;
        Ok(true)
    }

    #[tracing::instrument(target = "trace_only", name = "ResponseStore.report", skip_all)]
    async fn report(
        &self,
        id: &str,
        account_id: &str,
        threshold: i64,
        at: DateTime<Utc>,
    ) -> Result<Reported, sqlx::Error> {
        let mut tx = self.db.begin().await?;
        // Reports of one response wait for each other here (a row lock), so the count below
        // sees every report made before this one: the threshold is crossed exactly once.
        let mut q = self
            .db
            .sql("UPDATE article_responses SET id = id WHERE status = 'approved' AND id = ");
        q.bind(id.to_string());
        if q.execute(&mut tx).await? == 0 {
            return Ok(Reported::NotShown);
        }
        let mut q = self
            .db
            .sql("INSERT INTO response_reports (response_id, account_id, created_at) VALUES (");
        q.separated()
            .bind(id.to_string())
            .bind(account_id.to_string())
            .bind(at);
        q.push(") ON CONFLICT DO NOTHING");
        if q.execute(&mut tx).await? == 0 {
            tx.commit().await?;
            return Ok(Reported::Already);
        }
        // Taken back to the queue by the report that reaches the threshold, once: the update
        // only moves an approved response.
        let mut q = self.db.sql(
            "UPDATE article_responses SET status = 'pending', decided_at = NULL, \
             decided_by = NULL WHERE status = 'approved' AND id = ",
        );
        q.bind(id.to_string())
            .push(" AND (SELECT COUNT(*) FROM response_reports WHERE response_id = ")
            .bind(id.to_string())
            .push(") >= ")
            .bind(threshold);
        let requeued = q.execute(&mut tx).await? == 1;
        tx.commit().await?;
        Ok(if requeued {
            Reported::Requeued
        } else {
            Reported::Counted
        })
    }

    #[tracing::instrument(target = "trace_only", name = "ResponseStore.block", skip_all)]
    async fn block(
        &self,
        account_id: &str,
        by: &str,
        at: DateTime<Utc>,
    ) -> Result<bool, sqlx::Error> {
        let mut q = self
            .db
            .sql("INSERT INTO response_blocks (account_id, blocked_by, created_at) VALUES (");
        q.separated()
            .bind(account_id.to_string())
            .bind(by.to_string())
            .bind(at);
        q.push(") ON CONFLICT DO NOTHING");
        Ok(q.execute(&self.db).await? == 1)
    }

    #[tracing::instrument(target = "trace_only", name = "ResponseStore.is_closed", skip_all)]
    async fn is_closed(&self, article_id: &str) -> Result<bool, sqlx::Error> {
        let mut q = self
            .db
            .sql("SELECT COUNT(*) FROM response_closures WHERE article_id = ");
        q.bind(article_id.to_string());
        Ok(q.scalar::<i64>(&self.db).await? > 0)
    }

    #[tracing::instrument(target = "trace_only", name = "ResponseStore.set_closed", skip_all)]
    async fn set_closed(
        &self,
        article_id: &str,
        closed: bool,
        by: &str,
        at: DateTime<Utc>,
    ) -> Result<(), sqlx::Error> {
        let q = if closed {
            let mut q = self
                .db
                .sql("INSERT INTO response_closures (article_id, closed_by, created_at) VALUES (");
            q.separated()
                .bind(article_id.to_string())
                .bind(by.to_string())
                .bind(at);
            q.push(") ON CONFLICT DO NOTHING");
            q
        } else {
            let mut q = self
                .db
                .sql("DELETE FROM response_closures WHERE article_id = ");
            q.bind(article_id.to_string());
            q
        };
        q.execute(&self.db).await.map(|_| ())
    }
}
