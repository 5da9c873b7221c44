//! PostgreSQL implementation of [`super::ContentStore`]: search on `tsvector` in a table of
//! its own (migrations 0030, 0031).

use std::collections::HashMap;

use crate::model::Category;
use crate::search::{self, Candidate, Found, Query};

/// The newest `limit` matches (by when they went live), each with its relevance
/// ([`search::relevance`]): whether its title or subtitle holds a word asked for, and, up to
/// [`search::SCORED_AT_MOST`] matches, `ts_rank_cd` (weights: title 1, subtitle 0.4, body 0.1).
/// A phrase is checked in the newest `window` articles holding its words only: the index has
/// no word positions, so each is read and checked ([`crate::searching::PHRASE_WINDOW`]).
pub(super) async fn search(
    pool: &sqlx::PgPool,
    query: &Query,
    categories: &[Category],
    limit: i64,
    window: i64,
) -> Result<Found, sqlx::Error> {
    let Some(tsquery) = query.tsquery() else {
        return Ok(Found::default());
    };
    // Without a phrase every article read is a match: nothing is checked twice.
    let (loose, window, hit) = match query.without_phrases().and_then(|q| q.tsquery()) {
        Some(loose) => (loose, window, "words @@ to_tsquery('agora_english', $1)"),
        None => (tsquery.clone(), limit, "$1 <> ''"),
    };
    let categories: Vec<&str> = categories.iter().map(|c| c.as_str()).collect();
    // The window is read newest first, with one article past it to tell whether it was full.
    let sql = format!(
        "SELECT article_id, created_at, headings @@ to_tsquery('agora_english', $4), n FROM ( \
           SELECT article_id, created_at, headings, hit, \
           ROW_NUMBER() OVER (ORDER BY created_at DESC, article_id DESC) AS n FROM ( \
             SELECT article_id, created_at, headings, {hit} AS hit FROM article_search \
             WHERE words @@ to_tsquery('agora_english', $5) \
             AND (CARDINALITY($2::TEXT[]) = 0 OR category = ANY($2)) \
             ORDER BY created_at DESC, article_id DESC LIMIT $6 + 1) w) x \
         WHERE (hit AND n <= $6) OR n > $6 ORDER BY n LIMIT $3"
    );
    let rows: Vec<(String, chrono::DateTime<chrono::Utc>, bool, i64)> = sqlx::query_as(&sql)
        .bind(&tsquery)
        .bind(categories)
        .bind(limit)
        .bind(query.any_term().tsquery())
        .bind(loose)
        .bind(window)
        // Planned for these values each time: how common the words are decides between walking
        // the newest articles and reading the index (a plan kept for any value is wrong for one).
        .persistent(false)
        .fetch_all(pool)
        .await?;
    let cut_short = rows.last().is_some_and(|r| r.3 > window);
    let found: Vec<_> = rows.into_iter().filter(|r| r.3 <= window).collect();
    // Every match found, and few (`search::scored`): `ts_rank_cd` orders each tier.
    let few = search::scored(found.len(), limit, cut_short);
    let scores: HashMap<String, f64> = if few {
        let ids: Vec<&str> = found.iter().map(|f| f.0.as_str()).collect();
        sqlx::query_as(
            "SELECT article_id, ts_rank_cd('{0.1, 0.2, 0.4, 1.0}', words, \
             to_tsquery('agora_english', $1))::FLOAT8 \
             FROM article_search WHERE article_id = ANY($2)",
        )
        .bind(&tsquery)
        .bind(ids)
        .fetch_all(pool)
        .await?
        .into_iter()
        .collect()
    } else {
        HashMap::new()
    };
    let matches = found
        .into_iter()
        .map(|(id, created_at, in_headings, _)| Candidate {
            relevance: search::relevance(in_headings, scores.get(&id).copied().unwrap_or(0.0)),
            id,
            created_at,
        })
        .collect();
    Ok(Found { matches, cut_short })
}

/// Whether `query` matches any published article (of `categories`), a phrase looked for in
/// the newest `window` articles holding its words. Asked as the search asks (the newest 1,001),
/// so it is planned the same way: a rare word is looked up in the index. Asked for one row,
/// the plan would walk the newest articles until it found one, and a word in no article (a
/// typo) would read them all (0.5 s at 100,000 articles).
pub(super) async fn any_match(
    pool: &sqlx::PgPool,
    query: &Query,
    categories: &[Category],
    window: i64,
) -> Result<bool, sqlx::Error> {
    let Some(tsquery) = query.tsquery() else {
        return Ok(false);
    };
    let (loose, window) = match query.without_phrases().and_then(|q| q.tsquery()) {
        Some(loose) => (loose, window),
        None => (tsquery.clone(), 1001),
    };
    let categories: Vec<&str> = categories.iter().map(|c| c.as_str()).collect();
    sqlx::query_scalar(
        "SELECT COUNT(*) > 0 FROM (SELECT words FROM article_search \
         WHERE words @@ to_tsquery('agora_english', $3) \
         AND (CARDINALITY($2::TEXT[]) = 0 OR category = ANY($2)) \
         ORDER BY created_at DESC, article_id DESC LIMIT $4) w \
         WHERE words @@ to_tsquery('agora_english', $1)",
    )
    .bind(tsquery)
    .bind(categories)
    .bind(loose)
    .bind(window)
    .persistent(false)
    .fetch_one(pool)
    .await
}
