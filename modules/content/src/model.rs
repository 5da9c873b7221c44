//! Domain types of the content module.

use poem_openapi::Enum;
use serde::{Deserialize, Serialize};

/// The largest page the public listing serves.
pub const MAX_LIMIT: i64 = 50;

/// A search counts its matches exactly up to this many (or to the end of the page asked for,
/// if that is further); past it, the total is given as "at least" — the way search engines
/// say "1,000+ results" — so a common word costs what a rare one does.
pub const SEARCH_COUNT_CAP: i64 = 1000;

/// The six article categories, spelled as readers see them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Enum, Serialize, Deserialize)]
pub enum Category {
    #[oai(rename = "International Affairs")]
    #[serde(rename = "International Affairs")]
    InternationalAffairs,
    #[oai(rename = "Climate Justice")]
    #[serde(rename = "Climate Justice")]
    ClimateJustice,
    #[oai(rename = "Culture & Politics")]
    #[serde(rename = "Culture & Politics")]
    CulturePolitics,
    #[oai(rename = "Human Rights")]
    #[serde(rename = "Human Rights")]
    HumanRights,
    #[oai(rename = "Youth Activism")]
    #[serde(rename = "Youth Activism")]
    YouthActivism,
    #[oai(rename = "Digital Democracy")]
    #[serde(rename = "Digital Democracy")]
    DigitalDemocracy,
}

impl Category {
    pub const ALL: [Category; 6] = [
        Category::InternationalAffairs,
        Category::ClimateJustice,
        Category::CulturePolitics,
        Category::HumanRights,
        Category::YouthActivism,
        Category::DigitalDemocracy,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Category::InternationalAffairs => "International Affairs",
            Category::ClimateJustice => "Climate Justice",
            Category::CulturePolitics => "Culture & Politics",
            Category::HumanRights => "Human Rights",
            Category::YouthActivism => "Youth Activism",
            Category::DigitalDemocracy => "Digital Democracy",
        }
    }

    /// The category in a URL path (`human-rights`, `culture-politics`).
    pub fn slug(self) -> &'static str {
        match self {
            Category::InternationalAffairs => "international-affairs",
            Category::ClimateJustice => "climate-justice",
            Category::CulturePolitics => "culture-politics",
            Category::HumanRights => "human-rights",
            Category::YouthActivism => "youth-activism",
            Category::DigitalDemocracy => "digital-democracy",
        }
    }

    /// The category's one line, as its page and the home page's tile say it.
    pub fn description(self) -> &'static str {
        match self {
            Category::InternationalAffairs => {
                "Diplomacy, conflict and cooperation, explained by students who follow it."
            }
            Category::ClimateJustice => "Who pays for a warming planet, and who is fighting back.",
            Category::CulturePolitics => "Music, film, sport and media where they meet power.",
            Category::HumanRights => "Dignity, freedom and justice — at home and around the world.",
            Category::YouthActivism => {
                "Walkouts, campaigns and organisers changing their communities."
            }
            Category::DigitalDemocracy => {
                "Platforms, privacy and how technology reshapes public debate."
            }
        }
    }

    /// The category's page: `/category/human-rights`.
    pub fn page_path(self) -> String {
        format!("/category/{}", self.slug())
    }

    pub fn from_slug(slug: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.slug() == slug)
    }

    pub fn parse(s: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.as_str() == s)
    }
}

/// Editorial status; only published articles are public.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize, Deserialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Draft,
    Published,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Draft => "draft",
            Status::Published => "published",
        }
    }
}

/// Order of the public listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Enum, Serialize, Deserialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum Sort {
    /// Newest first.
    #[default]
    Newest,
    /// Featured articles first, then newest (the home page).
    Featured,
    /// Best match first (a search's default): how well each matches, blended with how new it
    /// is. Without search text, the same as `newest`.
    Relevance,
}

/// A validated public listing request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListQuery {
    /// What a reader searches for, as typed (trimmed; empty = no search): see
    /// [`crate::search::Query::parse`].
    pub q: String,
    /// Any-of category filter (empty = all).
    pub categories: Vec<Category>,
    pub limit: i64,
    pub offset: i64,
    pub sort: Sort,
    /// Only this author's articles (not offered by the public listing).
    pub author: Option<String>,
    /// Leave this article (an id) out.
    pub exclude: Option<String>,
}

impl ListQuery {
    /// How far the total of this query is counted: `None` when exactly (no search text),
    /// otherwise up to the returned number, a total above it meaning "more than this".
    pub fn count_cap(&self) -> Option<i64> {
        if self.q.is_empty() {
            None
        } else {
            Some(SEARCH_COUNT_CAP.max(self.offset.saturating_add(self.limit)))
        }
    }

    /// A stable key for caches: the same request always maps to the same key.
    pub fn cache_key(&self) -> String {
        let mut cats: Vec<&str> = self.categories.iter().map(|c| c.as_str()).collect();
        cats.sort_unstable();
        cats.dedup();
        format!(
            "{:?}|{}|{}|{}|{}|{}|{}",
            self.sort,
            self.limit,
            self.offset,
            cats.join(","),
            self.author.as_deref().unwrap_or(""),
            self.exclude.as_deref().unwrap_or(""),
            self.q.to_lowercase()
        )
    }
}

/// What a writer submits (later issues add the staff API on top of this).
#[derive(Debug, Clone)]
pub struct NewArticle {
    pub title: String,
    pub subtitle: Option<String>,
    pub content: String,
    pub category: Category,
    pub cover_image: Option<String>,
    pub featured: bool,
    pub status: Status,
    pub author_id: Option<String>,
    /// Creation time; `None` means now (demo content backdates its articles).
    pub created_at: Option<chrono::DateTime<chrono::Utc>>,
}

/// How a public page names an author, and where their page is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Byline {
    pub name: String,
    /// Their page is `/author/{slug}`.
    pub slug: Option<String>,
}
