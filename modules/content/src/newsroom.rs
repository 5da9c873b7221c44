//! The newsroom: moving pieces between stages (submit, withdraw, request changes, approve,
//! publish, schedule, pull back, unpublish), the review queue, the audit log, revisions with
//! their differences, scheduled publishing, and the notices writers get by email.

use chrono::{DateTime, Utc};
use identity::StaffUser;
use kernel::outbox::Email;
use kernel::ErrorCode;
use similar::{ChangeTag, TextDiff};

use crate::access::{stage_of, MAX_NOTE_CHARS};
use crate::dto::{ArticleInput, StaffArticle};
use crate::editorial::Move;
use crate::error::ContentError;
use crate::model::{Category, Status};
use crate::newsroom_dto::{
    ArticleEvent, DiffLine, DiffOp, EventAction, FieldChange, Revision, RevisionDiff,
    RevisionSummary,
};
use crate::service::ContentService;
use crate::store::{EventRow, RevisionRow, StageChange};
use crate::workflow::{decide, Action, Actor, Stage};

impl ContentService {
    /// Moves a piece to another stage under the newsroom's rules, with its audit entry and
    /// the notice its writer gets (both written with the change, or neither).
    #[tracing::instrument(skip(self, m), fields(user = %user.id, action = m.action.as_str()))]
    pub(crate) async fn move_to(
        &self,
        user: &StaffUser,
        id: &str,
        m: Move,
    ) -> Result<StaffArticle, ContentError> {
        let row = self.staff_row(user, id).await?;
        let stage = stage_of(&row)?;
        let now = self.now();
        let mut to = decide(
            Actor::of(user.role),
            stage,
            m.action,
            self.newsroom().review_required,
        )
        .map_err(|refusal| refusal.error(m.action, stage))?;
        // Approving for "now" publishes.
        if m.action == Action::Approve && m.publish_at.is_none() {
            to = Stage::Published;
        }
        let publish_at = match to {
            Stage::Scheduled => {
                let at = m.publish_at.ok_or_else(|| {
                    ContentError::invalid(
                        ErrorCode::InvalidPublishAt,
                        "Choose when the piece should go out.",
                    )
                })?;
                crate::access::check_publish_at(at, now)?;
                Some(at)
            }
            _ => None,
        };
        let note = match m.action {
            Action::RequestChanges => {
                let note = m.note.as_deref().map(str::trim).unwrap_or_default();
                if note.is_empty() {
                    return Err(ContentError::invalid(
                        ErrorCode::NoteRequired,
                        "Please say what should change.",
                    ));
                }
                crate::draft::check_len("note", note, MAX_NOTE_CHARS)?;
                Some(note.to_string())
            }
            _ => None,
        };
        let (review_note, review_note_by, review_note_at) = match (&note, m.action) {
            (Some(note), _) => (Some(note.clone()), Some(user.id.clone()), Some(now)),
            (None, Action::Withdraw) => (
                row.review_note.clone(),
                row.review_note_by.clone(),
                row.review_note_at,
            ),
            (None, _) => (None, None, None),
        };
        let change = StageChange {
            id: row.card.id.clone(),
            from_stage: row.stage.clone(),
            version: row.version,
            stage: to.as_str().into(),
            publish_at,
            submitted_at: match to {
                Stage::InReview => Some(now),
                _ => None,
            },
            // A request for changes stays with the draft until it is resubmitted (withdrawing
            // a resubmitted piece brings it back); any other move clears it.
            review_note,
            review_note_by,
            review_note_at,
            first_published_at: match to {
                Stage::Published => row.first_published_at.or(Some(now)),
                _ => row.first_published_at,
            },
            updated_at: now,
            updated_by: Some(user.id.clone()),
            event: EventRow {
                id: kernel::ids::new_id(),
                article_id: row.card.id.clone(),
                actor_id: Some(user.id.clone()),
                action: EventAction::of(m.action)
                    .map(EventAction::as_str)
                    .unwrap_or_else(|| "edit".into()),
                from_stage: Some(stage.as_str().into()),
                to_stage: to.as_str().into(),
                note: note.clone(),
                publish_at,
                at: now,
            },
        };
        let author = row.card.author_id.clone();
        let notice = match (&author, to, &note) {
            (Some(author), _, Some(note)) if *author != user.id => {
                self.notice(author, |site, name| {
                    changes_requested_email(site, name, &user.name, &row.card.title, note)
                })
                .await
            }
            (Some(author), Stage::Published, _) if *author != user.id => {
                self.notice(author, |site, name| {
                    published_email(site, name, &row.card.title, &row.card.slug)
                })
                .await
            }
            _ => None,
        };
        if !self.store().change_stage(&change, notice.as_ref()).await? {
            return Err(ContentError::Conflict {
                code: ErrorCode::EditConflict,
                message: "This article was changed meanwhile. Reload it and try again.".into(),
            });
        }
        if stage == Stage::Published && to != Stage::Published {
            self.withdrawn(&[&row.card.slug]);
        } else {
            self.changed(&[&row.card.slug]);
        }
        self.staff_get(user, id).await
    }

    /// Submits a draft for review.
    pub async fn submit(&self, user: &StaffUser, id: &str) -> Result<StaffArticle, ContentError> {
        self.move_to(user, id, simple(Action::Submit)).await
    }

    /// Takes one's piece out of review, back to draft.
    pub async fn withdraw(&self, user: &StaffUser, id: &str) -> Result<StaffArticle, ContentError> {
        self.move_to(user, id, simple(Action::Withdraw)).await
    }

    /// Sends a piece in review back to its writer with `note`.
    pub async fn request_changes(
        &self,
        user: &StaffUser,
        id: &str,
        note: String,
    ) -> Result<StaffArticle, ContentError> {
        self.move_to(
            user,
            id,
            Move {
                action: Action::RequestChanges,
                publish_at: None,
                note: Some(note),
            },
        )
        .await
    }

    /// Approves a piece in review: published now, or at `publish_at`.
    pub async fn approve(
        &self,
        user: &StaffUser,
        id: &str,
        publish_at: Option<DateTime<Utc>>,
    ) -> Result<StaffArticle, ContentError> {
        self.move_to(
            user,
            id,
            Move {
                action: Action::Approve,
                publish_at,
                note: None,
            },
        )
        .await
    }

    /// Schedules a piece (or moves its time).
    pub async fn schedule(
        &self,
        user: &StaffUser,
        id: &str,
        publish_at: DateTime<Utc>,
    ) -> Result<StaffArticle, ContentError> {
        self.move_to(
            user,
            id,
            Move {
                action: Action::Schedule,
                publish_at: Some(publish_at),
                note: None,
            },
        )
        .await
    }

    /// Pulls a scheduled piece back to draft.
    pub async fn unschedule(
        &self,
        user: &StaffUser,
        id: &str,
    ) -> Result<StaffArticle, ContentError> {
        self.move_to(user, id, simple(Action::Unschedule)).await
    }

    /// Takes a published piece back to draft.
    pub async fn unpublish(
        &self,
        user: &StaffUser,
        id: &str,
    ) -> Result<StaffArticle, ContentError> {
        self.move_to(user, id, simple(Action::Unpublish)).await
    }

    /// Pieces waiting for review, the longest waiting first (reviewers only).
    pub async fn review_queue(&self, user: &StaffUser) -> Result<Vec<StaffArticle>, ContentError> {
        if !Actor::of(user.role).reviews() {
            return Err(ContentError::Forbidden);
        }
        let rows = self.store().review_queue().await?;
        self.staff_articles(rows).await
    }

    /// An article's audit log, oldest first (reviewers only).
    pub async fn events(
        &self,
        user: &StaffUser,
        id: &str,
    ) -> Result<Vec<ArticleEvent>, ContentError> {
        if !Actor::of(user.role).reviews() {
            return Err(ContentError::Forbidden);
        }
        let row = self.staff_row(user, id).await?;
        let events = self.store().events(&row.card.id).await?;
        let names = self
            .author_names(events.iter().map(|e| &e.actor_id))
            .await?;
        events
            .into_iter()
            .map(|e| {
                let unknown = |what: &str| {
                    ContentError::Unexpected(format!("stored {what} is unknown").into())
                };
                Ok(ArticleEvent {
                    at: e.at,
                    actor_name: e.actor_id.as_ref().and_then(|id| names.get(id).cloned()),
                    actor_id: e.actor_id,
                    action: EventAction::parse(&e.action).ok_or_else(|| unknown("action"))?,
                    from_stage: match e.from_stage {
                        Some(s) => Some(Stage::parse(&s).ok_or_else(|| unknown("stage"))?),
                        None => None,
                    },
                    to_stage: Stage::parse(&e.to_stage).ok_or_else(|| unknown("stage"))?,
                    note: e.note,
                    publish_at: e.publish_at,
                })
            })
            .collect()
    }

    /// An article's revisions, newest first.
    pub async fn revisions(
        &self,
        user: &StaffUser,
        id: &str,
    ) -> Result<Vec<RevisionSummary>, ContentError> {
        let row = self.staff_row(user, id).await?;
        let revisions = self.store().revisions(&row.card.id).await?;
        let names = self
            .author_names(revisions.iter().map(|r| &r.saved_by))
            .await?;
        Ok(revisions
            .into_iter()
            .map(|r| summary(&r, names.get(r.saved_by.as_deref().unwrap_or("")).cloned()))
            .collect())
    }

    async fn revision_row(
        &self,
        user: &StaffUser,
        id: &str,
        number: i64,
    ) -> Result<(crate::store::StaffRow, RevisionRow), ContentError> {
        let row = self.staff_row(user, id).await?;
        let revision = self
            .store()
            .revision(&row.card.id, number)
            .await?
            .ok_or_else(|| ContentError::NotFoundWith {
                code: ErrorCode::RevisionNotFound,
                message: format!("This article has no revision {number}."),
            })?;
        Ok((row, revision))
    }

    /// One revision, whole.
    pub async fn revision(
        &self,
        user: &StaffUser,
        id: &str,
        number: i64,
    ) -> Result<Revision, ContentError> {
        let (_, r) = self.revision_row(user, id, number).await?;
        let saved_by_name = match &r.saved_by {
            Some(by) => self
                .author_names(std::iter::once(&r.saved_by))
                .await?
                .get(by)
                .cloned(),
            None => None,
        };
        Ok(Revision {
            summary: summary(&r, saved_by_name),
            subtitle: r.subtitle,
            content: r.content,
            cover_image: r.cover_image,
        })
    }

    /// What changed from revision `number` to the current text.
    pub async fn revision_diff(
        &self,
        user: &StaffUser,
        id: &str,
        number: i64,
    ) -> Result<RevisionDiff, ContentError> {
        let (row, r) = self.revision_row(user, id, number).await?;
        let mut fields = Vec::new();
        let mut field = |name: &str, old: Option<&str>, new: Option<&str>| {
            if old != new {
                fields.push(FieldChange {
                    field: name.into(),
                    revision: old.map(str::to_string),
                    current: new.map(str::to_string),
                });
            }
        };
        field("title", Some(&r.title), Some(&row.card.title));
        field(
            "subtitle",
            r.subtitle.as_deref(),
            row.card.subtitle.as_deref(),
        );
        field(
            "cover_image",
            r.cover_image.as_deref(),
            row.card.cover_image.as_deref(),
        );
        Ok(RevisionDiff {
            number,
            current_version: row.version,
            fields,
            content: line_diff(&r.content, &row.content),
        })
    }

    /// Restores revision `number`: its text becomes the article's newest revision (the stage,
    /// category and the rest stay as they are).
    pub async fn restore(
        &self,
        user: &StaffUser,
        id: &str,
        number: i64,
        base_version: Option<i64>,
    ) -> Result<StaffArticle, ContentError> {
        let (row, r) = self.revision_row(user, id, number).await?;
        let stage = stage_of(&row)?;
        let category = Category::parse(&row.card.category).ok_or_else(|| {
            ContentError::Unexpected(
                format!("stored category {:?} is unknown", row.card.category).into(),
            )
        })?;
        let input = ArticleInput {
            title: r.title,
            subtitle: r.subtitle,
            content: r.content,
            category: Some(category),
            cover_image: r.cover_image,
            featured: Some(row.card.featured),
            status: match stage {
                Stage::Published | Stage::Scheduled => Status::Published,
                Stage::Draft | Stage::InReview => Status::Draft,
            },
            author_id: row.card.author_id.clone(),
            publish_at: None,
            base_version: Some(base_version.unwrap_or(row.version)),
        };
        // A scheduled piece keeps its time: saved as it stands.
        if stage == Stage::Scheduled {
            return self
                .save(
                    user,
                    Some(id),
                    ArticleInput {
                        publish_at: row.publish_at,
                        ..input
                    },
                )
                .await;
        }
        self.save(user, Some(id), input).await
    }

    /// Publishes the scheduled pieces whose time has come (once each, across instances), and
    /// tells their writers. Returns how many went out.
    #[tracing::instrument(skip(self))]
    pub async fn publish_due(&self, now: DateTime<Utc>) -> Result<usize, ContentError> {
        let went = self.store().publish_due(now).await?;
        if went.is_empty() {
            return Ok(0);
        }
        let slugs: Vec<&str> = went.iter().map(|w| w.slug.as_str()).collect();
        self.changed(&slugs);
        for w in &went {
            tracing::info!(id = %w.id, slug = %w.slug, publish_at = ?w.publish_at, "scheduled piece published");
            if let Some(author) = &w.author_id {
                self.tell_published(author, &w.title, &w.slug).await;
            }
        }
        Ok(went.len())
    }

    /// Tells writer `author` that their piece is live (when they get notices).
    pub(crate) async fn tell_published(&self, author: &str, title: &str, slug: &str) {
        if let Some(email) = self
            .notice(author, |site, name| {
                published_email(site, name, title, slug)
            })
            .await
        {
            if let Err(e) = self.store().queue_email(&email).await {
                tracing::warn!(error = %e, "queueing a published notice failed");
            }
        }
    }

    /// Tells writer `author` how a change they proposed to a live piece went: live (no note)
    /// or declined by `reviewer` (with their note, if any).
    pub(crate) async fn tell_change_decided(
        &self,
        author: &str,
        reviewer: &str,
        title: &str,
        slug: &str,
        declined: Option<Option<&str>>,
    ) {
        let email = self
            .notice(author, |site, name| match declined {
                None => (
                    format!("Your change is live: {title}"),
                    format!(
                        "Hi {name},\n\n{reviewer} approved your change to \"{title}\"; it is \
                         live now:\n{}/article/{slug}",
                        site.url
                    ),
                ),
                Some(note) => (
                    format!("Your change was not taken: {title}"),
                    format!(
                        "Hi {name},\n\n{reviewer} declined your change to \"{title}\"; the \
                         article stays as it was.{}\n\nYour dashboard: {}/dashboard/writer",
                        note.map(|n| format!("\n\nTheir note:\n\n{n}"))
                            .unwrap_or_default(),
                        site.url
                    ),
                ),
            })
            .await;
        if let Some(email) = email {
            if let Err(e) = self.store().queue_email(&email).await {
                tracing::warn!(error = %e, "queueing a change notice failed");
            }
        }
    }

    /// A notice for staff member `id`, when they get them (a failure to tell is logged: the
    /// change itself goes on).
    async fn notice(
        &self,
        id: &str,
        build: impl FnOnce(&Site<'_>, &str) -> (String, String),
    ) -> Option<Email> {
        let address = match self.authors().notice_address(id).await {
            Ok(Some(address)) => address,
            Ok(None) => return None,
            Err(e) => {
                tracing::warn!(error = %e, "cannot find where to send a newsroom notice");
                return None;
            }
        };
        let name = self
            .author_names(std::iter::once(&Some(id.to_string())))
            .await
            .ok()
            .and_then(|names| names.get(id).cloned())
            .unwrap_or_default();
        let settings = self.newsroom();
        let site = Site {
            url: &settings.site_url,
            name: &settings.site_name,
        };
        let (subject, body) = build(&site, &name);
        Some(Email {
            html: None,
            to: vec![address],
            reply_to: None,
            subject,
            body: format!(
                "{body}\n\nYou get these emails because you write for {}. To stop them, untick \
                 \"Email me newsroom notices\" on your dashboard: {}/dashboard/writer\n",
                site.name, site.url
            ),
            attachments: vec![],
            list_unsubscribe: None,
        })
    }
}

/// The site's address and name, for notices.
struct Site<'a> {
    url: &'a str,
    name: &'a str,
}

fn changes_requested_email(
    site: &Site<'_>,
    name: &str,
    reviewer: &str,
    title: &str,
    note: &str,
) -> (String, String) {
    (
        format!("Changes requested: {title}"),
        format!(
            "Hi {name},\n\n{reviewer} read \"{title}\" and asked for changes:\n\n{note}\n\n\
             Open it in your notebook, make the changes and submit it again: {}/dashboard/writer",
            site.url
        ),
    )
}

fn published_email(site: &Site<'_>, name: &str, title: &str, slug: &str) -> (String, String) {
    (
        format!("Published: {title}"),
        format!(
            "Hi {name},\n\n\"{title}\" is live on {}:\n{}/article/{slug}",
            site.name, site.url
        ),
    )
}

fn simple(action: Action) -> Move {
    Move {
        action,
        publish_at: None,
        note: None,
    }
}

fn summary(r: &RevisionRow, saved_by_name: Option<String>) -> RevisionSummary {
    RevisionSummary {
        number: r.number,
        title: r.title.clone(),
        saved_at: r.saved_at,
        saved_by_name,
    }
}

/// The body's lines: the same, removed since the revision, or added since.
pub(crate) fn line_diff(old: &str, new: &str) -> Vec<DiffLine> {
    // A last line without its line break is the same line as with one.
    let ended = |s: &str| {
        if s.is_empty() || s.ends_with('\n') {
            s.to_string()
        } else {
            format!("{s}\n")
        }
    };
    let (old, new) = (ended(old), ended(new));
    TextDiff::from_lines(&old, &new)
        .iter_all_changes()
        .map(|c| DiffLine {
            op: match c.tag() {
                ChangeTag::Equal => DiffOp::Same,
                ChangeTag::Delete => DiffOp::Removed,
                ChangeTag::Insert => DiffOp::Added,
            },
            text: c.value().trim_end_matches(['\n', '\r']).to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests;
