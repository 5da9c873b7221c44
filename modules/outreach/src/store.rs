//! Signups and contact messages, each written in one transaction with its queued email.

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use kernel::outbox::Email;
use kernel::Db;

use crate::model::NotifyList;

#[derive(Debug, Clone)]
pub struct ContactRow {
    pub id: String,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub subject: String,
    pub inquiry_type: &'static str,
    pub message: String,
    pub created_at: DateTime<Utc>,
}

#[async_trait]
pub trait OutreachStore: Send + Sync {
    /// Adds `email` to `list` (or renews an unsubscribed entry) and queues `confirmation` in the
    /// same transaction. Returns false, queuing nothing, when the address is already subscribed.
    async fn subscribe(
        &self,
        list: NotifyList,
        email: &str,
        unsubscribe_hash: &str,
        now: DateTime<Utc>,
        confirmation: &Email,
    ) -> Result<bool, sqlx::Error>;
    /// Marks the signup with this token hash unsubscribed; false when no list has it.
    async fn unsubscribe(
        &self,
        unsubscribe_hash: &str,
        now: DateTime<Utc>,
    ) -> Result<bool, sqlx::Error>;
    async fn is_subscribed(&self, list: NotifyList, email: &str) -> Result<bool, sqlx::Error>;
    async fn save_contact(&self, row: &ContactRow, email: &Email) -> Result<(), sqlx::Error>;
}

macro_rules! sql_outreach_store {
    ($name:ident, $db:ty, $pool:ty, $enqueue:path) => {
        pub struct $name {
            pub(super) pool: $pool,
        }

        #[async_trait]
        impl OutreachStore for $name {
            async fn subscribe(
                &self,
                list: NotifyList,
                email: &str,
                unsubscribe_hash: &str,
                now: DateTime<Utc>,
                confirmation: &Email,
            ) -> Result<bool, sqlx::Error> {
                let mut tx = self.pool.begin().await?;
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                    "INSERT INTO {} (id, email, unsubscribe_hash, created_at) VALUES (",
                    list.table()
                ));
                let mut sep = qb.separated(", ");
                sep.push_bind(kernel::ids::new_id())
                    .push_bind(email.to_string())
                    .push_bind(unsubscribe_hash.to_string())
                    .push_bind(now);
                qb.push(") ON CONFLICT (email) DO NOTHING");
                let mut added = qb.build().execute(&mut *tx).await?.rows_affected() == 1;
                if !added {
                    let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                        "UPDATE {} SET unsubscribed_at = NULL, unsubscribe_hash = ",
                        list.table()
                    ));
                    qb.push_bind(unsubscribe_hash.to_string());
                    qb.push(" WHERE unsubscribed_at IS NOT NULL AND email = ");
                    qb.push_bind(email.to_string());
                    added = qb.build().execute(&mut *tx).await?.rows_affected() == 1;
                }
                if added {
                    $enqueue(&mut *tx, confirmation).await?;
                }
                tx.commit().await?;
                Ok(added)
            }

            async fn unsubscribe(
                &self,
                unsubscribe_hash: &str,
                now: DateTime<Utc>,
            ) -> Result<bool, sqlx::Error> {
                let mut found = false;
                for list in [NotifyList::Magazine, NotifyList::Packs] {
                    let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                        "UPDATE {} SET unsubscribed_at = COALESCE(unsubscribed_at, ",
                        list.table()
                    ));
                    qb.push_bind(now);
                    qb.push(") WHERE unsubscribe_hash = ");
                    qb.push_bind(unsubscribe_hash.to_string());
                    found |= qb.build().execute(&self.pool).await?.rows_affected() > 0;
                }
                Ok(found)
            }

            async fn is_subscribed(
                &self,
                list: NotifyList,
                email: &str,
            ) -> Result<bool, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                    "SELECT COUNT(*) FROM {} WHERE unsubscribed_at IS NULL AND email = ",
                    list.table()
                ));
                qb.push_bind(email.to_string());
                let n: i64 = qb.build_query_scalar().fetch_one(&self.pool).await?;
                Ok(n > 0)
            }

            async fn save_contact(&self, r: &ContactRow, email: &Email) -> Result<(), sqlx::Error> {
                let mut tx = self.pool.begin().await?;
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "INSERT INTO contact_messages (id, first_name, last_name, email, subject, \
                     inquiry_type, message, created_at) VALUES (",
                );
                let mut sep = qb.separated(", ");
                sep.push_bind(r.id.clone())
                    .push_bind(r.first_name.clone())
                    .push_bind(r.last_name.clone())
                    .push_bind(r.email.clone())
                    .push_bind(r.subject.clone())
                    .push_bind(r.inquiry_type)
                    .push_bind(r.message.clone())
                    .push_bind(r.created_at);
                qb.push(")");
                qb.build().execute(&mut *tx).await?;
                $enqueue(&mut *tx, email).await?;
                tx.commit().await
            }
        }
    };
}

mod sqlite {
    use super::*;
    sql_outreach_store!(
        SqliteOutreachStore,
        sqlx::Sqlite,
        sqlx::SqlitePool,
        kernel::outbox::enqueue_sqlite
    );
}

mod postgres {
    use super::*;
    sql_outreach_store!(
        PgOutreachStore,
        sqlx::Postgres,
        sqlx::PgPool,
        kernel::outbox::enqueue_pg
    );
}

pub fn store_for(db: &Db) -> Arc<dyn OutreachStore> {
    match db {
        Db::Sqlite(pool) => Arc::new(sqlite::SqliteOutreachStore { pool: pool.clone() }),
        Db::Postgres(pool) => Arc::new(postgres::PgOutreachStore { pool: pool.clone() }),
    }
}
