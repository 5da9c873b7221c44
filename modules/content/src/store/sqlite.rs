//! SQLite implementation of [`super::ContentStore`]: search on FTS5 (migration 0030).

use crate::model::Category;
use crate::search::{Candidate, Query, MARK_END, MARK_START};

super::sql_content_store!(
    SqliteContentStore,
    sqlx::Sqlite,
    sqlx::SqlitePool,
    kernel::outbox::enqueue_sqlite,
    search,
    excerpts,
    // SQLite has one writer: a write transaction waits for it at its start, where waiting is
    // possible (a transaction that has read cannot wait for the lock: SQLITE_BUSY at once).
    "BEGIN IMMEDIATE"
);

/// The index's columns a reader's words are looked for in (not the category).
const TEXT_COLUMNS: &str = "{title subtitle body_text}";

/// `query` as an FTS5 query over the text columns, within `categories` when given (the
/// category is a column of the index, so the index alone answers both).
fn match_expression(query: &Query, categories: &[Category]) -> Option<String> {
    let words = query.fts5()?;
    let mut expression = format!("{TEXT_COLUMNS} : {words}");
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
/// bm25 relevance: a title match weighs ten times a body match, a subtitle match four.
async fn search(
    pool: &sqlx::SqlitePool,
    query: &Query,
    categories: &[Category],
    limit: i64,
) -> Result<Vec<Candidate>, sqlx::Error> {
    let Some(expression) = match_expression(query, categories) else {
        return Ok(Vec::new());
    };
    sqlx::query_as(
        "SELECT d.article_id AS id, d.created_at, -m.score AS relevance \
         FROM (SELECT rowid AS doc, bm25(article_fts, 10.0, 4.0, 1.0, 0.0) AS score \
         FROM article_fts WHERE article_fts MATCH ?1 ORDER BY rowid DESC LIMIT ?2) m \
         JOIN article_search_docs d ON d.id = m.doc",
    )
    .bind(expression)
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// FTS5's `snippet()` of each article's body: about 18 words around the best match (four lines
/// of a phone's card).
async fn excerpts(
    pool: &sqlx::SqlitePool,
    query: &Query,
    ids: &[String],
) -> Result<Vec<(String, String)>, sqlx::Error> {
    let Some(expression) = match_expression(query, &[]) else {
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
