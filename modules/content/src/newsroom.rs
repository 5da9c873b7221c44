//! The newsroom: moving pieces between stages (submit, withdraw, request changes, approve,
//! publish, schedule, pull back, unpublish), the review queue and scheduled publishing. The
//! audit log and revisions are in `history`, the notices writers get in `notices`.

use crate::codes::Code;
use chrono::{DateTime, Utc};
use identity::StaffUser;

use crate::access::{stage_of, MAX_NOTE_CHARS};
use crate::dto::StaffArticle;
use crate::editorial::Move;
use crate::error::ContentError;
use crate::newsroom_dto::EventAction;
use crate::notices::{changes_requested_email, published_email};
use crate::service::ContentService;
use crate::store::{EventRow, StageChange};
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
                        Code::InvalidPublishAt,
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
                        Code::NoteRequired,
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
                code: Code::EditConflict.into(),
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

    /// Upkeep of the search index between requests (see [`crate::store::EditStore::upkeep`]).
    pub async fn upkeep(&self) -> Result<(), ContentError> {
        Ok(self.store().upkeep().await?)
    }

    /// Merges the search index into as few pieces as it can, after a bulk import.
    pub async fn compact_index(&self) -> Result<(), ContentError> {
        Ok(self.store().compact_index().await?)
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
}

fn simple(action: Action) -> Move {
    Move {
        action,
        publish_at: None,
        note: None,
    }
}
