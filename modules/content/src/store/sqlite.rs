//! SQLite implementation of [`super::ContentStore`].

super::sql_content_store!(
    SqliteContentStore,
    sqlx::Sqlite,
    sqlx::SqlitePool,
    kernel::outbox::enqueue_sqlite,
    search,
    // Writes take the write lock first: the search index's triggers read before they write,
    // and a transaction that read first cannot wait for another writer (SQLITE_BUSY at once).
    "BEGIN IMMEDIATE"
);

/// Articles whose title or text contains `q`, case-insensitively (both are lower case): from
/// the trigram index (`articles_search`, kept by triggers), which finds the rows holding the
/// query's trigrams and checks each against the pattern. Queries it cannot answer — shorter
/// than three characters, or holding a LIKE wildcard, which needs an ESCAPE clause the index
/// does not take — scan the stored search text instead.
fn search(qb: &mut sqlx::QueryBuilder<'_, sqlx::Sqlite>, q: &str) {
    let q = q.to_lowercase();
    if q.chars().count() >= 3 && !q.contains(['%', '_']) {
        qb.push(
            " AND a.id IN (SELECT m.article_id FROM article_search_ids m WHERE m.id IN \
             (SELECT rowid FROM articles_search WHERE search_text LIKE ",
        );
        qb.push_bind(format!("%{q}%"));
        qb.push("))");
    } else {
        super::like_search(qb, &q);
    }
}
