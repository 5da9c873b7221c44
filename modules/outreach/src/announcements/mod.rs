//! Launch announcements: when a magazine issue is published, the admin previews the email,
//! sees how many will get it, and sends it to the magazine list. A job queues the recipients
//! into the outbox in batches at a set rate (bulk email, sent after transactional email);
//! each address is queued once per announcement (a primary key, not a check), with its own
//! one-click unsubscribe link and `List-Unsubscribe` header. Everything is in the database,
//! so a restart carries on where it stopped.

mod api;
mod emails;
mod store;

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use kernel::clock::SharedClock;

pub use api::AnnouncementApi;
pub use store::{announcement_store_for, AnnouncementStore};

use crate::email_html::greeting;
use crate::links::UNSUBSCRIBE_PAGE;
use crate::model::NotifyList;
use emails::{Composed, GREETING, UNSUBSCRIBE};
use store::AnnouncementRow;
pub(crate) use store::Delivery;

/// A published magazine issue, as an announcement needs it.
#[derive(Debug, Clone)]
pub struct AnnouncedIssue {
    pub title: String,
    pub slug: String,
    pub description: String,
    /// Its cover: a `/media/…` address or an https URL.
    pub cover_url: String,
}

/// The magazine issue with an id, as announcements see it.
#[derive(Debug, Clone)]
pub enum IssueLookup {
    Published(AnnouncedIssue),
    /// Uploaded, not published yet.
    Draft,
    Missing,
}

/// Where announcements find the issue they announce (the media module, through the app).
#[async_trait]
pub trait IssueDirectory: Send + Sync {
    /// The issue with this id: published, a draft, or none.
    async fn issue(
        &self,
        id: &str,
    ) -> Result<IssueLookup, Box<dyn std::error::Error + Send + Sync>>;
    /// Whether the educational packs are launched.
    async fn packs_launched(&self) -> Result<bool, Box<dyn std::error::Error + Send + Sync>>;
}

#[derive(Debug, Clone)]
pub struct AnnouncementSettings {
    pub site_url: String,
    pub site_name: String,
    /// Most recipients queued per minute, over all announcements.
    pub per_minute: u32,
}

#[derive(Debug, thiserror::Error)]
pub enum AnnouncementError {
    #[error("No issue has this id.")]
    NotFound,
    #[error("The issue is not published yet.")]
    Unpublished,
    #[error("The packs are not launched yet.")]
    NotLaunched,
    #[error("the issue could not be read: {0}")]
    Issues(Box<dyn std::error::Error + Send + Sync>),
    #[error(transparent)]
    Unexpected(sqlx::Error),
}

impl From<sqlx::Error> for AnnouncementError {
    fn from(e: sqlx::Error) -> Self {
        kernel::http::note_database_error(&e);
        AnnouncementError::Unexpected(e)
    }
}

/// How far a send got, as the dashboard shows it.
#[derive(Debug, Clone, PartialEq, Eq, poem_openapi::Object)]
pub struct AnnouncementProgress {
    pub started_at: DateTime<Utc>,
    /// Recipients: queued so far plus those still to queue.
    pub total: i64,
    pub queued: i64,
    pub sent: i64,
    pub failed: i64,
    /// Every recipient is queued (the outbox may still be sending).
    pub finished: bool,
}

/// The email as it will go out, and to how many.
#[derive(Debug, Clone, poem_openapi::Object)]
pub struct AnnouncementPreview {
    pub subject: String,
    /// The body, with an example unsubscribe link (each recipient gets their own).
    pub body: String,
    /// Addresses on the list now.
    pub recipients: i64,
    /// Set once the announcement was sent (it is sent once).
    #[oai(skip_serializing_if_is_none)]
    pub progress: Option<AnnouncementProgress>,
}

/// What an announcement announces.
#[derive(Debug, Clone, Copy)]
pub enum Announced<'a> {
    /// A published magazine issue (its id), to the magazine list.
    Issue(&'a str),
    /// The launch of the educational packs, to the packs list.
    PacksLaunch,
}

pub struct Announcements {
    store: Arc<dyn AnnouncementStore>,
    issues: Arc<dyn IssueDirectory>,
    settings: AnnouncementSettings,
    clock: SharedClock,
}

impl Announcements {
    pub fn new(
        store: Arc<dyn AnnouncementStore>,
        issues: Arc<dyn IssueDirectory>,
        settings: AnnouncementSettings,
        clock: SharedClock,
    ) -> Self {
        Announcements {
            store,
            issues,
            settings,
            clock,
        }
    }

    /// Recipients queued per run of the job that runs every second.
    pub fn per_second(&self) -> usize {
        usize::try_from(self.settings.per_minute.div_ceil(60).max(1)).unwrap_or(1)
    }

    async fn issue(&self, id: &str) -> Result<AnnouncedIssue, AnnouncementError> {
        match self
            .issues
            .issue(id)
            .await
            .map_err(AnnouncementError::Issues)?
        {
            IssueLookup::Published(issue) => Ok(issue),
            IssueLookup::Draft => Err(AnnouncementError::Unpublished),
            IssueLookup::Missing => Err(AnnouncementError::NotFound),
        }
    }

    /// What is announced: the list, the reference, and the email; `NotFound`, `Unpublished`
    /// or `NotLaunched` when there is nothing to announce yet.
    async fn subject(
        &self,
        what: &Announced<'_>,
    ) -> Result<(NotifyList, String, Composed), AnnouncementError> {
        match what {
            Announced::Issue(id) => {
                let issue = self.issue(id).await?;
                Ok((
                    NotifyList::Magazine,
                    (*id).to_string(),
                    self.magazine_email(&issue),
                ))
            }
            Announced::PacksLaunch => {
                if !self
                    .issues
                    .packs_launched()
                    .await
                    .map_err(AnnouncementError::Issues)?
                {
                    return Err(AnnouncementError::NotLaunched);
                }
                Ok((NotifyList::Packs, "launch".to_string(), self.packs_email()))
            }
        }
    }

    async fn progress(&self, row: &AnnouncementRow) -> Result<AnnouncementProgress, sqlx::Error> {
        let counts = self.store.counts(&row.id).await?;
        let pending = if row.finished_at.is_some() {
            0
        } else {
            self.store.pending_count(&row.id, row.list).await?
        };
        Ok(AnnouncementProgress {
            started_at: row.created_at,
            total: counts.queued + pending,
            queued: counts.queued,
            sent: counts.sent,
            failed: counts.failed,
            finished: row.finished_at.is_some(),
        })
    }

    /// The announcement as it would go out (or went out), to how many, and how far it got.
    pub async fn preview(
        &self,
        what: Announced<'_>,
    ) -> Result<AnnouncementPreview, AnnouncementError> {
        let (list, subject_ref, composed) = self.subject(&what).await?;
        let existing = self.store.by_ref(list, &subject_ref).await?;
        let (subject, body) = match &existing {
            Some(row) => (row.subject.clone(), row.body.clone()),
            None => (composed.subject, composed.body),
        };
        let example = format!("{}{UNSUBSCRIBE_PAGE}?token=…", self.settings.site_url);
        let progress = match &existing {
            Some(row) => Some(self.progress(row).await?),
            None => None,
        };
        Ok(AnnouncementPreview {
            subject,
            body: body
                .replace(GREETING, &greeting(None))
                .replace(UNSUBSCRIBE, &example),
            recipients: self.store.subscribers(list).await?,
            progress,
        })
    }

    /// Sends the announcement to its list: once. Asking again sends nothing new and answers
    /// how far the first send got.
    pub async fn announce(
        &self,
        what: Announced<'_>,
        by: &str,
    ) -> Result<AnnouncementProgress, AnnouncementError> {
        let (list, subject_ref, composed) = self.subject(&what).await?;
        let row = AnnouncementRow {
            id: kernel::ids::new_id(),
            list,
            subject_ref: subject_ref.clone(),
            subject: composed.subject,
            body: composed.body,
            html: Some(composed.html),
            created_by: Some(by.to_string()),
            created_at: self.clock.now(),
            finished_at: None,
        };
        if self.store.create(&row).await? {
            tracing::info!(
                list = list.as_str(),
                subject_ref,
                by,
                "announcement started"
            );
        }
        let row = self
            .store
            .by_ref(list, &subject_ref)
            .await?
            .ok_or(AnnouncementError::NotFound)?;
        Ok(self.progress(&row).await?)
    }

    /// One run of the sending job: queues up to `budget` recipients of unfinished
    /// announcements (oldest first) and marks those with nobody left finished. Returns how
    /// many were queued.
    pub async fn queue_due(&self, budget: usize) -> Result<usize, sqlx::Error> {
        let mut left = budget;
        for row in self.store.unfinished().await? {
            if left == 0 {
                break;
            }
            let limit = i64::try_from(left).unwrap_or(i64::MAX);
            let pending = self.store.pending(&row.id, row.list, limit).await?;
            if pending.is_empty() {
                self.store.finish(&row.id, self.clock.now()).await?;
                tracing::info!(id = %row.id, "announcement: every recipient queued");
                continue;
            }
            let deliveries: Vec<Delivery> = pending
                .into_iter()
                .map(|recipient| self.delivery(&row, recipient))
                .collect();
            let queued = self
                .store
                .queue(&row.id, &deliveries, self.clock.now())
                .await?;
            left = left.saturating_sub(deliveries.len());
            tracing::debug!(id = %row.id, queued, "announcement batch queued");
        }
        Ok(budget - left)
    }
}
