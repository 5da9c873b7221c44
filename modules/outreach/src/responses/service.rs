//! Responses as readers and the desk use them: sending one under the rules, the approved ones
//! an article shows, a reader's own, and the desk's queue.

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Duration, Utc};
use kernel::clock::SharedClock;
use poem_openapi::{Enum, Object};

use super::rules::{self, Refusal, Standing};
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

/// Where a response stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, serde::Serialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum ResponseStatus {
    /// Waiting for the desk: nobody else sees it.
    Pending,
    /// Shown under the article.
    Approved,
    /// Not shown; the reason, when the desk gave one, is with it.
    Rejected,
}

impl ResponseStatus {
    fn parse(s: &str) -> ResponseStatus {
        match s {
            "approved" => ResponseStatus::Approved,
            "rejected" => ResponseStatus::Rejected,
            _ => ResponseStatus::Pending,
        }
    }
}

/// An approved response as an article shows it.
#[derive(Debug, Clone, PartialEq, Eq, Object, serde::Serialize)]
pub struct ShownResponse {
    pub id: String,
    /// The reader's first name and last initial ("Noor H."): never more.
    pub name: String,
    /// Plain text; paragraphs are separated by an empty line.
    pub body: String,
    pub created_at: DateTime<Utc>,
}

/// An article's approved responses, and whether it takes more.
#[derive(Debug, Clone, PartialEq, Eq, Object, serde::Serialize)]
pub struct ArticleResponses {
    /// It takes responses now (staff did not close them, and its window is not over).
    pub open: bool,
    /// Oldest first.
    pub responses: Vec<ShownResponse>,
}

/// A reader's own response, as their account page shows it.
#[derive(Debug, Clone, PartialEq, Eq, Object, serde::Serialize)]
pub struct MyResponse {
    pub id: String,
    pub status: ResponseStatus,
    /// Why the desk rejected it, when they said.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub body: String,
    pub created_at: DateTime<Utc>,
    /// The article it answers; absent once that is no longer published.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub article_title: Option<String>,
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub article_slug: Option<String>,
}

/// One of a reader's other responses, as the desk sees it beside the one to decide.
#[derive(Debug, Clone, PartialEq, Eq, Object)]
pub struct EarlierResponse {
    pub status: ResponseStatus,
    pub body: String,
    pub created_at: DateTime<Utc>,
    #[oai(skip_serializing_if_is_none)]
    pub article_title: Option<String>,
}

/// A response waiting for the desk, with what deciding it needs.
#[derive(Debug, Clone, PartialEq, Eq, Object)]
pub struct QueuedResponse {
    pub id: String,
    pub body: String,
    pub created_at: DateTime<Utc>,
    /// How many readers reported it (it came back to the queue at three).
    pub reports: i64,
    /// The article it answers; absent once that is no longer published.
    #[oai(skip_serializing_if_is_none)]
    pub article_title: Option<String>,
    #[oai(skip_serializing_if_is_none)]
    pub article_slug: Option<String>,
    /// The reader, as the article would name them.
    pub reader_name: String,
    /// The reader's other responses, newest first (at most ten).
    pub earlier: Vec<EarlierResponse>,
}

/// The reader's earlier responses the desk sees beside a waiting one.
const EARLIER_SHOWN: usize = 10;

#[derive(Debug, thiserror::Error)]
pub enum ResponseError {
    #[error("No published article has this address.")]
    NoArticle,
    #[error("{0}")]
    Invalid(&'static str),
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

pub struct Responses {
    store: Arc<dyn ResponseStore>,
    articles: Arc<dyn ResponseArticles>,
    settings: ResponseSettings,
    clock: SharedClock,
}

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
        }
    }

    async fn article(&self, slug: &str) -> Result<RespondedArticle, ResponseError> {
        self.articles
            .published(slug)
            .await
            .map_err(ResponseError::Unexpected)?
            .ok_or(ResponseError::NoArticle)
    }

    async fn open(&self, article: &RespondedArticle) -> Result<bool, ResponseError> {
        let now = self.clock.now();
        Ok(
            rules::open_at(article.published_at, self.settings.open_days, now)
                && !self.store.is_closed(&article.id).await?,
        )
    }

    /// The reader `account_id` sends `body` under the article at `slug`: kept waiting for the
    /// desk, or refused with the first reason.
    pub async fn send(
        &self,
        account_id: &str,
        slug: &str,
        body: &str,
    ) -> Result<MyResponse, ResponseError> {
        let body = rules::checked_body(body).map_err(|f| ResponseError::Invalid(f.message()))?;
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
    pub async fn under(
        &self,
        article: &RespondedArticle,
    ) -> Result<ArticleResponses, ResponseError> {
        let responses = self
            .store
            .shown(&article.id)
            .await?
            .into_iter()
            .map(|r| ShownResponse {
                name: rules::public_name(&r.first_name, &r.last_name),
                id: r.id,
                body: r.body,
                created_at: r.created_at,
            })
            .collect();
        Ok(ArticleResponses {
            open: self.open(article).await?,
            responses,
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

    /// The responses waiting for the desk, oldest first, each with its article and its
    /// reader's other responses.
    pub async fn queue(&self) -> Result<Vec<QueuedResponse>, ResponseError> {
        let queued = self.store.queue().await?;
        let mut queue = Vec::with_capacity(queued.len());
        for q in queued {
            let earlier: Vec<ResponseRow> = self
                .store
                .of_reader(&q.account_id)
                .await?
                .into_iter()
                .filter(|r| r.id != q.id)
                .take(EARLIER_SHOWN)
                .collect();
            let mut ids: Vec<String> = earlier.iter().map(|r| r.article_id.clone()).collect();
            ids.push(q.article_id.clone());
            ids.sort_unstable();
            ids.dedup();
            let articles = self
                .articles
                .by_ids(&ids)
                .await
                .map_err(ResponseError::Unexpected)?;
            let article = articles.get(&q.article_id);
            queue.push(QueuedResponse {
                reader_name: rules::public_name(&q.first_name, &q.last_name),
                article_title: article.map(|a| a.title.clone()),
                article_slug: article.map(|a| a.slug.clone()),
                earlier: earlier
                    .into_iter()
                    .map(|r| EarlierResponse {
                        status: ResponseStatus::parse(&r.status),
                        article_title: articles.get(&r.article_id).map(|a| a.title.clone()),
                        body: r.body,
                        created_at: r.created_at,
                    })
                    .collect(),
                id: q.id,
                body: q.body,
                created_at: q.created_at,
                reports: q.reports,
            });
        }
        Ok(queue)
    }

    /// The desk member `by` approves the waiting response `id`: it shows under its article.
    pub async fn approve(&self, by: &str, id: &str) -> Result<(), ResponseError> {
        // Back from the queue after reports, it was approved (and its author told) before.
        let again = self.store.reports(id).await? > 0;
        if !self
            .store
            .decide(id, true, None, by, self.clock.now())
            .await?
        {
            return Err(ResponseError::NotFound);
        }
        tracing::info!(response = %id, by, "response approved");
        let Some(row) = self.store.get(id).await? else {
            return Ok(());
        };
        self.changed(&row.article_id, false).await;
        // Told once: a response back from the queue after reports was approved before.
        if !again {
            let name = self
                .store
                .shown(&row.article_id)
                .await?
                .into_iter()
                .find(|r| r.id == id)
                .map(|r| rules::public_name(&r.first_name, &r.last_name));
            if let Some(name) = name {
                self.articles
                    .approved(&row.article_id, &name, &row.body)
                    .await;
            }
        }
        Ok(())
    }

    /// The responses shown under the article `article_id` changed.
    async fn changed(&self, article_id: &str, withdrawn: bool) {
        match self.articles.by_ids(&[article_id.to_string()]).await {
            Ok(found) => {
                if let Some(article) = found.get(article_id) {
                    self.articles.shown_changed(&article.slug, withdrawn);
                }
            }
            Err(e) => tracing::warn!(error = %e, "cannot find the article a response answers"),
        }
    }

    /// The desk member `by` rejects the waiting response `id`, with a reason its reader sees.
    pub async fn reject(
        &self,
        by: &str,
        id: &str,
        reason: Option<&str>,
    ) -> Result<(), ResponseError> {
        let reason = rules::checked_reason(reason).map_err(ResponseError::Invalid)?;
        if !self
            .store
            .decide(id, false, reason.as_deref(), by, self.clock.now())
            .await?
        {
            return Err(ResponseError::NotFound);
        }
        tracing::info!(response = %id, by, "response rejected");
        Ok(())
    }

    /// The desk member `by` rejects the waiting response `id` and stops its reader from
    /// responding again.
    pub async fn block(&self, by: &str, id: &str) -> Result<(), ResponseError> {
        let row = self.store.get(id).await?.ok_or(ResponseError::NotFound)?;
        self.store
            .block(&row.account_id, by, self.clock.now())
            .await?;
        // Rejected too when it still waits (the queue is where the desk blocks from).
        self.store
            .decide(id, false, None, by, self.clock.now())
            .await?;
        tracing::info!(response = %id, by, "reader blocked from responding");
        Ok(())
    }

    /// Staff member `by` closes (or opens again) the responses of the article `article_id`.
    pub async fn set_closed(
        &self,
        by: &str,
        article_id: &str,
        closed: bool,
    ) -> Result<(), ResponseError> {
        let found = self
            .articles
            .by_ids(&[article_id.to_string()])
            .await
            .map_err(ResponseError::Unexpected)?;
        if found.is_empty() {
            return Err(ResponseError::NoArticle);
        }
        self.store
            .set_closed(article_id, closed, by, self.clock.now())
            .await?;
        self.changed(article_id, false).await;
        Ok(())
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
