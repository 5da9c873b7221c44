//! A piece's history: its audit log, its revisions with their differences, and restoring one.

use crate::codes::Code;
use identity::StaffUser;
use similar::{ChangeTag, TextDiff};

use crate::access::stage_of;
use crate::dto::{ArticleInput, StaffArticle};
use crate::error::ContentError;
use crate::model::{Category, Status};
use crate::newsroom_dto::{
    ArticleEvent, DiffLine, DiffOp, EventAction, FieldChange, Revision, RevisionDiff,
    RevisionSummary,
};
use crate::service::ContentService;
use crate::store::RevisionRow;
use crate::workflow::{Actor, Stage};

impl ContentService {
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
                code: Code::RevisionNotFound.into(),
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
