//! The editorial side of the content service: staff listings and writes, with the spec's
//! permissions enforced here — a writer sees and changes only their own articles; the content
//! director sees all and writes on behalf of active writers.

use identity::{Role, StaffUser};

use crate::draft::{self, Meta};
use crate::dto::{ArticleInput, StaffArticle};
use crate::error::ContentError;
use crate::model::{Category, Status};
use crate::present::staff_article;
use crate::service::ContentService;
use crate::slug::slugify;
use crate::store::StaffRow;
use crate::writer::{self, Write};
use kernel::ErrorCode;

/// The author filter of a staff member: a writer's own id, everyone for the content director.
fn scope(user: &StaffUser) -> Result<Option<&str>, ContentError> {
    match user.role {
        Role::Writer => Ok(Some(user.id.as_str())),
        Role::ContentDirector => Ok(None),
        Role::Admin | Role::Educator => Err(ContentError::Forbidden),
    }
}

impl ContentService {
    async fn staff_article(&self, row: StaffRow) -> Result<StaffArticle, ContentError> {
        let names = self
            .author_names(std::iter::once(&row.card.author_id))
            .await?;
        staff_article(row, &names)
    }

    /// The articles a staff member may manage, newest first.
    pub async fn staff_list(&self, user: &StaffUser) -> Result<Vec<StaffArticle>, ContentError> {
        let rows = self.store().staff_list(scope(user)?).await?;
        let names = self
            .author_names(rows.iter().map(|r| &r.card.author_id))
            .await?;
        rows.into_iter().map(|r| staff_article(r, &names)).collect()
    }

    pub async fn staff_get(
        &self,
        user: &StaffUser,
        id: &str,
    ) -> Result<StaffArticle, ContentError> {
        let row = self
            .store()
            .staff_get(id, scope(user)?)
            .await?
            .ok_or(ContentError::NotFound)?;
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
                            ErrorCode::WriterRequired,
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
                        ErrorCode::InvalidWriter,
                        "The selected author is not an active writer",
                    ))
                }
            }
            Role::Admin | Role::Educator => Err(ContentError::Forbidden),
        }
    }

    /// Creates (`id` = None) or updates an article.
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
        let now = kernel::ids::now();
        let base = slugify(&fields.title);
        // The slug changes only with the title; a new one is chosen when the row is written.
        let kept_slug = match &existing {
            Some(row) if slugify(&row.card.title) == base => Some(row.card.slug.clone()),
            _ => None,
        };
        let first_published_at = match (&existing, input.status) {
            (Some(row), _) if row.first_published_at.is_some() => row.first_published_at,
            (_, Status::Published) => Some(now),
            _ => None,
        };
        let mut row = draft::row(
            fields,
            Meta {
                id: existing
                    .as_ref()
                    .map(|r| r.card.id.clone())
                    .unwrap_or_else(kernel::ids::new_id),
                slug: kept_slug.clone().unwrap_or_default(),
                category: input.category.unwrap_or(Category::YouthActivism),
                featured: input.featured.unwrap_or(false),
                status: input.status,
                author_id: Some(author_id),
                created_at: existing.as_ref().map(|r| r.card.created_at).unwrap_or(now),
                updated_at: now,
                first_published_at,
            },
        );
        let base = kept_slug.is_none().then_some(base.as_str());
        let write = match &existing {
            None => Write::Insert,
            // Readers' links to a public slug keep working.
            Some(old) => Write::Update {
                old_slug: old
                    .first_published_at
                    .is_some()
                    .then_some(old.card.slug.as_str()),
            },
        };
        if !writer::write(self.store(), &mut row, base, write).await? {
            // Deleted meanwhile.
            return Err(ContentError::NotFound);
        }
        self.changed();
        self.staff_get(user, &row.id).await
    }

    /// One-click publish of a draft: only the status and `updated_at` change.
    pub async fn publish(&self, user: &StaffUser, id: &str) -> Result<StaffArticle, ContentError> {
        let row = self
            .store()
            .staff_get(id, scope(user)?)
            .await?
            .ok_or(ContentError::NotFound)?;
        self.store()
            .publish(&row.card.id, kernel::ids::now())
            .await?;
        self.changed();
        self.staff_get(user, id).await
    }

    pub async fn delete(&self, user: &StaffUser, id: &str) -> Result<(), ContentError> {
        let row = self
            .store()
            .staff_get(id, scope(user)?)
            .await?
            .ok_or(ContentError::NotFound)?;
        self.store().delete(&row.card.id).await?;
        self.changed();
        Ok(())
    }

    /// The body as the article page will show it.
    pub fn preview(&self, user: &StaffUser, content: &str) -> Result<String, ContentError> {
        scope(user)?;
        draft::check_len("content", content, draft::MAX_CONTENT_CHARS)?;
        Ok(crate::derive::render_markdown(content).html)
    }
}
