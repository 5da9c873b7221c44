//! The digest store in SQL: the same statements on both engines.

use super::*;

/// The store on either engine.
pub(super) struct SqlDigestStore {
    pub(super) db: Db,
}

#[async_trait]
impl DigestStore for SqlDigestStore {
    #[tracing::instrument(target = "trace_only", name = "DigestStore.claim", skip_all)]
    async fn claim(
        &self,
        period: &str,
        now: DateTime<Utc>,
        stale_before: DateTime<Utc>,
    ) -> Result<bool, sqlx::Error> {
        let mut q = self
            .db
            .sql("INSERT INTO digest_runs (period, started_at) VALUES (");
        q.bind(period.to_string())
            .push(", ")
            .bind(now)
            .push(
                ") ON CONFLICT (period) DO UPDATE SET started_at = excluded.started_at \
                 WHERE digest_runs.finished_at IS NULL AND digest_runs.started_at < ",
            )
            .bind(stale_before);
        Ok(q.execute(&self.db).await? == 1)
    }

    #[tracing::instrument(target = "trace_only", name = "DigestStore.touch", skip_all)]
    async fn touch(&self, period: &str, at: DateTime<Utc>) -> Result<(), sqlx::Error> {
        let mut q = self.db.sql("UPDATE digest_runs SET started_at = ");
        q.bind(at)
            .push(" WHERE finished_at IS NULL AND period = ")
            .bind(period.to_string());
        q.execute(&self.db).await?;
        Ok(())
    }

    #[tracing::instrument(target = "trace_only", name = "DigestStore.finish", skip_all)]
    async fn finish(&self, period: &str, at: DateTime<Utc>) -> Result<(), sqlx::Error> {
        let mut q = self.db.sql("UPDATE digest_runs SET finished_at = ");
        q.bind(at).push(" WHERE period = ").bind(period.to_string());
        q.execute(&self.db).await?;
        Ok(())
    }

    #[tracing::instrument(target = "trace_only", name = "DigestStore.readers", skip_all)]
    async fn readers(&self, period: &str) -> Result<Vec<DigestReader>, sqlx::Error> {
        let mut q = self.db.sql(
            "SELECT a.id, a.email, a.first_name, a.interests FROM accounts a \
             WHERE a.digest_since IS NOT NULL AND a.confirmed_at IS NOT NULL \
             AND NOT EXISTS (SELECT 1 FROM digest_deliveries d \
             WHERE d.account_id = a.id AND d.period = ",
        );
        q.bind(period.to_string()).push(") ORDER BY a.id");
        let rows: Vec<(String, String, String, String)> = q.fetch_all(&self.db).await?;
        Ok(rows
            .into_iter()
            .map(|(account_id, email, first_name, interests)| DigestReader {
                account_id,
                email,
                first_name,
                interests,
            })
            .collect())
    }

    #[tracing::instrument(target = "trace_only", name = "DigestStore.queue", skip_all)]
    async fn queue(
        &self,
        period: &str,
        account_id: &str,
        d: &Delivery,
        now: DateTime<Utc>,
    ) -> Result<bool, sqlx::Error> {
        let mut tx = self.db.begin().await?;
        let mut q = self.db.sql(
            "INSERT INTO digest_deliveries (period, account_id, unsubscribe_hash, \
             outbox_id, queued_at) VALUES (",
        );
        q.bind_list([
            period.to_string(),
            account_id.to_string(),
            d.unsubscribe_hash.clone(),
            String::new(),
        ])
        .push(", ")
        .bind(now)
        .push(") ON CONFLICT (period, account_id) DO NOTHING");
        if q.execute(&mut tx).await? == 0 {
            return Ok(false);
        }
        let message = kernel::outbox::enqueue_bulk(&mut tx, &d.message).await?;
        let mut q = self.db.sql("UPDATE digest_deliveries SET outbox_id = ");
        q.bind(message)
            .push(" WHERE period = ")
            .bind(period.to_string())
            .push(" AND account_id = ")
            .bind(account_id.to_string());
        q.execute(&mut tx).await?;
        tx.commit().await?;
        Ok(true)
    }
}
