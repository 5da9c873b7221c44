//! SQLite implementation of [`super::ContentStore`].

super::sql_content_store!(
    SqliteContentStore,
    sqlx::Sqlite,
    sqlx::SqlitePool,
    kernel::outbox::enqueue_sqlite,
    search,
    no_search_terms,
    // Writes take the write lock first: the search index's triggers read before they write,
    // and a transaction that read first cannot wait for another writer (SQLITE_BUSY at once).
    "BEGIN IMMEDIATE"
);

/// SQLite's index reads the search text itself (see `search`): no token numbers to store.
async fn no_search_terms(
    _: &sqlx::SqlitePool,
    _: &[super::InsertRow],
) -> Result<Option<Vec<Option<super::SearchKeys>>>, sqlx::Error> {
    Ok(None)
}

/// Walking the newest articles for a page is chosen while it should read fewer than this many
/// of them (each is checked against the text); otherwise the page is sorted from the matches.
const WALK_AT_MOST: f64 = 4_000.0;

/// The search text as an FTS5 phrase: with the trigram tokenizer, the phrase of its trigrams,
/// each where the one before ends — that is, the text itself, anywhere (case-insensitively).
fn phrase(q: &str) -> String {
    format!("\"{}\"", q.to_lowercase().replace('"', "\"\""))
}

fn indexable(q: &str) -> bool {
    q.chars().count() >= 3
}

/// Articles whose title or text contains `q`, case-insensitively (the search text is lower
/// case), found by the trigram index (`article_search`, kept by triggers). Texts shorter
/// than a trigram scan the stored search text instead.
fn indexed(qb: &mut sqlx::QueryBuilder<'_, sqlx::Sqlite>, q: &str) {
    if indexable(q) {
        qb.push(
            " AND a.id IN (SELECT d.article_id FROM article_search \
             JOIN article_search_docs d ON d.id = article_search.rowid \
             WHERE article_search MATCH ",
        );
        qb.push_bind(phrase(q));
        qb.push(")");
    } else {
        super::like_search(qb, q);
    }
}

/// Matches of `q` among published articles of the query's categories, from the index and the
/// narrow `article_search_docs` rows.
fn matching<'a>(
    select: &str,
    text: &str,
    q: &'a crate::model::ListQuery,
) -> sqlx::QueryBuilder<'a, sqlx::Sqlite> {
    let mut qb = sqlx::QueryBuilder::new(select);
    qb.push(
        " FROM article_search JOIN article_search_docs d ON d.id = article_search.rowid \
         WHERE article_search MATCH ",
    );
    qb.push_bind(phrase(text));
    qb.push(" AND d.status = 'published'");
    super::any_category(&mut qb, "d.category", &q.categories);
    qb
}

/// The public search: a page of the newest published articles holding `q`, and their total
/// (exact up to the query's count cap).
///
/// The total is counted first, from the index and the narrow rows, stopping past the cap. It
/// also tells how common the text is: matches come in rowid order, so how far into the rows
/// the count had to go to pass the cap gives the share of articles holding it. A common text's
/// page is then found by walking the newest articles until it is full; a rarer one's page is
/// sorted from its matches.
async fn search(
    pool: &sqlx::SqlitePool,
    q: &crate::model::ListQuery,
) -> Result<(Vec<super::CardRow>, i64), sqlx::Error> {
    let plain = q.sort == crate::model::Sort::Newest && q.author.is_none() && q.exclude.is_none();
    if !plain || !indexable(&q.q) {
        return SqliteContentStore::page_and_count(pool, q, &indexed).await;
    }
    let cap = q.count_cap().unwrap_or(crate::model::SEARCH_COUNT_CAP);
    let mut count = matching(
        "SELECT COUNT(*), COALESCE(MAX(seen), 0) FROM (SELECT article_search.rowid AS seen",
        &q.q,
        q,
    );
    count.push(" LIMIT ").push_bind(cap + 1).push(") counted");
    let (total, seen): (i64, i64) = count.build_query_as().fetch_one(pool).await?;
    if total == 0 {
        return Ok((Vec::new(), 0));
    }
    if total > cap {
        // The share of rows holding the text, from the stretch the count went through.
        let share = total as f64 / seen.max(1) as f64;
        let walk = (q.offset + q.limit) as f64 / share.min(1.0);
        if walk < WALK_AT_MOST {
            let found = SqliteContentStore::page(q, &super::like_search)
                .build_query_as()
                .fetch_all(pool)
                .await?;
            return Ok((found, total));
        }
    }
    let select = format!(
        "SELECT {} FROM articles a WHERE a.id IN (SELECT d.article_id",
        super::CARD_COLUMNS
    );
    let mut page = matching(&select, &q.q, q);
    page.push(" ORDER BY d.created_at DESC, d.article_id DESC LIMIT ")
        .push_bind(q.limit)
        .push(" OFFSET ")
        .push_bind(q.offset)
        .push(") ORDER BY a.created_at DESC, a.id DESC");
    let found = page.build_query_as().fetch_all(pool).await?;
    Ok((found, total))
}
