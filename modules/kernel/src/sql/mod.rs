//! One statement for either engine. A store writes its SQL once, as text and bound values
//! ([`Db::sql`], [`Sql::push`], [`Sql::bind`]); the statement carries the engine it was made
//! for, and runs on its pool or in one of its transactions ([`Db::begin`]). Placeholders are
//! the engine's own (`?` or `$n`), written by the builder; SQL that differs between engines
//! asks [`Sql::is_postgres`] or [`Db::is_postgres`].
//!
//! The values a statement binds and the rows it reads must be known to both engines: the
//! bounds say so once, here, so stores stay ordinary generic-free code.

use sqlx::postgres::PgRow;
use sqlx::sqlite::SqliteRow;
use sqlx::{Decode, Encode, FromRow, Postgres, QueryBuilder, Sqlite, Type};

mod on;

pub use on::{On, Tx};

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
        let mut row = self.separated();
        for value in values {
            row.bind(value);
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
            each(&mut self.separated(), item);
            self.push(")");
        }
        self
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
