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

/// The store on either engine.
pub(super) struct SqlAnnouncementStore {
    pub(super) db: Db,
}

#[async_trait]
impl AnnouncementStore for SqlAnnouncementStore {
    #[tracing::instrument(target = "trace_only", name = "AnnouncementStore.create", skip_all)]
    async fn create(&self, r: &AnnouncementRow) -> Result<bool, sqlx::Error> {
        let mut q = self
            .db
            .sql(&format!("INSERT INTO announcements ({COLUMNS}) VALUES ("));
        q.separated()
            .bind(r.id.clone())
            .bind(r.list.as_str())
            .bind(r.subject_ref.clone())
            .bind(r.subject.clone())
            .bind(r.body.clone())
            .bind(r.html.clone())
            .bind(r.created_by.clone())
            .bind(r.created_at)
            .bind(r.finished_at);
        q.push(") ON CONFLICT (list, subject_ref) DO NOTHING");
        Ok(q.execute(&self.db).await? == 1)
    }

    #[tracing::instrument(target = "trace_only", name = "AnnouncementStore.by_ref", skip_all)]
    async fn by_ref(
        &self,
        list: NotifyList,
        subject_ref: &str,
    ) -> Result<Option<AnnouncementRow>, sqlx::Error> {
        let mut q = self.db.sql(&format!(
            "SELECT {COLUMNS} FROM announcements WHERE list = "
        ));
        q.bind(list.as_str())
            .push(" AND subject_ref = ")
            .bind(subject_ref.to_string());
        let found: Option<Stored> = q.fetch_optional(&self.db).await?;
        Ok(found.and_then(row))
    }

    #[tracing::instrument(target = "trace_only", name = "AnnouncementStore.unfinished", skip_all)]
    async fn unfinished(&self) -> Result<Vec<AnnouncementRow>, sqlx::Error> {
        let rows: Vec<Stored> = self
            .db
            .sql(&format!(
                "SELECT {COLUMNS} FROM announcements WHERE finished_at IS NULL \
                 ORDER BY created_at"
            ))
            .fetch_all(&self.db)
            .await?;
        Ok(rows.into_iter().filter_map(row).collect())
    }

    #[tracing::instrument(target = "trace_only", name = "AnnouncementStore.finish", skip_all)]
    async fn finish(&self, id: &str, at: DateTime<Utc>) -> Result<(), sqlx::Error> {
        let mut q = self.db.sql("UPDATE announcements SET finished_at = ");
        q.bind(at)
            .push(" WHERE finished_at IS NULL AND id = ")
            .bind(id.to_string());
        q.execute(&self.db).await?;
        Ok(())
    }

    #[tracing::instrument(target = "trace_only", name = "AnnouncementStore.pending", skip_all)]
    async fn pending(
        &self,
        id: &str,
        list: NotifyList,
        limit: i64,
    ) -> Result<Vec<Recipient>, sqlx::Error> {
        // The first name of a confirmed reader account with the same address.
        let mut q = self.db.sql(&format!(
            "SELECT n.email, a.first_name FROM {} n LEFT JOIN accounts a \
             ON a.email = n.email AND a.confirmed_at IS NOT NULL \
             WHERE n.unsubscribed_at IS NULL AND NOT EXISTS \
             (SELECT 1 FROM announcement_deliveries d WHERE d.email = n.email \
             AND d.announcement_id = ",
            list.table()
        ));
        q.bind(id.to_string())
            .push(") ORDER BY n.email LIMIT ")
            .bind(limit);
        q.fetch_all(&self.db).await
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "AnnouncementStore.pending_count",
        skip_all
    )]
    async fn pending_count(&self, id: &str, list: NotifyList) -> Result<i64, sqlx::Error> {
        let mut q = self.db.sql(&format!(
            "SELECT COUNT(*) FROM {} n WHERE n.unsubscribed_at IS NULL AND NOT EXISTS \
             (SELECT 1 FROM announcement_deliveries d WHERE d.email = n.email \
             AND d.announcement_id = ",
            list.table()
        ));
        q.bind(id.to_string()).push(")");
        q.scalar(&self.db).await
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "AnnouncementStore.subscribers",
        skip_all
    )]
    async fn subscribers(&self, list: NotifyList) -> Result<i64, sqlx::Error> {
        self.db
            .sql(&format!(
                "SELECT COUNT(*) FROM {} WHERE unsubscribed_at IS NULL",
                list.table()
            ))
            .scalar(&self.db)
            .await
    }

    #[tracing::instrument(target = "trace_only", name = "AnnouncementStore.queue", skip_all)]
    async fn queue(
        &self,
        id: &str,
        deliveries: &[Delivery],
        now: DateTime<Utc>,
    ) -> Result<usize, sqlx::Error> {
        let mut tx = self.db.begin().await?;
        let mut queued = 0;
        for d in deliveries {
            let outbox_id = kernel::ids::new_id();
            let mut q = self.db.sql(
                "INSERT INTO announcement_deliveries (announcement_id, email, \
                 unsubscribe_hash, outbox_id, queued_at) VALUES (",
            );
            q.bind_list([
                id.to_string(),
                d.email.clone(),
                d.unsubscribe_hash.clone(),
                outbox_id,
            ])
            .push(", ")
            .bind(now)
            .push(") ON CONFLICT (announcement_id, email) DO NOTHING");
            if q.execute(&mut tx).await? == 0 {
                continue;
            }
            let message = kernel::outbox::enqueue_bulk(&mut tx, &d.message).await?;
            let mut q = self
                .db
                .sql("UPDATE announcement_deliveries SET outbox_id = ");
            q.bind(message)
                .push(" WHERE announcement_id = ")
                .bind(id.to_string())
                .push(" AND email = ")
                .bind(d.email.clone());
            q.execute(&mut tx).await?;
            queued += 1;
        }
        tx.commit().await?;
        Ok(queued)
    }

    #[tracing::instrument(target = "trace_only", name = "AnnouncementStore.counts", skip_all)]
    async fn counts(&self, id: &str) -> Result<Counts, sqlx::Error> {
        let mut q = self.db.sql(
            "SELECT COUNT(*), \
             COALESCE(SUM(CASE WHEN o.status = 'sent' THEN 1 ELSE 0 END), 0), \
             COALESCE(SUM(CASE WHEN o.status = 'failed' OR o.redacted_at IS NOT NULL \
               AND o.status <> 'sent' THEN 1 ELSE 0 END), 0) \
             FROM announcement_deliveries d LEFT JOIN outbox o ON o.id = d.outbox_id \
             WHERE d.announcement_id = ",
        );
        q.bind(id.to_string());
        let (queued, sent, failed): (i64, i64, i64) = q.fetch_one(&self.db).await?;
        Ok(Counts {
            queued,
            sent,
            failed,
        })
    }
}
