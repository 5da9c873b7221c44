//! Where a statement runs: a transaction, or the pool, or one connection of either engine.

use sqlx::pool::PoolConnection;
use sqlx::postgres::PgConnection;
use sqlx::sqlite::SqliteConnection;
use sqlx::{Postgres, QueryBuilder, Sqlite, Transaction};

use super::{Builder, Sql};
use crate::Db;

/// A transaction on either engine; dropped without [`Tx::commit`], it rolls back.
pub enum Tx {
    Sqlite(Transaction<'static, Sqlite>),
    Postgres(Transaction<'static, Postgres>),
}

/// Where a statement runs: on the pool, or on one connection (a transaction's).
pub enum On<'a> {
    Pool(&'a Db),
    Sqlite(&'a mut SqliteConnection),
    Postgres(&'a mut PgConnection),
}

impl<'a> From<&'a Db> for On<'a> {
    fn from(db: &'a Db) -> Self {
        On::Pool(db)
    }
}

impl<'a> From<&'a mut Tx> for On<'a> {
    fn from(tx: &'a mut Tx) -> Self {
        match tx {
            Tx::Sqlite(tx) => On::Sqlite(tx),
            Tx::Postgres(tx) => On::Postgres(tx),
        }
    }
}

impl<'a> From<&'a mut SqliteConnection> for On<'a> {
    fn from(conn: &'a mut SqliteConnection) -> Self {
        On::Sqlite(conn)
    }
}

impl<'a> From<&'a mut PgConnection> for On<'a> {
    fn from(conn: &'a mut PgConnection) -> Self {
        On::Postgres(conn)
    }
}

impl On<'_> {
    /// A statement for this place's engine, starting with `text`.
    pub fn sql(&self, text: &str) -> Sql {
        Sql {
            builder: match self {
                On::Pool(Db::Sqlite(_)) | On::Sqlite(_) => Builder::Sqlite(QueryBuilder::new(text)),
                On::Pool(Db::Postgres(_)) | On::Postgres(_) => {
                    Builder::Postgres(QueryBuilder::new(text))
                }
            },
        }
    }
}

fn mismatch() -> sqlx::Error {
    sqlx::Error::Configuration("a statement ran on the other engine's connection".into())
}

impl Db {
    /// A statement for this database's engine, starting with `text`.
    pub fn sql(&self, text: &str) -> Sql {
        On::Pool(self).sql(text)
    }

    pub fn is_postgres(&self) -> bool {
        matches!(self, Db::Postgres(_))
    }

    /// Starts a transaction.
    pub async fn begin(&self) -> Result<Tx, sqlx::Error> {
        Ok(match self {
            Db::Sqlite(pool) => Tx::Sqlite(pool.begin().await?),
            Db::Postgres(pool) => Tx::Postgres(pool.begin().await?),
        })
    }

    /// Starts a transaction that reads, then writes. SQLite has one writer: such a transaction
    /// waits for it at its start (`BEGIN IMMEDIATE`), where waiting is possible; one that has
    /// read cannot wait for the write lock later (`SQLITE_BUSY` at once).
    pub async fn begin_write(&self) -> Result<Tx, sqlx::Error> {
        Ok(match self {
            Db::Sqlite(pool) => Tx::Sqlite(pool.begin_with("BEGIN IMMEDIATE").await?),
            Db::Postgres(pool) => Tx::Postgres(pool.begin().await?),
        })
    }
}

impl Tx {
    /// A statement for this transaction's engine, starting with `text`.
    pub fn sql(&self, text: &str) -> Sql {
        Sql {
            builder: match self {
                Tx::Sqlite(_) => Builder::Sqlite(QueryBuilder::new(text)),
                Tx::Postgres(_) => Builder::Postgres(QueryBuilder::new(text)),
            },
        }
    }

    pub async fn commit(self) -> Result<(), sqlx::Error> {
        match self {
            Tx::Sqlite(tx) => tx.commit().await,
            Tx::Postgres(tx) => tx.commit().await,
        }
    }

    /// Undoes the transaction now (dropping it does the same, later).
    pub async fn rollback(self) -> Result<(), sqlx::Error> {
        match self {
            Tx::Sqlite(tx) => tx.rollback().await,
            Tx::Postgres(tx) => tx.rollback().await,
        }
    }
}

/// A connection of one engine for one statement: taken from the pool for it, or the
/// transaction's own.
pub(super) enum Conn<'a, DB: sqlx::Database> {
    Pooled(PoolConnection<DB>),
    Borrowed(&'a mut DB::Connection),
}

impl<DB: sqlx::Database> Conn<'_, DB> {
    pub(super) fn get(&mut self) -> &mut DB::Connection {
        match self {
            Conn::Pooled(conn) => conn,
            Conn::Borrowed(conn) => conn,
        }
    }
}

impl<'a> On<'a> {
    pub(super) async fn sqlite(self) -> Result<Conn<'a, Sqlite>, sqlx::Error> {
        match self {
            On::Pool(Db::Sqlite(pool)) => Ok(Conn::Pooled(pool.acquire().await?)),
            On::Sqlite(conn) => Ok(Conn::Borrowed(conn)),
            _ => Err(mismatch()),
        }
    }

    pub(super) async fn postgres(self) -> Result<Conn<'a, Postgres>, sqlx::Error> {
        match self {
            On::Pool(Db::Postgres(pool)) => Ok(Conn::Pooled(pool.acquire().await?)),
            On::Postgres(conn) => Ok(Conn::Borrowed(conn)),
            _ => Err(mismatch()),
        }
    }
}
