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
    _: &[&super::InsertRow],
) -> Result<Option<Vec<Option<super::SearchKeys>>>, sqlx::Error> {
    Ok(None)
}

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

/// The public search: a page of the newest published articles holding `q`, and their total
/// (exact up to the query's count cap).
///
/// The index numbers its rows in date order (migration 0023), so it gives the matches newest
/// first: they are read, with the narrow `article_search_docs` rows to filter them, only
/// until there is one more than the cap (which always covers the page asked for). Those are
/// put in the listing's order (matches of one millisecond come in the order they were written)
/// and give both the total and the page.
async fn search(
    pool: &sqlx::SqlitePool,
    q: &crate::model::ListQuery,
) -> Result<(Vec<super::CardRow>, i64), sqlx::Error> {
    let plain = q.sort == crate::model::Sort::Newest && q.author.is_none() && q.exclude.is_none();
    if !plain || !indexable(&q.q) {
        return SqliteContentStore::page_and_count(pool, q, &indexed).await;
    }
    let cap = q.count_cap().unwrap_or(crate::model::SEARCH_COUNT_CAP);
    let mut matches: sqlx::QueryBuilder<sqlx::Sqlite> = sqlx::QueryBuilder::new(
        "SELECT article_id FROM (SELECT d.article_id, d.created_at FROM article_search \
         CROSS JOIN article_search_docs d ON d.id = article_search.rowid \
         WHERE article_search MATCH ",
    );
    matches.push_bind(phrase(&q.q));
    matches.push(" AND d.status = 'published'");
    super::any_category(&mut matches, "d.category", &q.categories);
    matches
        .push(" ORDER BY article_search.rowid DESC LIMIT ")
        .push_bind(cap + 1)
        .push(") ORDER BY created_at DESC, article_id DESC");
    let ids: Vec<String> = matches.build_query_scalar().fetch_all(pool).await?;
    let total = ids.len() as i64;
    let wanted = super::page_of(&ids, q);
    if wanted.is_empty() {
        return Ok((Vec::new(), total));
    }
    let mut page: sqlx::QueryBuilder<sqlx::Sqlite> = sqlx::QueryBuilder::new(format!(
        "SELECT {} FROM articles a WHERE a.id IN (",
        super::CARD_COLUMNS
    ));
    let mut listed = page.separated(", ");
    for id in wanted {
        listed.push_bind(id.clone());
    }
    page.push(") ORDER BY a.created_at DESC, a.id DESC");
    let found = page.build_query_as().fetch_all(pool).await?;
    Ok((found, total))
}
