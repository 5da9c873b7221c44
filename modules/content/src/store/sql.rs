//! The content store in SQL, written once for both engines (see `sqlite.rs`, `postgres.rs`).

use kernel::sql::{Sql, Tx};
use kernel::Db;

/// The content store on either engine. The statements are the same on both, but for search,
/// which each engine's own full-text index answers (`sqlite.rs`, `postgres.rs`).
pub struct SqlContentStore {
    db: Db,
}

impl SqlContentStore {
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    /// Writes an audit-log entry inside the caller's transaction.
    async fn write_event(
        &self,
        tx: &mut Tx,
        e: &crate::store::EventRow,
    ) -> Result<(), sqlx::Error> {
        let mut q = self.db.sql(
            "INSERT INTO article_events (id, article_id, actor_id, action, from_stage, \
             to_stage, note, publish_at, at) ",
        );
        q.push_values(std::iter::once(e), |b, e| {
            b.bind(e.id.clone())
                .bind(e.article_id.clone())
                .bind(e.actor_id.clone())
                .bind(e.action.clone())
                .bind(e.from_stage.clone())
                .bind(e.to_stage.clone())
                .bind(e.note.clone())
                .bind(e.publish_at)
                .bind(e.at);
        });
        q.execute(&mut *tx).await?;
        Ok(())
    }

    /// A piece taken off the site (or never on it) has no change waiting to go live:
    /// its pending change, if any, is dropped inside the caller's transaction.
    async fn drop_pending_unless_live(
        &self,
        tx: &mut Tx,
        id: &str,
        stage: &str,
    ) -> Result<(), sqlx::Error> {
        if matches!(stage, "published" | "scheduled") {
            return Ok(());
        }
        let mut q = self
            .db
            .sql("DELETE FROM article_pending_changes WHERE article_id = ");
        q.bind(id.to_string());
        q.execute(&mut *tx).await?;
        Ok(())
    }

    /// Takes the article's row inside the caller's transaction, before its pending
    /// change: every write of both takes them in that order (an update of the article
    /// starts with the article), so two never wait on each other. Without it, on
    /// PostgreSQL, an approval that renames the piece (locking its row outright)
    /// deadlocked with a decline that held the pending row and then needed the
    /// article's row for its event's foreign key.
    async fn lock_article(&self, tx: &mut Tx, id: &str) -> Result<(), sqlx::Error> {
        let mut q = self
            .db
            .sql("UPDATE articles SET version = version WHERE id = ");
        q.bind(id.to_string());
        q.execute(&mut *tx).await?;
        Ok(())
    }

    /// Keeps the article's text as it now stands as its next revision, inside the
    /// caller's transaction.
    async fn write_revision(&self, tx: &mut Tx, id: &str) -> Result<(), sqlx::Error> {
        let mut q = self.db.sql(
            "INSERT INTO article_revisions (article_id, number, title, subtitle, content, \
             cover_image, saved_by, saved_at) \
             SELECT a.id, COALESCE((SELECT MAX(r.number) FROM article_revisions r \
             WHERE r.article_id = a.id), 0) + 1, a.title, a.subtitle, a.content, \
             a.cover_image, a.updated_by, a.updated_at FROM articles a WHERE a.id = ",
        );
        q.bind(id.to_string());
        q.execute(&mut *tx).await?;
        Ok(())
    }

    /// Writes `words` (new ones only) into the words suggested for typos, inside the
    /// caller's transaction: sorted, so two writers take the same words in one order.
    async fn write_words<'w>(
        &self,
        tx: &mut Tx,
        words: impl Iterator<Item = &'w String>,
    ) -> Result<(), sqlx::Error> {
        let mut words: Vec<&String> = words.collect();
        words.sort_unstable();
        words.dedup();
        for chunk in words.chunks(1000) {
            let mut q = self.db.sql("INSERT INTO search_words (word) ");
            q.push_values(chunk, |b, w| {
                b.bind(w.to_string());
            });
            q.push(" ON CONFLICT (word) DO NOTHING");
            q.execute(&mut *tx).await?;
        }
        Ok(())
    }

    /// The published pieces the listing `list` asks for, after `select`.
    fn filtered(&self, select: &str, list: &crate::model::ListQuery) -> Sql {
        let mut q = self.db.sql(select);
        q.push(" FROM articles a WHERE a.status = 'published'");
        if !list.categories.is_empty() {
            q.push(" AND a.category IN (")
                .bind_list(list.categories.iter().map(|c| c.as_str().to_string()))
                .push(")");
        }
        if let Some(author) = &list.author {
            q.push(" AND a.author_id = ").bind(author.clone());
        }
        if let Some(id) = &list.exclude {
            q.push(" AND a.id <> ").bind(id.clone());
        }
        q
    }

    /// The page asked for, in the query's order. The rows skipped on the way to the page are
    /// read from the index alone (id and order, no article row), and only the page's own rows
    /// are read.
    fn page(&self, list: &crate::model::ListQuery) -> Sql {
        let order = match list.sort {
            crate::model::Sort::Newest | crate::model::Sort::Relevance => {
                " ORDER BY a.created_at DESC, a.id DESC"
            }
            crate::model::Sort::Featured => {
                " ORDER BY a.featured DESC, a.created_at DESC, a.id DESC"
            }
        };
        let select = format!("SELECT {} FROM (SELECT a.id", crate::store::CARD_COLUMNS);
        let mut page = self.filtered(&select, list);
        page.push(order)
            .push(" LIMIT ")
            .bind(list.limit)
            .push(" OFFSET ")
            .bind(list.offset)
            .push(") p JOIN articles a ON a.id = p.id")
            .push(order);
        page
    }

    /// One page of the filtered listing, and its total.
    async fn page_and_count(
        &self,
        list: &crate::model::ListQuery,
    ) -> Result<(Vec<crate::store::CardRow>, i64), sqlx::Error> {
        let rows = self.page(list).fetch_all(&self.db).await?;
        let total: i64 = self
            .filtered("SELECT COUNT(*)", list)
            .scalar(&self.db)
            .await?;
        Ok((rows, total))
    }
}

#[async_trait::async_trait]
impl crate::store::ContentStore for SqlContentStore {
    #[tracing::instrument(target = "trace_only", name = "ContentStore.list_published", skip_all)]
    async fn list_published(
        &self,
        q: &crate::model::ListQuery,
    ) -> Result<(Vec<crate::store::CardRow>, i64), sqlx::Error> {
        debug_assert!(q.q.is_empty(), "searches go through `search`");
        self.page_and_count(q).await
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.search", skip_all)]
    async fn search(
        &self,
        query: &crate::search::Query,
        categories: &[crate::model::Category],
        limit: i64,
    ) -> Result<Vec<crate::search::Candidate>, sqlx::Error> {
        match &self.db {
            Db::Sqlite(pool) => super::sqlite::search(pool, query, categories, limit).await,
            Db::Postgres(pool) => super::postgres::search(pool, query, categories, limit).await,
        }
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.any_match", skip_all)]
    async fn any_match(
        &self,
        query: &crate::search::Query,
        categories: &[crate::model::Category],
    ) -> Result<bool, sqlx::Error> {
        match &self.db {
            Db::Sqlite(pool) => super::sqlite::any_match(pool, query, categories).await,
            Db::Postgres(pool) => super::postgres::any_match(pool, query, categories).await,
        }
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.cards", skip_all)]
    async fn cards(&self, ids: &[String]) -> Result<Vec<crate::store::FoundRow>, sqlx::Error> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut q = self.db.sql(&format!(
            "SELECT {}, COALESCE(a.body_text, '') AS body_text FROM articles a \
             WHERE a.status = 'published' AND a.id IN (",
            crate::store::CARD_COLUMNS
        ));
        q.bind_list(ids.to_vec());
        q.push(")");
        q.fetch_all(&self.db).await
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.words_between", skip_all)]
    async fn words_between(
        &self,
        from: &str,
        to: &str,
        shortest: i64,
        longest: i64,
        limit: i64,
    ) -> Result<Vec<String>, sqlx::Error> {
        let mut q = self.db.sql("SELECT word FROM search_words WHERE word >= ");
        q.bind(from.to_string());
        q.push(" AND word < ").bind(to.to_string());
        q.push(" AND LENGTH(word) BETWEEN ").bind(shortest);
        q.push(" AND ").bind(longest);
        q.push(" ORDER BY word LIMIT ").bind(limit);
        q.scalars(&self.db).await
    }

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

    #[tracing::instrument(target = "trace_only", name = "ContentStore.count_published", skip_all)]
    async fn count_published(&self) -> Result<i64, sqlx::Error> {
        self.db
            .sql("SELECT COUNT(*) FROM articles WHERE status = 'published'")
            .scalar(&self.db)
            .await
    }

    #[tracing::instrument(target = "trace_only", name = "ContentStore.find_published", skip_all)]
    async fn find_published(
        &self,
        slug_or_id: &str,
    ) -> Result<Option<crate::store::ArticleRow>, sqlx::Error> {
        let mut q = self.db.sql(&format!(
            "SELECT {}, a.content, a.content_html FROM articles a \
             WHERE a.status = 'published' AND (a.slug = ",
            crate::store::CARD_COLUMNS
        ));
        q.bind(slug_or_id.to_string());
        q.push(" OR a.id = ");
        q.bind(slug_or_id.to_string());
        q.push(") ORDER BY a.slug = ");
        q.bind(slug_or_id.to_string());
        q.push(" DESC LIMIT 1");
        q.fetch_optional(&self.db).await
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "ContentStore.current_slug_for",
        skip_all
    )]
    async fn current_slug_for(&self, old_slug: &str) -> Result<Option<String>, sqlx::Error> {
        let mut q = self.db.sql(
            "SELECT a.slug FROM article_slug_history h JOIN articles a ON a.id = h.article_id \
             WHERE a.status = 'published' AND h.slug = ",
        );
        q.bind(old_slug.to_string());
        q.scalar_optional(&self.db).await
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "ContentStore.published_titles",
        skip_all
    )]
    async fn published_titles(
        &self,
        slugs: &[String],
    ) -> Result<Vec<(String, String)>, sqlx::Error> {
        if slugs.is_empty() {
            return Ok(Vec::new());
        }
        let mut q = self.db.sql(
            "SELECT a.slug, a.title FROM articles a \
             WHERE a.status = 'published' AND a.slug IN (",
        );
        q.bind_list(slugs.to_vec());
        q.push(
            ") UNION ALL SELECT h.slug, a.title FROM article_slug_history h \
             JOIN articles a ON a.id = h.article_id \
             WHERE a.status = 'published' AND h.slug IN (",
        );
        q.bind_list(slugs.to_vec());
        q.push(")");
        q.fetch_all(&self.db).await
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

    #[tracing::instrument(target = "trace_only", name = "ContentStore.published_slugs", skip_all)]
    async fn published_slugs(
        &self,
    ) -> Result<Vec<(String, chrono::DateTime<chrono::Utc>)>, sqlx::Error> {
        self.db
            .sql(
                "SELECT slug, updated_at FROM articles WHERE status = 'published' \
             ORDER BY created_at DESC",
            )
            .fetch_all(&self.db)
            .await
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "ContentStore.published_between",
        skip_all
    )]
    async fn published_between(
        &self,
        from: chrono::DateTime<chrono::Utc>,
        to: chrono::DateTime<chrono::Utc>,
    ) -> Result<Vec<crate::store::WeekRow>, sqlx::Error> {
        let mut q = self.db.sql(
            "SELECT slug, title, category, \
             COALESCE(NULLIF(subtitle, ''), excerpt) AS description, \
             first_published_at FROM articles \
             WHERE status = 'published' AND first_published_at >= ",
        );
        q.bind(from);
        q.push(" AND first_published_at < ");
        q.bind(to);
        q.push(" ORDER BY first_published_at DESC, id DESC");
        q.fetch_all(&self.db).await
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

    #[tracing::instrument(target = "trace_only", name = "ContentStore.delete", skip_all)]
    async fn delete(&self, id: &str) -> Result<bool, sqlx::Error> {
        let mut q = self.db.sql("DELETE FROM articles WHERE id = ");
        q.bind(id.to_string());
        Ok(q.execute(&self.db).await? == 1)
    }
}
