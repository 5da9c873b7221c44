//! The content service: validated reads for the public, the listing cache, and the writes the
//! rest of the product (seeding and the editorial service) goes through.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use bytes::Bytes;
use moka::future::Cache;

use crate::dto::{Article, ArticleList, Contributor, Related};
use crate::error::{BoxError, ContentError};
use crate::model::{Byline, ListQuery};
use crate::present::{article, card};
use crate::store::ContentStore;

mod published;

/// Names of article authors, provided by the identity module (wired in `app`).
#[async_trait]
pub trait AuthorDirectory: Send + Sync {
    /// Full names, as staff know one another.
    async fn names(&self, ids: &[String]) -> Result<HashMap<String, String>, BoxError>;
    /// How public pages name the authors `ids` (the name each chose to show).
    async fn bylines(&self, ids: &[String]) -> Result<HashMap<String, Byline>, BoxError>;
    /// The member whose page would be `/author/{slug}` (their id, and how the page shows
    /// them), when they may have one at all.
    async fn contributor(&self, slug: &str) -> Result<Option<(String, Contributor)>, BoxError>;
    /// Whether `id` is an active staff member with the writer role.
    async fn is_active_writer(&self, id: &str) -> Result<bool, BoxError>;
    /// How `id`'s role is named to readers ("Writer"), when they are on the team.
    async fn role_label(&self, id: &str) -> Result<Option<String>, BoxError>;
    /// Where `id` gets newsroom notices: their email, when they gave one and did not turn
    /// the notices off.
    async fn notice_address(&self, _id: &str) -> Result<Option<String>, BoxError> {
        Ok(None)
    }
}

/// How the newsroom runs on this site.
#[derive(Debug, Clone, Default)]
pub struct NewsroomSettings {
    /// Writers submit for review instead of publishing (`REVIEW_REQUIRED`).
    pub review_required: bool,
    /// The site's public address and name, for the links and words of notices.
    pub site_url: String,
    pub site_name: String,
}

/// The text of the articles [`ContentService::lookup`] keeps, at most (bytes).
const LOOKUPS_BYTES: u64 = 16 * 1024 * 1024;

/// What a slug-or-id resolves to.
#[derive(Debug, Clone)]
pub enum Lookup {
    Found(Box<Article>),
    /// The article lives at another slug now (an id, or an old slug): redirect there.
    Moved(String),
    Missing,
}

/// A published article, as the weekly digest lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublishedArticle {
    pub slug: String,
    pub title: String,
    pub category: crate::model::Category,
    /// The subtitle, or the excerpt when there is none.
    pub description: String,
    pub published_at: chrono::DateTime<chrono::Utc>,
}

pub struct ContentService {
    store: Arc<dyn ContentStore>,
    authors: Arc<dyn AuthorDirectory>,
    listings: Cache<String, Bytes>,
    /// The slugs of published articles, by content version.
    published: Cache<u64, Arc<HashSet<String>>>,
    /// How many articles are published, by content version (every filtered listing says it).
    published_count: Cache<u64, i64>,
    /// Who has a published piece, per content version.
    authors_published: Cache<u64, Arc<HashSet<String>>>,
    /// What follows each article (read next, the author box), by content version and article:
    /// the same few cards close every article page, so a render reads them once per version.
    related: Cache<(u64, String), Arc<Related>>,
    /// What a slug or id resolves to, by content version: an article page rendered again
    /// (for a signed-in reader, or with the page cache off) reads its article once per
    /// version. Weighed by the article's text.
    lookups: Cache<(u64, String), Arc<Lookup>>,
    version: kernel::Generation,
    newsroom: NewsroomSettings,
    /// The time of saves, moves and scheduled publishing (tests move it forward).
    clock: kernel::clock::SharedClock,
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
            published_count: Cache::builder()
                .max_capacity(4)
                .time_to_live(Duration::from_secs(60))
                .build(),
            authors_published: Cache::builder()
                .max_capacity(4)
                .time_to_live(Duration::from_secs(60))
                .build(),
            related: Cache::builder()
                .max_capacity(5_000)
                .time_to_live(Duration::from_secs(60))
                .build(),
            lookups: Cache::builder()
                .max_capacity(LOOKUPS_BYTES)
                .weigher(|(_, key): &(u64, String), found: &Arc<Lookup>| {
                    let text = match found.as_ref() {
                        Lookup::Found(a) => a.content.len() + a.content_html.len(),
                        Lookup::Moved(to) => to.len(),
                        Lookup::Missing => 0,
                    };
                    u32::try_from(key.len() + text + 512).unwrap_or(u32::MAX)
                })
                .time_to_live(Duration::from_secs(60))
                .build(),
            version: kernel::Generation::default(),
            newsroom: NewsroomSettings::default(),
            clock: kernel::clock::system(),
        }
    }

    /// The service reading the time from `clock` (the system's otherwise).
    pub fn with_clock(mut self, clock: kernel::clock::SharedClock) -> Self {
        self.clock = clock;
        self
    }

    /// Now, as this service tells the time.
    pub fn now(&self) -> chrono::DateTime<chrono::Utc> {
        self.clock.now()
    }

    /// The service with the newsroom's settings (review required or not, the site's address
    /// for notices).
    pub fn with_newsroom(mut self, newsroom: NewsroomSettings) -> Self {
        self.newsroom = newsroom;
        self
    }

    pub(crate) fn newsroom(&self) -> &NewsroomSettings {
        &self.newsroom
    }

    /// Whether writers submit for review instead of publishing.
    pub fn review_required(&self) -> bool {
        self.newsroom.review_required
    }

    /// Changes whenever any article changes; part of every cache key built from content.
    pub fn version(&self) -> u64 {
        self.version.current()
    }

    /// The counter behind [`ContentService::version`], for other modules whose changes show
    /// on public pages (magazine issues) to move forward.
    pub fn generation(&self) -> kernel::Generation {
        self.version.clone()
    }

    /// Public content changed: the articles `slugs` (the old slug too when one moved; none
    /// when no article's own page changed), and so every listing.
    pub(crate) fn changed(&self, slugs: &[&str]) {
        let pages = article_pages(slugs);
        let pages: Vec<&str> = pages.iter().map(String::as_str).collect();
        self.version.advance(kernel::Scope::Pages(&pages));
        self.forget_lists();
    }

    /// The articles `slugs` left the site (unpublished or deleted): as
    /// [`ContentService::changed`], and no page rendered before is shown again.
    pub(crate) fn withdrawn(&self, slugs: &[&str]) {
        let pages = article_pages(slugs);
        let pages: Vec<&str> = pages.iter().map(String::as_str).collect();
        self.version.withdraw(kernel::Scope::Pages(&pages));
        self.forget_lists();
    }

    fn forget_lists(&self) {
        self.listings.invalidate_all();
        self.published.invalidate_all();
        self.published_count.invalidate_all();
        self.authors_published.invalidate_all();
        self.related.invalidate_all();
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
            .map_err(ContentError::unshared)?;
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
            .map_err(ContentError::unshared)
    }

    #[tracing::instrument(skip(self))]
    pub async fn list(&self, q: &ListQuery) -> Result<ArticleList, ContentError> {
        if !q.q.is_empty() {
            return self.search(q).await;
        }
        let (rows, counted) = self.store.list_published(q).await?;
        let (total, total_exact) = match q.count_cap() {
            Some(cap) if counted > cap => (cap, false),
            _ => (counted, true),
        };
        let published_total = if q.q.is_empty() && q.categories.is_empty() {
            total
        } else {
            self.published_count
                .try_get_with(self.version(), self.store.count_published())
                .await
                .map_err(ContentError::unshared_db)?
        };
        let bylines = self.bylines(rows.iter().map(|r| &r.author_id)).await?;
        let items = rows
            .into_iter()
            .map(|r| card(r, &bylines))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ArticleList {
            items,
            total,
            total_exact,
            published_total,
            suggestion: None,
        })
    }

    /// How many published articles exist, cached per content version.
    pub(crate) async fn published_total(&self) -> Result<i64, ContentError> {
        self.published_count
            .try_get_with(self.version(), self.store.count_published())
            .await
            .map_err(ContentError::unshared_db)
    }

    /// Resolves a slug or an id to a published article, or to where it moved.
    #[tracing::instrument(skip(self))]
    pub async fn lookup(&self, slug_or_id: &str) -> Result<Arc<Lookup>, ContentError> {
        let key = (self.version(), slug_or_id.to_string());
        self.lookups
            .try_get_with(key, async {
                self.lookup_uncached(slug_or_id).await.map(Arc::new)
            })
            .await
            .map_err(ContentError::unshared)
    }

    async fn lookup_uncached(&self, slug_or_id: &str) -> Result<Lookup, ContentError> {
        if let Some(row) = self.store.find_published(slug_or_id).await? {
            if row.card.slug != slug_or_id {
                return Ok(Lookup::Moved(row.card.slug));
            }
            let bylines = self.bylines(std::iter::once(&row.card.author_id)).await?;
            return Ok(Lookup::Found(Box::new(article(row, &bylines)?)));
        }
        match self.store.current_slug_for(slug_or_id).await? {
            Some(slug) => Ok(Lookup::Moved(slug)),
            None => Ok(Lookup::Missing),
        }
    }

    /// What follows `article`: up to three other articles to read next (its category's
    /// first), and its author with up to three of their other articles.
    #[tracing::instrument(skip_all, fields(slug = %article.card.slug))]
    pub async fn related(&self, article: &Article) -> Result<Arc<Related>, ContentError> {
        let key = (self.version(), article.card.id.clone());
        self.related
            .try_get_with(key, async {
                self.find_related(article).await.map(Arc::new)
            })
            .await
            .map_err(ContentError::unshared)
    }

    /// A published article by slug or id (the API answers both without redirecting).
    pub async fn get(&self, slug_or_id: &str) -> Result<Article, ContentError> {
        match &*self.lookup(slug_or_id).await? {
            Lookup::Found(a) => Ok(a.as_ref().clone()),
            Lookup::Moved(slug) => match &*self.lookup(slug).await? {
                Lookup::Found(a) => Ok(a.as_ref().clone()),
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

    pub(crate) fn store(&self) -> &dyn ContentStore {
        self.store.as_ref()
    }

    pub(crate) fn authors(&self) -> &dyn AuthorDirectory {
        self.authors.as_ref()
    }
}

/// The public pages of the articles `slugs`.
fn article_pages(slugs: &[&str]) -> Vec<String> {
    slugs
        .iter()
        .map(|slug| format!("/article/{slug}"))
        .collect()
}
