//! The digest store in SQL: the same statements on both engines.

use super::*;

macro_rules! sql_digest_store {
    ($name:ident, $db:ty, $pool:ty, $enqueue:path) => {
        pub struct $name {
            pub(crate) pool: $pool,
        }

        #[async_trait]
        impl DigestStore for $name {
            async fn claim(
                &self,
                period: &str,
                now: DateTime<Utc>,
                stale_before: DateTime<Utc>,
            ) -> Result<bool, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "INSERT INTO digest_runs (period, started_at) VALUES (",
                );
                qb.push_bind(period.to_string());
                qb.push(", ");
                qb.push_bind(now);
                qb.push(
                    ") ON CONFLICT (period) DO UPDATE SET started_at = excluded.started_at \
                     WHERE digest_runs.finished_at IS NULL AND digest_runs.started_at < ",
                );
                qb.push_bind(stale_before);
                Ok(qb.build().execute(&self.pool).await?.rows_affected() == 1)
            }

            async fn touch(&self, period: &str, at: DateTime<Utc>) -> Result<(), sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("UPDATE digest_runs SET started_at = ");
                qb.push_bind(at);
                qb.push(" WHERE finished_at IS NULL AND period = ");
                qb.push_bind(period.to_string());
                qb.build().execute(&self.pool).await?;
                Ok(())
            }

            async fn finish(&self, period: &str, at: DateTime<Utc>) -> Result<(), sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("UPDATE digest_runs SET finished_at = ");
                qb.push_bind(at);
                qb.push(" WHERE period = ");
                qb.push_bind(period.to_string());
                qb.build().execute(&self.pool).await?;
                Ok(())
            }

            async fn readers(&self, period: &str) -> Result<Vec<DigestReader>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "SELECT a.id, a.email, a.first_name, a.interests FROM accounts a \
                     WHERE a.digest_since IS NOT NULL AND a.confirmed_at IS NOT NULL \
                     AND NOT EXISTS (SELECT 1 FROM digest_deliveries d \
                     WHERE d.account_id = a.id AND d.period = ",
                );
                qb.push_bind(period.to_string());
                qb.push(") ORDER BY a.id");
                let rows: Vec<(String, String, String, String)> =
                    qb.build_query_as().fetch_all(&self.pool).await?;
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

            async fn queue(
                &self,
                period: &str,
                account_id: &str,
                d: &Delivery,
                now: DateTime<Utc>,
            ) -> Result<bool, sqlx::Error> {
                let mut tx = self.pool.begin().await?;
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "INSERT INTO digest_deliveries (period, account_id, unsubscribe_hash, \
                     outbox_id, queued_at) VALUES (",
                );
                let mut sep = qb.separated(", ");
                sep.push_bind(period.to_string())
                    .push_bind(account_id.to_string())
                    .push_bind(d.unsubscribe_hash.clone())
                    .push_bind(String::new())
                    .push_bind(now);
                qb.push(") ON CONFLICT (period, account_id) DO NOTHING");
                if qb.build().execute(&mut *tx).await?.rows_affected() == 0 {
                    return Ok(false);
                }
                let message = $enqueue(&mut *tx, &d.message).await?;
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("UPDATE digest_deliveries SET outbox_id = ");
                qb.push_bind(message);
                qb.push(" WHERE period = ");
                qb.push_bind(period.to_string());
                qb.push(" AND account_id = ");
                qb.push_bind(account_id.to_string());
                qb.build().execute(&mut *tx).await?;
                tx.commit().await?;
                Ok(true)
            }
        }
    };
}

pub(super) mod sqlite {
    use super::*;
    sql_digest_store!(
        SqliteDigestStore,
        sqlx::Sqlite,
        sqlx::SqlitePool,
        kernel::outbox::enqueue_bulk_sqlite
    );
}

pub(super) mod postgres {
    use super::*;
    sql_digest_store!(
        PgDigestStore,
        sqlx::Postgres,
        sqlx::PgPool,
        kernel::outbox::enqueue_bulk_pg
    );
}
