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

/// How many pair keys are shared: a prime below 2^16. Fewer keys keep the index cheap to
/// build (each holds a longer, better packed list of articles); two pairs sharing a key only
/// add a candidate, which the check then drops.
const PAIR_KEYS: i64 = 65_521;

/// Tokens numbered below this, two of them separated by exactly one space, make a pair with a
/// key of its own (migration 0024). Each batch's most frequent tokens are numbered first.
const OWN_KEYS_BELOW: i32 = 256;

/// The key of the pair of adjacent tokens numbered `a`, `b`, as SQL's `agora_search_pairs`
/// (migration 0024) computes it. Two of the first numbered tokens separated by exactly one
/// space have a key of their own, `a` * 256 + `b`. Any other pair has one of `PAIR_KEYS`
/// negative keys, which pairs may share: `a` and `b` mixed by two multiplications modulo
/// 2^31 - 1 (every product fits in 63 bits: the numbers are positive `INTEGER`s).
fn pair_key(a: i32, b: i32, one_space: bool) -> i32 {
    if one_space && own_key(a, b) {
        return a * OWN_KEYS_BELOW + b;
    }
    const PRIME: i64 = 2_147_483_647;
    let mixed = (i64::from(a) * 1_597_334_677) % PRIME;
    let mixed = ((mixed ^ i64::from(b)) * 1_103_515_245) % PRIME;
    i32::try_from(-1 - mixed.rem_euclid(PAIR_KEYS)).unwrap_or(i32::MIN)
}

/// Whether `a`, `b` separated by one space have a key of their own.
fn own_key(a: i32, b: i32) -> bool {
    (0..OWN_KEYS_BELOW).contains(&a) && (0..OWN_KEYS_BELOW).contains(&b)
}

/// Numbers the tokens of `all` not numbered yet, the most frequent first: `all` holds each
/// token as often as the texts do. Each statement inserts in the order of the tokens (see
/// migration 0022 for why), so the most frequent come in a statement of their own.
async fn number_tokens(
    pool: &sqlx::PgPool,
    mut all: Vec<&str>,
) -> Result<Vec<String>, sqlx::Error> {
    all.sort_unstable();
    let mut counted: Vec<(usize, &str)> = Vec::new();
    for token in all {
        match counted.last_mut() {
            Some((n, last)) if *last == token => *n += 1,
            _ => counted.push((1, token)),
        }
    }
    let distinct: Vec<String> = counted.iter().map(|(_, t)| t.to_string()).collect();
    counted.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    let mut frequent: Vec<&str> = counted
        .iter()
        .take(OWN_KEYS_BELOW as usize)
        .map(|(_, t)| *t)
        .collect();
    frequent.sort_unstable();
    for tokens in [frequent, distinct.iter().map(String::as_str).collect()] {
        sqlx::query(
            "INSERT INTO search_vocabulary (term) SELECT w FROM unnest($1::TEXT[]) w ORDER BY w \
             ON CONFLICT (term) DO NOTHING",
        )
        .bind(&tokens)
        .execute(pool)
        .await?;
    }
    Ok(distinct)
}

/// Each row's token numbers and pair keys as array literals, and its distinct tokens (as SQL's
/// `agora_search_words` joins them), numbering new tokens first (`number_tokens`). A row whose
/// tokens are not all numbered gets none, and the database computes them as the row is
/// inserted.
async fn search_terms(
    pool: &sqlx::PgPool,
    rows: &[&super::InsertRow],
) -> Result<Option<Vec<Option<super::SearchKeys>>>, sqlx::Error> {
    let per_row: Vec<Vec<(&str, bool)>> = rows
        .iter()
        .map(|r| super::spaced_tokens(&r.search_text))
        .collect();
    let all = number_tokens(pool, per_row.iter().flatten().map(|(t, _)| *t).collect()).await?;
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
                    .map(|(t, one_space)| ids.get(*t).map(|id| (*id, *one_space)))
                    .collect::<Option<Vec<(i32, bool)>>>()?;
                let mut pairs: Vec<i32> = numbered
                    .windows(2)
                    .map(|w| pair_key(w[0].0, w[1].0, w[1].1))
                    .collect();
                pairs.sort_unstable();
                pairs.dedup();
                let mut numbers: Vec<i32> = numbered.iter().map(|(n, _)| *n).collect();
                numbers.sort_unstable();
                numbers.dedup();
                let words = super::distinct_tokens(sequence);
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
    /// Two pieces separated by one space: the articles holding one of the `own` keys hold it,
    /// and so may some holding one of the `shared` keys (array literals; either may be empty).
    Pair { own: String, shared: String },
    /// Too common to narrow down this way.
    Common,
}

/// The phrase's pieces, each as the tokens that may hold it, and the pair keys of each two
/// pieces side by side. Two pieces separated by one space, each token of each with a key of
/// its own (`pair_key`), are found exactly by their keys.
async fn phrase(tx: &mut sqlx::PgConnection, q: &str) -> Result<Phrase, sqlx::Error> {
    let spaced = super::spaced_tokens(q);
    let starts_apart = q.starts_with(SEPARATORS);
    let ends_apart = q.ends_with(SEPARATORS);
    let last = spaced.len().saturating_sub(1);
    // Each piece, with the tokens that may hold it (None: too many to list).
    let mut pieces: Vec<(Option<Vec<i32>>, bool)> = Vec::new();
    for (i, (piece, one_space)) in spaced.iter().enumerate() {
        let (before, after) = (i > 0 || starts_apart, i < last || ends_apart);
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
        let listed = (holding.len() as i64) <= TOKENS_AT_MOST;
        pieces.push((listed.then_some(holding), *one_space));
    }
    let listed = |keys: &mut dyn Iterator<Item = i32>| {
        let mut keys: Vec<i32> = keys.collect();
        keys.sort_unstable();
        keys.dedup();
        array_literal(&keys)
    };
    if let [(Some(a), _), (Some(b), true)] = pieces.as_slice() {
        if !starts_apart && !ends_apart && a.len() * b.len() <= PAIRS_AT_MOST {
            let pairs = || a.iter().flat_map(|&x| b.iter().map(move |&y| (x, y)));
            let own = listed(
                &mut pairs()
                    .filter(|&(x, y)| own_key(x, y))
                    .map(|(x, y)| pair_key(x, y, true)),
            );
            let shared = listed(
                &mut pairs()
                    .filter(|&(x, y)| !own_key(x, y))
                    .map(|(x, y)| pair_key(x, y, true)),
            );
            return Ok(Phrase::Pair { own, shared });
        }
    }
    let mut sets = Vec::new();
    for side_by_side in pieces.windows(2) {
        if let [(Some(a), _), (Some(b), one_space)] = side_by_side {
            if a.len() * b.len() <= PAIRS_AT_MOST {
                sets.push(listed(&mut a.iter().flat_map(|&x| {
                    b.iter().map(move |&y| pair_key(x, y, *one_space))
                })));
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

/// A phrase's candidates, newest first, up to `limit`: the published articles of the query's
/// categories created within the slice of time, holding one key of each set, sorted from
/// their narrow rows without reading the articles; when `checked`, only those whose text
/// holds the phrase (each checked in that order until there are enough). One pass gives both
/// the total (up to the cap) and the page, which lies within it.
async fn phrase_matches(
    tx: &mut sqlx::PgConnection,
    q: &crate::model::ListQuery,
    sets: &[&str],
    checked: bool,
    (since, before): Slice,
    limit: i64,
) -> Result<Vec<Match>, sqlx::Error> {
    let mut qb: sqlx::QueryBuilder<sqlx::Postgres> = sqlx::QueryBuilder::new(
        "SELECT c.article_id, c.created_at FROM (SELECT d.article_id, d.created_at \
         FROM article_search_docs d WHERE d.status = 'published'",
    );
    for keys in sets {
        qb.push(" AND d.pairs && ");
        qb.push_bind(keys.to_string());
        qb.push("::INTEGER[]");
    }
    super::any_category(&mut qb, "d.category", &q.categories);
    if let Some(since) = since {
        qb.push(" AND d.created_at >= ").push_bind(since);
    }
    if let Some(before) = before {
        qb.push(" AND d.created_at < ").push_bind(before);
    }
    // OFFSET 0 keeps the check out of the sorted candidates, so it runs on them in order.
    qb.push(" ORDER BY d.created_at DESC, d.article_id DESC OFFSET 0) c");
    if checked {
        qb.push(" WHERE (SELECT strpos(a.search_text, ");
        qb.push_bind(q.q.to_lowercase());
        qb.push(") > 0 FROM articles a WHERE a.id = c.article_id)");
    }
    qb.push(" LIMIT ").push_bind(limit);
    qb.build_query_as().fetch_all(&mut *tx).await
}

/// An article found, with its time (the listing's order: newest first, then by id).
type Match = (String, chrono::DateTime<chrono::Utc>);

/// A slice of time: from (inclusive), until (exclusive); either may be open.
type Slice = (
    Option<chrono::DateTime<chrono::Utc>>,
    Option<chrono::DateTime<chrono::Utc>>,
);

/// The articles holding one of `own` keys (all matches), newest first, up to `cap` + 1, a
/// slice of time at a time: the newest eighth of the articles' span, then a slice as long as
/// the matches found so far say holds the rest, half as long again (a common phrase's newest
/// thousand lie in its first two slices); none found in the first, all the rest at once (a
/// rare phrase's few candidates cost little).
async fn own_matches(
    tx: &mut sqlx::PgConnection,
    q: &crate::model::ListQuery,
    own: &str,
    cap: i64,
) -> Result<Vec<Match>, sqlx::Error> {
    type Span = (
        Option<chrono::DateTime<chrono::Utc>>,
        Option<chrono::DateTime<chrono::Utc>>,
    );
    // The two ends of the time index (the search turned plain index scans off).
    sqlx::query("SELECT set_config('enable_indexscan', 'on', true)")
        .execute(&mut *tx)
        .await?;
    let (oldest, newest): Span =
        sqlx::query_as("SELECT MIN(created_at), MAX(created_at) FROM article_search_docs")
            .fetch_one(&mut *tx)
            .await?;
    sqlx::query("SELECT set_config('enable_indexscan', 'off', true)")
        .execute(&mut *tx)
        .await?;
    let (Some(oldest), Some(newest)) = (oldest, newest) else {
        return Ok(Vec::new());
    };
    let (mut before, mut since) = (None, newest - (newest - oldest) / 8);
    let mut found = Vec::new();
    loop {
        let last = since <= oldest;
        let left = cap + 1 - found.len() as i64;
        let slice = ((!last).then_some(since), before);
        found.extend(phrase_matches(tx, q, &[own], false, slice, left).await?);
        if last || found.len() as i64 > cap {
            return Ok(found);
        }
        before = Some(since);
        since = match i64::try_from(found.len()) {
            Ok(n) if n > 0 => {
                // The matches so far, spread as they were over the time read, and half again.
                let read = (newest - since).num_milliseconds();
                let width = read.saturating_mul(cap + 1 - n).saturating_mul(3) / (2 * n);
                since
                    .checked_sub_signed(chrono::Duration::milliseconds(width.max(1)))
                    .unwrap_or(oldest)
            }
            _ => oldest,
        };
    }
}

/// A phrase of two pieces' matches, newest first, up to `cap` + 1: those holding an own key
/// (all matches), and those holding a shared key whose text holds the phrase, merged. When the
/// first are more than the cap, only the second as new as the last of them are checked.
async fn pair_matches(
    tx: &mut sqlx::PgConnection,
    q: &crate::model::ListQuery,
    own: &str,
    shared: &str,
    cap: i64,
) -> Result<Vec<Match>, sqlx::Error> {
    let wanted = usize::try_from(cap + 1).unwrap_or(usize::MAX);
    let mut found = Vec::new();
    if own != "{}" {
        found = own_matches(tx, q, own, cap).await?;
    }
    if shared != "{}" {
        let since = found.last().filter(|_| found.len() >= wanted).map(|m| m.1);
        found.extend(phrase_matches(tx, q, &[shared], true, (since, None), cap + 1).await?);
        found.sort_by(|a, b| (b.1, &b.0).cmp(&(a.1, &a.0)));
        found.dedup_by(|a, b| a.0 == b.0);
        found.truncate(wanted);
    }
    Ok(found)
}

/// The page `q` asks for, out of all its matches newest first (ids), read by id.
async fn cards(
    tx: &mut sqlx::PgConnection,
    ids: &[String],
    q: &crate::model::ListQuery,
) -> Result<Vec<super::CardRow>, sqlx::Error> {
    let mut page: sqlx::QueryBuilder<sqlx::Postgres> = sqlx::QueryBuilder::new(format!(
        "SELECT {} FROM articles a WHERE a.id = ANY(",
        super::CARD_COLUMNS
    ));
    page.push_bind(super::page_of(ids, q).to_vec())
        .push(") ORDER BY a.created_at DESC, a.id DESC");
    page.build_query_as().fetch_all(&mut *tx).await
}

/// How many of the newest articles `common_matches` checks to judge how common a text is.
const SAMPLE: i64 = 128;

/// The most articles `common_matches` walks: past this, counting through the index costs
/// less than checking each article.
const WALK_AT_MOST: i64 = 4000;

/// Appends the newest `n` published articles of `q`'s category (id and `hit`: whether
/// `fragment` lets it through), newest first: read in the time index's order, each checked.
fn push_newest_checked(
    qb: &mut sqlx::QueryBuilder<'_, sqlx::Postgres>,
    q: &crate::model::ListQuery,
    fragment: SearchFragment<'_>,
    n: i64,
) {
    qb.push("SELECT a.id, (TRUE");
    fragment(qb, &q.q);
    qb.push(") AS hit FROM articles a WHERE a.status = 'published'");
    super::any_category(qb, "a.category", &q.categories);
    qb.push(" ORDER BY a.created_at DESC, a.id DESC LIMIT ")
        .push_bind(n);
}

/// A common text's matches, newest first, up to `cap` + 1, found by walking the newest
/// articles and checking each until there are enough. When most articles hold the text, that
/// reads a thousand or so rows, where the index would list nearly every article before the
/// first thousand could be counted (a word in 94% of 100,000 articles: 10 ms through the
/// index, 1 ms walking). The newest `SAMPLE` say how common the text is and so how far to
/// walk. `None` when it is not common enough, or the walk did not find more than `cap` (the
/// index then counts them); either way the total stays exact up to the cap.
async fn common_matches(
    tx: &mut sqlx::PgConnection,
    q: &crate::model::ListQuery,
    fragment: SearchFragment<'_>,
    cap: i64,
) -> Result<Option<Vec<String>>, sqlx::Error> {
    // Several categories would be merged from their indexes and sorted: each article of them
    // checked first.
    if q.categories.len() > 1 {
        return Ok(None);
    }
    let mut sample: sqlx::QueryBuilder<sqlx::Postgres> =
        sqlx::QueryBuilder::new("SELECT COUNT(*) FILTER (WHERE w.hit) FROM (");
    push_newest_checked(&mut sample, q, fragment, SAMPLE);
    sample.push(") w");
    // The search turned plain index scans off; these two read the time index in order.
    sqlx::query("SELECT set_config('enable_indexscan', 'on', true)")
        .execute(&mut *tx)
        .await?;
    let hits: i64 = sample.build_query_scalar().fetch_one(&mut *tx).await?;
    // Half as far again as the sample's share of matches says is needed.
    let walk = (cap + 1).saturating_mul(SAMPLE * 3 / 2) / hits.max(1);
    let mut found = None;
    if hits > 0 && walk <= WALK_AT_MOST {
        let mut matches: sqlx::QueryBuilder<sqlx::Postgres> =
            sqlx::QueryBuilder::new("SELECT w.id FROM (");
        push_newest_checked(&mut matches, q, fragment, walk);
        matches.push(") w WHERE w.hit LIMIT ").push_bind(cap + 1);
        let ids: Vec<String> = matches.build_query_scalar().fetch_all(&mut *tx).await?;
        if ids.len() as i64 > cap {
            found = Some(ids);
        }
    }
    if found.is_none() {
        sqlx::query("SELECT set_config('enable_indexscan', 'off', true)")
            .execute(&mut *tx)
            .await?;
    }
    Ok(found)
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
/// word's matches sorts them all. So the newest articles are sampled first: a text most of
/// them hold is found by walking them (`common_matches`). Otherwise the count comes first,
/// from the index (which it then must use), and decides: a text in more articles than the cap
/// has its page found by walking the newest articles, a rarer one's by sorting its matches.
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
        let matches = match phrase(&mut tx, &q.q).await? {
            Phrase::Nowhere => Some(Vec::new()),
            Phrase::Pair { own, shared } => {
                Some(pair_matches(&mut tx, q, &own, &shared, cap).await?)
            }
            Phrase::Within(sets) => {
                let sets: Vec<&str> = sets.iter().map(String::as_str).collect();
                Some(phrase_matches(&mut tx, q, &sets, true, (None, None), cap + 1).await?)
            }
            Phrase::Common => None,
        };
        if let Some(matches) = matches {
            let ids: Vec<String> = matches.into_iter().map(|(id, _)| id).collect();
            let rows = cards(&mut tx, &ids, q).await?;
            tx.commit().await?;
            return Ok((rows, ids.len() as i64));
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
    if let Some(ids) = common_matches(&mut tx, q, &*fragment, cap).await? {
        let rows = cards(&mut tx, &ids, q).await?;
        tx.commit().await?;
        return Ok((rows, ids.len() as i64));
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
