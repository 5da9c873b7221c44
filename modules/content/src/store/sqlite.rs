//! SQLite implementation of [`super::ContentStore`]: search on FTS5 (migration 0030).

use crate::model::Category;
use crate::search::{self, Candidate, Found, Query};

/// The index's columns a reader's words are looked for in (not the category).
const TEXT_COLUMNS: &str = "{title subtitle body_text}";
/// The columns whose matches weigh most.
const HEADING_COLUMNS: &str = "{title subtitle}";

/// `query` as an FTS5 query over `columns`, within `categories` when given (the category is
/// a column of the index, so the index alone answers both).
fn match_expression(query: &Query, columns: &str, categories: &[Category]) -> Option<String> {
    let words = query.fts5()?;
    let mut expression = format!("{columns} : {words}");
    if !categories.is_empty() {
        let any: Vec<String> = categories
            .iter()
            .map(|c| format!("\"{}\"", c.as_str()))
            .collect();
        expression = format!("({expression}) AND category : ({})", any.join(" OR "));
    }
    Some(expression)
}

/// The newest `limit` matches by their row numbers (given as they go live), each with its
/// relevance ([`search::relevance`]): whether its title or subtitle holds a word asked for,
/// and, up to [`search::SCORED_AT_MOST`] matches, bm25 (title ×10, subtitle ×4, body ×1).
pub(super) async fn search(
    pool: &sqlx::SqlitePool,
    query: &Query,
    categories: &[Category],
    limit: i64,
    window: i64,
) -> Result<Found, sqlx::Error> {
    let Some(expression) = match_expression(query, TEXT_COLUMNS, categories) else {
        return Ok(Found::default());
    };
    let past_window = past_window(pool, query, categories, window).await?;
    // As one JSON array: a row each costs sqlx about 3 µs, 3 ms for a thousand matches.
    let found: String = sqlx::query_scalar(
        "SELECT json_group_array(json_array(m.doc, d.article_id, d.created_at)) \
         FROM (SELECT rowid AS doc FROM article_fts WHERE article_fts MATCH ?1 AND rowid > ?3 \
         ORDER BY rowid DESC LIMIT ?2) m JOIN article_search_docs d ON d.id = m.doc",
    )
    .bind(&expression)
    .bind(limit)
    .bind(past_window.unwrap_or(i64::MIN))
    .fetch_one(pool)
    .await?;
    let found: Vec<(i64, String, chrono::DateTime<chrono::Utc>)> =
        serde_json::from_str(&found).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
    let cut_short = past_window.is_some();
    let Some(oldest) = found.iter().map(|f| f.0).min() else {
        return Ok(Found {
            matches: Vec::new(),
            cut_short,
        });
    };
    // A title or subtitle holding any word asked for puts its piece first (×10).
    let headings =
        match_expression(&query.any_term(), HEADING_COLUMNS, categories).unwrap_or_default();
    let in_headings: std::collections::HashSet<i64> = sqlx::query_scalar(
        "SELECT rowid FROM article_fts WHERE article_fts MATCH ?1 AND rowid >= ?2",
    )
    .bind(headings)
    .bind(oldest)
    .fetch_all(pool)
    .await?
    .into_iter()
    .collect();
    // Every match found, and few (`search::scored`): bm25 orders each tier.
    let few = search::scored(found.len(), limit, cut_short);
    let bm25: std::collections::HashMap<i64, f64> = if few {
        sqlx::query_as(
            "SELECT rowid, -bm25(article_fts, 10.0, 4.0, 1.0, 0.0) FROM article_fts \
             WHERE article_fts MATCH ?1 AND rowid >= ?2",
        )
        .bind(&expression)
        .bind(oldest)
        .fetch_all(pool)
        .await?
        .into_iter()
        .collect()
    } else {
        std::collections::HashMap::new()
    };
    let matches = found
        .into_iter()
        .map(|(doc, id, created_at)| Candidate {
            id,
            created_at,
            relevance: search::relevance(
                in_headings.contains(&doc),
                bm25.get(&doc).copied().unwrap_or(0.0),
            ),
        })
        .collect();
    Ok(Found { matches, cut_short })
}

/// For a query with a phrase, the row of the first article past the newest `window` holding
/// its words (as PostgreSQL looks for a phrase), when there is one.
async fn past_window(
    pool: &sqlx::SqlitePool,
    query: &Query,
    categories: &[Category],
    window: i64,
) -> Result<Option<i64>, sqlx::Error> {
    let Some(loose) = query
        .without_phrases()
        .and_then(|q| match_expression(&q, TEXT_COLUMNS, categories))
    else {
        return Ok(None);
    };
    sqlx::query_scalar(
        "SELECT rowid FROM article_fts WHERE article_fts MATCH ?1 \
         ORDER BY rowid DESC LIMIT 1 OFFSET ?2",
    )
    .bind(loose)
    .bind(window)
    .fetch_optional(pool)
    .await
}

/// Whether `query` matches any published article (of `categories`), a phrase looked for in
/// the newest `window` articles holding its words.
pub(super) async fn any_match(
    pool: &sqlx::SqlitePool,
    query: &Query,
    categories: &[Category],
    window: i64,
) -> Result<bool, sqlx::Error> {
    let Some(expression) = match_expression(query, TEXT_COLUMNS, categories) else {
        return Ok(false);
    };
    let past_window = past_window(pool, query, categories, window).await?;
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM article_fts WHERE article_fts MATCH ?1 AND rowid > ?2)",
    )
    .bind(expression)
    .bind(past_window.unwrap_or(i64::MIN))
    .fetch_one(pool)
    .await
}
