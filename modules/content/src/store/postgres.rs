//! PostgreSQL implementation of [`super::ContentStore`].

super::sql_content_store!(
    PgContentStore,
    sqlx::Postgres,
    sqlx::PgPool,
    kernel::outbox::enqueue_pg,
    search,
    "BEGIN"
);

/// Published articles holding the search text: the `pg_trgm` index on the lower-case search
/// text answers `LIKE '%…%'`, and the planner chooses between it and walking the newest first;
/// the total is counted up to the query's cap.
async fn search(
    pool: &sqlx::PgPool,
    q: &crate::model::ListQuery,
) -> Result<(Vec<super::CardRow>, i64), sqlx::Error> {
    PgContentStore::page_and_count(pool, q, super::like_search).await
}
