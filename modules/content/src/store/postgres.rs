//! PostgreSQL implementation of [`super::ContentStore`]: search on `tsvector` (migration 0030).

use crate::model::Category;
use crate::search::{Candidate, Query, MARK_END, MARK_START};

super::sql_content_store!(
    PgContentStore,
    sqlx::Postgres,
    sqlx::PgPool,
    kernel::outbox::enqueue_pg,
    search,
    excerpts,
    "BEGIN"
);

/// The newest `limit` matches, each with its `ts_rank_cd` relevance (weights: title 1,
/// subtitle 0.4, body 0.1), ranked after they are chosen (ranking reads each one's vector).
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
         ts_rank_cd('{0.1, 0.2, 0.4, 1.0}', a.search_vector, to_tsquery('agora_english', $1))::FLOAT8 \
         AS relevance \
         FROM (SELECT id FROM articles \
         WHERE status = 'published' AND search_vector @@ to_tsquery('agora_english', $1) \
         AND (CARDINALITY($2::TEXT[]) = 0 OR category = ANY($2)) \
         ORDER BY created_at DESC, id DESC LIMIT $3) c JOIN articles a ON a.id = c.id",
    )
    .bind(tsquery)
    .bind(categories)
    .bind(limit)
    .fetch_all(pool)
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
    let rows: Vec<(String, String, bool, bool)> = sqlx::query_as(
        "SELECT a.id, h.excerpt, \
         LEFT(REGEXP_REPLACE(COALESCE(a.body_text, ''), '^\\W+', ''), 20) \
         = LEFT(REGEXP_REPLACE(TRANSLATE(h.excerpt, $4, ''), '^\\W+', ''), 20), \
         RIGHT(REGEXP_REPLACE(COALESCE(a.body_text, ''), '\\W+$', ''), 20) \
         = RIGHT(REGEXP_REPLACE(TRANSLATE(h.excerpt, $4, ''), '\\W+$', ''), 20) \
         FROM articles a, LATERAL (SELECT ts_headline('agora_english', COALESCE(a.body_text, ''), \
         to_tsquery('agora_english', $1), $2) AS excerpt) h \
         WHERE a.status = 'published' AND a.id = ANY($3)",
    )
    .bind(tsquery)
    .bind(options)
    .bind(ids)
    .bind(format!("{MARK_START}{MARK_END}"))
    .fetch_all(pool)
    .await?;
    // Like FTS5's, an excerpt from within the text starts (or ends) with an ellipsis (the
    // punctuation around the text, which `ts_headline` leaves out, aside).
    Ok(rows
        .into_iter()
        .map(|(id, excerpt, at_start, at_end)| {
            if excerpt.is_empty() {
                return (id, excerpt);
            }
            let before = if at_start { "" } else { "…" };
            let after = if at_end { "" } else { "…" };
            (id, format!("{before}{excerpt}{after}"))
        })
        .collect())
}
