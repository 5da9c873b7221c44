//! PostgreSQL implementation of [`super::ContentStore`]: search on `tsvector` in a table of
//! its own (migrations 0030, 0031).

use std::collections::HashMap;

use crate::model::Category;
use crate::search::{self, Candidate, Query};

/// The newest `limit` matches (by when they went live), each with its relevance
/// ([`search::relevance`]): whether its title or subtitle holds a word asked for, and, up to
/// [`search::SCORED_AT_MOST`] matches, `ts_rank_cd` (weights: title 1, subtitle 0.4, body 0.1).
pub(super) async fn search(
    pool: &sqlx::PgPool,
    query: &Query,
    categories: &[Category],
    limit: i64,
) -> Result<Vec<Candidate>, sqlx::Error> {
    let Some(tsquery) = query.tsquery() else {
        return Ok(Vec::new());
    };
    let categories: Vec<&str> = categories.iter().map(|c| c.as_str()).collect();
    let found: Vec<(String, chrono::DateTime<chrono::Utc>, bool)> = sqlx::query_as(
        "SELECT article_id, created_at, headings @@ to_tsquery('agora_english', $4) \
         FROM article_search WHERE words @@ to_tsquery('agora_english', $1) \
         AND (CARDINALITY($2::TEXT[]) = 0 OR category = ANY($2)) \
         ORDER BY created_at DESC, article_id DESC LIMIT $3",
    )
    .bind(&tsquery)
    .bind(categories)
    .bind(limit)
    .bind(query.any_term().tsquery())
    // Planned for these values each time: how common the words are decides between walking
    // the newest articles and reading the index (a plan kept for any value is wrong for one).
    .persistent(false)
    .fetch_all(pool)
    .await?;
    // Every match found (fewer than asked for), and few: `ts_rank_cd` orders each tier.
    let few = found.len() <= search::SCORED_AT_MOST && (found.len() as i64) < limit;
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
    Ok(found
        .into_iter()
        .map(|(id, created_at, in_headings)| Candidate {
            relevance: search::relevance(in_headings, scores.get(&id).copied().unwrap_or(0.0)),
            id,
            created_at,
        })
        .collect())
}

/// Whether `query` matches any published article (of `categories`). Asked as the search asks
/// (the newest 1,001), so it is planned the same way: a rare word is looked up in the index.
/// Asked for one row, the plan would walk the newest articles until it found one, and a word
/// in no article (a typo) would read them all (0.5 s at 100,000 articles).
pub(super) async fn any_match(
    pool: &sqlx::PgPool,
    query: &Query,
    categories: &[Category],
) -> Result<bool, sqlx::Error> {
    let Some(tsquery) = query.tsquery() else {
        return Ok(false);
    };
    let categories: Vec<&str> = categories.iter().map(|c| c.as_str()).collect();
    sqlx::query_scalar(
        "SELECT COUNT(*) > 0 FROM (SELECT article_id FROM article_search \
         WHERE words @@ to_tsquery('agora_english', $1) \
         AND (CARDINALITY($2::TEXT[]) = 0 OR category = ANY($2)) \
         ORDER BY created_at DESC, article_id DESC LIMIT 1001) c",
    )
    .bind(tsquery)
    .bind(categories)
    .persistent(false)
    .fetch_one(pool)
    .await
}
