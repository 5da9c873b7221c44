//! PostgreSQL implementation of [`super::ContentStore`].

super::sql_content_store!(
    PgContentStore,
    sqlx::Postgres,
    sqlx::PgPool,
    kernel::outbox::enqueue_pg,
    search,
    search_terms,
    "BEGIN"
);

/// What separates search tokens: ASCII whitespace, as SQL's `agora_search_tokens` (migration
/// 0022) cuts them.
const SEPARATORS: [char; 6] = [' ', '\t', '\n', '\r', '\x0c', '\x0b'];

/// A vocabulary search is used while at most this many tokens hold the text; more (a short
/// or very common piece of letters) are left to the trigram index.
const TOKENS_AT_MOST: i64 = 256;

/// Token numbers as a PostgreSQL array literal (`{3,17}`), bound as text and cast.
fn array_literal(numbers: &[i32]) -> String {
    let listed: Vec<String> = numbers.iter().map(i32::to_string).collect();
    format!("{{{}}}", listed.join(","))
}

/// The distinct tokens of a search text, as SQL's `agora_search_tokens` gives them.
fn tokens(text: &str) -> std::collections::BTreeSet<&str> {
    text.split(SEPARATORS).filter(|t| !t.is_empty()).collect()
}

/// Each row's token numbers as an array literal, numbering new tokens first in one statement
/// of its own (see migration 0022 for why one statement). A row whose tokens are not all
/// numbered gets none, and the database numbers them as the row is inserted.
async fn search_terms(
    pool: &sqlx::PgPool,
    rows: &[super::InsertRow],
) -> Result<Option<Vec<Option<String>>>, sqlx::Error> {
    let per_row: Vec<_> = rows.iter().map(|r| tokens(&r.search_text)).collect();
    let mut all: Vec<&str> = per_row.iter().flatten().copied().collect();
    all.sort_unstable();
    all.dedup();
    sqlx::query(
        "INSERT INTO search_vocabulary (term) SELECT w FROM unnest($1::TEXT[]) w ORDER BY w \
         ON CONFLICT (term) DO NOTHING",
    )
    .bind(&all)
    .execute(pool)
    .await?;
    let ids: std::collections::HashMap<String, i32> = sqlx::query_as(
        "SELECT v.term, v.id FROM unnest($1::TEXT[]) w JOIN search_vocabulary v ON v.term = w",
    )
    .bind(&all)
    .fetch_all(pool)
    .await?
    .into_iter()
    .collect();
    Ok(Some(
        per_row
            .iter()
            .map(|tokens| {
                let mut numbers = tokens
                    .iter()
                    .map(|t| ids.get(*t).copied())
                    .collect::<Option<Vec<i32>>>()?;
                numbers.sort_unstable();
                Some(array_literal(&numbers))
            })
            .collect(),
    ))
}

/// Articles holding one of the tokens numbered in `ids` (an array literal, `{3,17}`).
fn token_search(qb: &mut sqlx::QueryBuilder<'_, sqlx::Postgres>, ids: &str) {
    qb.push(" AND a.search_terms && ");
    qb.push_bind(ids.to_string());
    qb.push("::INTEGER[]");
}

/// The public search: a page of the newest published articles holding `q`, and their total
/// (exact up to the query's count cap).
///
/// A `q` without separators is looked up in the vocabulary first: none of its tokens holding
/// it means no article does; a few hundred at most, and the articles are found by their token
/// numbers (`token_search`), without reading their text. Otherwise (a phrase, or a piece of
/// letters in thousands of tokens) the `pg_trgm` index over the lower-case search text finds
/// them, and each candidate's text is checked.
///
/// The planner's guess of how many articles match is unreliable, and a wrong guess is costly
/// both ways: walking the newest articles for a rare term reads them all, sorting a common
/// word's matches sorts them all. So the count comes first, from the index (which it then
/// must use), and decides: a common text's page is found by walking the newest articles, a
/// rarer one's by sorting its matches.
async fn search(
    pool: &sqlx::PgPool,
    q: &crate::model::ListQuery,
) -> Result<(Vec<super::CardRow>, i64), sqlx::Error> {
    let plain = q.sort == crate::model::Sort::Newest && q.author.is_none() && q.exclude.is_none();
    if !plain || q.q.chars().count() < 3 {
        return PgContentStore::page_and_count(pool, q, super::like_search).await;
    }
    let cap = q.count_cap().unwrap_or(crate::model::SEARCH_COUNT_CAP);
    let mut tx = pool.begin().await?;
    // Plans are made for each execution: a plan kept with a prepared statement would keep the
    // plan settings it was made under (the same page query runs under both below).
    sqlx::query(
        "SELECT set_config('plan_cache_mode', 'force_custom_plan', true), \
         set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true)",
    )
    .execute(&mut *tx)
    .await?;
    let mut fragment: SearchFragment = super::like_search;
    let mut by_tokens = None;
    if !q.q.contains(SEPARATORS) {
        let holding: Vec<i32> = sqlx::query_scalar(
            "SELECT v.id FROM search_vocabulary v WHERE v.term LIKE $1 ESCAPE '\\' LIMIT $2",
        )
        .bind(super::like_pattern(&q.q))
        .bind(TOKENS_AT_MOST + 1)
        .fetch_all(&mut *tx)
        .await?;
        if holding.is_empty() {
            tx.commit().await?;
            return Ok((Vec::new(), 0));
        }
        // Fetched with a limit of one more than the most used: fewer means all were found.
        if (holding.len() as i64) <= TOKENS_AT_MOST {
            // The same query, its text standing for the tokens that hold it.
            by_tokens = Some(crate::model::ListQuery {
                q: array_literal(&holding),
                ..q.clone()
            });
            fragment = token_search;
        }
    }
    let q = by_tokens.as_ref().unwrap_or(q);
    let mut count = PgContentStore::filtered("SELECT COUNT(*) FROM (SELECT 1", q, fragment);
    count.push(" LIMIT ").push_bind(cap + 1).push(") counted");
    let total: i64 = count.build_query_scalar().fetch_one(&mut *tx).await?;
    if total == 0 {
        tx.commit().await?;
        return Ok((Vec::new(), 0));
    }
    if total > cap {
        sqlx::query(
            "SELECT set_config('enable_bitmapscan', 'off', true), \
             set_config('enable_indexscan', 'on', true), set_config('enable_seqscan', 'on', true)",
        )
        .execute(&mut *tx)
        .await?;
    }
    let rows = PgContentStore::page(q, fragment)
        .build_query_as()
        .fetch_all(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok((rows, total))
}
