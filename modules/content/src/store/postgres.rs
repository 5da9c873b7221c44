//! PostgreSQL implementation of [`super::ContentStore`].

super::sql_content_store!(
    PgContentStore,
    sqlx::Postgres,
    sqlx::PgPool,
    kernel::outbox::enqueue_pg,
    search,
    search_terms,
    nothing_after_write,
    "BEGIN"
);

/// PostgreSQL's triggers keep every search column themselves.
async fn nothing_after_write(_: &mut sqlx::PgConnection) -> Result<u64, sqlx::Error> {
    Ok(0)
}

use super::SEPARATORS;

/// A vocabulary search is used while at most this many tokens hold the text; more (a short
/// or very common piece of letters) are left to the trigram index over the articles' words.
const TOKENS_AT_MOST: i64 = 256;

/// Token numbers as a PostgreSQL array literal (`{3,17}`), bound as text and cast.
fn array_literal(numbers: &[i32]) -> String {
    let listed: Vec<String> = numbers.iter().map(i32::to_string).collect();
    format!("{{{}}}", listed.join(","))
}

/// The tokens of a search text in order, as SQL's `agora_search_tokens` cuts them (before it
/// keeps each once).
fn tokens(text: &str) -> Vec<&str> {
    text.split(SEPARATORS).filter(|t| !t.is_empty()).collect()
}

/// How many pair keys there are: a prime below 2^16. Fewer keys keep the index cheap to build
/// (each holds a longer, better packed list of articles); two pairs sharing a key only add a
/// candidate, which the check then drops.
const PAIR_KEYS: i64 = 65_521;

/// The key of the pair of adjacent tokens numbered `a`, `b`, as SQL's `agora_search_pairs`
/// (migration 0023) computes it: `a` and `b` mixed by two multiplications modulo 2^31 - 1
/// (every product fits in 63 bits: the numbers are positive `INTEGER`s), then one of
/// `PAIR_KEYS` negative integers; pairs may share one.
fn pair_key(a: i32, b: i32) -> i32 {
    const PRIME: i64 = 2_147_483_647;
    let mixed = (i64::from(a) * 1_597_334_677) % PRIME;
    let mixed = ((mixed ^ i64::from(b)) * 1_103_515_245) % PRIME;
    i32::try_from(-1 - mixed.rem_euclid(PAIR_KEYS)).unwrap_or(i32::MIN)
}

/// Each row's token numbers and pair keys as array literals, and its distinct tokens (as SQL's
/// `agora_search_words` joins them), numbering new tokens first in one statement of its own
/// (see migration 0022 for why one statement). A row whose tokens are not all numbered gets
/// none, and the database computes them as the row is inserted.
async fn search_terms(
    pool: &sqlx::PgPool,
    rows: &[&super::InsertRow],
) -> Result<Option<Vec<Option<super::SearchKeys>>>, sqlx::Error> {
    let per_row: Vec<Vec<&str>> = rows.iter().map(|r| tokens(&r.search_text)).collect();
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
            .map(|sequence| {
                let numbered = sequence
                    .iter()
                    .map(|t| ids.get(*t).copied())
                    .collect::<Option<Vec<i32>>>()?;
                let mut pairs: Vec<i32> =
                    numbered.windows(2).map(|w| pair_key(w[0], w[1])).collect();
                pairs.sort_unstable();
                pairs.dedup();
                let mut numbers = numbered;
                numbers.sort_unstable();
                numbers.dedup();
                let mut words = sequence.clone();
                words.sort_unstable();
                words.dedup();
                Some((
                    array_literal(&numbers),
                    array_literal(&pairs),
                    words.join(" "),
                ))
            })
            .collect(),
    ))
}

/// How a piece of a phrase lies in its tokens, as a `LIKE` pattern: after a separator, at the
/// start of a token; before one, at the end of a token (between two, a whole token).
fn piece_pattern(piece: &str, before: bool, after: bool) -> String {
    let anywhere = super::like_pattern(piece);
    // `like_pattern` gives "%piece%" (escaped, lower case).
    let mut pattern = anywhere.as_str();
    if before {
        pattern = &pattern[1..];
    }
    if after {
        pattern = &pattern[..pattern.len() - 1];
    }
    pattern.to_string()
}

/// A phrase's pair sets are used while each holds at most this many keys.
const PAIRS_AT_MOST: usize = 4096;

/// What the vocabulary says of a text with separators in it.
enum Phrase {
    /// Some piece is in no token: no article holds the text.
    Nowhere,
    /// Articles holding it hold one key of each of these sets (array literals).
    Within(Vec<String>),
    /// Too common to narrow down this way.
    Common,
}

/// The phrase's pieces, each as the tokens that may hold it, and the pair keys of each two
/// pieces side by side (one or more separators between them).
async fn phrase(tx: &mut sqlx::PgConnection, q: &str) -> Result<Phrase, sqlx::Error> {
    let parts: Vec<&str> = q.split(SEPARATORS).collect();
    let last = parts.len() - 1;
    // Each non-empty piece, with the tokens that may hold it (None: too many to list).
    let mut pieces: Vec<Option<Vec<i32>>> = Vec::new();
    for (i, piece) in parts.iter().enumerate() {
        if piece.is_empty() {
            continue;
        }
        let (before, after) = (i > 0, i < last);
        let holding: Vec<i32> = if before && after {
            sqlx::query_scalar("SELECT v.id FROM search_vocabulary v WHERE v.term = $1")
                .bind(piece.to_lowercase())
                .fetch_all(&mut *tx)
                .await?
        } else {
            sqlx::query_scalar(
                "SELECT v.id FROM search_vocabulary v WHERE v.term LIKE $1 ESCAPE '\\' LIMIT $2",
            )
            .bind(piece_pattern(piece, before, after))
            .bind(TOKENS_AT_MOST + 1)
            .fetch_all(&mut *tx)
            .await?
        };
        if holding.is_empty() {
            return Ok(Phrase::Nowhere);
        }
        pieces.push(((holding.len() as i64) <= TOKENS_AT_MOST).then_some(holding));
    }
    let mut sets = Vec::new();
    for side_by_side in pieces.windows(2) {
        if let [Some(a), Some(b)] = side_by_side {
            if a.len() * b.len() <= PAIRS_AT_MOST {
                let mut keys: Vec<i32> = a
                    .iter()
                    .flat_map(|&x| b.iter().map(move |&y| pair_key(x, y)))
                    .collect();
                keys.sort_unstable();
                keys.dedup();
                sets.push(array_literal(&keys));
            }
        }
    }
    Ok(if sets.is_empty() {
        Phrase::Common
    } else {
        Phrase::Within(sets)
    })
}

/// Articles holding `q` by their words: a trigram index over each article's distinct tokens
/// (`search_words`) finds those holding every piece of `q` between separators, since each
/// piece lies inside one token; a `q` of one piece is then found exactly, one with separators
/// is checked in each candidate's text. Each piece's pattern is bound once and the index
/// uses those of three letters or more.
fn words_search(qb: &mut sqlx::QueryBuilder<'_, sqlx::Postgres>, q: &str) {
    let pieces: Vec<&str> = q.split(SEPARATORS).filter(|p| !p.is_empty()).collect();
    for piece in &pieces {
        qb.push(" AND a.search_words LIKE ");
        qb.push_bind(super::like_pattern(piece));
        qb.push(" ESCAPE '\\'");
    }
    if q.contains(SEPARATORS) || pieces.is_empty() {
        super::like_search(qb, q);
    }
}

/// A phrase's matches, newest first, up to `cap` + 1: its candidates (the published articles
/// of the query's categories holding one key of each pair set) are sorted from the index,
/// without reading their text, then each one's text is checked in that order until there are
/// enough. One pass gives both the total (up to the cap) and the page, which lies within it.
async fn phrase_matches(
    tx: &mut sqlx::PgConnection,
    q: &crate::model::ListQuery,
    sets: &[String],
    cap: i64,
) -> Result<Vec<String>, sqlx::Error> {
    let mut qb: sqlx::QueryBuilder<sqlx::Postgres> = sqlx::QueryBuilder::new(
        "SELECT c.id FROM (SELECT a.id, a.created_at, a.search_text FROM articles a \
         WHERE a.status = 'published'",
    );
    for keys in sets {
        qb.push(" AND a.search_pairs && ");
        qb.push_bind(keys.clone());
        qb.push("::INTEGER[]");
    }
    super::any_category(&mut qb, "a.category", &q.categories);
    // OFFSET 0 keeps the check out of the sorted candidates, so it runs on them in order.
    qb.push(" ORDER BY a.created_at DESC, a.id DESC OFFSET 0) c WHERE strpos(c.search_text, ");
    qb.push_bind(q.q.to_lowercase());
    qb.push(") > 0 LIMIT ").push_bind(cap + 1);
    qb.build_query_scalar().fetch_all(&mut *tx).await
}

/// The public search: a page of the newest published articles holding `q`, and their total
/// (exact up to the query's count cap).
///
/// A `q` without separators is looked up in the vocabulary first: none of its tokens holding
/// it means no article does; a few hundred at most, and the articles are found by their token
/// numbers, without reading their text. A phrase's pieces are looked up the same way (see
/// `phrase`), and its candidates are the articles holding a pair of tokens its pieces can
/// make, each then checked (`phrase_matches`). Otherwise (a piece of letters in thousands of
/// tokens, or a phrase of such pieces) the trigram index over the articles' words finds them
/// (`words_search`).
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
        return PgContentStore::page_and_count(pool, q, &words_search).await;
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
    type Fragment =
        Box<dyn for<'b> Fn(&mut sqlx::QueryBuilder<'b, sqlx::Postgres>, &str) + Send + Sync>;
    let mut fragment: Fragment = Box::new(words_search);
    if q.q.contains(SEPARATORS) {
        match phrase(&mut tx, &q.q).await? {
            Phrase::Nowhere => {
                tx.commit().await?;
                return Ok((Vec::new(), 0));
            }
            Phrase::Within(sets) => {
                let ids = phrase_matches(&mut tx, q, &sets, cap).await?;
                let total = ids.len() as i64;
                let mut page: sqlx::QueryBuilder<sqlx::Postgres> =
                    sqlx::QueryBuilder::new(format!(
                        "SELECT {} FROM articles a WHERE a.id = ANY(",
                        super::CARD_COLUMNS
                    ));
                page.push_bind(super::page_of(&ids, q).to_vec())
                    .push(") ORDER BY a.created_at DESC, a.id DESC");
                let rows = page.build_query_as().fetch_all(&mut *tx).await?;
                tx.commit().await?;
                return Ok((rows, total));
            }
            Phrase::Common => {}
        }
    } else {
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
            let ids = array_literal(&holding);
            fragment = Box::new(move |qb, _| {
                qb.push(" AND a.search_terms && ");
                qb.push_bind(ids.clone());
                qb.push("::INTEGER[]");
            });
        }
    }
    let mut count = PgContentStore::filtered("SELECT COUNT(*) FROM (SELECT 1", q, &*fragment);
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
    let rows = PgContentStore::page(q, &*fragment)
        .build_query_as()
        .fetch_all(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok((rows, total))
}
