//! SQLite implementation of [`super::ContentStore`]: search on FTS5 (migration 0030).

use crate::model::Category;
use crate::search::{Candidate, Query, MARK_END, MARK_START};

super::sql_content_store!(
    SqliteContentStore,
    sqlx::Sqlite,
    sqlx::SqlitePool,
    kernel::outbox::enqueue_sqlite,
    search,
    any_match,
    excerpts,
    // SQLite has one writer: a write transaction waits for it at its start, where waiting is
    // possible (a transaction that has read cannot wait for the lock: SQLITE_BUSY at once).
    "BEGIN IMMEDIATE"
);

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

/// Matches at most this many are ranked by bm25. FTS5's bm25 first counts every match of each
/// term in the whole index (its inverse document frequency): for a word in most of 100,000
/// articles that alone takes 5 ms, for a phrase of two such words 25 ms. Past this many, a
/// term that common says little anyway.
const BM25_AT_MOST: usize = 200;

/// The newest `limit` matches by their row numbers (given as they go live), each with its
/// relevance: ten times more when its title or subtitle holds a word asked for, and within
/// that, up to [`BM25_AT_MOST`] matches, bm25 (title ×10, subtitle ×4, body ×1).
async fn search(
    pool: &sqlx::SqlitePool,
    query: &Query,
    categories: &[Category],
    limit: i64,
) -> Result<Vec<Candidate>, sqlx::Error> {
    let Some(expression) = match_expression(query, TEXT_COLUMNS, categories) else {
        return Ok(Vec::new());
    };
    let found: Vec<(i64, String, chrono::DateTime<chrono::Utc>)> = sqlx::query_as(
        "SELECT m.doc, d.article_id, d.created_at FROM (SELECT rowid AS doc FROM article_fts \
         WHERE article_fts MATCH ?1 ORDER BY rowid DESC LIMIT ?2) m \
         JOIN article_search_docs d ON d.id = m.doc",
    )
    .bind(&expression)
    .bind(limit)
    .fetch_all(pool)
    .await?;
    let Some(oldest) = found.iter().map(|f| f.0).min() else {
        return Ok(Vec::new());
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
    // Every match found (fewer than asked for), and few: bm25 orders each tier.
    let few = found.len() <= BM25_AT_MOST && (found.len() as i64) < limit;
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
    let weight = |doc: i64| {
        let tier = if in_headings.contains(&doc) {
            10.0
        } else {
            1.0
        };
        // bm25 brought within [0, 1) as PostgreSQL's `ts_rank_cd(…, 32)` is: a body match
        // never overtakes a title match (freshness at most doubles either).
        let score = bm25.get(&doc).copied().unwrap_or(0.0).max(0.0);
        tier * (1.0 + score / (1.0 + score))
    };
    Ok(found
        .into_iter()
        .map(|(doc, id, created_at)| Candidate {
            id,
            created_at,
            relevance: weight(doc),
        })
        .collect())
}

/// Whether `query` matches any published article (of `categories`).
async fn any_match(
    pool: &sqlx::SqlitePool,
    query: &Query,
    categories: &[Category],
) -> Result<bool, sqlx::Error> {
    let Some(expression) = match_expression(query, TEXT_COLUMNS, categories) else {
        return Ok(false);
    };
    sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM article_fts WHERE article_fts MATCH ?1)")
        .bind(expression)
        .fetch_one(pool)
        .await
}

/// FTS5's `snippet()` of each article's body: about 18 words around the best match (four lines
/// of a phone's card).
async fn excerpts(
    pool: &sqlx::SqlitePool,
    query: &Query,
    ids: &[String],
) -> Result<Vec<(String, String)>, sqlx::Error> {
    let Some(expression) = match_expression(query, TEXT_COLUMNS, &[]) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        let found: Option<(String, String)> = sqlx::query_as(
            "SELECT d.article_id, snippet(article_fts, 2, ?1, ?2, '…', 18) \
             FROM article_search_docs d JOIN article_fts ON article_fts.rowid = d.id \
             WHERE d.article_id = ?3 AND article_fts MATCH ?4",
        )
        .bind(MARK_START.to_string())
        .bind(MARK_END.to_string())
        .bind(id)
        .bind(&expression)
        .fetch_optional(pool)
        .await?;
        out.extend(found);
    }
    Ok(out)
}
