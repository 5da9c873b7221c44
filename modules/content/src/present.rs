//! Stored rows as the API shows them.

use std::collections::HashMap;

use crate::derive::read_time_label;
use crate::dto::{Article, ArticleCard, StaffArticle};
use crate::error::ContentError;
use crate::model::{Category, Status};
use crate::store::{ArticleRow, CardRow, StaffRow};

pub(crate) fn card(
    r: CardRow,
    names: &HashMap<String, String>,
) -> Result<ArticleCard, ContentError> {
    let category = Category::parse(&r.category).ok_or_else(|| {
        ContentError::Unexpected(format!("stored category {:?} is unknown", r.category).into())
    })?;
    let author_name = r.author_id.as_ref().and_then(|id| names.get(id).cloned());
    Ok(ArticleCard {
        author_name,
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
    })
}

pub(crate) fn article(
    r: ArticleRow,
    names: &HashMap<String, String>,
) -> Result<Article, ContentError> {
    let card = card(r.card, names)?;
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

/// A row as staff see it, with its status.
pub(crate) fn staff_article(
    row: StaffRow,
    names: &HashMap<String, String>,
) -> Result<StaffArticle, ContentError> {
    let status = if row.status == "published" {
        Status::Published
    } else {
        Status::Draft
    };
    Ok(StaffArticle {
        card: card(row.card, names)?,
        status,
        content: row.content,
    })
}
