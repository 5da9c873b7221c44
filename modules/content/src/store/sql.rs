//! The content store in SQL, written once for both engines (see `sqlite.rs`, `postgres.rs`).

/// The same SQL serves both engines; `QueryBuilder` writes each engine's placeholders.
macro_rules! sql_content_store {
    (
        $name:ident,
        $db:ty,
        $pool:ty,
        $enqueue:path,
        $search:path,
        $any_match:path,
        $begin_write:expr
    ) => {
        pub struct $name {
            pool: $pool,
        }

        impl $name {
            pub fn new(pool: $pool) -> Self {
                Self { pool }
            }

            /// Writes an audit-log entry inside the caller's transaction.
            async fn write_event(
                conn: &mut <$db as sqlx::Database>::Connection,
                e: &crate::store::EventRow,
            ) -> Result<(), sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "INSERT INTO article_events (id, article_id, actor_id, action, from_stage, \
                     to_stage, note, publish_at, at) ",
                );
                qb.push_values(std::iter::once(e), |mut b, e| {
                    b.push_bind(e.id.clone())
                        .push_bind(e.article_id.clone())
                        .push_bind(e.actor_id.clone())
                        .push_bind(e.action.clone())
                        .push_bind(e.from_stage.clone())
                        .push_bind(e.to_stage.clone())
                        .push_bind(e.note.clone())
                        .push_bind(e.publish_at)
                        .push_bind(e.at);
                });
                qb.build().execute(&mut *conn).await?;
                Ok(())
            }

            /// A piece taken off the site (or never on it) has no change waiting to go live:
            /// its pending change, if any, is dropped inside the caller's transaction.
            async fn drop_pending_unless_live(
                conn: &mut <$db as sqlx::Database>::Connection,
                id: &str,
                stage: &str,
            ) -> Result<(), sqlx::Error> {
                if matches!(stage, "published" | "scheduled") {
                    return Ok(());
                }
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "DELETE FROM article_pending_changes WHERE article_id = ",
                );
                qb.push_bind(id.to_string());
                qb.build().execute(&mut *conn).await?;
                Ok(())
            }

            /// Takes the article's row inside the caller's transaction, before its pending
            /// change: every write of both takes them in that order (an update of the article
            /// starts with the article), so two never wait on each other. Without it, on
            /// PostgreSQL, an approval that renames the piece (locking its row outright)
            /// deadlocked with a decline that held the pending row and then needed the
            /// article's row for its event's foreign key.
            async fn lock_article(
                conn: &mut <$db as sqlx::Database>::Connection,
                id: &str,
            ) -> Result<(), sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("UPDATE articles SET version = version WHERE id = ");
                qb.push_bind(id.to_string());
                qb.build().execute(&mut *conn).await?;
                Ok(())
            }

            /// Keeps the article's text as it now stands as its next revision, inside the
            /// caller's transaction.
            async fn write_revision(
                conn: &mut <$db as sqlx::Database>::Connection,
                id: &str,
            ) -> Result<(), sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "INSERT INTO article_revisions (article_id, number, title, subtitle, content, \
                     cover_image, saved_by, saved_at) \
                     SELECT a.id, COALESCE((SELECT MAX(r.number) FROM article_revisions r \
                     WHERE r.article_id = a.id), 0) + 1, a.title, a.subtitle, a.content, \
                     a.cover_image, a.updated_by, a.updated_at FROM articles a WHERE a.id = ",
                );
                qb.push_bind(id.to_string());
                qb.build().execute(&mut *conn).await?;
                Ok(())
            }

            /// Writes `words` (new ones only) into the words suggested for typos, inside the
            /// caller's transaction: sorted, so two writers take the same words in one order.
            async fn write_words<'w>(
                conn: &mut <$db as sqlx::Database>::Connection,
                words: impl Iterator<Item = &'w String>,
            ) -> Result<(), sqlx::Error> {
                let mut words: Vec<&String> = words.collect();
                words.sort_unstable();
                words.dedup();
                for chunk in words.chunks(1000) {
                    let mut qb: sqlx::QueryBuilder<$db> =
                        sqlx::QueryBuilder::new("INSERT INTO search_words (word) ");
                    qb.push_values(chunk, |mut b, w| {
                        b.push_bind(w.to_string());
                    });
                    qb.push(" ON CONFLICT (word) DO NOTHING");
                    qb.build().execute(&mut *conn).await?;
                }
                Ok(())
            }

            fn filtered<'a>(
                select: &str,
                q: &'a crate::model::ListQuery,
            ) -> sqlx::QueryBuilder<'a, $db> {
                let mut qb = sqlx::QueryBuilder::new(select);
                qb.push(" FROM articles a WHERE a.status = 'published'");
                crate::store::any_category(&mut qb, "a.category", &q.categories);
                if let Some(author) = &q.author {
                    qb.push(" AND a.author_id = ");
                    qb.push_bind(author.as_str());
                }
                if let Some(id) = &q.exclude {
                    qb.push(" AND a.id <> ");
                    qb.push_bind(id.as_str());
                }
                qb
            }
        }

        impl $name {
            /// The page asked for, in the query's order. The rows skipped on the way to the
            /// page are read from the index alone (id and order, no article row), and only the
            /// page's own rows are read.
            fn page<'a>(q: &'a crate::model::ListQuery) -> sqlx::QueryBuilder<'a, $db> {
                let order = match q.sort {
                    crate::model::Sort::Newest | crate::model::Sort::Relevance => {
                        " ORDER BY a.created_at DESC, a.id DESC"
                    }
                    crate::model::Sort::Featured => {
                        " ORDER BY a.featured DESC, a.created_at DESC, a.id DESC"
                    }
                };
                let select = format!("SELECT {} FROM (SELECT a.id", crate::store::CARD_COLUMNS);
                let mut page = Self::filtered(&select, q);
                page.push(order)
                    .push(" LIMIT ")
                    .push_bind(q.limit)
                    .push(" OFFSET ")
                    .push_bind(q.offset)
                    .push(") p JOIN articles a ON a.id = p.id")
                    .push(order);
                page
            }

            /// One page of the filtered listing, and its total.
            async fn page_and_count(
                pool: &$pool,
                q: &crate::model::ListQuery,
            ) -> Result<(Vec<crate::store::CardRow>, i64), sqlx::Error> {
                let rows = Self::page(q)
                    .build_query_as::<crate::store::CardRow>()
                    .fetch_all(pool)
                    .await?;
                let total: i64 = Self::filtered("SELECT COUNT(*)", q)
                    .build_query_scalar()
                    .fetch_one(pool)
                    .await?;
                Ok((rows, total))
            }
        }

        #[async_trait::async_trait]
        impl crate::store::ContentStore for $name {
            async fn list_published(
                &self,
                q: &crate::model::ListQuery,
            ) -> Result<(Vec<crate::store::CardRow>, i64), sqlx::Error> {
                debug_assert!(q.q.is_empty(), "searches go through `search`");
                Self::page_and_count(&self.pool, q).await
            }

            async fn search(
                &self,
                query: &crate::search::Query,
                categories: &[crate::model::Category],
                limit: i64,
            ) -> Result<Vec<crate::search::Candidate>, sqlx::Error> {
                $search(&self.pool, query, categories, limit).await
            }

            async fn any_match(
                &self,
                query: &crate::search::Query,
                categories: &[crate::model::Category],
            ) -> Result<bool, sqlx::Error> {
                $any_match(&self.pool, query, categories).await
            }

            async fn cards(
                &self,
                ids: &[String],
            ) -> Result<Vec<crate::store::FoundRow>, sqlx::Error> {
                if ids.is_empty() {
                    return Ok(Vec::new());
                }
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                    "SELECT {}, COALESCE(a.body_text, '') AS body_text FROM articles a \
                     WHERE a.status = 'published' AND a.id IN (",
                    crate::store::CARD_COLUMNS
                ));
                let mut listed = qb.separated(", ");
                for id in ids {
                    listed.push_bind(id.clone());
                }
                qb.push(")");
                qb.build_query_as().fetch_all(&self.pool).await
            }

            async fn words_between(
                &self,
                from: &str,
                to: &str,
                shortest: i64,
                longest: i64,
                limit: i64,
            ) -> Result<Vec<String>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("SELECT word FROM search_words WHERE word >= ");
                qb.push_bind(from.to_string());
                qb.push(" AND word < ").push_bind(to.to_string());
                qb.push(" AND LENGTH(word) BETWEEN ").push_bind(shortest);
                qb.push(" AND ").push_bind(longest);
                qb.push(" ORDER BY word LIMIT ").push_bind(limit);
                qb.build_query_scalar().fetch_all(&self.pool).await
            }

            async fn unwritten_bodies(
                &self,
                limit: i64,
            ) -> Result<Vec<(String, String, Option<String>, String)>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "SELECT id, title, subtitle, content FROM articles \
                     WHERE body_text IS NULL ORDER BY id LIMIT ",
                );
                qb.push_bind(limit);
                qb.build_query_as().fetch_all(&self.pool).await
            }

            async fn write_bodies(
                &self,
                bodies: &[(String, String, Vec<String>)],
            ) -> Result<(), sqlx::Error> {
                let mut tx = self.pool.begin_with($begin_write).await?;
                for (id, body, _) in bodies {
                    let mut qb: sqlx::QueryBuilder<$db> =
                        sqlx::QueryBuilder::new("UPDATE articles SET body_text = ");
                    qb.push_bind(body.clone());
                    qb.push(" WHERE id = ").push_bind(id.clone());
                    qb.build().execute(&mut *tx).await?;
                }
                Self::write_words(&mut tx, bodies.iter().flat_map(|b| b.2.iter())).await?;
                tx.commit().await?;
                Ok(())
            }

            async fn count_published(&self) -> Result<i64, sqlx::Error> {
                sqlx::query_scalar("SELECT COUNT(*) FROM articles WHERE status = 'published'")
                    .fetch_one(&self.pool)
                    .await
            }

            async fn find_published(
                &self,
                slug_or_id: &str,
            ) -> Result<Option<crate::store::ArticleRow>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                    "SELECT {}, a.content, a.content_html FROM articles a \
                     WHERE a.status = 'published' AND (a.slug = ",
                    crate::store::CARD_COLUMNS
                ));
                qb.push_bind(slug_or_id);
                qb.push(" OR a.id = ");
                qb.push_bind(slug_or_id);
                qb.push(") ORDER BY a.slug = ");
                qb.push_bind(slug_or_id);
                qb.push(" DESC LIMIT 1");
                qb.build_query_as().fetch_optional(&self.pool).await
            }

            async fn current_slug_for(&self, old_slug: &str) -> Result<Option<String>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "SELECT a.slug FROM article_slug_history h JOIN articles a ON a.id = h.article_id \
                     WHERE a.status = 'published' AND h.slug = ",
                );
                qb.push_bind(old_slug);
                qb.build_query_scalar().fetch_optional(&self.pool).await
            }

            async fn published_titles(
                &self,
                slugs: &[String],
            ) -> Result<Vec<(String, String)>, sqlx::Error> {
                if slugs.is_empty() {
                    return Ok(Vec::new());
                }
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "SELECT a.slug, a.title FROM articles a \
                     WHERE a.status = 'published' AND a.slug IN (",
                );
                let mut sep = qb.separated(", ");
                for s in slugs {
                    sep.push_bind(s);
                }
                qb.push(
                    ") UNION ALL SELECT h.slug, a.title FROM article_slug_history h \
                     JOIN articles a ON a.id = h.article_id \
                     WHERE a.status = 'published' AND h.slug IN (",
                );
                let mut sep = qb.separated(", ");
                for s in slugs {
                    sep.push_bind(s);
                }
                qb.push(")");
                qb.build_query_as().fetch_all(&self.pool).await
            }

            async fn slug_taken(&self, slug: &str) -> Result<bool, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "SELECT COUNT(*) FROM articles WHERE slug = ",
                );
                qb.push_bind(slug);
                qb.push(" OR slug IN (SELECT slug FROM article_slug_history WHERE slug = ");
                qb.push_bind(slug);
                qb.push(")");
                let n: i64 = qb.build_query_scalar().fetch_one(&self.pool).await?;
                Ok(n > 0)
            }

            async fn insert(&self, row: &crate::store::InsertRow) -> Result<(), sqlx::Error> {
                self.insert_many(std::slice::from_ref(row)).await
            }

            async fn insert_many(&self, rows: &[crate::store::InsertRow]) -> Result<(), sqlx::Error> {
                // Oldest first: SQLite's search index numbers its rows as they go live, and
                // reads its matches newest first by those numbers.
                let mut rows: Vec<&crate::store::InsertRow> = rows.iter().collect();
                rows.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
                let mut tx = self.pool.begin_with($begin_write).await?;
                // 21 values a row: well under either engine's limit of bound values.
                for chunk in rows.chunks(500) {
                    let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                        "INSERT INTO articles (id, slug, title, subtitle, content, category, \
                         cover_image, featured, status, author_id, created_at, updated_at, \
                         excerpt, content_html, reading_minutes, body_text, \
                         first_published_at, stage, publish_at, updated_by) ",
                    );
                    qb.push_values(chunk, |mut b, r| {
                        b.push_bind(r.id.clone())
                            .push_bind(r.slug.clone())
                            .push_bind(r.title.clone())
                            .push_bind(r.subtitle.clone())
                            .push_bind(r.content.clone())
                            .push_bind(r.category.clone())
                            .push_bind(r.cover_image.clone())
                            .push_bind(r.featured)
                            .push_bind(r.status.clone())
                            .push_bind(r.author_id.clone())
                            .push_bind(r.created_at)
                            .push_bind(r.updated_at)
                            .push_bind(r.excerpt.clone())
                            .push_bind(r.content_html.clone())
                            .push_bind(r.reading_minutes)
                            .push_bind(r.body_text.clone())
                            .push_bind(r.first_published_at)
                            .push_bind(r.stage.clone())
                            .push_bind(r.publish_at)
                            .push_bind(r.updated_by.clone());
                    });
                    qb.build().execute(&mut *tx).await?;
                    // Each article's first revision is its text as inserted.
                    let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                        "INSERT INTO article_revisions (article_id, number, title, subtitle, \
                         content, cover_image, saved_by, saved_at) SELECT a.id, 1, a.title, \
                         a.subtitle, a.content, a.cover_image, a.updated_by, a.updated_at \
                         FROM articles a WHERE a.id IN (",
                    );
                    let mut ids = qb.separated(", ");
                    for r in chunk {
                        ids.push_bind(r.id.clone());
                    }
                    qb.push(")");
                    qb.build().execute(&mut *tx).await?;
                    let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                        "INSERT INTO article_events (id, article_id, actor_id, action, \
                         from_stage, to_stage, note, publish_at, at) ",
                    );
                    qb.push_values(chunk, |mut b, r| {
                        b.push_bind(kernel::ids::new_id())
                            .push_bind(r.id.clone())
                            .push_bind(r.updated_by.clone())
                            .push_bind("create")
                            .push_bind(None::<String>)
                            .push_bind(r.stage.clone())
                            .push_bind(None::<String>)
                            .push_bind(r.publish_at)
                            .push_bind(r.updated_at);
                    });
                    qb.build().execute(&mut *tx).await?;
                }
                Self::write_words(&mut tx, rows.iter().flat_map(|r| r.words.iter())).await?;
                tx.commit().await?;
                Ok(())
            }

            async fn count_all(&self) -> Result<i64, sqlx::Error> {
                sqlx::query_scalar("SELECT COUNT(*) FROM articles")
                    .fetch_one(&self.pool)
                    .await
            }

            async fn published_slugs(
                &self,
            ) -> Result<Vec<(String, chrono::DateTime<chrono::Utc>)>, sqlx::Error> {
                sqlx::query_as(
                    "SELECT slug, updated_at FROM articles WHERE status = 'published' \
                     ORDER BY created_at DESC",
                )
                .fetch_all(&self.pool)
                .await
            }

            async fn published_between(
                &self,
                from: chrono::DateTime<chrono::Utc>,
                to: chrono::DateTime<chrono::Utc>,
            ) -> Result<Vec<crate::store::WeekRow>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "SELECT slug, title, category, \
                     COALESCE(NULLIF(subtitle, ''), excerpt) AS description, \
                     first_published_at FROM articles \
                     WHERE status = 'published' AND first_published_at >= ",
                );
                qb.push_bind(from);
                qb.push(" AND first_published_at < ");
                qb.push_bind(to);
                qb.push(" ORDER BY first_published_at DESC, id DESC");
                qb.build_query_as().fetch_all(&self.pool).await
            }

            async fn staff_list(
                &self,
                author: Option<&str>,
            ) -> Result<Vec<crate::store::StaffRow>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                    "SELECT {}, {} FROM {}",
                    crate::store::CARD_COLUMNS,
                    crate::store::STAFF_COLUMNS,
                    crate::store::STAFF_FROM
                ));
                if let Some(author) = author {
                    qb.push(" WHERE a.author_id = ");
                    qb.push_bind(author.to_string());
                }
                qb.push(" ORDER BY a.created_at DESC, a.id DESC");
                qb.build_query_as().fetch_all(&self.pool).await
            }

            async fn staff_get(
                &self,
                id: &str,
                author: Option<&str>,
            ) -> Result<Option<crate::store::StaffRow>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                    "SELECT {}, {} FROM {} WHERE a.id = ",
                    crate::store::CARD_COLUMNS,
                    crate::store::STAFF_COLUMNS,
                    crate::store::STAFF_FROM
                ));
                qb.push_bind(id.to_string());
                if let Some(author) = author {
                    qb.push(" AND a.author_id = ");
                    qb.push_bind(author.to_string());
                }
                qb.build_query_as().fetch_optional(&self.pool).await
            }

            async fn update(
                &self,
                r: &crate::store::InsertRow,
                old_slug: Option<&str>,
                expected_version: Option<i64>,
                event: Option<&crate::store::EventRow>,
                pending_at: Option<chrono::DateTime<chrono::Utc>>,
            ) -> Result<crate::store::Updated, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("UPDATE articles SET slug = ");
                qb.push_bind(r.slug.clone());
                qb.push(", title = ").push_bind(r.title.clone());
                qb.push(", subtitle = ").push_bind(r.subtitle.clone());
                qb.push(", content = ").push_bind(r.content.clone());
                qb.push(", category = ").push_bind(r.category.clone());
                qb.push(", cover_image = ").push_bind(r.cover_image.clone());
                qb.push(", featured = ").push_bind(r.featured);
                qb.push(", status = ").push_bind(r.status.clone());
                qb.push(", stage = ").push_bind(r.stage.clone());
                qb.push(", publish_at = ").push_bind(r.publish_at);
                qb.push(", author_id = ").push_bind(r.author_id.clone());
                qb.push(", updated_at = ").push_bind(r.updated_at);
                qb.push(", updated_by = ").push_bind(r.updated_by.clone());
                qb.push(", excerpt = ").push_bind(r.excerpt.clone());
                qb.push(", content_html = ").push_bind(r.content_html.clone());
                qb.push(", reading_minutes = ").push_bind(r.reading_minutes);
                qb.push(", body_text = ").push_bind(r.body_text.clone());
                qb.push(", first_published_at = ").push_bind(r.first_published_at);
                qb.push(", version = version + 1 WHERE id = ").push_bind(r.id.clone());
                if let Some(v) = expected_version {
                    qb.push(" AND version = ").push_bind(v);
                }
                qb.push(" RETURNING version");
                // The update comes first: it takes the write lock (SQLite) or the row lock
                // (PostgreSQL) before anything is read.
                let mut tx = self.pool.begin_with($begin_write).await?;
                let version: Option<i64> =
                    qb.build_query_scalar().fetch_optional(&mut *tx).await?;
                let Some(version) = version else {
                    let mut qb: sqlx::QueryBuilder<$db> =
                        sqlx::QueryBuilder::new("SELECT COUNT(*) FROM articles WHERE id = ");
                    qb.push_bind(r.id.clone());
                    let exists: i64 = qb.build_query_scalar().fetch_one(&mut *tx).await?;
                    tx.rollback().await?;
                    return Ok(if exists > 0 {
                        crate::store::Updated::Stale
                    } else {
                        crate::store::Updated::Gone
                    });
                };
                Self::write_revision(&mut tx, &r.id).await?;
                if let Some(event) = event {
                    Self::write_event(&mut tx, event).await?;
                }
                Self::drop_pending_unless_live(&mut tx, &r.id, &r.stage).await?;
                if let Some(at) = pending_at {
                    let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                        "DELETE FROM article_pending_changes WHERE article_id = ",
                    );
                    qb.push_bind(r.id.clone());
                    qb.push(" AND proposed_at = ").push_bind(at);
                    if qb.build().execute(&mut *tx).await?.rows_affected() != 1 {
                        // Replaced or dropped meanwhile: what was approved is not what waits.
                        tx.rollback().await?;
                        return Ok(crate::store::Updated::Stale);
                    }
                }
                if let Some(old_slug) = old_slug {
                    let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                        "INSERT INTO article_slug_history (slug, article_id, created_at) VALUES (",
                    );
                    qb.push_bind(old_slug.to_string());
                    qb.push(", ");
                    qb.push_bind(r.id.clone());
                    qb.push(", ");
                    qb.push_bind(r.updated_at);
                    qb.push(") ON CONFLICT (slug) DO UPDATE SET article_id = excluded.article_id");
                    qb.build().execute(&mut *tx).await?;
                }
                Self::write_words(&mut tx, r.words.iter()).await?;
                tx.commit().await?;
                Ok(crate::store::Updated::Written(version))
            }

            async fn change_stage(
                &self,
                c: &crate::store::StageChange,
                notice: Option<&kernel::outbox::Email>,
            ) -> Result<bool, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("UPDATE articles SET stage = ");
                qb.push_bind(c.stage.clone());
                qb.push(", status = ").push_bind(if c.stage == "published" {
                    "published"
                } else {
                    "draft"
                });
                qb.push(", publish_at = ").push_bind(c.publish_at);
                qb.push(", submitted_at = ").push_bind(c.submitted_at);
                qb.push(", review_note = ").push_bind(c.review_note.clone());
                qb.push(", review_note_by = ").push_bind(c.review_note_by.clone());
                qb.push(", review_note_at = ").push_bind(c.review_note_at);
                qb.push(", first_published_at = ").push_bind(c.first_published_at);
                qb.push(", updated_at = ").push_bind(c.updated_at);
                qb.push(", updated_by = ").push_bind(c.updated_by.clone());
                qb.push(", version = version + 1 WHERE id = ").push_bind(c.id.clone());
                qb.push(" AND stage = ").push_bind(c.from_stage.clone());
                qb.push(" AND version = ").push_bind(c.version);
                let mut tx = self.pool.begin_with($begin_write).await?;
                if qb.build().execute(&mut *tx).await?.rows_affected() != 1 {
                    tx.rollback().await?;
                    return Ok(false);
                }
                Self::write_event(&mut tx, &c.event).await?;
                Self::drop_pending_unless_live(&mut tx, &c.id, &c.stage).await?;
                if let Some(email) = notice {
                    $enqueue(&mut *tx, email).await?;
                }
                tx.commit().await?;
                Ok(true)
            }

            async fn publish_due(
                &self,
                now: chrono::DateTime<chrono::Utc>,
            ) -> Result<Vec<crate::store::WentOut>, sqlx::Error> {
                // Asked every second by every instance: a read first, so that nothing takes
                // the write lock (SQLite's one writer) while nothing is due.
                let mut due: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "SELECT COUNT(*) FROM articles WHERE stage = 'scheduled' AND publish_at <= ",
                );
                due.push_bind(now);
                let waiting: i64 = due.build_query_scalar().fetch_one(&self.pool).await?;
                if waiting == 0 {
                    return Ok(Vec::new());
                }
                // One conditional update: a row leaves `scheduled` once, so of two instances
                // asking at once only one gets it back (PostgreSQL re-checks the condition
                // after waiting for the other's row lock; SQLite has one writer).
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "UPDATE articles SET stage = 'published', status = 'published', \
                     created_at = CASE WHEN first_published_at IS NULL THEN publish_at \
                     ELSE created_at END, \
                     first_published_at = COALESCE(first_published_at, publish_at), \
                     version = version + 1, updated_at = ",
                );
                qb.push_bind(now);
                qb.push(" WHERE stage = 'scheduled' AND publish_at <= ");
                qb.push_bind(now);
                qb.push(" RETURNING id, slug, title, author_id, publish_at");
                let mut tx = self.pool.begin_with($begin_write).await?;
                let went: Vec<crate::store::WentOut> =
                    qb.build_query_as().fetch_all(&mut *tx).await?;
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
                    Self::write_event(&mut tx, &event).await?;
                }
                tx.commit().await?;
                Ok(went)
            }

            async fn queue_email(&self, email: &kernel::outbox::Email) -> Result<(), sqlx::Error> {
                let mut conn = self.pool.acquire().await?;
                $enqueue(&mut *conn, email).await?;
                Ok(())
            }

            async fn review_queue(&self) -> Result<Vec<crate::store::StaffRow>, sqlx::Error> {
                sqlx::query_as(&format!(
                    "SELECT {}, {} FROM {} WHERE a.stage = 'in_review' \
                     OR p.article_id IS NOT NULL \
                     ORDER BY COALESCE(p.proposed_at, a.submitted_at), a.id",
                    crate::store::CARD_COLUMNS,
                    crate::store::STAFF_COLUMNS,
                    crate::store::STAFF_FROM
                ))
                .fetch_all(&self.pool)
                .await
            }

            async fn events(
                &self,
                id: &str,
            ) -> Result<Vec<crate::store::EventRow>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "SELECT id, article_id, actor_id, action, from_stage, to_stage, note, \
                     publish_at, at FROM article_events WHERE article_id = ",
                );
                qb.push_bind(id.to_string());
                qb.push(" ORDER BY at, id");
                qb.build_query_as().fetch_all(&self.pool).await
            }

            async fn revisions(
                &self,
                id: &str,
            ) -> Result<Vec<crate::store::RevisionRow>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "SELECT number, title, subtitle, content, cover_image, saved_by, saved_at \
                     FROM article_revisions WHERE article_id = ",
                );
                qb.push_bind(id.to_string());
                qb.push(" ORDER BY number DESC");
                qb.build_query_as().fetch_all(&self.pool).await
            }

            async fn revision(
                &self,
                id: &str,
                number: i64,
            ) -> Result<Option<crate::store::RevisionRow>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "SELECT number, title, subtitle, content, cover_image, saved_by, saved_at \
                     FROM article_revisions WHERE article_id = ",
                );
                qb.push_bind(id.to_string());
                qb.push(" AND number = ").push_bind(number);
                qb.build_query_as().fetch_optional(&self.pool).await
            }

            async fn put_pending(
                &self,
                c: &crate::store::PendingRow,
                event: &crate::store::EventRow,
            ) -> Result<bool, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "INSERT INTO article_pending_changes (article_id, title, subtitle, content, \
                     category, cover_image, featured, proposed_by, proposed_at, base_version) \
                     SELECT a.id, ",
                );
                qb.push_bind(c.title.clone());
                qb.push(", ").push_bind(c.subtitle.clone());
                qb.push(", ").push_bind(c.content.clone());
                qb.push(", ").push_bind(c.category.clone());
                qb.push(", ").push_bind(c.cover_image.clone());
                qb.push(", ").push_bind(c.featured);
                qb.push(", ").push_bind(c.proposed_by.clone());
                qb.push(", ").push_bind(c.proposed_at);
                qb.push(", a.version FROM articles a WHERE a.id = ")
                    .push_bind(c.article_id.clone());
                qb.push(" AND a.version = ").push_bind(c.base_version);
                qb.push(
                    " AND a.stage IN ('published', 'scheduled') \
                     ON CONFLICT (article_id) DO UPDATE SET title = excluded.title, \
                     subtitle = excluded.subtitle, content = excluded.content, \
                     category = excluded.category, cover_image = excluded.cover_image, \
                     featured = excluded.featured, proposed_by = excluded.proposed_by, \
                     proposed_at = excluded.proposed_at, base_version = excluded.base_version",
                );
                let mut tx = self.pool.begin_with($begin_write).await?;
                Self::lock_article(&mut tx, &c.article_id).await?;
                if qb.build().execute(&mut *tx).await?.rows_affected() != 1 {
                    tx.rollback().await?;
                    return Ok(false);
                }
                Self::write_event(&mut tx, event).await?;
                tx.commit().await?;
                Ok(true)
            }

            async fn drop_pending(
                &self,
                id: &str,
                proposed_at: chrono::DateTime<chrono::Utc>,
                event: &crate::store::EventRow,
            ) -> Result<bool, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "DELETE FROM article_pending_changes WHERE article_id = ",
                );
                qb.push_bind(id.to_string());
                qb.push(" AND proposed_at = ").push_bind(proposed_at);
                let mut tx = self.pool.begin_with($begin_write).await?;
                Self::lock_article(&mut tx, id).await?;
                if qb.build().execute(&mut *tx).await?.rows_affected() != 1 {
                    tx.rollback().await?;
                    return Ok(false);
                }
                Self::write_event(&mut tx, event).await?;
                tx.commit().await?;
                Ok(true)
            }

            async fn delete(&self, id: &str) -> Result<bool, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("DELETE FROM articles WHERE id = ");
                qb.push_bind(id.to_string());
                Ok(qb.build().execute(&self.pool).await?.rows_affected() == 1)
            }
        }
    };
}
pub(crate) use sql_content_store;
