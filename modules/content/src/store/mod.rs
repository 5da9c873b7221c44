//! Persistence of articles: one trait, one implementation per engine.

mod postgres;
mod sqlite;

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use kernel::Db;

use crate::model::ListQuery;

pub use postgres::PgContentStore;
pub use sqlite::SqliteContentStore;

/// The card columns of a public listing row.
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
    pub search_text: String,
    pub first_published_at: Option<DateTime<Utc>>,
}

/// A row as staff see it: any status, with the body.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StaffRow {
    #[sqlx(flatten)]
    pub card: CardRow,
    pub status: String,
    pub content: String,
    pub first_published_at: Option<DateTime<Utc>>,
}

#[async_trait]
pub trait ContentStore: Send + Sync {
    /// Published articles matching `q`, in its order, with the number of matches.
    async fn list_published(&self, q: &ListQuery) -> Result<(Vec<CardRow>, i64), sqlx::Error>;
    async fn count_published(&self) -> Result<i64, sqlx::Error>;
    /// A published article by its slug or its id.
    async fn find_published(&self, slug_or_id: &str) -> Result<Option<ArticleRow>, sqlx::Error>;
    /// The current slug of the published article that once had `old_slug`.
    async fn current_slug_for(&self, old_slug: &str) -> Result<Option<String>, sqlx::Error>;
    async fn slug_taken(&self, slug: &str) -> Result<bool, sqlx::Error>;
    async fn insert(&self, row: &InsertRow) -> Result<(), sqlx::Error>;
    /// Every article, whatever its status.
    async fn count_all(&self) -> Result<i64, sqlx::Error>;
    /// Published article slugs with their last change, newest first (for the sitemap).
    async fn published_slugs(&self) -> Result<Vec<(String, DateTime<Utc>)>, sqlx::Error>;
    /// Published articles first published in `[from, to)`: slug, title, category (as stored)
    /// and that time, newest first (for the weekly digest).
    async fn published_between(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> Result<Vec<(String, String, String, DateTime<Utc>)>, sqlx::Error>;
    /// The titles of the published articles at `slugs`, each slug current or former: one
    /// query, `(slug as asked, title)` pairs.
    async fn published_titles(
        &self,
        slugs: &[String],
    ) -> Result<Vec<(String, String)>, sqlx::Error>;

    /// Every article (of `author` when given), newest first.
    async fn staff_list(&self, author: Option<&str>) -> Result<Vec<StaffRow>, sqlx::Error>;
    /// One article by id, whatever its status (of `author` when given).
    async fn staff_get(
        &self,
        id: &str,
        author: Option<&str>,
    ) -> Result<Option<StaffRow>, sqlx::Error>;
    /// Replaces the editable fields of `row.id` (and its derived fields) and, when `old_slug`
    /// is given, remembers that it now leads to this article: one transaction, so a rename
    /// never loses its redirect. False (and nothing written) when the article is gone.
    async fn update(&self, row: &InsertRow, old_slug: Option<&str>) -> Result<bool, sqlx::Error>;
    /// Publishes: only status, updated_at (and the first publication time) change.
    async fn publish(&self, id: &str, at: DateTime<Utc>) -> Result<bool, sqlx::Error>;
    async fn delete(&self, id: &str) -> Result<bool, sqlx::Error>;
}

pub fn store_for(db: &Db) -> Arc<dyn ContentStore> {
    match db {
        Db::Sqlite(pool) => Arc::new(SqliteContentStore::new(pool.clone())),
        Db::Postgres(pool) => Arc::new(PgContentStore::new(pool.clone())),
    }
}

/// Escapes LIKE wildcards so user text is matched literally.
pub(crate) fn like_pattern(q: &str) -> String {
    let mut p = String::with_capacity(q.len() + 2);
    p.push('%');
    for c in q.to_lowercase().chars() {
        if matches!(c, '%' | '_' | '\\') {
            p.push('\\');
        }
        p.push(c);
    }
    p.push('%');
    p
}

pub(crate) const CARD_COLUMNS: &str = "a.id, a.slug, a.title, a.subtitle, a.excerpt, a.category, \
     a.cover_image, a.featured, a.author_id, a.created_at, a.updated_at, a.reading_minutes";

mod sql;

pub(crate) use sql::sql_content_store;
