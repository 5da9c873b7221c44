//! The rules of a listing: what the API accepts (strictly, with a message per fault), what
//! the `/articles` page reads from its address (leniently), and what the home page and the news
//! feed show.

use crate::codes::Code;
use crate::error::ContentError;
use crate::model::{Category, ListQuery, Sort, MAX_LIMIT};

/// Longest search text accepted.
pub const MAX_QUERY_CHARS: usize = 200;
/// The `/articles` page grows by this many articles per "Load More".
pub const PAGE_STEP: i64 = 6;
/// Articles on the home page (featured first, then newest).
pub const HOME_ARTICLES: i64 = 3;
/// Articles in the site's news feed (newest first).
pub const FEED_ARTICLES: i64 = 20;

impl ListQuery {
    /// Validates raw listing parameters, with a clear message for each fault.
    pub fn from_params(
        q: Option<String>,
        categories: Vec<Category>,
        limit: Option<i64>,
        offset: Option<i64>,
        sort: Option<Sort>,
    ) -> Result<ListQuery, ContentError> {
        let q = q.unwrap_or_default().trim().to_string();
        if q.chars().count() > MAX_QUERY_CHARS {
            return Err(ContentError::invalid(
                Code::InvalidQuery,
                format!("q must be at most {MAX_QUERY_CHARS} characters"),
            ));
        }
        let limit = limit.unwrap_or(PAGE_STEP);
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Err(ContentError::invalid(
                Code::InvalidLimit,
                format!("limit must be between 1 and {MAX_LIMIT}"),
            ));
        }
        let offset = offset.unwrap_or(0);
        if offset < 0 {
            return Err(ContentError::invalid(
                Code::InvalidOffset,
                "offset must be 0 or greater",
            ));
        }
        let mut categories = categories;
        categories.sort_by_key(|c| c.as_str());
        categories.dedup();
        // A search is best match first unless asked otherwise.
        let sort = match sort {
            Some(sort) => sort,
            None if !q.is_empty() => Sort::Relevance,
            None => Sort::Newest,
        };
        Ok(ListQuery {
            q,
            categories,
            limit,
            offset,
            sort,
            ..ListQuery::default()
        })
    }

    /// What the home page lists: the featured articles first, then the newest.
    pub fn home() -> ListQuery {
        ListQuery {
            q: String::new(),
            categories: Vec::new(),
            limit: HOME_ARTICLES,
            offset: 0,
            sort: Sort::Featured,
            ..ListQuery::default()
        }
    }

    /// What a page that is not there offers instead: the newest articles.
    pub fn newest() -> ListQuery {
        ListQuery {
            limit: HOME_ARTICLES,
            sort: Sort::Newest,
            ..ListQuery::default()
        }
    }

    /// What a news feed lists: the newest articles, of one category or of all.
    pub fn feed(category: Option<Category>) -> ListQuery {
        ListQuery {
            limit: FEED_ARTICLES,
            sort: Sort::Newest,
            categories: category.into_iter().collect(),
            ..ListQuery::default()
        }
    }

    /// What an author's page lists: their newest pieces, the first `limit`; with
    /// [`FEED_ARTICLES`], what their feed lists.
    pub fn by_author(author_id: &str, limit: i64) -> ListQuery {
        ListQuery {
            limit,
            sort: Sort::Newest,
            author: Some(author_id.to_string()),
            ..ListQuery::default()
        }
    }

    /// What a category's page lists: its newest pieces, the first `limit`.
    pub fn category(category: Category, limit: i64) -> ListQuery {
        ListQuery {
            limit,
            sort: Sort::Newest,
            categories: vec![category],
            ..ListQuery::default()
        }
    }

    /// The listing of the `/articles` page from its query string, read leniently (a page
    /// never fails on its address): unknown categories are ignored, the search text is cut
    /// at [`MAX_QUERY_CHARS`], and the size is rounded to the page step. Categories stay in
    /// the order given (the page shows them so).
    pub fn from_page_query(query: &str) -> ListQuery {
        let mut q = String::new();
        let mut categories = Vec::new();
        let mut limit = PAGE_STEP;
        let mut newest = false;
        for (k, v) in form_urlencoded::parse(query.as_bytes()) {
            match k.as_ref() {
                "q" => q = v.chars().take(MAX_QUERY_CHARS).collect(),
                "category" => {
                    if let Some(c) = Category::parse(&v) {
                        if !categories.contains(&c) {
                            categories.push(c);
                        }
                    }
                }
                "limit" => {
                    if let Ok(n) = v.parse::<i64>() {
                        let max = MAX_LIMIT - MAX_LIMIT % PAGE_STEP;
                        limit = (n.div_euclid(PAGE_STEP) * PAGE_STEP).clamp(PAGE_STEP, max);
                    }
                }
                "sort" => newest = v == "newest",
                _ => {}
            }
        }
        let q = q.trim().to_string();
        // A search is best match first unless the reader chose `sort=newest`.
        let sort = if q.is_empty() || newest {
            Sort::Newest
        } else {
            Sort::Relevance
        };
        ListQuery {
            q,
            categories,
            limit,
            offset: 0,
            sort,
            ..ListQuery::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_query_is_lenient_and_canonical() {
        let q = ListQuery::from_page_query(
            "q=+Climate+&category=Human%20Rights&category=Bogus&category=Human%20Rights&limit=13",
        );
        assert_eq!(q.q, "Climate");
        assert_eq!(q.sort, Sort::Relevance);
        assert_eq!(
            ListQuery::from_page_query("q=vote&sort=newest").sort,
            Sort::Newest
        );
        assert_eq!(
            ListQuery::from_page_query("sort=relevance").sort,
            Sort::Newest
        );
        assert_eq!(q.categories, vec![Category::HumanRights]);
        assert_eq!(q.limit, 12);
        assert_eq!(ListQuery::from_page_query("limit=-5").limit, PAGE_STEP);
        assert_eq!(ListQuery::from_page_query("limit=9999").limit, 48);
        let long = format!("q={}", "a".repeat(500));
        assert_eq!(
            ListQuery::from_page_query(&long).q.chars().count(),
            MAX_QUERY_CHARS
        );
    }

    #[test]
    fn the_home_page_lists_three_featured_first() {
        let home = ListQuery::home();
        assert_eq!((home.limit, home.sort), (3, Sort::Featured));
        assert!(home.q.is_empty() && home.categories.is_empty());
    }
}
