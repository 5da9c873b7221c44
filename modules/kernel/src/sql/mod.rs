//! One statement for either engine. A store writes its SQL once, as text and bound values
//! ([`Db::sql`], [`Sql::push`], [`Sql::bind`]); the statement carries the engine it was made
//! for, and runs on its pool or in one of its transactions ([`Db::begin`]). Placeholders are
//! the engine's own (`?` or `$n`), written by the builder; SQL that differs between engines
//! asks [`Sql::is_postgres`] or [`Db::is_postgres`].
//!
//! The values a statement binds and the rows it reads must be known to both engines: the
//! bounds say so once, here, so stores stay ordinary generic-free code.

use sqlx::pool::PoolConnection;
use sqlx::postgres::{PgConnection, PgRow};
use sqlx::sqlite::{SqliteConnection, SqliteRow};
use sqlx::{Decode, Encode, FromRow, Postgres, QueryBuilder, Sqlite, Transaction, Type};

use crate::Db;

/// A statement being written for one engine.
pub struct Sql {
    builder: Builder,
}

enum Builder {
    Sqlite(QueryBuilder<'static, Sqlite>),
    Postgres(QueryBuilder<'static, Postgres>),
}

/// A value a statement binds: one both engines encode (`String`, `i64`, `i32`, `bool`,
/// `DateTime<Utc>`, an `Option` of one…).
pub trait Value:
    Send + 'static + Encode<'static, Sqlite> + Type<Sqlite> + Encode<'static, Postgres> + Type<Postgres>
{
}

impl<T> Value for T where
    T: Send
        + 'static
        + Encode<'static, Sqlite>
        + Type<Sqlite>
        + Encode<'static, Postgres>
        + Type<Postgres>
{
}

/// A column a statement reads: one both engines decode.
pub trait Column:
    for<'r> Decode<'r, Sqlite>
    + Type<Sqlite>
    + for<'r> Decode<'r, Postgres>
    + Type<Postgres>
    + Send
    + Unpin
{
}

impl<T> Column for T where
    T: for<'r> Decode<'r, Sqlite>
        + Type<Sqlite>
        + for<'r> Decode<'r, Postgres>
        + Type<Postgres>
        + Send
        + Unpin
{
}

/// A row a statement reads: a tuple of columns, or a struct deriving `sqlx::FromRow`.
pub trait Record:
    for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin
{
}

impl<T> Record for T where
    T: for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin
{
}

/// Values bound one after another, separated by `", "`: one row of [`Sql::push_values`], or
/// [`Sql::separated`].
pub struct ValuesRow<'s> {
    sql: &'s mut Sql,
    empty: bool,
}

impl ValuesRow<'_> {
    /// Binds the row's next value.
    pub fn bind<T: Value>(&mut self, value: T) -> &mut Self {
        if !self.empty {
            self.sql.push(", ");
        }
        self.empty = false;
        self.sql.bind(value);
        self
    }
}

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
enum Conn<'a, DB: sqlx::Database> {
    Pooled(PoolConnection<DB>),
    Borrowed(&'a mut DB::Connection),
}

impl<DB: sqlx::Database> Conn<'_, DB> {
    fn get(&mut self) -> &mut DB::Connection {
        match self {
            Conn::Pooled(conn) => conn,
            Conn::Borrowed(conn) => conn,
        }
    }
}

impl<'a> On<'a> {
    async fn sqlite(self) -> Result<Conn<'a, Sqlite>, sqlx::Error> {
        match self {
            On::Pool(Db::Sqlite(pool)) => Ok(Conn::Pooled(pool.acquire().await?)),
            On::Sqlite(conn) => Ok(Conn::Borrowed(conn)),
            _ => Err(mismatch()),
        }
    }

    async fn postgres(self) -> Result<Conn<'a, Postgres>, sqlx::Error> {
        match self {
            On::Pool(Db::Postgres(pool)) => Ok(Conn::Pooled(pool.acquire().await?)),
            On::Postgres(conn) => Ok(Conn::Borrowed(conn)),
            _ => Err(mismatch()),
        }
    }
}

impl Sql {
    pub fn is_postgres(&self) -> bool {
        matches!(self.builder, Builder::Postgres(_))
    }

    /// Appends SQL text as it is (never a value: those are bound).
    pub fn push(&mut self, text: &str) -> &mut Self {
        match &mut self.builder {
            Builder::Sqlite(qb) => {
                qb.push(text);
            }
            Builder::Postgres(qb) => {
                qb.push(text);
            }
        }
        self
    }

    /// Appends a placeholder and binds `value` to it.
    pub fn bind<T>(&mut self, value: T) -> &mut Self
    where
        T: Value,
    {
        match &mut self.builder {
            Builder::Sqlite(qb) => {
                qb.push_bind(value);
            }
            Builder::Postgres(qb) => {
                qb.push_bind(value);
            }
        }
        self
    }

    /// Appends the values as a list of placeholders separated by `", "` (for `IN (…)` or a
    /// row of `VALUES`).
    pub fn bind_list<T, I>(&mut self, values: I) -> &mut Self
    where
        I: IntoIterator<Item = T>,
        T: Value,
    {
        for (n, value) in values.into_iter().enumerate() {
            if n > 0 {
                self.push(", ");
            }
            self.bind(value);
        }
        self
    }

    /// Binds values one after another, `", "` between them (a row of `VALUES (…)`).
    pub fn separated(&mut self) -> ValuesRow<'_> {
        ValuesRow {
            sql: self,
            empty: true,
        }
    }

    /// Appends `VALUES (…), (…)`: one parenthesised row per item, its values bound by `each`
    /// (separated for it).
    pub fn push_values<I, F>(&mut self, rows: I, mut each: F) -> &mut Self
    where
        I: IntoIterator,
        F: FnMut(&mut ValuesRow<'_>, I::Item),
    {
        self.push("VALUES ");
        for (n, item) in rows.into_iter().enumerate() {
            self.push(if n == 0 { "(" } else { ", (" });
            each(
                &mut ValuesRow {
                    sql: self,
                    empty: true,
                },
                item,
            );
            self.push(")");
        }
        self
    }

    /// The SQL text written so far (for tests and errors).
    pub fn text(&self) -> &str {
        match &self.builder {
            Builder::Sqlite(qb) => qb.sql(),
            Builder::Postgres(qb) => qb.sql(),
        }
    }

    /// Runs the statement; how many rows it changed.
    pub async fn execute<'a>(mut self, on: impl Into<On<'a>>) -> Result<u64, sqlx::Error> {
        let done = match &mut self.builder {
            Builder::Sqlite(qb) => {
                let mut conn = on.into().sqlite().await?;
                qb.build().execute(conn.get()).await?.rows_affected()
            }
            Builder::Postgres(qb) => {
                let mut conn = on.into().postgres().await?;
                qb.build().execute(conn.get()).await?.rows_affected()
            }
        };
        Ok(done)
    }

    /// Every row, as `T` (a tuple or a `FromRow` struct).
    pub async fn fetch_all<'a, T>(mut self, on: impl Into<On<'a>>) -> Result<Vec<T>, sqlx::Error>
    where
        T: Record,
    {
        match &mut self.builder {
            Builder::Sqlite(qb) => {
                let mut conn = on.into().sqlite().await?;
                qb.build_query_as().fetch_all(conn.get()).await
            }
            Builder::Postgres(qb) => {
                let mut conn = on.into().postgres().await?;
                qb.build_query_as().fetch_all(conn.get()).await
            }
        }
    }

    /// The first row, if any.
    pub async fn fetch_optional<'a, T>(
        mut self,
        on: impl Into<On<'a>>,
    ) -> Result<Option<T>, sqlx::Error>
    where
        T: Record,
    {
        match &mut self.builder {
            Builder::Sqlite(qb) => {
                let mut conn = on.into().sqlite().await?;
                qb.build_query_as().fetch_optional(conn.get()).await
            }
            Builder::Postgres(qb) => {
                let mut conn = on.into().postgres().await?;
                qb.build_query_as().fetch_optional(conn.get()).await
            }
        }
    }

    /// The one row (`RowNotFound` without one).
    pub async fn fetch_one<'a, T>(mut self, on: impl Into<On<'a>>) -> Result<T, sqlx::Error>
    where
        T: Record,
    {
        match &mut self.builder {
            Builder::Sqlite(qb) => {
                let mut conn = on.into().sqlite().await?;
                qb.build_query_as().fetch_one(conn.get()).await
            }
            Builder::Postgres(qb) => {
                let mut conn = on.into().postgres().await?;
                qb.build_query_as().fetch_one(conn.get()).await
            }
        }
    }

    /// The first column of the one row.
    pub async fn scalar<'a, T>(self, on: impl Into<On<'a>>) -> Result<T, sqlx::Error>
    where
        T: Column,
    {
        let (value,) = self.fetch_one::<(T,)>(on).await?;
        Ok(value)
    }

    /// The first column of the first row, if any.
    pub async fn scalar_optional<'a, T>(
        self,
        on: impl Into<On<'a>>,
    ) -> Result<Option<T>, sqlx::Error>
    where
        T: Column,
    {
        Ok(self.fetch_optional::<(T,)>(on).await?.map(|(value,)| value))
    }

    /// The first column of every row.
    pub async fn scalars<'a, T>(self, on: impl Into<On<'a>>) -> Result<Vec<T>, sqlx::Error>
    where
        T: Column,
    {
        let rows = self.fetch_all::<(T,)>(on).await?;
        Ok(rows.into_iter().map(|(value,)| value).collect())
    }
}

#[cfg(feature = "conformance")]
pub mod conformance;
