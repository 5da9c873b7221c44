//! Responses as the API and the pages show them.

use chrono::{DateTime, Utc};
use poem_openapi::{Enum, Object};

/// Where a response stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, serde::Serialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum ResponseStatus {
    /// Waiting for the desk: nobody else sees it.
    Pending,
    /// Shown under the article.
    Approved,
    /// Not shown; the reason, when the desk gave one, is with it.
    Rejected,
}

impl ResponseStatus {
    pub(super) fn parse(s: &str) -> ResponseStatus {
        match s {
            "approved" => ResponseStatus::Approved,
            "rejected" => ResponseStatus::Rejected,
            _ => ResponseStatus::Pending,
        }
    }
}

/// An approved response as an article shows it.
#[derive(Debug, Clone, PartialEq, Eq, Object, serde::Serialize)]
pub struct ShownResponse {
    pub id: String,
    /// The reader's first name and last initial ("Noor H."): never more.
    pub name: String,
    /// Plain text; paragraphs are separated by an empty line.
    pub body: String,
    pub created_at: DateTime<Utc>,
}

/// An article's approved responses, and whether it takes more.
#[derive(Debug, Clone, PartialEq, Eq, Object, serde::Serialize)]
pub struct ArticleResponses {
    /// It takes responses now (staff did not close them, and its window is not over).
    pub open: bool,
    /// Oldest first.
    pub responses: Vec<ShownResponse>,
}

/// A reader's own response, as their account page shows it.
#[derive(Debug, Clone, PartialEq, Eq, Object, serde::Serialize)]
pub struct MyResponse {
    pub id: String,
    pub status: ResponseStatus,
    /// Why the desk rejected it, when they said.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub body: String,
    pub created_at: DateTime<Utc>,
    /// The article it answers; absent once that is no longer published.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub article_title: Option<String>,
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub article_slug: Option<String>,
}

/// One of a reader's other responses, as the desk sees it beside the one to decide.
#[derive(Debug, Clone, PartialEq, Eq, Object)]
pub struct EarlierResponse {
    pub status: ResponseStatus,
    pub body: String,
    pub created_at: DateTime<Utc>,
    #[oai(skip_serializing_if_is_none)]
    pub article_title: Option<String>,
}

/// A response waiting for the desk, with what deciding it needs.
#[derive(Debug, Clone, PartialEq, Eq, Object)]
pub struct QueuedResponse {
    pub id: String,
    pub body: String,
    pub created_at: DateTime<Utc>,
    /// How many readers reported it (it came back to the queue at three).
    pub reports: i64,
    /// The article it answers; absent once that is no longer published.
    #[oai(skip_serializing_if_is_none)]
    pub article_title: Option<String>,
    #[oai(skip_serializing_if_is_none)]
    pub article_slug: Option<String>,
    /// The reader, as the article would name them.
    pub reader_name: String,
    /// The reader's other responses, newest first (at most ten).
    pub earlier: Vec<EarlierResponse>,
}
