//! Writing new articles: one created by hand or a seed, many at once for a bulk load, and the
//! body text of articles stored before search had it.

use std::collections::HashSet;

use crate::draft::{self, Meta};
use crate::error::ContentError;
use crate::model::{NewArticle, Status};
use crate::service::ContentService;
use crate::slug::slugify;
use crate::writer::{self, Write};

/// The row of a new article (its slug left to the caller) and the slug its title makes.
fn new_row(
    new: NewArticle,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<(crate::store::InsertRow, String), ContentError> {
    let fields = draft::validate(&new.title, new.subtitle, &new.content, new.cover_image)?;
    let base = slugify(&fields.title);
    let created_at = new.created_at.unwrap_or(now);
    let row = draft::row(
        fields,
        Meta {
            id: kernel::ids::new_id(),
            slug: String::new(),
            category: new.category,
            featured: new.featured,
            stage: match new.status {
                Status::Published => crate::workflow::Stage::Published,
                Status::Draft => crate::workflow::Stage::Draft,
            },
            publish_at: None,
            updated_by: new.author_id.clone(),
            author_id: new.author_id,
            created_at,
            updated_at: created_at,
            first_published_at: (new.status == Status::Published).then_some(created_at),
        },
    );
    Ok((row, base))
}

/// Articles validated and derived for [`ContentService::import_prepared`].
pub struct PreparedArticles(Vec<crate::store::InsertRow>);

impl ContentService {
    /// Creates an article; returns its id and slug.
    #[tracing::instrument(skip(self, new), fields(title = %new.title))]
    pub async fn create(&self, new: NewArticle) -> Result<(String, String), ContentError> {
        let now = self.now();
        let (mut row, base) = new_row(new, now)?;
        // Saved after `now` even when dated earlier (an import of older pieces).
        row.updated_at = row.updated_at.max(now);
        writer::write(self.store(), &mut row, Some(&base), Write::Insert).await?;
        self.changed(&[row.slug.as_str()]);
        Ok((row.id, row.slug))
    }

    /// Loads many articles at once (bulk seeding): each validated and derived as
    /// [`ContentService::create`] does, written in one transaction. Slugs come from the titles
    /// (made unique within the batch); one that an existing article already uses fails the
    /// whole batch, so titles should be new. Returns how many were written.
    pub async fn import(&self, items: Vec<NewArticle>) -> Result<usize, ContentError> {
        self.import_prepared(Self::prepare_import(items)?).await
    }

    /// The first half of [`ContentService::import`]: validating and deriving (markdown,
    /// sanitizing, search text), CPU only, so a bulk load can prepare the next batch on
    /// another thread while this one is written.
    pub fn prepare_import(items: Vec<NewArticle>) -> Result<PreparedArticles, ContentError> {
        let now = kernel::ids::now();
        let mut seen = HashSet::new();
        let mut rows = Vec::with_capacity(items.len());
        for new in items {
            let (mut row, base) = new_row(new, now)?;
            let mut slug = base.clone();
            let mut n = 1;
            while !seen.insert(slug.clone()) {
                n += 1;
                slug = format!("{base}-{n}");
            }
            row.slug = slug;
            rows.push(row);
        }
        Ok(PreparedArticles(rows))
    }

    /// The second half of [`ContentService::import`]: one transaction.
    pub async fn import_prepared(&self, prepared: PreparedArticles) -> Result<usize, ContentError> {
        self.store().insert_many(&prepared.0).await?;
        let slugs: Vec<&str> = prepared.0.iter().map(|row| row.slug.as_str()).collect();
        self.changed(&slugs);
        Ok(prepared.0.len())
    }

    /// Writes the body text (and words) of articles stored before search had them (migration
    /// 0030 leaves them for the app, which alone turns Markdown into text), a few hundred at a
    /// time: the number written. Nothing to do, one indexed read.
    pub async fn fill_body_text(&self) -> Result<u64, ContentError> {
        let mut written = 0;
        loop {
            let unwritten = self.store().unwritten_bodies(500).await?;
            if unwritten.is_empty() {
                // Search finds them now; no article's own page shows the text.
                if written > 0 {
                    self.changed(&[]);
                }
                return Ok(written);
            }
            let bodies: Vec<(String, String, Vec<String>)> = unwritten
                .into_iter()
                .map(|(id, title, subtitle, content)| {
                    let body = crate::derive::render_markdown(&content).plain;
                    let words = crate::search::suggestable_words(
                        [title.as_str(), &body]
                            .into_iter()
                            .chain(subtitle.as_deref()),
                    );
                    (id, body, words)
                })
                .collect();
            self.store().write_bodies(&bodies).await?;
            written += bodies.len() as u64;
        }
    }
}
