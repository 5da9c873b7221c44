//! PostgreSQL implementation of [`super::ContentStore`].

super::sql_content_store!(
    PgContentStore,
    sqlx::Postgres,
    sqlx::PgPool,
    kernel::outbox::enqueue_pg,
    super::like_search,
    "BEGIN"
);
