//! Changes to live pieces that wait for review. With review required, a writer's save of a
//! published or scheduled piece is kept as its pending change while the live version stays up;
//! a reviewer approves it (it becomes the next revision, live at once, the stage and schedule
//! unchanged) or declines it, and the writer may take it back. Nothing here ever takes a piece
//! off the site.

use chrono::{DateTime, Utc};
use identity::StaffUser;
use kernel::Common;

use crate::access::{check, stage_of, MAX_NOTE_CHARS};
use crate::draft::{self, Meta};
use crate::dto::{ArticleInput, StaffArticle};
use crate::error::ContentError;
use crate::model::Category;
use crate::newsroom_dto::EventAction;
use crate::service::ContentService;
use crate::slug::slugify;
use crate::store::{EventRow, PendingRow, StaffRow, Updated};
use crate::workflow::{Action, Stage};
use crate::writer::{self, Write};

/// The answer when the change asked about is not the one waiting (decided or replaced).
fn no_such_change() -> ContentError {
    ContentError::Conflict {
        code: Common::InvalidTransition.into(),
        message: "This change is no longer waiting for review: reload the article to see where \
                  it stands."
            .into(),
    }
}

fn stored_category(stored: &str) -> Result<Category, ContentError> {
    Category::parse(stored).ok_or_else(|| {
        ContentError::Unexpected(format!("stored category {stored:?} is unknown").into())
    })
}

fn event(
    at: DateTime<Utc>,
    row: &StaffRow,
    user: &StaffUser,
    action: Action,
    stage: Stage,
    note: Option<String>,
) -> EventRow {
    EventRow {
        id: kernel::ids::new_id(),
        article_id: row.card.id.clone(),
        actor_id: Some(user.id.clone()),
        action: EventAction::of(action)
            .map(EventAction::as_str)
            .unwrap_or_else(|| action.as_str().into()),
        from_stage: Some(stage.as_str().into()),
        to_stage: stage.as_str().into(),
        note,
        publish_at: row.publish_at.filter(|_| stage == Stage::Scheduled),
        at,
    }
}

impl ContentService {
    /// Keeps `input` as the pending change of live piece `row` (the caller checked that the
    /// writer proposes rather than edits).
    pub(crate) async fn propose_change(
        &self,
        user: &StaffUser,
        row: &StaffRow,
        input: ArticleInput,
    ) -> Result<StaffArticle, ContentError> {
        let stage = stage_of(row)?;
        check(
            user,
            stage,
            Action::ProposeChange,
            self.newsroom().review_required,
        )?;
        let fields = draft::validate(
            &input.title,
            input.subtitle,
            &input.content,
            input.cover_image,
        )?;
        let category = match input.category {
            Some(c) => c,
            None => stored_category(&row.card.category)?,
        };
        let change = PendingRow {
            article_id: row.card.id.clone(),
            title: fields.title,
            subtitle: fields.subtitle,
            content: fields.content,
            category: category.as_str().to_string(),
            cover_image: fields.cover_image,
            featured: input.featured.unwrap_or(row.card.featured),
            proposed_by: Some(user.id.clone()),
            proposed_at: self.now(),
            base_version: input.base_version.unwrap_or(row.version),
        };
        let entry = event(self.now(), row, user, Action::ProposeChange, stage, None);
        if !self.store().put_pending(&change, &entry).await? {
            return Err(self.stale(&row.card.id).await);
        }
        self.staff_get(user, &row.card.id).await
    }

    /// Makes the pending change of `id` proposed at `proposed_at` live (reviewers).
    #[tracing::instrument(skip(self), fields(user = %user.id))]
    pub async fn approve_change(
        &self,
        user: &StaffUser,
        id: &str,
        proposed_at: DateTime<Utc>,
    ) -> Result<StaffArticle, ContentError> {
        let row = self.staff_row(user, id).await?;
        let stage = stage_of(&row)?;
        check(
            user,
            stage,
            Action::ApproveChange,
            self.newsroom().review_required,
        )?;
        if row.pending_at != Some(proposed_at) {
            return Err(no_such_change());
        }
        let (Some(title), Some(content)) = (row.pending_title.clone(), row.pending_content.clone())
        else {
            return Err(no_such_change());
        };
        let fields = draft::validate(
            &title,
            row.pending_subtitle.clone(),
            &content,
            row.pending_cover_image.clone(),
        )?;
        let category = stored_category(row.pending_category.as_deref().unwrap_or_default())?;
        let base = slugify(&fields.title);
        let kept_slug = (slugify(&row.card.title) == base).then(|| row.card.slug.clone());
        let now = self.now();
        let mut next = draft::row(
            fields,
            Meta {
                id: row.card.id.clone(),
                slug: kept_slug.clone().unwrap_or_default(),
                category,
                featured: row.pending_featured.unwrap_or(row.card.featured),
                stage,
                publish_at: row.publish_at.filter(|_| stage == Stage::Scheduled),
                author_id: row.card.author_id.clone(),
                created_at: row.card.created_at,
                updated_at: now,
                // The revision is the proposer's text.
                updated_by: row.pending_by.clone().or(Some(user.id.clone())),
                first_published_at: row.first_published_at,
            },
        );
        let entry = event(self.now(), &row, user, Action::ApproveChange, stage, None);
        let base = kept_slug.is_none().then_some(base.as_str());
        let written = writer::write(
            self.store(),
            &mut next,
            base,
            Write::Update {
                old_slug: row
                    .first_published_at
                    .is_some()
                    .then_some(row.card.slug.as_str()),
                expected_version: Some(row.version),
                event: Some(&entry),
                pending_at: Some(proposed_at),
            },
        )
        .await?;
        match written {
            Updated::Written(_) => {}
            Updated::Gone => return Err(ContentError::NotFound),
            Updated::Stale => return Err(no_such_change()),
        }
        self.changed(&[&row.card.slug, &next.slug]);
        if let Some(by) = row.pending_by.as_deref().filter(|by| *by != user.id) {
            self.tell_change_decided(by, &user.name, &next.title, &next.slug, None)
                .await;
        }
        self.staff_get(user, id).await
    }

    /// Drops the pending change of `id` proposed at `proposed_at`: a reviewer declining it
    /// (with an optional note for the writer), or the writer taking it back.
    #[tracing::instrument(skip(self, note), fields(user = %user.id))]
    pub async fn decline_change(
        &self,
        user: &StaffUser,
        id: &str,
        proposed_at: DateTime<Utc>,
        note: Option<String>,
    ) -> Result<StaffArticle, ContentError> {
        let row = self.staff_row(user, id).await?;
        let stage = stage_of(&row)?;
        check(
            user,
            stage,
            Action::DeclineChange,
            self.newsroom().review_required,
        )?;
        let note = draft::trimmed_or_none(note);
        if let Some(n) = &note {
            draft::check_len("note", n, MAX_NOTE_CHARS)?;
        }
        let entry = event(
            self.now(),
            &row,
            user,
            Action::DeclineChange,
            stage,
            note.clone(),
        );
        if row.pending_at != Some(proposed_at)
            || !self
                .store()
                .drop_pending(&row.card.id, proposed_at, &entry)
                .await?
        {
            return Err(no_such_change());
        }
        if let Some(by) = row.pending_by.as_deref().filter(|by| *by != user.id) {
            self.tell_change_decided(
                by,
                &user.name,
                &row.card.title,
                &row.card.slug,
                Some(note.as_deref()),
            )
            .await;
        }
        self.staff_get(user, id).await
    }
}
