//! Persistence of staff users: one trait, one implementation per engine.

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use kernel::Db;

#[async_trait]
pub trait IdentityStore: Send + Sync {
    async fn names(&self, ids: &[String]) -> Result<Vec<(String, String)>, sqlx::Error>;
    async fn find_by_name_role(
        &self,
        name: &str,
        role: &str,
    ) -> Result<Option<String>, sqlx::Error>;
    async fn insert(
        &self,
        id: &str,
        name: &str,
        role: &str,
        created_at: DateTime<Utc>,
    ) -> Result<(), sqlx::Error>;
    async fn count(&self) -> Result<i64, sqlx::Error>;
}

macro_rules! sql_identity_store {
    ($name:ident, $db:ty, $pool:ty) => {
        pub struct $name {
            pub(super) pool: $pool,
        }

        #[async_trait]
        impl IdentityStore for $name {
            #[tracing::instrument(skip(self), err)]
            async fn names(&self, ids: &[String]) -> Result<Vec<(String, String)>, sqlx::Error> {
                if ids.is_empty() {
                    return Ok(Vec::new());
                }
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("SELECT id, name FROM users WHERE id IN (");
                let mut sep = qb.separated(", ");
                for id in ids {
                    sep.push_bind(id.as_str());
                }
                qb.push(")");
                qb.build_query_as().fetch_all(&self.pool).await
            }

            async fn find_by_name_role(
                &self,
                name: &str,
                role: &str,
            ) -> Result<Option<String>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("SELECT id FROM users WHERE name = ");
                qb.push_bind(name);
                qb.push(" AND role = ");
                qb.push_bind(role);
                qb.push(" ORDER BY created_at LIMIT 1");
                qb.build_query_scalar().fetch_optional(&self.pool).await
            }

            async fn insert(
                &self,
                id: &str,
                name: &str,
                role: &str,
                created_at: DateTime<Utc>,
            ) -> Result<(), sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "INSERT INTO users (id, name, role, created_at) VALUES (",
                );
                let mut sep = qb.separated(", ");
                sep.push_bind(id)
                    .push_bind(name)
                    .push_bind(role)
                    .push_bind(created_at);
                qb.push(")");
                qb.build().execute(&self.pool).await?;
                Ok(())
            }

            async fn count(&self) -> Result<i64, sqlx::Error> {
                sqlx::query_scalar("SELECT COUNT(*) FROM users")
                    .fetch_one(&self.pool)
                    .await
            }
        }
    };
}

mod sqlite {
    use super::*;
    sql_identity_store!(SqliteIdentityStore, sqlx::Sqlite, sqlx::SqlitePool);
}

mod postgres {
    use super::*;
    sql_identity_store!(PgIdentityStore, sqlx::Postgres, sqlx::PgPool);
}

pub fn store_for(db: &Db) -> Arc<dyn IdentityStore> {
    match db {
        Db::Sqlite(pool) => Arc::new(sqlite::SqliteIdentityStore { pool: pool.clone() }),
        Db::Postgres(pool) => Arc::new(postgres::PgIdentityStore { pool: pool.clone() }),
    }
}
