//! Stored rows as the API shows them.

use std::collections::HashMap;

use crate::derive::read_time_label;
use crate::dto::{Article, ArticleCard, StaffArticle};
use crate::error::ContentError;
use crate::model::Byline;
use crate::model::Category;
use crate::newsroom_dto::{PendingChange, ReviewNote};
use crate::store::{ArticleRow, CardRow, StaffRow};
use crate::workflow::Stage;

/// A row as readers see it, its author named by `bylines`.
pub(crate) fn card(
    r: CardRow,
    bylines: &HashMap<String, Byline>,
) -> Result<ArticleCard, ContentError> {
    let category = Category::parse(&r.category).ok_or_else(|| {
        ContentError::Unexpected(format!("stored category {:?} is unknown", r.category).into())
    })?;
    let byline = r.author_id.as_ref().and_then(|id| bylines.get(id));
    Ok(ArticleCard {
        author_name: byline.map(|b| b.name.clone()),
        author_slug: byline.and_then(|b| b.slug.clone()),
        category,
        read_time: read_time_label(r.reading_minutes),
        id: r.id,
        slug: r.slug,
        title: r.title,
        subtitle: r.subtitle,
        excerpt: r.excerpt,
        cover_image: r.cover_image,
        featured: r.featured,
        author_id: r.author_id,
        created_at: r.created_at,
        updated_at: r.updated_at,
        highlight: None,
    })
}

pub(crate) fn article(
    r: ArticleRow,
    bylines: &HashMap<String, Byline>,
) -> Result<Article, ContentError> {
    let card = card(r.card, bylines)?;
    let description = card
        .subtitle
        .clone()
        .unwrap_or_else(|| card.excerpt.clone());
    Ok(Article {
        card,
        content: r.content,
        content_html: r.content_html,
        description,
    })
}

/// A row as staff see it, with its status and stage. `names` holds the names of its author,
/// its last editor and its reviewer.
pub(crate) fn staff_article(
    row: StaffRow,
    names: &HashMap<String, String>,
) -> Result<StaffArticle, ContentError> {
    let stage = Stage::parse(&row.stage).ok_or_else(|| {
        ContentError::Unexpected(format!("stored stage {:?} is unknown", row.stage).into())
    })?;
    let name = |id: &Option<String>| id.as_ref().and_then(|id| names.get(id).cloned());
    let review_note = match (&row.review_note, row.review_note_at) {
        (Some(note), Some(at)) if stage == Stage::Draft => Some(ReviewNote {
            note: note.clone(),
            by_name: name(&row.review_note_by),
            at,
        }),
        _ => None,
    };
    let pending_change = match (row.pending_at, &row.pending_title, &row.pending_content) {
        (Some(at), Some(title), Some(content)) => {
            let stored = row.pending_category.as_deref().unwrap_or_default();
            Some(PendingChange {
                title: title.clone(),
                subtitle: row.pending_subtitle.clone(),
                content: content.clone(),
                category: Category::parse(stored).ok_or_else(|| {
                    ContentError::Unexpected(
                        format!("stored category {stored:?} is unknown").into(),
                    )
                })?,
                cover_image: row.pending_cover_image.clone(),
                featured: row.pending_featured.unwrap_or(false),
                proposed_by_name: name(&row.pending_by),
                proposed_at: at,
            })
        }
        _ => None,
    };
    Ok(StaffArticle {
        pending_change,
        status: stage.status(),
        stage,
        publish_at: row.publish_at.filter(|_| stage == Stage::Scheduled),
        version: row.version,
        submitted_at: row.submitted_at.filter(|_| stage == Stage::InReview),
        review_note,
        updated_by_name: name(&row.updated_by),
        // Staff know one another by their full names.
        card: card(
            row.card,
            &names
                .iter()
                .map(|(id, name)| {
                    let byline = Byline {
                        name: name.clone(),
                        slug: None,
                    };
                    (id.clone(), byline)
                })
                .collect(),
        )?,
        content: row.content,
    })
}
