//! PostgreSQL implementation of [`super::ContentStore`].

super::sql_content_store!(
    PgContentStore,
    sqlx::Postgres,
    sqlx::PgPool,
    kernel::outbox::enqueue_pg,
    search,
    "BEGIN"
);

/// The public search: a page of the newest published articles holding `q`, and their total
/// (exact up to the query's count cap), from the `pg_trgm` index on the lower-case search
/// text.
///
/// The planner's guess of how many articles hold a text is blind (a fixed share per
/// character), and a wrong guess is costly both ways: walking the newest articles for a rare
/// term reads them all, sorting a common word's matches sorts them all. So the count comes
/// first, from the index (which it then must use), and decides: a common text's page is found
/// by walking the newest articles, a rarer one's by sorting its matches.
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
    for setting in [
        "SET LOCAL enable_seqscan = off",
        "SET LOCAL enable_indexscan = off",
    ] {
        sqlx::query(setting).execute(&mut *tx).await?;
    }
    let mut count =
        PgContentStore::filtered("SELECT COUNT(*) FROM (SELECT 1", q, super::like_search);
    count.push(" LIMIT ").push_bind(cap + 1).push(") counted");
    let total: i64 = count.build_query_scalar().fetch_one(&mut *tx).await?;
    if total == 0 {
        tx.commit().await?;
        return Ok((Vec::new(), 0));
    }
    if total > cap {
        for setting in [
            "SET LOCAL enable_bitmapscan = off",
            "SET LOCAL enable_indexscan = on",
            "SET LOCAL enable_seqscan = on",
        ] {
            sqlx::query(setting).execute(&mut *tx).await?;
        }
    }
    let rows = PgContentStore::page(q, super::like_search)
        .build_query_as()
        .fetch_all(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok((rows, total))
}
