//! The editorial side of the content service: staff listings and writes, with the spec's
//! permissions enforced here — a writer sees and changes only their own articles; the content
//! director sees all and writes on behalf of active writers — and the newsroom's rules (see
//! [`crate::workflow`]) for every change of stage.

use crate::codes::Code;
use chrono::{DateTime, Utc};
use identity::{Role, StaffUser};

use crate::draft::{self, Meta};
use crate::dto::{ArticleInput, StaffArticle};
use crate::error::ContentError;
use crate::model::{Category, Status};
use crate::newsroom_dto::{ConflictBody, EventAction};
use crate::present::staff_article;
use crate::service::ContentService;
use crate::slug::slugify;
use crate::store::{EventRow, StaffRow, Updated};
use crate::workflow::{decide, Action, Actor, Stage};
use crate::writer::{self, Write};

use crate::access::{check, check_publish_at, read_scope, scope, stage_of};

/// The stage change a staff member asks for with a move, before its fields are worked out.
#[derive(Debug, Clone)]
pub(crate) struct Move {
    pub action: Action,
    /// For `Approve` and `Schedule`: when (absent for `Approve`: now).
    pub publish_at: Option<DateTime<Utc>>,
    /// For `RequestChanges`.
    pub note: Option<String>,
}

impl ContentService {
    async fn staff_article(&self, row: StaffRow) -> Result<StaffArticle, ContentError> {
        let names = self
            .author_names(
                [
                    &row.card.author_id,
                    &row.updated_by,
                    &row.review_note_by,
                    &row.pending_by,
                ]
                .into_iter(),
            )
            .await?;
        staff_article(row, &names)
    }

    /// The articles a staff member may manage, newest first.
    pub async fn staff_list(&self, user: &StaffUser) -> Result<Vec<StaffArticle>, ContentError> {
        let rows = self.store().staff_list(scope(user)?).await?;
        self.staff_articles(rows).await
    }

    pub(crate) async fn staff_articles(
        &self,
        rows: Vec<StaffRow>,
    ) -> Result<Vec<StaffArticle>, ContentError> {
        let names = self
            .author_names(rows.iter().flat_map(|r| {
                [
                    &r.card.author_id,
                    &r.updated_by,
                    &r.review_note_by,
                    &r.pending_by,
                ]
            }))
            .await?;
        rows.into_iter().map(|r| staff_article(r, &names)).collect()
    }

    pub(crate) async fn staff_row(
        &self,
        user: &StaffUser,
        id: &str,
    ) -> Result<StaffRow, ContentError> {
        self.store()
            .staff_get(id, read_scope(user)?)
            .await?
            .ok_or(ContentError::NotFound)
    }

    pub async fn staff_get(
        &self,
        user: &StaffUser,
        id: &str,
    ) -> Result<StaffArticle, ContentError> {
        let row = self.staff_row(user, id).await?;
        self.staff_article(row).await
    }

    /// The author an article is saved under: the writer themself, or the writer the content
    /// director chose (who must be an active writer).
    async fn author_for(
        &self,
        user: &StaffUser,
        chosen: Option<String>,
    ) -> Result<String, ContentError> {
        match user.role {
            Role::Writer => Ok(user.id.clone()),
            Role::ContentDirector => {
                let id = chosen
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .ok_or_else(|| {
                        ContentError::invalid(
                            Code::WriterRequired,
                            "Please select a writer for the article",
                        )
                    })?;
                if self
                    .authors()
                    .is_active_writer(&id)
                    .await
                    .map_err(ContentError::Unexpected)?
                {
                    Ok(id)
                } else {
                    Err(ContentError::invalid(
                        Code::InvalidWriter,
                        "The selected author is not an active writer",
                    ))
                }
            }
            Role::Admin | Role::Educator => Err(ContentError::Forbidden),
        }
    }

    /// The 409 answer to a save based on an older version of `id`.
    pub(crate) async fn stale(&self, id: &str) -> ContentError {
        match self.store().staff_get(id, None).await {
            Ok(Some(row)) => {
                let changed_by = match &row.updated_by {
                    Some(by) => self
                        .author_names(std::iter::once(&Some(by.clone())))
                        .await
                        .ok()
                        .and_then(|names| names.get(by).cloned()),
                    None => None,
                };
                let who = changed_by.clone().unwrap_or_else(|| "Someone".into());
                ContentError::Stale(Box::new(ConflictBody {
                    code: Code::EditConflict.into(),
                    message: format!(
                        "{who} saved this article at {} UTC, after you opened it. Nothing was \
                         overwritten: look at their version before saving yours.",
                        row.card.updated_at.format("%H:%M on %b %-d")
                    ),
                    current_version: Some(row.version),
                    changed_by,
                    changed_at: Some(row.card.updated_at),
                }))
            }
            Ok(None) => ContentError::NotFound,
            Err(e) => e.into(),
        }
    }

    /// Creates (`id` = None) or updates an article. The status asked for is a move under the
    /// newsroom's rules: `published` publishes (or, with `publish_at`, schedules); `draft`
    /// keeps a draft or a piece in review where it is and takes a scheduled or published one
    /// back to draft.
    #[tracing::instrument(skip(self, input), fields(user = %user.id))]
    pub async fn save(
        &self,
        user: &StaffUser,
        id: Option<&str>,
        input: ArticleInput,
    ) -> Result<StaffArticle, ContentError> {
        let filter = scope(user)?;
        let existing = match id {
            Some(id) => Some(
                self.store()
                    .staff_get(id, filter)
                    .await?
                    .ok_or(ContentError::NotFound)?,
            ),
            None => None,
        };
        let review_required = self.newsroom().review_required;
        let now = self.now();
        let stage = match &existing {
            Some(row) => stage_of(row)?,
            None => Stage::Draft,
        };
        // A writer under review rules keeping a live piece live proposes the change instead.
        if let Some(row) = &existing {
            if input.status == Status::Published
                && matches!(stage, Stage::Published | Stage::Scheduled)
                && decide(
                    Actor::of(user.role),
                    stage,
                    Action::ProposeChange,
                    review_required,
                )
                .is_ok()
            {
                return self.propose_change(user, row, input).await;
            }
        }
        let action = match (input.status, input.publish_at, stage) {
            (Status::Published, None, Stage::Published) => None,
            (Status::Published, None, _) => Some(Action::Publish),
            (Status::Published, Some(_), _) => Some(Action::Schedule),
            (Status::Draft, _, Stage::Scheduled) => Some(Action::Unschedule),
            (Status::Draft, _, Stage::Published) => Some(Action::Unpublish),
            (Status::Draft, _, Stage::Draft | Stage::InReview) => None,
        };
        // A piece taken back is edited as the draft it becomes.
        let edit_at = match action {
            Some(Action::Unschedule | Action::Unpublish) => Stage::Draft,
            _ => stage,
        };
        check(user, edit_at, Action::Edit, review_required)?;
        let after = match action {
            Some(a) => check(user, stage, a, review_required)?,
            None => stage,
        };
        if let Some(at) = input.publish_at {
            check_publish_at(at, now)?;
        }
        let fields = draft::validate(
            &input.title,
            input.subtitle,
            &input.content,
            input.cover_image,
        )?;
        let author_id = match (&existing, user.role) {
            // A writer's edit keeps the article theirs; the director may reassign it.
            (Some(row), Role::Writer) => row.card.author_id.clone().unwrap_or(user.id.clone()),
            _ => self.author_for(user, input.author_id).await?,
        };
        let base = slugify(&fields.title);
        // The slug changes only with the title; a new one is chosen when the row is written.
        let kept_slug = match &existing {
            Some(row) if slugify(&row.card.title) == base => Some(row.card.slug.clone()),
            _ => None,
        };
        let first_published_at = match (&existing, after) {
            (Some(row), _) if row.first_published_at.is_some() => row.first_published_at,
            (_, Stage::Published) => Some(now),
            _ => None,
        };
        let article_id = existing
            .as_ref()
            .map(|r| r.card.id.clone())
            .unwrap_or_else(kernel::ids::new_id);
        let publish_at = match after {
            Stage::Scheduled => input
                .publish_at
                .or(existing.as_ref().and_then(|r| r.publish_at)),
            _ => None,
        };
        let mut row = draft::row(
            fields,
            Meta {
                id: article_id.clone(),
                slug: kept_slug.clone().unwrap_or_default(),
                category: input.category.unwrap_or(Category::YouthActivism),
                featured: input.featured.unwrap_or(false),
                stage: after,
                publish_at,
                author_id: Some(author_id.clone()),
                created_at: existing.as_ref().map(|r| r.card.created_at).unwrap_or(now),
                updated_at: now,
                updated_by: Some(user.id.clone()),
                first_published_at,
            },
        );
        let base = kept_slug.is_none().then_some(base.as_str());
        let event = action.and_then(EventAction::of).map(|a| EventRow {
            id: kernel::ids::new_id(),
            article_id: article_id.clone(),
            actor_id: Some(user.id.clone()),
            action: a.as_str(),
            from_stage: Some(stage.as_str().into()),
            to_stage: after.as_str().into(),
            note: None,
            publish_at,
            at: now,
        });
        let write = match &existing {
            None => Write::Insert,
            // Readers' links to a public slug keep working.
            Some(old) => Write::Update {
                old_slug: old
                    .first_published_at
                    .is_some()
                    .then_some(old.card.slug.as_str()),
                // The stage and fields were decided from the row as read: without a version
                // from the editor, the write is still conditional on that row's, so a move
                // made meanwhile (a submit, an approval) is never silently undone.
                expected_version: input.base_version.or(Some(old.version)),
                event: event.as_ref(),
                pending_at: None,
            },
        };
        match writer::write(self.store(), &mut row, base, write).await? {
            Updated::Written(_) => {}
            // Deleted meanwhile.
            Updated::Gone => return Err(ContentError::NotFound),
            Updated::Stale => return Err(self.stale(&article_id).await),
        }
        let slugs = match &existing {
            Some(old) if old.card.slug != row.slug => vec![old.card.slug.as_str(), &row.slug],
            _ => vec![row.slug.as_str()],
        };
        if stage == Stage::Published && after != Stage::Published {
            self.withdrawn(&slugs);
        } else {
            self.changed(&slugs);
        }
        if after == Stage::Published && stage != Stage::Published && author_id != user.id {
            self.tell_published(&author_id, &row.title, &row.slug).await;
        }
        self.staff_get(user, &row.id).await
    }

    /// One-click publish of a draft (or of a piece in review, by its reviewer).
    pub async fn publish(&self, user: &StaffUser, id: &str) -> Result<StaffArticle, ContentError> {
        self.move_to(
            user,
            id,
            Move {
                action: Action::Publish,
                publish_at: None,
                note: None,
            },
        )
        .await
    }

    pub async fn delete(&self, user: &StaffUser, id: &str) -> Result<(), ContentError> {
        let row = self.staff_row(user, id).await?;
        let stage = stage_of(&row)?;
        check(user, stage, Action::Delete, self.newsroom().review_required)?;
        self.store().delete(&row.card.id).await?;
        if stage == Stage::Published {
            self.withdrawn(&[&row.card.slug]);
        } else {
            self.changed(&[&row.card.slug]);
        }
        Ok(())
    }

    /// The body as the article page will show it.
    pub fn preview(&self, user: &StaffUser, content: &str) -> Result<String, ContentError> {
        read_scope(user)?;
        draft::check_len("content", content, draft::MAX_CONTENT_CHARS)?;
        Ok(crate::derive::render_markdown(content).html)
    }
}
