//! What the public API (and the server-rendered pages) send to readers.

use chrono::{DateTime, Utc};
use poem_openapi::Object;
use serde::{Deserialize, Serialize};

use crate::model::{Category, Status};
use crate::newsroom_dto::ReviewNote;
use crate::workflow::Stage;

/// An article as shown on cards and in listings.
#[derive(Debug, Clone, PartialEq, Object, Serialize, Deserialize)]
pub struct ArticleCard {
    pub id: String,
    pub slug: String,
    pub title: String,
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subtitle: Option<String>,
    /// Plain text (markdown removed), already shortened for a card.
    pub excerpt: String,
    pub category: Category,
    /// Absolute or site-relative URL of the cover image.
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover_image: Option<String>,
    pub featured: bool,
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author_id: Option<String>,
    /// The author's name; `null` when the author is unknown.
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author_name: Option<String>,
    /// The author's page is `/author/{author_slug}`.
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author_slug: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// Estimated reading time, e.g. "4 min" (words ÷ 230, rounded up).
    pub read_time: String,
    /// In search results: a short piece of the text around the words the search matched,
    /// in parts, the matched words marked (absent when only the title or subtitle matched).
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub highlight: Option<Vec<HighlightPart>>,
}

/// A piece of a search result's highlight.
#[derive(Debug, Clone, PartialEq, Eq, Object, Serialize, Deserialize)]
pub struct HighlightPart {
    pub text: String,
    /// A word the search matched.
    pub marked: bool,
}

/// One published article with its body.
#[derive(Debug, Clone, PartialEq, Object, Serialize, Deserialize)]
pub struct Article {
    #[oai(flatten)]
    #[serde(flatten)]
    pub card: ArticleCard,
    /// The markdown source.
    pub content: String,
    /// The body as sanitized HTML (no raw HTML, links open in a new tab).
    pub content_html: String,
    /// Meta description: the subtitle, else the first 160 characters of the plain text.
    pub description: String,
}

/// A page of published articles.
#[derive(Debug, Clone, PartialEq, Object, Serialize, Deserialize)]
pub struct ArticleList {
    pub items: Vec<ArticleCard>,
    /// How many published articles match the filters. A search counts exactly up to 1,000
    /// matches (or to the end of the page asked for); past that, `total_exact` is false and
    /// `total` is a lower bound ("1,000+").
    pub total: i64,
    /// Whether `total` is the exact count (always, without search text).
    pub total_exact: bool,
    /// How many published articles exist at all, ignoring filters.
    pub published_total: i64,
    /// When a search found nothing because of a word no article uses: the same search with
    /// that word replaced by the nearest one the articles use, which finds some ("Did you
    /// mean ...?").
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
}

/// An article as its editors see it: any status, with the markdown body and where it stands
/// in the newsroom.
#[derive(Debug, Clone, PartialEq, Object, Serialize, Deserialize)]
pub struct StaffArticle {
    #[oai(flatten)]
    #[serde(flatten)]
    pub card: ArticleCard,
    /// `published` exactly when readers can see it.
    pub status: Status,
    /// Where it stands: `draft`, `in_review`, `scheduled` or `published`.
    pub stage: Stage,
    /// For a scheduled piece: when it goes out (UTC).
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publish_at: Option<DateTime<Utc>>,
    /// Moves on with every saved change: send it back as `base_version` when saving.
    pub version: i64,
    /// When it was last submitted for review (while in review).
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submitted_at: Option<DateTime<Utc>>,
    /// The reviewer's request for changes, while the piece is a draft again.
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review_note: Option<ReviewNote>,
    /// Who saved it last.
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_by_name: Option<String>,
    /// The markdown source.
    pub content: String,
    /// A writer's change waiting for review while this (live) version stays up.
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_change: Option<crate::newsroom_dto::PendingChange>,
}

/// What the editor sends to create or update an article.
#[derive(Debug, Clone, Object, Serialize, Deserialize)]
#[oai(deny_unknown_fields)]
pub struct ArticleInput {
    pub title: String,
    pub subtitle: Option<String>,
    /// Markdown.
    pub content: String,
    /// Defaults to Youth Activism.
    pub category: Option<Category>,
    /// An https URL or an uploaded image's `/media/…` address.
    pub cover_image: Option<String>,
    pub featured: Option<bool>,
    /// `draft` (Save as Draft; a published or scheduled piece is taken back to draft) or
    /// `published` (Publish; with `publish_at`, schedule). Saving a published piece as
    /// `published` updates it where it stands; with review required, a writer's save of a
    /// published or scheduled piece becomes its pending change and the live version stays.
    pub status: Status,
    /// The writer the content director writes on behalf of (ignored for writers).
    pub author_id: Option<String>,
    /// With `status` `published`: when the piece goes out (UTC, in the future); absent: now.
    pub publish_at: Option<DateTime<Utc>>,
    /// The `version` the editor started from: when the article was saved since, the save is
    /// refused (409 `edit_conflict`, saying who saved and when) and nothing is overwritten.
    pub base_version: Option<i64>,
}

#[derive(Debug, Clone, Object, Serialize, Deserialize)]
#[oai(deny_unknown_fields)]
pub struct PreviewInput {
    pub content: String,
}

#[derive(Debug, Clone, Object, Serialize, Deserialize)]
pub struct Preview {
    /// The body as the article page renders it.
    pub html: String,
}

/// What follows an article: what to read next and who wrote it.
#[derive(Debug, Clone, PartialEq, Object, Serialize, Deserialize)]
pub struct Related {
    /// Up to three other published articles, the same category's first, newest first.
    pub read_next: Vec<ArticleCard>,
    /// The author, when the article has one.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<AuthorBox>,
}

/// A contributor as their page shows them: the name they chose to show, never anything to
/// reach them by.
#[derive(Debug, Clone, PartialEq, Eq, Object, Serialize, Deserialize)]
pub struct Contributor {
    pub name: String,
    /// Their page is `/author/{slug}`.
    pub slug: String,
    /// Their role on the team, as readers know it ("Writer").
    pub role: String,
    /// What they wrote about themselves (plain text, line breaks kept; empty for none).
    #[oai(skip_serializing_if_is_empty)]
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub bio: String,
    /// Their photo's address (a picture stored here), when they gave one.
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub photo: Option<String>,
}

/// A contributor's page: who they are and their newest pieces.
#[derive(Debug, Clone, PartialEq, Object, Serialize, Deserialize)]
pub struct AuthorPage {
    pub author: Contributor,
    pub articles: ArticleList,
}

/// The author of an article, as the box under it shows them.
#[derive(Debug, Clone, PartialEq, Object, Serialize, Deserialize)]
pub struct AuthorBox {
    pub name: String,
    /// Their page is `/author/{slug}`.
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// Their role on the team ("Writer", "Content Director"), when known.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// Up to three of their other published articles, newest first.
    pub articles: Vec<ArticleCard>,
}
