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
                .busy_timeout(Duration::from_secs(5));
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
                    .await?;
                self.build_deferred_indexes().await?;
            }
        }
        Ok(())
    }

    /// Before a bulk load on PostgreSQL: drops these indexes (those that exist), keeping their
    /// definitions, so the load does not update them row by row; a GIN index built once over
    /// the loaded rows costs a fraction of that. [`Db::build_deferred_indexes`] builds them
    /// again, and so does the next [`Db::migrate`] if the load never finished. SQLite keeps
    /// its indexes.
    pub async fn defer_indexes(&self, names: &[&str]) -> Result<(), DbError> {
        let Db::Postgres(pool) = self else {
            return Ok(());
        };
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        let mut tx = pool.begin().await?;
        let kept: Vec<String> = sqlx::query_scalar(
            "INSERT INTO deferred_indexes (name, definition) \
             SELECT indexname, indexdef FROM pg_indexes \
             WHERE schemaname = current_schema() AND indexname = ANY($1) \
             ON CONFLICT (name) DO NOTHING RETURNING name",
        )
        .bind(&names)
        .fetch_all(&mut *tx)
        .await?;
        for name in kept {
            // A name from the catalog, quoted as an identifier.
            sqlx::query(&format!("DROP INDEX \"{}\"", name.replace('"', "\"\"")))
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Builds the indexes [`Db::defer_indexes`] dropped, all at once (each on its own
    /// connection, so on its own core), each in its own transaction with its definition's
    /// removal: each is built once, whatever stops half way.
    pub async fn build_deferred_indexes(&self) -> Result<(), DbError> {
        let Db::Postgres(pool) = self else {
            return Ok(());
        };
        let deferred: Vec<String> =
            sqlx::query_scalar("SELECT name FROM deferred_indexes ORDER BY name")
                .fetch_all(pool)
                .await?;
        futures_util::future::try_join_all(
            deferred.into_iter().map(|name| build_deferred(pool, name)),
        )
        .await?;
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

/// One of [`Db::build_deferred_indexes`]: claims the definition and builds it, in one
/// transaction (a concurrent caller waits on the claim, then finds it gone). The claim returns
/// the definition it removes, so the index built is the one claimed, even if the row changed
/// after the names were read (as migration 0025 changes them).
async fn build_deferred(pool: &PgPool, name: String) -> Result<(), DbError> {
    let mut tx = pool.begin().await?;
    // Room to sort the index's entries in memory, for this build only.
    sqlx::query("SELECT set_config('maintenance_work_mem', '256MB', true)")
        .execute(&mut *tx)
        .await?;
    let claimed: Option<String> =
        sqlx::query_scalar("DELETE FROM deferred_indexes WHERE name = $1 RETURNING definition")
            .bind(&name)
            .fetch_optional(&mut *tx)
            .await?;
    if let Some(definition) = claimed {
        sqlx::query(&definition).execute(&mut *tx).await?;
    }
    tx.commit().await?;
    Ok(())
}
