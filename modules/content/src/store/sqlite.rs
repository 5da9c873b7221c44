//! SQLite implementation of [`super::ContentStore`].

super::sql_content_store!(
    SqliteContentStore,
    sqlx::Sqlite,
    sqlx::SqlitePool,
    kernel::outbox::enqueue_sqlite
);
