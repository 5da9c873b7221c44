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

mod edit;
mod read;
mod review;
