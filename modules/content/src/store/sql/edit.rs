//! What staff write: saves (with their revision and audit entry), lists and the log.

use super::SqlContentStore;
use kernel::Db;

#[async_trait::async_trait]
impl crate::store::EditStore for SqlContentStore {
    #[tracing::instrument(
        target = "trace_only",
        name = "ContentStore.unwritten_bodies",
        skip_all
    )]
    async fn unwritten_bodies(
        &self,
        limit: i64,
    ) -> Result<Vec<(String, String, Option<String>, String)>, sqlx::Error> {
        let mut q = self.db.sql(
            "SELECT id, title, subtitle, content FROM articles \
             WHERE body_text IS NULL ORDER BY id LIMIT ",
        );
        q.bind(limit);
        q.fetch_all(&self.db).await
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.write_bodies", skip_all)]
    async fn write_bodies(
        &self,
        bodies: &[(String, String, Vec<String>)],
    ) -> Result<(), sqlx::Error> {
        let mut tx = self.db.begin_write().await?;
        for (id, body, _) in bodies {
            let mut q = self.db.sql("UPDATE articles SET body_text = ");
            q.bind(body.clone());
            q.push(" WHERE id = ").bind(id.clone());
            q.execute(&mut tx).await?;
        }
        self.write_words(&mut tx, bodies.iter().flat_map(|b| b.2.iter()))
            .await?;
        tx.commit().await?;
        Ok(())
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.upkeep", skip_all)]
    async fn upkeep(&self) -> Result<(), sqlx::Error> {
        // At most about this many pages of merging a step, and only where a level of the index
        // has four segments or more (FTS5's `usermerge`).
        fts5_command(
            &self.db,
            "INSERT INTO article_fts (article_fts, rank) VALUES ('merge', 256)",
        )
        .await
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.compact_index", skip_all)]
    async fn compact_index(&self) -> Result<(), sqlx::Error> {
        fts5_command(
            &self.db,
            "INSERT INTO article_fts (article_fts) VALUES ('optimize')",
        )
        .await
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.slug_taken", skip_all)]
    async fn slug_taken(&self, slug: &str) -> Result<bool, sqlx::Error> {
        let mut q = self.db.sql("SELECT COUNT(*) FROM articles WHERE slug = ");
        q.bind(slug.to_string());
        q.push(" OR slug IN (SELECT slug FROM article_slug_history WHERE slug = ");
        q.bind(slug.to_string());
        q.push(")");
        let n: i64 = q.scalar(&self.db).await?;
        Ok(n > 0)
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.insert", skip_all)]
    async fn insert(&self, row: &crate::store::InsertRow) -> Result<(), sqlx::Error> {
        self.insert_many(std::slice::from_ref(row)).await
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.insert_many", skip_all)]
    async fn insert_many(&self, rows: &[crate::store::InsertRow]) -> Result<(), sqlx::Error> {
        // Oldest first: SQLite's search index numbers its rows as they go live, and
        // reads its matches newest first by those numbers.
        let mut rows: Vec<&crate::store::InsertRow> = rows.iter().collect();
        rows.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
        let mut tx = self.db.begin_write().await?;
        // 21 values a row: well under either engine's limit of bound values.
        for chunk in rows.chunks(500) {
            let mut q = self.db.sql(
                "INSERT INTO articles (id, slug, title, subtitle, content, category, \
                 cover_image, featured, status, author_id, created_at, updated_at, \
                 excerpt, content_html, reading_minutes, body_text, \
                 first_published_at, stage, publish_at, updated_by) ",
            );
            q.push_values(chunk, |b, r| {
                b.bind(r.id.clone())
                    .bind(r.slug.clone())
                    .bind(r.title.clone())
                    .bind(r.subtitle.clone())
                    .bind(r.content.clone())
                    .bind(r.category.clone())
                    .bind(r.cover_image.clone())
                    .bind(r.featured)
                    .bind(r.status.clone())
                    .bind(r.author_id.clone())
                    .bind(r.created_at)
                    .bind(r.updated_at)
                    .bind(r.excerpt.clone())
                    .bind(r.content_html.clone())
                    .bind(r.reading_minutes)
                    .bind(r.body_text.clone())
                    .bind(r.first_published_at)
                    .bind(r.stage.clone())
                    .bind(r.publish_at)
                    .bind(r.updated_by.clone());
            });
            q.execute(&mut tx).await?;
            // Each article's first revision is its text as inserted.
            let mut q = self.db.sql(
                "INSERT INTO article_revisions (article_id, number, title, subtitle, \
                 content, cover_image, saved_by, saved_at) SELECT a.id, 1, a.title, \
                 a.subtitle, a.content, a.cover_image, a.updated_by, a.updated_at \
                 FROM articles a WHERE a.id IN (",
            );
            q.bind_list(chunk.iter().map(|r| r.id.clone()));
            q.push(")");
            q.execute(&mut tx).await?;
            let mut q = self.db.sql(
                "INSERT INTO article_events (id, article_id, actor_id, action, \
                 from_stage, to_stage, note, publish_at, at) ",
            );
            q.push_values(chunk, |b, r| {
                b.bind(kernel::ids::new_id())
                    .bind(r.id.clone())
                    .bind(r.updated_by.clone())
                    .bind("create")
                    .bind(None::<String>)
                    .bind(r.stage.clone())
                    .bind(None::<String>)
                    .bind(r.publish_at)
                    .bind(r.updated_at);
            });
            q.execute(&mut tx).await?;
        }
        self.write_words(&mut tx, rows.iter().flat_map(|r| r.words.iter()))
            .await?;
        tx.commit().await?;
        Ok(())
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.count_all", skip_all)]
    async fn count_all(&self) -> Result<i64, sqlx::Error> {
        self.db
            .sql("SELECT COUNT(*) FROM articles")
            .scalar(&self.db)
            .await
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.staff_list", skip_all)]
    async fn staff_list(
        &self,
        author: Option<&str>,
    ) -> Result<Vec<crate::store::StaffRow>, sqlx::Error> {
        let mut q = self.db.sql(&format!(
            "SELECT {}, {} FROM {}",
            crate::store::CARD_COLUMNS,
            crate::store::STAFF_COLUMNS,
            crate::store::STAFF_FROM
        ));
        if let Some(author) = author {
            q.push(" WHERE a.author_id = ");
            q.bind(author.to_string());
        }
        q.push(" ORDER BY a.created_at DESC, a.id DESC");
        q.fetch_all(&self.db).await
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.staff_get", skip_all)]
    async fn staff_get(
        &self,
        id: &str,
        author: Option<&str>,
    ) -> Result<Option<crate::store::StaffRow>, sqlx::Error> {
        let mut q = self.db.sql(&format!(
            "SELECT {}, {} FROM {} WHERE a.id = ",
            crate::store::CARD_COLUMNS,
            crate::store::STAFF_COLUMNS,
            crate::store::STAFF_FROM
        ));
        q.bind(id.to_string());
        if let Some(author) = author {
            q.push(" AND a.author_id = ");
            q.bind(author.to_string());
        }
        q.fetch_optional(&self.db).await
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.update", skip_all)]
    async fn update(
        &self,
        r: &crate::store::InsertRow,
        old_slug: Option<&str>,
        expected_version: Option<i64>,
        event: Option<&crate::store::EventRow>,
        pending_at: Option<chrono::DateTime<chrono::Utc>>,
    ) -> Result<crate::store::Updated, sqlx::Error> {
        let mut q = self.db.sql("UPDATE articles SET slug = ");
        q.bind(r.slug.clone());
        q.push(", title = ").bind(r.title.clone());
        q.push(", subtitle = ").bind(r.subtitle.clone());
        q.push(", content = ").bind(r.content.clone());
        q.push(", category = ").bind(r.category.clone());
        q.push(", cover_image = ").bind(r.cover_image.clone());
        q.push(", featured = ").bind(r.featured);
        q.push(", status = ").bind(r.status.clone());
        q.push(", stage = ").bind(r.stage.clone());
        q.push(", publish_at = ").bind(r.publish_at);
        q.push(", author_id = ").bind(r.author_id.clone());
        q.push(", updated_at = ").bind(r.updated_at);
        q.push(", updated_by = ").bind(r.updated_by.clone());
        q.push(", excerpt = ").bind(r.excerpt.clone());
        q.push(", content_html = ").bind(r.content_html.clone());
        q.push(", reading_minutes = ").bind(r.reading_minutes);
        q.push(", body_text = ").bind(r.body_text.clone());
        q.push(", first_published_at = ").bind(r.first_published_at);
        q.push(", version = version + 1 WHERE id = ")
            .bind(r.id.clone());
        if let Some(v) = expected_version {
            q.push(" AND version = ").bind(v);
        }
        q.push(" RETURNING version");
        // The update comes first: it takes the write lock (SQLite) or the row lock
        // (PostgreSQL) before anything is read.
        let mut tx = self.db.begin_write().await?;
        let version: Option<i64> = q.scalar_optional(&mut tx).await?;
        let Some(version) = version else {
            let mut q = self.db.sql("SELECT COUNT(*) FROM articles WHERE id = ");
            q.bind(r.id.clone());
            let exists: i64 = q.scalar(&mut tx).await?;
            tx.rollback().await?;
            return Ok(if exists > 0 {
                crate::store::Updated::Stale
            } else {
                crate::store::Updated::Gone
            });
        };
        self.write_revision(&mut tx, &r.id).await?;
        if let Some(event) = event {
            self.write_event(&mut tx, event).await?;
        }
        self.drop_pending_unless_live(&mut tx, &r.id, &r.stage)
            .await?;
        if let Some(at) = pending_at {
            let mut q = self
                .db
                .sql("DELETE FROM article_pending_changes WHERE article_id = ");
            q.bind(r.id.clone());
            q.push(" AND proposed_at = ").bind(at);
            if q.execute(&mut tx).await? != 1 {
                // Replaced or dropped meanwhile: what was approved is not what waits.
                tx.rollback().await?;
                return Ok(crate::store::Updated::Stale);
            }
        }
        if let Some(old_slug) = old_slug {
            let mut q = self
                .db
                .sql("INSERT INTO article_slug_history (slug, article_id, created_at) VALUES (");
            q.bind(old_slug.to_string());
            q.push(", ");
            q.bind(r.id.clone());
            q.push(", ");
            q.bind(r.updated_at);
            q.push(") ON CONFLICT (slug) DO UPDATE SET article_id = excluded.article_id");
            q.execute(&mut tx).await?;
        }
        self.write_words(&mut tx, r.words.iter()).await?;
        tx.commit().await?;
        Ok(crate::store::Updated::Written(version))
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.events", skip_all)]
    async fn events(&self, id: &str) -> Result<Vec<crate::store::EventRow>, sqlx::Error> {
        let mut q = self.db.sql(
            "SELECT id, article_id, actor_id, action, from_stage, to_stage, note, \
             publish_at, at FROM article_events WHERE article_id = ",
        );
        q.bind(id.to_string());
        q.push(" ORDER BY at, id");
        q.fetch_all(&self.db).await
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.revisions", skip_all)]
    async fn revisions(&self, id: &str) -> Result<Vec<crate::store::RevisionRow>, sqlx::Error> {
        let mut q = self.db.sql(
            "SELECT number, title, subtitle, content, cover_image, saved_by, saved_at \
             FROM article_revisions WHERE article_id = ",
        );
        q.bind(id.to_string());
        q.push(" ORDER BY number DESC");
        q.fetch_all(&self.db).await
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.revision", skip_all)]
    async fn revision(
        &self,
        id: &str,
        number: i64,
    ) -> Result<Option<crate::store::RevisionRow>, sqlx::Error> {
        let mut q = self.db.sql(
            "SELECT number, title, subtitle, content, cover_image, saved_by, saved_at \
             FROM article_revisions WHERE article_id = ",
        );
        q.bind(id.to_string());
        q.push(" AND number = ").bind(number);
        q.fetch_optional(&self.db).await
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.delete", skip_all)]
    async fn delete(&self, id: &str) -> Result<bool, sqlx::Error> {
        let mut q = self.db.sql("DELETE FROM articles WHERE id = ");
        q.bind(id.to_string());
        Ok(q.execute(&self.db).await? == 1)
    }
}

/// Runs one of FTS5's commands on SQLite's search index; PostgreSQL's needs none.
async fn fts5_command(db: &Db, command: &'static str) -> Result<(), sqlx::Error> {
    if let Db::Sqlite(pool) = db {
        sqlx::query(command).execute(pool).await?;
    }
    Ok(())
}
