//! PostgreSQL implementation of [`super::ContentStore`]: search on `tsvector` (migration 0030).

use crate::model::Category;
use crate::search::{Candidate, Query, MARK_END, MARK_START};

super::sql_content_store!(
    PgContentStore,
    sqlx::Postgres,
    sqlx::PgPool,
    kernel::outbox::enqueue_pg,
    search,
    any_match,
    excerpts,
    "BEGIN"
);

/// The newest `limit` matches, each with its relevance, reckoned once they are chosen
/// (reckoning reads each one's vector): `ts_rank_cd` (weights: title 1, subtitle 0.4, body
/// 0.1; brought within [0, 1)) plus one, times ten when the title or subtitle holds any of
/// the words asked for, so those come first (freshness at most doubles a relevance).
async fn search(
    pool: &sqlx::PgPool,
    query: &Query,
    categories: &[Category],
    limit: i64,
) -> Result<Vec<Candidate>, sqlx::Error> {
    let Some(tsquery) = query.tsquery() else {
        return Ok(Vec::new());
    };
    let categories: Vec<&str> = categories.iter().map(|c| c.as_str()).collect();
    sqlx::query_as(
        "SELECT a.id, a.created_at, \
         (CASE WHEN ts_filter(a.search_vector, '{a,b}') @@ to_tsquery('agora_english', $4) \
         THEN 10 ELSE 1 END \
         * (1 + ts_rank_cd('{0.1, 0.2, 0.4, 1.0}', a.search_vector, \
         to_tsquery('agora_english', $1), 32)))::FLOAT8 AS relevance \
         FROM (SELECT id FROM articles \
         WHERE status = 'published' AND search_vector @@ to_tsquery('agora_english', $1) \
         AND (CARDINALITY($2::TEXT[]) = 0 OR category = ANY($2)) \
         ORDER BY created_at DESC, id DESC LIMIT $3) c JOIN articles a ON a.id = c.id",
    )
    .bind(tsquery)
    .bind(categories)
    .bind(limit)
    .bind(query.any_term().tsquery())
    // Planned for these values each time: how common the words are decides between walking
    // the newest articles and reading the index (a plan kept for any value is wrong for one).
    .persistent(false)
    .fetch_all(pool)
    .await
}

/// Whether `query` matches any published article (of `categories`). Asked as the search asks
/// (the newest 1,001), so it is planned the same way: a rare word is looked up in the index.
/// Asked for one row, the plan would walk the newest articles until it found one, and a word
/// in no article (a typo) would read them all (0.5 s at 100,000 articles).
async fn any_match(
    pool: &sqlx::PgPool,
    query: &Query,
    categories: &[Category],
) -> Result<bool, sqlx::Error> {
    let Some(tsquery) = query.tsquery() else {
        return Ok(false);
    };
    let categories: Vec<&str> = categories.iter().map(|c| c.as_str()).collect();
    sqlx::query_scalar(
        "SELECT COUNT(*) > 0 FROM (SELECT id FROM articles WHERE status = 'published' \
         AND search_vector @@ to_tsquery('agora_english', $1) \
         AND (CARDINALITY($2::TEXT[]) = 0 OR category = ANY($2)) \
         ORDER BY created_at DESC, id DESC LIMIT 1001) c",
    )
    .bind(tsquery)
    .bind(categories)
    .persistent(false)
    .fetch_one(pool)
    .await
}

/// `ts_headline` of each article's body: one fragment of up to 18 words around the matches.
async fn excerpts(
    pool: &sqlx::PgPool,
    query: &Query,
    ids: &[String],
) -> Result<Vec<(String, String)>, sqlx::Error> {
    let Some(tsquery) = query.tsquery() else {
        return Ok(Vec::new());
    };
    let options = format!(
        "StartSel={MARK_START}, StopSel={MARK_END}, MaxWords=18, MinWords=10, ShortWord=2, \
         MaxFragments=1, FragmentDelimiter=\" … \""
    );
    let rows: Vec<(String, String, String, String)> = sqlx::query_as(
        "SELECT a.id, ts_headline('agora_english', COALESCE(a.body_text, ''), \
         to_tsquery('agora_english', $1), $2), \
         LEFT(COALESCE(a.body_text, ''), 80), RIGHT(COALESCE(a.body_text, ''), 80) \
         FROM articles a WHERE a.status = 'published' AND a.id = ANY($3)",
    )
    .bind(tsquery)
    .bind(options)
    .bind(ids)
    .fetch_all(pool)
    .await?;
    // Like FTS5's, an excerpt from within the text starts (or ends) with an ellipsis.
    Ok(rows
        .into_iter()
        .map(|(id, excerpt, start, end)| {
            if excerpt.is_empty() {
                return (id, excerpt);
            }
            let (first, last) = ends(&excerpt);
            let before = if ends(&start).0 == first { "" } else { "…" };
            let after = if ends(&end).1 == last { "" } else { "…" };
            (id, format!("{before}{excerpt}{after}"))
        })
        .collect())
}

/// The first and the last word of `text` (marks aside): where an excerpt starts and ends,
/// compared with the text's own (`ts_headline` leaves out the punctuation around them).
fn ends(text: &str) -> (String, String) {
    let mut words = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty());
    let first = words.next().unwrap_or_default().to_string();
    let last = words
        .next_back()
        .map_or_else(|| first.clone(), str::to_string);
    (first, last)
}
