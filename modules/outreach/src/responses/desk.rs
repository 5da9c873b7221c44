//! The desk's side of responses: the queue, its decisions and closing an article.

use super::dto::{EarlierResponse, QueuedResponse, ResponseStatus};
use super::rules;
use super::service::{shown_changed, ResponseError, Responses};
use super::store::ResponseRow;

/// The reader's earlier responses the desk sees beside a waiting one.
const EARLIER_SHOWN: usize = 10;

impl Responses {
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
    pub(super) async fn changed(&self, article_id: &str, withdrawn: bool) {
        shown_changed(self.articles.as_ref(), &[article_id.to_string()], withdrawn).await;
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
}
