//! Responses as readers and the desk use them: sending one under the rules, the approved ones
//! an article shows, a reader's own, and the desk's queue.

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Duration, Utc};
use kernel::clock::SharedClock;

use super::dto::{ArticleResponses, MyResponse, ResponseStatus, ShownResponse};
use super::rules::{self, BodyFault, Refusal, Standing};
use super::store::{NewResponse, Reported, ResponseRow, ResponseStore};

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// A published article, as responses need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RespondedArticle {
    pub id: String,
    pub slug: String,
    pub title: String,
    pub published_at: DateTime<Utc>,
}

/// Where responses find the articles they answer (the content module, through the app).
#[async_trait]
pub trait ResponseArticles: Send + Sync {
    /// The published article at `slug` (its current slug).
    async fn published(&self, slug: &str) -> Result<Option<RespondedArticle>, BoxError>;
    /// The published articles among `ids`, by id.
    async fn by_ids(&self, ids: &[String]) -> Result<HashMap<String, RespondedArticle>, BoxError>;
    /// What the article at `slug` shows under it changed: its page is to be rendered anew;
    /// when a response was taken off it (`withdrawn`), no page showing it is sent again.
    fn shown_changed(&self, slug: &str, withdrawn: bool);
    /// The version of what the article at `slug` shows: it moves with every
    /// `shown_changed` of that article, on every instance, and with every change of the
    /// article itself. What is read at one version may be kept for it.
    fn shown_version(&self, slug: &str) -> u64;
    /// The desk approved a response from `reader` (as the article names them) to the article
    /// `article_id`: its author is told (when they get notices).
    async fn approved(&self, article_id: &str, reader: &str, body: &str);
}

#[derive(Debug, Clone)]
pub struct ResponseSettings {
    /// Days after an article is first published that it takes responses (`RESPONSES_OPEN_DAYS`).
    pub open_days: i64,
}

impl Default for ResponseSettings {
    fn default() -> Self {
        Self {
            open_days: rules::DEFAULT_OPEN_DAYS,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ResponseError {
    #[error("No published article has this address.")]
    NoArticle,
    #[error("{0}")]
    Invalid(&'static str),
    /// The text as kept (trimmed, blank lines folded) is too short or too long: a rule the
    /// contract's schema cannot state exactly, so a schema-valid text may break it (422).
    #[error("{0}")]
    Length(&'static str),
    #[error("{}", .0.message())]
    Refused(Refusal),
    #[error("No such response.")]
    NotFound,
    #[error(transparent)]
    Unexpected(BoxError),
}

impl From<sqlx::Error> for ResponseError {
    fn from(e: sqlx::Error) -> Self {
        kernel::http::note_database_error(&e);
        ResponseError::Unexpected(Box::new(e))
    }
}

/// What the articles `article_ids` show under them changed (a response approved or taken
/// off, a reader renamed or gone): their pages are rendered anew, and with `withdrawn` no page
/// rendered before is sent again.
pub async fn shown_changed(
    articles: &dyn ResponseArticles,
    article_ids: &[String],
    withdrawn: bool,
) {
    if article_ids.is_empty() {
        return;
    }
    match articles.by_ids(article_ids).await {
        Ok(found) => {
            for article in found.values() {
                articles.shown_changed(&article.slug, withdrawn);
            }
        }
        Err(e) => tracing::warn!(error = %e, "cannot find the articles responses answer"),
    }
}

pub struct Responses {
    pub(super) store: Arc<dyn ResponseStore>,
    pub(super) articles: Arc<dyn ResponseArticles>,
    settings: ResponseSettings,
    pub(super) clock: SharedClock,
    /// What each article shows under it, by its id and the version it was read at: every
    /// render of an article's page and every public list of its responses needs it, and it
    /// changes only when the desk, a reader or staff change it (see `shown_changed`).
    shown: moka::future::Cache<(String, u64), Arc<Shown>>,
}

/// What an article shows under it, as read at one version.
#[derive(Debug)]
struct Shown {
    responses: Vec<ShownResponse>,
    closed: bool,
}

/// The text kept of what articles show, at most.
const SHOWN_KEPT_BYTES: u64 = 8 << 20;
/// A version of what an article shows no page asked for this long is forgotten.
const SHOWN_IDLE: std::time::Duration = std::time::Duration::from_secs(600);

impl Responses {
    pub fn new(
        store: Arc<dyn ResponseStore>,
        articles: Arc<dyn ResponseArticles>,
        settings: ResponseSettings,
        clock: SharedClock,
    ) -> Self {
        Self {
            store,
            articles,
            settings,
            clock,
            shown: moka::future::Cache::builder()
                .max_capacity(SHOWN_KEPT_BYTES)
                .weigher(|_, shown: &Arc<Shown>| {
                    let text: usize = shown
                        .responses
                        .iter()
                        .map(|r| 128 + r.body.len() + r.name.len())
                        .sum();
                    u32::try_from(64 + text).unwrap_or(u32::MAX)
                })
                .time_to_idle(SHOWN_IDLE)
                .build(),
        }
    }

    async fn article(&self, slug: &str) -> Result<RespondedArticle, ResponseError> {
        self.articles
            .published(slug)
            .await
            .map_err(ResponseError::Unexpected)?
            .ok_or(ResponseError::NoArticle)
    }

    /// The reader `account_id` sends `body` under the article at `slug`: kept waiting for the
    /// desk, or refused with the first reason.
    pub async fn send(
        &self,
        account_id: &str,
        slug: &str,
        body: &str,
    ) -> Result<MyResponse, ResponseError> {
        let body = rules::checked_body(body).map_err(|f| match f {
            BodyFault::ControlCharacter => ResponseError::Invalid(f.message()),
            BodyFault::TooShort | BodyFault::TooLong => ResponseError::Length(f.message()),
        })?;
        let article = self.article(slug).await?;
        let now = self.clock.now();
        let counts = self
            .store
            .counts(account_id, now - Duration::days(1))
            .await?;
        let standing = Standing {
            confirmed: counts.confirmed,
            blocked: counts.blocked,
            closed: self.store.is_closed(&article.id).await?,
            published_at: article.published_at,
            pending: counts.pending,
            today: counts.since,
        };
        rules::may_respond(standing, self.settings.open_days, now)
            .map_err(ResponseError::Refused)?;
        let new = NewResponse {
            id: kernel::ids::new_id(),
            article_id: article.id.clone(),
            account_id: account_id.to_string(),
            body,
            created_at: now,
        };
        let day = now - Duration::days(1);
        if !self
            .store
            .insert_within(&new, rules::MAX_PENDING, day, rules::MAX_PER_DAY)
            .await?
        {
            // Another send of theirs took the last place meanwhile.
            let counts = self.store.counts(account_id, day).await?;
            return Err(ResponseError::Refused(
                if counts.pending >= rules::MAX_PENDING {
                    Refusal::TooManyPending
                } else {
                    Refusal::TooManyToday
                },
            ));
        }
        tracing::info!(response = %new.id, article = %article.id, "response sent for review");
        Ok(MyResponse {
            id: new.id,
            status: ResponseStatus::Pending,
            reason: None,
            body: new.body,
            created_at: now,
            article_title: Some(article.title),
            article_slug: Some(article.slug),
        })
    }

    /// The approved responses under the article at `slug`, oldest first.
    pub async fn shown(&self, slug: &str) -> Result<ArticleResponses, ResponseError> {
        let article = self.article(slug).await?;
        self.under(&article).await
    }

    /// The approved responses under `article`, oldest first, and whether it takes more.
    /// What it shows is read once per version of it (`ResponseArticles::shown_version`):
    /// pages and lists of a busy article ask the database nothing, and a change moves the
    /// version, on every instance, so the next asker reads it anew.
    pub async fn under(
        &self,
        article: &RespondedArticle,
    ) -> Result<ArticleResponses, ResponseError> {
        // Read before the rows: a change after this point moves it, and is read then.
        let key = (
            article.id.clone(),
            self.articles.shown_version(&article.slug),
        );
        let shown = match self.shown.get(&key).await {
            Some(shown) => shown,
            None => {
                // Not shared with requests that miss at the same time: each reads for itself,
                // so that a failure (the database down) is its own request's to answer.
                let shown = Arc::new(self.read_shown(&article.id).await?);
                self.shown.insert(key, shown.clone()).await;
                shown
            }
        };
        let now = self.clock.now();
        Ok(ArticleResponses {
            open: rules::open_at(article.published_at, self.settings.open_days, now)
                && !shown.closed,
            responses: shown.responses.clone(),
        })
    }

    /// What the article `article_id` shows under it, from the database.
    async fn read_shown(&self, article_id: &str) -> Result<Shown, ResponseError> {
        let responses = self
            .store
            .shown(article_id)
            .await?
            .into_iter()
            .map(|r| ShownResponse {
                name: rules::public_name(&r.first_name, &r.last_name),
                id: r.id,
                body: r.body,
                created_at: r.created_at,
            })
            .collect();
        Ok(Shown {
            responses,
            closed: self.store.is_closed(article_id).await?,
        })
    }

    /// Rows as their reader sees them, with the titles of their articles.
    async fn as_mine(&self, rows: Vec<ResponseRow>) -> Result<Vec<MyResponse>, ResponseError> {
        let mut ids: Vec<String> = rows.iter().map(|r| r.article_id.clone()).collect();
        ids.sort_unstable();
        ids.dedup();
        let articles = if ids.is_empty() {
            HashMap::new()
        } else {
            self.articles
                .by_ids(&ids)
                .await
                .map_err(ResponseError::Unexpected)?
        };
        Ok(rows
            .into_iter()
            .map(|r| {
                let article = articles.get(&r.article_id);
                MyResponse {
                    status: ResponseStatus::parse(&r.status),
                    reason: r.reason,
                    article_title: article.map(|a| a.title.clone()),
                    article_slug: article.map(|a| a.slug.clone()),
                    id: r.id,
                    body: r.body,
                    created_at: r.created_at,
                }
            })
            .collect())
    }

    /// The reader's own responses, newest first, each with where it stands.
    pub async fn mine(&self, account_id: &str) -> Result<Vec<MyResponse>, ResponseError> {
        let rows = self.store.of_reader(account_id).await?;
        self.as_mine(rows).await
    }

    /// The reader deletes their own response `id`.
    pub async fn delete_mine(&self, account_id: &str, id: &str) -> Result<(), ResponseError> {
        let row = self.store.get(id).await?;
        if self.store.delete_own(id, account_id).await? {
            tracing::info!(response = %id, "response deleted by its reader");
            if let Some(row) = row.filter(|r| r.status == "approved") {
                self.changed(&row.article_id, true).await;
            }
            Ok(())
        } else {
            Err(ResponseError::NotFound)
        }
    }

    /// A signed-in reader reports the approved response `id`.
    pub async fn report(&self, account_id: &str, id: &str) -> Result<Reported, ResponseError> {
        let now = self.clock.now();
        let reported = self
            .store
            .report(id, account_id, rules::REPORTS_TO_REQUEUE, now)
            .await?;
        match reported {
            Reported::NotShown => Err(ResponseError::NotFound),
            Reported::Requeued => {
                tracing::info!(response = %id, "response reported three times: back in the queue");
                if let Some(row) = self.store.get(id).await? {
                    self.changed(&row.article_id, true).await;
                }
                Ok(reported)
            }
            other => Ok(other),
        }
    }
}
