//! The newsroom: changes waiting for review, stage moves and scheduled publishing.

use super::SqlContentStore;

#[async_trait::async_trait]
impl crate::store::ReviewStore for SqlContentStore {
    #[tracing::instrument(target = "trace_only", name = "ContentStore.change_stage", skip_all)]
    async fn change_stage(
        &self,
        c: &crate::store::StageChange,
        notice: Option<&kernel::outbox::Email>,
    ) -> Result<bool, sqlx::Error> {
        let mut q = self.db.sql("UPDATE articles SET stage = ");
        q.bind(c.stage.clone());
        q.push(", status = ").bind(if c.stage == "published" {
            "published"
        } else {
            "draft"
        });
        q.push(", publish_at = ").bind(c.publish_at);
        q.push(", submitted_at = ").bind(c.submitted_at);
        q.push(", review_note = ").bind(c.review_note.clone());
        q.push(", review_note_by = ").bind(c.review_note_by.clone());
        q.push(", review_note_at = ").bind(c.review_note_at);
        q.push(", first_published_at = ").bind(c.first_published_at);
        q.push(", updated_at = ").bind(c.updated_at);
        q.push(", updated_by = ").bind(c.updated_by.clone());
        q.push(", version = version + 1 WHERE id = ")
            .bind(c.id.clone());
        q.push(" AND stage = ").bind(c.from_stage.clone());
        q.push(" AND version = ").bind(c.version);
        let mut tx = self.db.begin_write().await?;
        if q.execute(&mut tx).await? != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        self.write_event(&mut tx, &c.event).await?;
        self.drop_pending_unless_live(&mut tx, &c.id, &c.stage)
            .await?;
        if let Some(email) = notice {
            kernel::outbox::enqueue(&mut tx, email).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.publish_due", skip_all)]
    async fn publish_due(
        &self,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<Vec<crate::store::WentOut>, sqlx::Error> {
        // Asked every second by every instance: a read first, so that nothing takes
        // the write lock (SQLite's one writer) while nothing is due.
        let mut due = self
            .db
            .sql("SELECT COUNT(*) FROM articles WHERE stage = 'scheduled' AND publish_at <= ");
        due.bind(now);
        let waiting: i64 = due.scalar(&self.db).await?;
        if waiting == 0 {
            return Ok(Vec::new());
        }
        // One conditional update: a row leaves `scheduled` once, so of two instances
        // asking at once only one gets it back (PostgreSQL re-checks the condition
        // after waiting for the other's row lock; SQLite has one writer).
        let mut q = self.db.sql(
            "UPDATE articles SET stage = 'published', status = 'published', \
             created_at = CASE WHEN first_published_at IS NULL THEN publish_at \
             ELSE created_at END, \
             first_published_at = COALESCE(first_published_at, publish_at), \
             version = version + 1, updated_at = ",
        );
        q.bind(now);
        q.push(" WHERE stage = 'scheduled' AND publish_at <= ");
        q.bind(now);
        q.push(" RETURNING id, slug, title, author_id, publish_at");
        let mut tx = self.db.begin_write().await?;
        let went: Vec<crate::store::WentOut> = q.fetch_all(&mut tx).await?;
        for w in &went {
            let event = crate::store::EventRow {
                id: kernel::ids::new_id(),
                article_id: w.id.clone(),
                actor_id: None,
                action: "scheduled_publish".into(),
                from_stage: Some("scheduled".into()),
                to_stage: "published".into(),
                note: None,
                publish_at: w.publish_at,
                at: now,
            };
            self.write_event(&mut tx, &event).await?;
        }
        tx.commit().await?;
        Ok(went)
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.queue_email", skip_all)]
    async fn queue_email(&self, email: &kernel::outbox::Email) -> Result<(), sqlx::Error> {
        kernel::outbox::enqueue(&self.db, email).await?;
        Ok(())
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.review_queue", skip_all)]
    async fn review_queue(&self) -> Result<Vec<crate::store::StaffRow>, sqlx::Error> {
        self.db
            .sql(&format!(
                "SELECT {}, {} FROM {} WHERE a.stage = 'in_review' \
             OR p.article_id IS NOT NULL \
             ORDER BY COALESCE(p.proposed_at, a.submitted_at), a.id",
                crate::store::CARD_COLUMNS,
                crate::store::STAFF_COLUMNS,
                crate::store::STAFF_FROM
            ))
            .fetch_all(&self.db)
            .await
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.put_pending", skip_all)]
    async fn put_pending(
        &self,
        c: &crate::store::PendingRow,
        event: &crate::store::EventRow,
    ) -> Result<bool, sqlx::Error> {
        let mut q = self.db.sql(
            "INSERT INTO article_pending_changes (article_id, title, subtitle, content, \
             category, cover_image, featured, proposed_by, proposed_at, base_version) \
             SELECT a.id, ",
        );
        q.bind(c.title.clone());
        q.push(", ").bind(c.subtitle.clone());
        q.push(", ").bind(c.content.clone());
        q.push(", ").bind(c.category.clone());
        q.push(", ").bind(c.cover_image.clone());
        q.push(", ").bind(c.featured);
        q.push(", ").bind(c.proposed_by.clone());
        q.push(", ").bind(c.proposed_at);
        q.push(", a.version FROM articles a WHERE a.id = ")
            .bind(c.article_id.clone());
        q.push(" AND a.version = ").bind(c.base_version);
        q.push(
            " AND a.stage IN ('published', 'scheduled') \
             ON CONFLICT (article_id) DO UPDATE SET title = excluded.title, \
             subtitle = excluded.subtitle, content = excluded.content, \
             category = excluded.category, cover_image = excluded.cover_image, \
             featured = excluded.featured, proposed_by = excluded.proposed_by, \
             proposed_at = excluded.proposed_at, base_version = excluded.base_version",
        );
        let mut tx = self.db.begin_write().await?;
        self.lock_article(&mut tx, &c.article_id).await?;
        if q.execute(&mut tx).await? != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        self.write_event(&mut tx, event).await?;
        tx.commit().await?;
        Ok(true)
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.drop_pending", skip_all)]
    async fn drop_pending(
        &self,
        id: &str,
        proposed_at: chrono::DateTime<chrono::Utc>,
        event: &crate::store::EventRow,
    ) -> Result<bool, sqlx::Error> {
        let mut q = self
            .db
            .sql("DELETE FROM article_pending_changes WHERE article_id = ");
        q.bind(id.to_string());
        q.push(" AND proposed_at = ").bind(proposed_at);
        let mut tx = self.db.begin_write().await?;
        self.lock_article(&mut tx, id).await?;
        if q.execute(&mut tx).await? != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        self.write_event(&mut tx, event).await?;
        tx.commit().await?;
        Ok(true)
    }
}
