//! An article as staff write it: the editable fields, checked in the product's order and
//! wording, and the row they become (markdown rendered, excerpt, reading time and search
//! text derived once, here).

use crate::codes::Code;
use chrono::{DateTime, Utc};
use kernel::Common;

use crate::derive::{excerpt, render_markdown};
use crate::error::ContentError;
use crate::store::InsertRow;

pub const MAX_TITLE_CHARS: usize = 200;
pub const MAX_SUBTITLE_CHARS: usize = 300;
pub const MAX_CONTENT_CHARS: usize = 100_000;
pub const MAX_COVER_URL_CHARS: usize = 2000;

/// Trimmed, checked editable text fields.
pub(crate) struct Fields {
    pub title: String,
    pub subtitle: Option<String>,
    pub content: String,
    pub cover_image: Option<String>,
}

pub(crate) fn validate(
    title: &str,
    subtitle: Option<String>,
    content: &str,
    cover_image: Option<String>,
) -> Result<Fields, ContentError> {
    let title = title.trim().to_string();
    let content = content.trim().to_string();
    if title.is_empty() {
        return Err(ContentError::invalid(
            Common::TitleRequired,
            "Article title is required",
        ));
    }
    if content.is_empty() {
        return Err(ContentError::invalid(
            Code::ContentRequired,
            "Article content is required",
        ));
    }
    check_len("title", &title, MAX_TITLE_CHARS)?;
    check_len("content", &content, MAX_CONTENT_CHARS)?;
    let subtitle = trimmed_or_none(subtitle);
    if let Some(s) = &subtitle {
        check_len("subtitle", s, MAX_SUBTITLE_CHARS)?;
    }
    let cover_image = trimmed_or_none(cover_image);
    if let Some(url) = &cover_image {
        check_len("cover image address", url, MAX_COVER_URL_CHARS)?;
        if !crate::cover::is_cover_address(url) {
            return Err(ContentError::invalid(
                Common::InvalidCoverImage,
                "The cover image must be a web address (https://…) or an uploaded image",
            ));
        }
    }
    Ok(Fields {
        title,
        subtitle,
        content,
        cover_image,
    })
}

pub(crate) fn check_len(field: &str, value: &str, max: usize) -> Result<(), ContentError> {
    if value.chars().count() > max {
        return Err(ContentError::invalid(
            Common::TooLong,
            format!("The {field} must be at most {max} characters"),
        ));
    }
    Ok(())
}

pub(crate) fn trimmed_or_none(v: Option<String>) -> Option<String> {
    v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty())
}

/// What a row holds besides the written fields.
pub(crate) struct Meta {
    pub id: String,
    /// Empty when a new slug is to be chosen as the row is written.
    pub slug: String,
    pub category: crate::model::Category,
    pub featured: bool,
    /// Where the piece stands (its public status follows from it).
    pub stage: crate::workflow::Stage,
    pub publish_at: Option<DateTime<Utc>>,
    pub author_id: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// Who saves it.
    pub updated_by: Option<String>,
    pub first_published_at: Option<DateTime<Utc>>,
}

/// The row to store for checked `fields`.
pub(crate) fn row(fields: Fields, meta: Meta) -> InsertRow {
    let rendered = render_markdown(&fields.content);
    let excerpt = excerpt(&fields.content, fields.subtitle.as_deref());
    InsertRow {
        id: meta.id,
        slug: meta.slug,
        words: crate::search::suggestable_words(
            [fields.title.as_str(), &rendered.plain]
                .into_iter()
                .chain(fields.subtitle.as_deref()),
        ),
        body_text: rendered.plain,
        title: fields.title,
        subtitle: fields.subtitle,
        content: fields.content,
        category: meta.category.as_str().to_string(),
        cover_image: fields.cover_image,
        featured: meta.featured,
        status: meta.stage.status().as_str().to_string(),
        stage: meta.stage.as_str().to_string(),
        publish_at: meta.publish_at,
        updated_by: meta.updated_by,
        author_id: meta.author_id,
        created_at: meta.created_at,
        updated_at: meta.updated_at,
        excerpt,
        content_html: rendered.html,
        reading_minutes: rendered.reading_minutes,
        first_published_at: meta.first_published_at,
    }
}
