//! Persistence of articles: one trait, one implementation per engine.

mod postgres;
mod sqlite;

use std::sync::Arc;

use chrono::{DateTime, Utc};
use kernel::Db;

use crate::model::{Category, ListQuery};
use crate::search::{Found, Query};

pub use sql::SqlContentStore;

/// The card columns of a public listing row.
/// A piece first published in a window, as the weekly digest lists it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct WeekRow {
    pub slug: String,
    pub title: String,
    pub category: String,
    /// The subtitle, or the excerpt when there is none.
    pub description: String,
    pub first_published_at: DateTime<Utc>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CardRow {
    pub id: String,
    pub slug: String,
    pub title: String,
    pub subtitle: Option<String>,
    pub excerpt: String,
    pub category: String,
    pub cover_image: Option<String>,
    pub featured: bool,
    pub author_id: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub reading_minutes: i32,
}

/// A published article a search found: its card, and its plain text to quote from.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct FoundRow {
    #[sqlx(flatten)]
    pub card: CardRow,
    pub body_text: String,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ArticleRow {
    #[sqlx(flatten)]
    pub card: CardRow,
    pub content: String,
    pub content_html: String,
}

/// A fully derived row ready to insert.
#[derive(Debug, Clone)]
pub struct InsertRow {
    pub id: String,
    pub slug: String,
    pub title: String,
    pub subtitle: Option<String>,
    pub content: String,
    pub category: String,
    pub cover_image: Option<String>,
    pub featured: bool,
    pub status: String,
    pub author_id: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub excerpt: String,
    pub content_html: String,
    pub reading_minutes: i32,
    /// The text as plain text (Markdown removed), as search indexes and quotes it.
    pub body_text: String,
    /// The words worth suggesting to a reader who mistypes one (see
    /// [`crate::search::suggestable_words`]).
    pub words: Vec<String>,
    pub first_published_at: Option<DateTime<Utc>>,
    /// Where the piece stands (`draft`, `in_review`, `scheduled`, `published`); `status` is
    /// `published` exactly when this is.
    pub stage: String,
    pub publish_at: Option<DateTime<Utc>>,
    /// Who saved it (kept as the revision's author).
    pub updated_by: Option<String>,
}

/// A row as staff see it: any status, with the body and where it stands in the newsroom.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StaffRow {
    #[sqlx(flatten)]
    pub card: CardRow,
    pub status: String,
    pub content: String,
    pub first_published_at: Option<DateTime<Utc>>,
    pub stage: String,
    pub publish_at: Option<DateTime<Utc>>,
    pub version: i64,
    pub updated_by: Option<String>,
    pub submitted_at: Option<DateTime<Utc>>,
    pub review_note: Option<String>,
    pub review_note_by: Option<String>,
    pub review_note_at: Option<DateTime<Utc>>,
    /// A writer's change waiting for review while the live version stays up (all `None` when
    /// there is none; `pending_at` tells).
    pub pending_title: Option<String>,
    pub pending_subtitle: Option<String>,
    pub pending_content: Option<String>,
    pub pending_category: Option<String>,
    pub pending_cover_image: Option<String>,
    pub pending_featured: Option<bool>,
    pub pending_by: Option<String>,
    pub pending_at: Option<DateTime<Utc>>,
}

/// The staff columns after the card's (read from [`STAFF_FROM`]).
pub(crate) const STAFF_COLUMNS: &str = "a.status, a.content, a.first_published_at, a.stage, \
     a.publish_at, a.version, a.updated_by, a.submitted_at, a.review_note, a.review_note_by, \
     a.review_note_at, p.title AS pending_title, p.subtitle AS pending_subtitle, \
     p.content AS pending_content, p.category AS pending_category, \
     p.cover_image AS pending_cover_image, p.featured AS pending_featured, \
     p.proposed_by AS pending_by, p.proposed_at AS pending_at";

/// Articles as staff read them: each with its pending change, if any.
pub(crate) const STAFF_FROM: &str =
    "articles a LEFT JOIN article_pending_changes p ON p.article_id = a.id";

/// A writer's change to a live piece, to keep until a reviewer decides.
#[derive(Debug, Clone)]
pub struct PendingRow {
    pub article_id: String,
    pub title: String,
    pub subtitle: Option<String>,
    pub content: String,
    pub category: String,
    pub cover_image: Option<String>,
    pub featured: bool,
    pub proposed_by: Option<String>,
    pub proposed_at: DateTime<Utc>,
    pub base_version: i64,
}

/// An audit-log entry, to write or as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EventRow {
    pub id: String,
    pub article_id: String,
    pub actor_id: Option<String>,
    pub action: String,
    pub from_stage: Option<String>,
    pub to_stage: String,
    pub note: Option<String>,
    pub publish_at: Option<DateTime<Utc>>,
    pub at: DateTime<Utc>,
}

/// A saved revision as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RevisionRow {
    pub number: i64,
    pub title: String,
    pub subtitle: Option<String>,
    pub content: String,
    pub cover_image: Option<String>,
    pub saved_by: Option<String>,
    pub saved_at: DateTime<Utc>,
}

/// A move of an article from one stage to another, written only if the article is still at
/// `from_stage` and `version` (nothing else changed it meanwhile). Every field is set as given.
#[derive(Debug, Clone)]
pub struct StageChange {
    pub id: String,
    pub from_stage: String,
    pub version: i64,
    pub stage: String,
    pub publish_at: Option<DateTime<Utc>>,
    pub submitted_at: Option<DateTime<Utc>>,
    pub review_note: Option<String>,
    pub review_note_by: Option<String>,
    pub review_note_at: Option<DateTime<Utc>>,
    pub first_published_at: Option<DateTime<Utc>>,
    pub updated_at: DateTime<Utc>,
    pub updated_by: Option<String>,
    pub event: EventRow,
}

/// What an update came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Updated {
    /// Written; the article's version now.
    Written(i64),
    /// The article is gone.
    Gone,
    /// The article was saved since `expected_version`: nothing written.
    Stale,
}

/// A scheduled piece that went out.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct WentOut {
    pub id: String,
    pub slug: String,
    pub title: String,
    pub author_id: Option<String>,
    pub publish_at: Option<DateTime<Utc>>,
}

/// The content store: what readers see ([`ReadStore`]), what staff write ([`EditStore`]) and
/// the newsroom's review and scheduling ([`ReviewStore`]). One implementation serves both
/// engines (`sql`); callers bring the part they use into scope.
pub trait ContentStore: ReadStore + EditStore + ReviewStore {}

impl<T: ReadStore + EditStore + ReviewStore> ContentStore for T {}

/// Published articles, as readers and search find them.
#[async_trait::async_trait]
pub trait ReadStore: Send + Sync {
    /// Published articles of `q`'s filters, in its order, with the number of them (`q.q`,
    /// the search text, is not read: searches go through [`ReadStore::search`]).
    async fn list_published(&self, q: &ListQuery) -> Result<(Vec<CardRow>, i64), sqlx::Error>;
    /// Published articles matching `query` (of one of `categories`, when given), with how
    /// well each matches: the newest `limit` of them, roughly (by when they went live). A
    /// query with a phrase is looked for only in the newest `window` articles that
    /// [`Query::without_phrases`] finds.
    async fn search(
        &self,
        query: &Query,
        categories: &[Category],
        limit: i64,
        window: i64,
    ) -> Result<Found, sqlx::Error>;
    /// Whether `query` finds any published article (of one of `categories`, when given),
    /// looked for as [`ReadStore::search`] looks.
    async fn any_match(
        &self,
        query: &Query,
        categories: &[Category],
        window: i64,
    ) -> Result<bool, sqlx::Error>;
    /// The published articles `ids` (in no particular order), each with its plain text.
    async fn cards(&self, ids: &[String]) -> Result<Vec<FoundRow>, sqlx::Error>;
    /// Up to `limit` known words in `[from, to)`, alphabetically, of `shortest` to `longest`
    /// characters.
    async fn words_between(
        &self,
        from: &str,
        to: &str,
        shortest: i64,
        longest: i64,
        limit: i64,
    ) -> Result<Vec<String>, sqlx::Error>;
    async fn count_published(&self) -> Result<i64, sqlx::Error>;
    /// A published article by its slug or its id.
    async fn find_published(&self, slug_or_id: &str) -> Result<Option<ArticleRow>, sqlx::Error>;
    /// The current slug of the published article that once had `old_slug`.
    async fn current_slug_for(&self, old_slug: &str) -> Result<Option<String>, sqlx::Error>;
    /// Published article slugs with their last change, newest first (for the sitemap).
    async fn published_slugs(&self) -> Result<Vec<(String, DateTime<Utc>)>, sqlx::Error>;
    /// Everyone with a published article: their id and when the last of theirs changed.
    async fn published_authors(&self) -> Result<Vec<(String, DateTime<Utc>)>, sqlx::Error>;
    /// Published articles first published in `[from, to)`: slug, title, category (as stored)
    /// and that time, newest first (for the weekly digest).
    async fn published_between(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> Result<Vec<WeekRow>, sqlx::Error>;
    /// The titles of the published articles at `slugs`, each slug current or former: one
    /// query, `(slug as asked, title)` pairs.
    async fn published_titles(
        &self,
        slugs: &[String],
    ) -> Result<Vec<(String, String)>, sqlx::Error>;
}

/// Articles as staff write them: saves, revisions, the audit log.
#[async_trait::async_trait]
pub trait EditStore: Send + Sync {
    /// Upkeep of the search index between requests: on SQLite, a bounded step of merging the
    /// FTS5 index's segments (migration 0033 leaves it to this, not to each save).
    async fn upkeep(&self) -> Result<(), sqlx::Error>;
    /// Merges the search index into as few segments as it can (SQLite; 2 s at 100,000
    /// articles), for the end of a bulk import.
    async fn compact_index(&self) -> Result<(), sqlx::Error>;
    /// Up to `limit` articles whose body text was never written (articles stored before the
    /// search index: see migration 0030), as `(id, title, subtitle, Markdown)`.
    async fn unwritten_bodies(
        &self,
        limit: i64,
    ) -> Result<Vec<(String, String, Option<String>, String)>, sqlx::Error>;
    /// Writes articles' body text, and their words, in one transaction.
    async fn write_bodies(
        &self,
        bodies: &[(String, String, Vec<String>)],
    ) -> Result<(), sqlx::Error>;
    async fn slug_taken(&self, slug: &str) -> Result<bool, sqlx::Error>;
    /// Inserts the article with its first revision and its `create` entry in the audit log.
    async fn insert(&self, row: &InsertRow) -> Result<(), sqlx::Error>;
    /// [`EditStore::insert`] for many rows at once, in one transaction (bulk loading).
    async fn insert_many(&self, rows: &[InsertRow]) -> Result<(), sqlx::Error>;
    /// Every article, whatever its status.
    async fn count_all(&self) -> Result<i64, sqlx::Error>;
    /// Every article (of `author` when given), newest first.
    async fn staff_list(&self, author: Option<&str>) -> Result<Vec<StaffRow>, sqlx::Error>;
    /// One article by id, whatever its status (of `author` when given).
    async fn staff_get(
        &self,
        id: &str,
        author: Option<&str>,
    ) -> Result<Option<StaffRow>, sqlx::Error>;
    /// Replaces the editable fields of `row.id` (and its derived fields), keeps them as a new
    /// revision, moves the version on, writes `event` (when the save also changed the stage)
    /// and, when `old_slug` is given, remembers that it now leads to this article: one
    /// transaction, so a rename never loses its redirect. With `expected_version`, nothing is
    /// written when the article was saved since. With `pending_at`, the pending change
    /// proposed at that time is removed with the write (it was approved).
    async fn update(
        &self,
        row: &InsertRow,
        old_slug: Option<&str>,
        expected_version: Option<i64>,
        event: Option<&EventRow>,
        pending_at: Option<DateTime<Utc>>,
    ) -> Result<Updated, sqlx::Error>;
    /// An article's audit log, oldest first.
    async fn events(&self, id: &str) -> Result<Vec<EventRow>, sqlx::Error>;
    /// An article's revisions, newest first (without their bodies' use: all columns).
    async fn revisions(&self, id: &str) -> Result<Vec<RevisionRow>, sqlx::Error>;
    async fn revision(&self, id: &str, number: i64) -> Result<Option<RevisionRow>, sqlx::Error>;
    async fn delete(&self, id: &str) -> Result<bool, sqlx::Error>;
}

/// The newsroom: changes waiting for review, stage moves, scheduled publishing.
#[async_trait::async_trait]
pub trait ReviewStore: Send + Sync {
    /// Keeps `change` as the article's pending change (replacing an earlier one), with its
    /// audit entry, if the article is still at `change.base_version`: false otherwise.
    async fn put_pending(&self, change: &PendingRow, event: &EventRow)
        -> Result<bool, sqlx::Error>;
    /// Drops the pending change of `id` proposed at `proposed_at`, with its audit entry: false
    /// when there is none (or a newer one).
    async fn drop_pending(
        &self,
        id: &str,
        proposed_at: DateTime<Utc>,
        event: &EventRow,
    ) -> Result<bool, sqlx::Error>;
    /// Moves an article to another stage (see [`StageChange`]): false when it is gone or was
    /// changed meanwhile. With the change, the audit entry and, when given, an email queued in
    /// the outbox (sent exactly when the change is made).
    async fn change_stage(
        &self,
        change: &StageChange,
        notice: Option<&kernel::outbox::Email>,
    ) -> Result<bool, sqlx::Error>;
    /// Publishes every scheduled piece whose time has come (each exactly once, whichever
    /// instance asks first), dated by its scheduled time when it was never published before,
    /// with a `scheduled_publish` entry in the audit log.
    async fn publish_due(&self, now: DateTime<Utc>) -> Result<Vec<WentOut>, sqlx::Error>;
    /// Queues an email in the outbox.
    async fn queue_email(&self, email: &kernel::outbox::Email) -> Result<(), sqlx::Error>;
    /// Pieces waiting for review, and live pieces with a change waiting, the longest waiting
    /// first.
    async fn review_queue(&self) -> Result<Vec<StaffRow>, sqlx::Error>;
}

pub fn store_for(db: &Db) -> Arc<dyn ContentStore> {
    Arc::new(SqlContentStore::new(db.clone()))
}

/// Appends "`column` is one of `categories`" (nothing when there are none: any category).
pub(crate) const CARD_COLUMNS: &str = "a.id, a.slug, a.title, a.subtitle, a.excerpt, a.category, \
     a.cover_image, a.featured, a.author_id, a.created_at, a.updated_at, a.reading_minutes";

mod sql;
