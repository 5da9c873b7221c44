//! The announcement store in SQL: the same statements on both engines.

use super::*;

const COLUMNS: &str =
    "id, list, subject_ref, subject, body, html, created_by, created_at, finished_at";

/// An announcement as stored; `list` is checked by [`row`].
#[derive(sqlx::FromRow)]
struct Stored {
    id: String,
    list: String,
    subject_ref: String,
    subject: String,
    body: String,
    html: Option<String>,
    created_by: Option<String>,
    created_at: DateTime<Utc>,
    finished_at: Option<DateTime<Utc>>,
}

fn row(t: Stored) -> Option<AnnouncementRow> {
    Some(AnnouncementRow {
        id: t.id,
        list: NotifyList::parse(&t.list)?,
        subject_ref: t.subject_ref,
        subject: t.subject,
        body: t.body,
        html: t.html,
        created_by: t.created_by,
        created_at: t.created_at,
        finished_at: t.finished_at,
    })
}

macro_rules! sql_announcement_store {
    ($name:ident, $db:ty, $pool:ty, $enqueue:path) => {
        pub struct $name {
            pub(crate) pool: $pool,
        }

        #[async_trait]
        impl AnnouncementStore for $name {
            async fn create(&self, r: &AnnouncementRow) -> Result<bool, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                    "INSERT INTO announcements ({COLUMNS}) VALUES ("
                ));
                let mut sep = qb.separated(", ");
                sep.push_bind(r.id.clone())
                    .push_bind(r.list.as_str())
                    .push_bind(r.subject_ref.clone())
                    .push_bind(r.subject.clone())
                    .push_bind(r.body.clone())
                    .push_bind(r.html.clone())
                    .push_bind(r.created_by.clone())
                    .push_bind(r.created_at)
                    .push_bind(r.finished_at);
                qb.push(") ON CONFLICT (list, subject_ref) DO NOTHING");
                Ok(qb.build().execute(&self.pool).await?.rows_affected() == 1)
            }

            async fn by_ref(
                &self,
                list: NotifyList,
                subject_ref: &str,
            ) -> Result<Option<AnnouncementRow>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                    "SELECT {COLUMNS} FROM announcements WHERE list = "
                ));
                qb.push_bind(list.as_str());
                qb.push(" AND subject_ref = ");
                qb.push_bind(subject_ref.to_string());
                let found: Option<Stored> = qb.build_query_as().fetch_optional(&self.pool).await?;
                Ok(found.and_then(row))
            }

            async fn unfinished(&self) -> Result<Vec<AnnouncementRow>, sqlx::Error> {
                let rows: Vec<Stored> = sqlx::query_as(&format!(
                    "SELECT {COLUMNS} FROM announcements WHERE finished_at IS NULL \
                     ORDER BY created_at"
                ))
                .fetch_all(&self.pool)
                .await?;
                Ok(rows.into_iter().filter_map(row).collect())
            }

            async fn finish(&self, id: &str, at: DateTime<Utc>) -> Result<(), sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("UPDATE announcements SET finished_at = ");
                qb.push_bind(at);
                qb.push(" WHERE finished_at IS NULL AND id = ");
                qb.push_bind(id.to_string());
                qb.build().execute(&self.pool).await?;
                Ok(())
            }

            async fn pending(
                &self,
                id: &str,
                list: NotifyList,
                limit: i64,
            ) -> Result<Vec<Recipient>, sqlx::Error> {
                // The first name of a confirmed reader account with the same address.
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                    "SELECT n.email, a.first_name FROM {} n LEFT JOIN accounts a \
                     ON a.email = n.email AND a.confirmed_at IS NOT NULL \
                     WHERE n.unsubscribed_at IS NULL AND NOT EXISTS \
                     (SELECT 1 FROM announcement_deliveries d WHERE d.email = n.email \
                     AND d.announcement_id = ",
                    list.table()
                ));
                qb.push_bind(id.to_string());
                qb.push(") ORDER BY n.email LIMIT ");
                qb.push_bind(limit);
                qb.build_query_as().fetch_all(&self.pool).await
            }

            async fn pending_count(
                &self,
                id: &str,
                list: NotifyList,
            ) -> Result<i64, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                    "SELECT COUNT(*) FROM {} n WHERE n.unsubscribed_at IS NULL AND NOT EXISTS \
                     (SELECT 1 FROM announcement_deliveries d WHERE d.email = n.email \
                     AND d.announcement_id = ",
                    list.table()
                ));
                qb.push_bind(id.to_string());
                qb.push(")");
                qb.build_query_scalar().fetch_one(&self.pool).await
            }

            async fn subscribers(&self, list: NotifyList) -> Result<i64, sqlx::Error> {
                sqlx::query_scalar(&format!(
                    "SELECT COUNT(*) FROM {} WHERE unsubscribed_at IS NULL",
                    list.table()
                ))
                .fetch_one(&self.pool)
                .await
            }

            async fn queue(
                &self,
                id: &str,
                deliveries: &[Delivery],
                now: DateTime<Utc>,
            ) -> Result<usize, sqlx::Error> {
                let mut tx = self.pool.begin().await?;
                let mut queued = 0;
                for d in deliveries {
                    let outbox_id = kernel::ids::new_id();
                    let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                        "INSERT INTO announcement_deliveries (announcement_id, email, \
                         unsubscribe_hash, outbox_id, queued_at) VALUES (",
                    );
                    let mut sep = qb.separated(", ");
                    sep.push_bind(id.to_string())
                        .push_bind(d.email.clone())
                        .push_bind(d.unsubscribe_hash.clone())
                        .push_bind(outbox_id)
                        .push_bind(now);
                    qb.push(") ON CONFLICT (announcement_id, email) DO NOTHING");
                    if qb.build().execute(&mut *tx).await?.rows_affected() == 0 {
                        continue;
                    }
                    let message = $enqueue(&mut *tx, &d.message).await?;
                    let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                        "UPDATE announcement_deliveries SET outbox_id = ",
                    );
                    qb.push_bind(message);
                    qb.push(" WHERE announcement_id = ");
                    qb.push_bind(id.to_string());
                    qb.push(" AND email = ");
                    qb.push_bind(d.email.clone());
                    qb.build().execute(&mut *tx).await?;
                    queued += 1;
                }
                tx.commit().await?;
                Ok(queued)
            }

            async fn counts(&self, id: &str) -> Result<Counts, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "SELECT COUNT(*), \
                     COALESCE(SUM(CASE WHEN o.status = 'sent' THEN 1 ELSE 0 END), 0), \
                     COALESCE(SUM(CASE WHEN o.status = 'failed' OR o.redacted_at IS NOT NULL \
                       AND o.status <> 'sent' THEN 1 ELSE 0 END), 0) \
                     FROM announcement_deliveries d LEFT JOIN outbox o ON o.id = d.outbox_id \
                     WHERE d.announcement_id = ",
                );
                qb.push_bind(id.to_string());
                let (queued, sent, failed): (i64, i64, i64) =
                    qb.build_query_as().fetch_one(&self.pool).await?;
                Ok(Counts {
                    queued,
                    sent,
                    failed,
                })
            }
        }
    };
}

pub(super) mod sqlite {
    use super::*;
    sql_announcement_store!(
        SqliteAnnouncementStore,
        sqlx::Sqlite,
        sqlx::SqlitePool,
        kernel::outbox::enqueue_bulk
    );
}

pub(super) mod postgres {
    use super::*;
    sql_announcement_store!(
        PgAnnouncementStore,
        sqlx::Postgres,
        sqlx::PgPool,
        kernel::outbox::enqueue_bulk
    );
}
