//! The content service: validated reads for the public, the listing cache, and the writes the
//! rest of the product (seeding and the editorial service) goes through.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use bytes::Bytes;
use moka::future::Cache;

use crate::derive::{read_time_label, render_markdown};
use crate::dto::{Article, ArticleCard, ArticleList};
use crate::model::{Category, ListQuery, NewArticle, Status};
use crate::slug::slugify;
use crate::store::{ArticleRow, CardRow, ContentStore, InsertRow};

type BoxError = Box<dyn std::error::Error + Send + Sync>;

pub const MAX_TITLE_CHARS: usize = 200;
pub const MAX_SUBTITLE_CHARS: usize = 300;
pub const MAX_CONTENT_CHARS: usize = 100_000;

#[derive(Debug, thiserror::Error)]
pub enum ContentError {
    /// Bad input, with the message shown to the caller.
    #[error("{message}")]
    Invalid { code: &'static str, message: String },
    #[error("article not found")]
    NotFound,
    #[error("Your role does not allow this.")]
    Forbidden,
    #[error("unexpected content error: {0}")]
    Unexpected(#[source] BoxError),
}

impl From<sqlx::Error> for ContentError {
    fn from(e: sqlx::Error) -> Self {
        ContentError::Unexpected(Box::new(e))
    }
}

impl ContentError {
    pub(crate) fn invalid(code: &'static str, message: impl Into<String>) -> Self {
        ContentError::Invalid {
            code,
            message: message.into(),
        }
    }
}

/// Names of article authors, provided by the identity module (wired in `app`).
#[async_trait]
pub trait AuthorDirectory: Send + Sync {
    async fn names(&self, ids: &[String]) -> Result<HashMap<String, String>, BoxError>;
    /// Whether `id` is an active staff member with the writer role.
    async fn is_active_writer(&self, id: &str) -> Result<bool, BoxError>;
}

/// What a slug-or-id resolves to.
#[derive(Debug, Clone)]
pub enum Lookup {
    Found(Box<Article>),
    /// The article lives at another slug now (an id, or an old slug): redirect there.
    Moved(String),
    Missing,
}

pub struct ContentService {
    store: Arc<dyn ContentStore>,
    authors: Arc<dyn AuthorDirectory>,
    listings: Cache<String, Bytes>,
    /// The slugs of published articles, by content version.
    published: Cache<u64, Arc<HashSet<String>>>,
    version: AtomicU64,
}

impl ContentService {
    pub fn new(store: Arc<dyn ContentStore>, authors: Arc<dyn AuthorDirectory>) -> Self {
        Self {
            store,
            authors,
            // Other instances may change content too: bound how long they can serve stale data.
            listings: Cache::builder()
                .max_capacity(2_000)
                .time_to_live(Duration::from_secs(60))
                .build(),
            published: Cache::builder()
                .max_capacity(4)
                .time_to_live(Duration::from_secs(60))
                .build(),
            version: AtomicU64::new(1),
        }
    }

    /// Changes whenever any article changes; part of every cache key built from content.
    pub fn version(&self) -> u64 {
        self.version.load(Ordering::Acquire)
    }

    pub(crate) fn changed(&self) {
        self.version.fetch_add(1, Ordering::AcqRel);
        self.listings.invalidate_all();
        self.published.invalidate_all();
    }

    /// Whether `slug` is the current slug of a published article, answered from memory: the
    /// set of published slugs is loaded once per content version and kept a minute at most.
    pub async fn is_published_slug(&self, slug: &str) -> Result<bool, ContentError> {
        let slugs = self
            .published
            .try_get_with(self.version(), async {
                let rows = self.store.published_slugs().await?;
                Ok::<_, ContentError>(Arc::new(
                    rows.into_iter()
                        .map(|(slug, _)| slug)
                        .collect::<HashSet<_>>(),
                ))
            })
            .await
            .map_err(|e| ContentError::Unexpected(e.to_string().into()))?;
        Ok(slugs.contains(slug))
    }

    /// The listing as JSON bytes, served from the cache when possible.
    pub async fn list_json(&self, q: &ListQuery) -> Result<Bytes, ContentError> {
        let key = format!("{}|{}", self.version(), q.cache_key());
        self.listings
            .try_get_with(key, async {
                let list = self.list(q).await?;
                serde_json::to_vec(&list)
                    .map(Bytes::from)
                    .map_err(|e| ContentError::Unexpected(Box::new(e)))
            })
            .await
            .map_err(|e| match Arc::try_unwrap(e) {
                Ok(e) => e,
                Err(shared) => ContentError::Unexpected(shared.to_string().into()),
            })
    }

    #[tracing::instrument(skip(self))]
    pub async fn list(&self, q: &ListQuery) -> Result<ArticleList, ContentError> {
        let (rows, total) = self.store.list_published(q).await?;
        let published_total = if q.q.is_empty() && q.categories.is_empty() {
            total
        } else {
            self.store.count_published().await?
        };
        let names = self.author_names(rows.iter().map(|r| &r.author_id)).await?;
        let items = rows
            .into_iter()
            .map(|r| card(r, &names))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ArticleList {
            items,
            total,
            published_total,
        })
    }

    /// Resolves a slug or an id to a published article, or to where it moved.
    #[tracing::instrument(skip(self))]
    pub async fn lookup(&self, slug_or_id: &str) -> Result<Lookup, ContentError> {
        if let Some(row) = self.store.find_published(slug_or_id).await? {
            if row.card.slug != slug_or_id {
                return Ok(Lookup::Moved(row.card.slug));
            }
            let names = self
                .author_names(std::iter::once(&row.card.author_id))
                .await?;
            return Ok(Lookup::Found(Box::new(article(row, &names)?)));
        }
        match self.store.current_slug_for(slug_or_id).await? {
            Some(slug) => Ok(Lookup::Moved(slug)),
            None => Ok(Lookup::Missing),
        }
    }

    /// A published article by slug or id (the API answers both without redirecting).
    pub async fn get(&self, slug_or_id: &str) -> Result<Article, ContentError> {
        match self.lookup(slug_or_id).await? {
            Lookup::Found(a) => Ok(*a),
            Lookup::Moved(slug) => match self.lookup(&slug).await? {
                Lookup::Found(a) => Ok(*a),
                _ => Err(ContentError::NotFound),
            },
            Lookup::Missing => Err(ContentError::NotFound),
        }
    }

    /// The titles of published articles by slug (current or former), in one query; slugs
    /// of no published article are left out.
    pub async fn titles(&self, slugs: &[String]) -> Result<HashMap<String, String>, ContentError> {
        Ok(self
            .store
            .published_titles(slugs)
            .await?
            .into_iter()
            .collect())
    }

    pub async fn count_all(&self) -> Result<i64, ContentError> {
        Ok(self.store.count_all().await?)
    }

    pub async fn published_slugs(
        &self,
    ) -> Result<Vec<(String, chrono::DateTime<chrono::Utc>)>, ContentError> {
        Ok(self.store.published_slugs().await?)
    }

    /// Creates an article; returns its id and slug.
    #[tracing::instrument(skip(self, new), fields(title = %new.title))]
    pub async fn create(&self, new: NewArticle) -> Result<(String, String), ContentError> {
        let fields =
            crate::editorial::validate(&new.title, new.subtitle, &new.content, new.cover_image)?;
        let (title, subtitle, content) = (fields.title, fields.subtitle, fields.content);
        let base = slugify(&title);
        let rendered = render_markdown(&content);
        let now = kernel::ids::now();
        let created_at = new.created_at.unwrap_or(now);
        let id = kernel::ids::new_id();
        let search_text = format!("{}\n{}\n{}", title, content, rendered.excerpt).to_lowercase();
        let mut row = InsertRow {
            id: id.clone(),
            slug: String::new(),
            title,
            subtitle,
            content,
            category: new.category.as_str().to_string(),
            cover_image: fields.cover_image,
            featured: new.featured,
            status: new.status.as_str().to_string(),
            author_id: new.author_id,
            created_at,
            updated_at: created_at.max(now),
            excerpt: rendered.excerpt,
            content_html: rendered.html,
            reading_minutes: rendered.reading_minutes,
            search_text,
            first_published_at: (new.status == Status::Published).then_some(created_at),
        };
        self.write_article(&mut row, Some(&base), Write::Insert)
            .await?;
        self.changed();
        Ok((id, row.slug))
    }

    pub(crate) fn store(&self) -> &dyn ContentStore {
        self.store.as_ref()
    }

    pub(crate) fn authors(&self) -> &dyn AuthorDirectory {
        self.authors.as_ref()
    }

    /// The first free slug among `base`, `base-2`, `base-3`, … A concurrent write may still
    /// take it first: [`Self::write_article`] handles that.
    pub(crate) async fn unique_slug(&self, base: &str) -> Result<String, ContentError> {
        if !self.store.slug_taken(base).await? {
            return Ok(base.to_string());
        }
        for n in 2..50 {
            let candidate = format!("{base}-{n}");
            if !self.store.slug_taken(&candidate).await? {
                return Ok(candidate);
            }
        }
        Ok(random_slug(base))
    }

    /// Writes `row`. With `base`, the article gets a free slug made from it: the "is it free?"
    /// check cannot see a concurrent write, so the unique index on slugs decides, and a write
    /// that loses the race moves on to the next free slug instead of failing. Without `base`,
    /// the row keeps its slug. False when the article to update is gone.
    pub(crate) async fn write_article(
        &self,
        row: &mut InsertRow,
        base: Option<&str>,
        write: Write<'_>,
    ) -> Result<bool, ContentError> {
        let mut attempt = 0;
        loop {
            if let Some(base) = base {
                row.slug = if attempt < SLUG_ATTEMPTS {
                    self.unique_slug(base).await?
                } else {
                    random_slug(base)
                };
            }
            let result = match write {
                Write::Insert => self.store.insert(row).await.map(|()| true),
                Write::Update { old_slug } => {
                    let moved_from = old_slug.filter(|s| *s != row.slug);
                    self.store.update(row, moved_from).await
                }
            };
            match result {
                Err(e)
                    if base.is_some()
                        && is_unique_violation(&e)
                        && attempt < SLUG_ATTEMPTS + RANDOM_SLUG_ATTEMPTS =>
                {
                    tracing::info!(slug = %row.slug, "slug taken by a concurrent write; trying another");
                    attempt += 1;
                }
                Err(e) => return Err(e.into()),
                Ok(written) => return Ok(written),
            }
        }
    }

    pub(crate) async fn author_names<'a>(
        &self,
        ids: impl Iterator<Item = &'a Option<String>>,
    ) -> Result<HashMap<String, String>, ContentError> {
        let mut wanted: Vec<String> = ids.flatten().cloned().collect();
        wanted.sort_unstable();
        wanted.dedup();
        if wanted.is_empty() {
            return Ok(HashMap::new());
        }
        self.authors
            .names(&wanted)
            .await
            .map_err(ContentError::Unexpected)
    }
}

/// How a row is written by [`ContentService::write_article`].
#[derive(Debug, Clone, Copy)]
pub(crate) enum Write<'a> {
    Insert,
    /// An update; a published article's `old_slug` keeps leading to it when the slug changes.
    Update {
        old_slug: Option<&'a str>,
    },
}

/// Free slugs tried in turn when concurrent writes keep taking them first, then random ones.
const SLUG_ATTEMPTS: usize = 20;
const RANDOM_SLUG_ATTEMPTS: usize = 4;

/// `base` with a random suffix (the random tail of a UUIDv7: its head is the clock).
fn random_slug(base: &str) -> String {
    let id = uuid::Uuid::now_v7().simple().to_string();
    format!("{base}-{}", &id[id.len() - 8..])
}

/// A unique-index violation (on articles: the slug, since ids are new UUIDs).
fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

pub(crate) fn check_len(field: &str, value: &str, max: usize) -> Result<(), ContentError> {
    if value.chars().count() > max {
        return Err(ContentError::invalid(
            "too_long",
            format!("The {field} must be at most {max} characters"),
        ));
    }
    Ok(())
}

pub(crate) fn trimmed_or_none(v: Option<String>) -> Option<String> {
    v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty())
}

pub(crate) fn card(
    r: CardRow,
    names: &HashMap<String, String>,
) -> Result<ArticleCard, ContentError> {
    let category = Category::parse(&r.category).ok_or_else(|| {
        ContentError::Unexpected(format!("stored category {:?} is unknown", r.category).into())
    })?;
    let author_name = r.author_id.as_ref().and_then(|id| names.get(id).cloned());
    Ok(ArticleCard {
        author_name,
        category,
        read_time: read_time_label(r.reading_minutes),
        id: r.id,
        slug: r.slug,
        title: r.title,
        subtitle: r.subtitle,
        excerpt: r.excerpt,
        cover_image: r.cover_image,
        featured: r.featured,
        author_id: r.author_id,
        created_at: r.created_at,
        updated_at: r.updated_at,
    })
}

fn article(r: ArticleRow, names: &HashMap<String, String>) -> Result<Article, ContentError> {
    let card = card(r.card, names)?;
    let description = card
        .subtitle
        .clone()
        .unwrap_or_else(|| card.excerpt.clone());
    Ok(Article {
        card,
        content: r.content,
        content_html: r.content_html,
        description,
    })
}
