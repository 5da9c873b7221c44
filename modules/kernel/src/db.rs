//! The database handle. The engine is chosen once, from the URL scheme; modules build their own
//! store implementation for whichever engine this holds.

use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

#[derive(Clone, Debug)]
pub enum Db {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// Whether `e` says the database cannot be reached for now (down, restarting, every pooled
/// connection gone), rather than that a query is wrong: answered 503 with `Retry-After`, not
/// 500.
pub fn is_unavailable(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::WorkerCrashed => true,
        // PostgreSQL's "operator intervention" (shutting down, starting up) and "connection
        // exception" classes.
        sqlx::Error::Database(d) => d
            .code()
            .is_some_and(|c| c.starts_with("57P") || c.starts_with("08")),
        _ => false,
    }
}

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("unsupported DATABASE_URL scheme (expected sqlite:// or postgres://): {0}")]
    UnsupportedScheme(String),
    #[error("cannot create the database directory {path}: {source}")]
    CreateDir {
        path: String,
        source: std::io::Error,
    },
    #[error(transparent)]
    Sqlx(#[from] sqlx::Error),
    #[error(transparent)]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

impl Db {
    /// Connects to `url`: `sqlite://path` (created when missing) or `postgres://…`.
    pub async fn connect(url: &str) -> Result<Self, DbError> {
        if url.starts_with("sqlite:") {
            let options = SqliteConnectOptions::from_str(url)?
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
                .foreign_keys(true)
                .busy_timeout(Duration::from_secs(5))
                // The write-ahead log is copied back by [`Db::upkeep`] every second, off the
                // requests' path; a write copies it itself only past this many pages (40 MB),
                // instead of SQLite's 1,000 (a 10-30 ms pause every few dozen saves).
                .pragma("wal_autocheckpoint", "10000");
            if let Some(dir) = options.get_filename().parent() {
                if !dir.as_os_str().is_empty() {
                    std::fs::create_dir_all(dir).map_err(|source| DbError::CreateDir {
                        path: dir.display().to_string(),
                        source,
                    })?;
                }
            }
            let pool = SqlitePoolOptions::new()
                .max_connections(8)
                .connect_with(options)
                .await?;
            Ok(Db::Sqlite(pool))
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            let pool = PgPoolOptions::new()
                .max_connections(16)
                .acquire_timeout(Duration::from_secs(5))
                .connect(url)
                .await?;
            Ok(Db::Postgres(pool))
        } else {
            Err(DbError::UnsupportedScheme(
                url.split(':').next().unwrap_or_default().to_string(),
            ))
        }
    }

    /// Applies the migrations of this engine (`migrations/sqlite` or `migrations/postgres`).
    pub async fn migrate(&self) -> Result<(), DbError> {
        match self {
            Db::Sqlite(pool) => sqlx::migrate!("../../migrations/sqlite").run(pool).await?,
            Db::Postgres(pool) => {
                sqlx::migrate!("../../migrations/postgres")
                    .run(pool)
                    .await?
            }
        }
        Ok(())
    }

    /// Upkeep between requests: on SQLite, copies what the write-ahead log holds back into
    /// the database (a passive checkpoint: it waits for no one). Nothing on PostgreSQL.
    pub async fn upkeep(&self) -> Result<(), DbError> {
        if let Db::Sqlite(pool) = self {
            sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
                .execute(pool)
                .await?;
        }
        Ok(())
    }

    /// A cheap round trip, for readiness checks.
    pub async fn ping(&self) -> Result<(), DbError> {
        match self {
            Db::Sqlite(pool) => {
                sqlx::query("SELECT 1").execute(pool).await?;
            }
            Db::Postgres(pool) => {
                sqlx::query("SELECT 1").execute(pool).await?;
            }
        }
        Ok(())
    }

    pub fn engine(&self) -> &'static str {
        match self {
            Db::Sqlite(_) => "sqlite",
            Db::Postgres(_) => "postgres",
        }
    }

    pub async fn close(&self) {
        match self {
            Db::Sqlite(pool) => pool.close().await,
            Db::Postgres(pool) => pool.close().await,
        }
    }
}
