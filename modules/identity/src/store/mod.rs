//! Persistence of staff users, sessions and failed sign-in counters: one trait, one
//! implementation per engine (the SQL is shared; `QueryBuilder` writes each engine's
//! placeholders).

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use kernel::Db;

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct UserRow {
    pub id: String,
    pub name: String,
    pub role: String,
    pub active: bool,
    pub created_at: DateTime<Utc>,
    pub last_login_at: Option<DateTime<Utc>>,
}

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
    async fn user(&self, id: &str) -> Result<Option<UserRow>, sqlx::Error>;
    async fn users(&self) -> Result<Vec<UserRow>, sqlx::Error>;
    /// The active user whose key hashes to `key_hash`.
    async fn user_by_key(&self, key_hash: &str) -> Result<Option<UserRow>, sqlx::Error>;
    async fn set_key_hash(&self, id: &str, key_hash: &str) -> Result<bool, sqlx::Error>;
    async fn set_active(&self, id: &str, active: bool) -> Result<bool, sqlx::Error>;
    async fn touch_login(&self, id: &str, at: DateTime<Utc>) -> Result<(), sqlx::Error>;

    async fn create_session(
        &self,
        token_hash: &str,
        user_id: &str,
        now: DateTime<Utc>,
        expires_at: DateTime<Utc>,
    ) -> Result<(), sqlx::Error>;
    /// The active user of a live session (not past `expires_at`, seen after `idle_cutoff`),
    /// marking the session as seen now.
    async fn session_user(
        &self,
        token_hash: &str,
        now: DateTime<Utc>,
        idle_cutoff: DateTime<Utc>,
    ) -> Result<Option<UserRow>, sqlx::Error>;
    async fn delete_session(&self, token_hash: &str) -> Result<(), sqlx::Error>;
    async fn delete_sessions_of(&self, user_id: &str) -> Result<(), sqlx::Error>;

    /// Adds one failure to `bucket` (a fixed window) and returns its new count.
    async fn add_failure(
        &self,
        bucket: &str,
        window_start: DateTime<Utc>,
    ) -> Result<i64, sqlx::Error>;
    async fn failures(&self, bucket: &str) -> Result<i64, sqlx::Error>;
    /// Forgets windows that started before `before`.
    async fn prune_failures(&self, before: DateTime<Utc>) -> Result<(), sqlx::Error>;
}

const USER_COLUMNS: &str = "id, name, role, active, created_at, last_login_at";

macro_rules! sql_identity_store {
    ($name:ident, $db:ty, $pool:ty) => {
        pub struct $name {
            pub(super) pool: $pool,
        }

        impl $name {
            fn q(sql: impl Into<String>) -> sqlx::QueryBuilder<'static, $db> {
                sqlx::QueryBuilder::new(sql.into())
            }
        }

        #[async_trait]
        impl IdentityStore for $name {
            #[tracing::instrument(skip(self), err)]
            async fn names(&self, ids: &[String]) -> Result<Vec<(String, String)>, sqlx::Error> {
                if ids.is_empty() {
                    return Ok(Vec::new());
                }
                let mut qb = Self::q("SELECT id, name FROM users WHERE id IN (");
                let mut sep = qb.separated(", ");
                for id in ids {
                    sep.push_bind(id.clone());
                }
                qb.push(")");
                qb.build_query_as().fetch_all(&self.pool).await
            }

            async fn find_by_name_role(
                &self,
                name: &str,
                role: &str,
            ) -> Result<Option<String>, sqlx::Error> {
                let mut qb = Self::q("SELECT id FROM users WHERE name = ");
                qb.push_bind(name.to_string());
                qb.push(" AND role = ");
                qb.push_bind(role.to_string());
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
                let mut qb = Self::q("INSERT INTO users (id, name, role, created_at) VALUES (");
                let mut sep = qb.separated(", ");
                sep.push_bind(id.to_string())
                    .push_bind(name.to_string())
                    .push_bind(role.to_string())
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

            async fn user(&self, id: &str) -> Result<Option<UserRow>, sqlx::Error> {
                let mut qb = Self::q(format!("SELECT {USER_COLUMNS} FROM users WHERE id = "));
                qb.push_bind(id.to_string());
                qb.build_query_as().fetch_optional(&self.pool).await
            }

            async fn users(&self) -> Result<Vec<UserRow>, sqlx::Error> {
                Self::q(format!("SELECT {USER_COLUMNS} FROM users ORDER BY role, name"))
                    .build_query_as()
                    .fetch_all(&self.pool)
                    .await
            }

            #[tracing::instrument(skip_all, err)]
            async fn user_by_key(&self, key_hash: &str) -> Result<Option<UserRow>, sqlx::Error> {
                let mut qb = Self::q(format!(
                    "SELECT {USER_COLUMNS} FROM users WHERE active = TRUE AND key_hash = "
                ));
                qb.push_bind(key_hash.to_string());
                qb.build_query_as().fetch_optional(&self.pool).await
            }

            async fn set_key_hash(&self, id: &str, key_hash: &str) -> Result<bool, sqlx::Error> {
                let mut qb = Self::q("UPDATE users SET key_hash = ");
                qb.push_bind(key_hash.to_string());
                qb.push(" WHERE id = ");
                qb.push_bind(id.to_string());
                Ok(qb.build().execute(&self.pool).await?.rows_affected() == 1)
            }

            async fn set_active(&self, id: &str, active: bool) -> Result<bool, sqlx::Error> {
                let mut qb = Self::q("UPDATE users SET active = ");
                qb.push_bind(active);
                qb.push(" WHERE id = ");
                qb.push_bind(id.to_string());
                Ok(qb.build().execute(&self.pool).await?.rows_affected() == 1)
            }

            async fn touch_login(&self, id: &str, at: DateTime<Utc>) -> Result<(), sqlx::Error> {
                let mut qb = Self::q("UPDATE users SET last_login_at = ");
                qb.push_bind(at);
                qb.push(" WHERE id = ");
                qb.push_bind(id.to_string());
                qb.build().execute(&self.pool).await?;
                Ok(())
            }

            async fn create_session(
                &self,
                token_hash: &str,
                user_id: &str,
                now: DateTime<Utc>,
                expires_at: DateTime<Utc>,
            ) -> Result<(), sqlx::Error> {
                let mut qb = Self::q(
                    "INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at, expires_at) VALUES (",
                );
                let mut sep = qb.separated(", ");
                sep.push_bind(token_hash.to_string())
                    .push_bind(user_id.to_string())
                    .push_bind(now)
                    .push_bind(now)
                    .push_bind(expires_at);
                qb.push(")");
                qb.build().execute(&self.pool).await?;
                Ok(())
            }

            #[tracing::instrument(skip_all, err)]
            async fn session_user(
                &self,
                token_hash: &str,
                now: DateTime<Utc>,
                idle_cutoff: DateTime<Utc>,
            ) -> Result<Option<UserRow>, sqlx::Error> {
                let mut qb = Self::q("UPDATE sessions SET last_seen_at = ");
                qb.push_bind(now);
                qb.push(" WHERE token_hash = ");
                qb.push_bind(token_hash.to_string());
                qb.push(" AND expires_at > ");
                qb.push_bind(now);
                qb.push(" AND last_seen_at > ");
                qb.push_bind(idle_cutoff);
                if qb.build().execute(&self.pool).await?.rows_affected() == 0 {
                    return Ok(None);
                }
                let mut qb = Self::q(
                    "SELECT u.id, u.name, u.role, u.active, u.created_at, u.last_login_at \
                     FROM sessions s JOIN users u ON u.id = s.user_id \
                     WHERE u.active = TRUE AND s.token_hash = ",
                );
                qb.push_bind(token_hash.to_string());
                qb.build_query_as().fetch_optional(&self.pool).await
            }

            async fn delete_session(&self, token_hash: &str) -> Result<(), sqlx::Error> {
                let mut qb = Self::q("DELETE FROM sessions WHERE token_hash = ");
                qb.push_bind(token_hash.to_string());
                qb.build().execute(&self.pool).await?;
                Ok(())
            }

            async fn delete_sessions_of(&self, user_id: &str) -> Result<(), sqlx::Error> {
                let mut qb = Self::q("DELETE FROM sessions WHERE user_id = ");
                qb.push_bind(user_id.to_string());
                qb.build().execute(&self.pool).await?;
                Ok(())
            }

            async fn add_failure(
                &self,
                bucket: &str,
                window_start: DateTime<Utc>,
            ) -> Result<i64, sqlx::Error> {
                let mut qb =
                    Self::q("INSERT INTO login_failures (bucket, window_start, failures) VALUES (");
                qb.push_bind(bucket.to_string());
                qb.push(", ");
                qb.push_bind(window_start);
                qb.push(
                    ", 1) ON CONFLICT (bucket) DO UPDATE SET failures = login_failures.failures + 1 \
                     RETURNING failures",
                );
                let n: i32 = qb.build_query_scalar().fetch_one(&self.pool).await?;
                Ok(i64::from(n))
            }

            async fn failures(&self, bucket: &str) -> Result<i64, sqlx::Error> {
                let mut qb = Self::q("SELECT failures FROM login_failures WHERE bucket = ");
                qb.push_bind(bucket.to_string());
                let n: Option<i32> = qb.build_query_scalar().fetch_optional(&self.pool).await?;
                Ok(n.map(i64::from).unwrap_or(0))
            }

            async fn prune_failures(&self, before: DateTime<Utc>) -> Result<(), sqlx::Error> {
                let mut qb = Self::q("DELETE FROM login_failures WHERE window_start < ");
                qb.push_bind(before);
                qb.build().execute(&self.pool).await?;
                Ok(())
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
