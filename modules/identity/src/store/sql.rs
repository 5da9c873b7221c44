//! The identity store in SQL: the same statements on both engines, the few locks PostgreSQL
//! needs passed in.

use super::*;

const USER_COLUMNS: &str = "id, name, role, active, created_at, last_login_at";

/// `$lock_admins`: an optional statement run first in the transaction of `deactivate`. SQLite
/// needs none: one write statement runs alone, under the database's single write lock.
/// PostgreSQL needs it: under READ COMMITTED, two conditional writes of different rows do not
/// see each other.
macro_rules! sql_identity_store {
    ($name:ident, $db:ty, $pool:ty, $lock_admins:expr) => {
        pub struct $name {
            pub(crate) pool: $pool,
        }

        impl $name {
            fn q(sql: impl Into<String>) -> sqlx::QueryBuilder<'static, $db> {
                sqlx::QueryBuilder::new(sql.into())
            }
        }

        #[async_trait]
        impl IdentityStore for $name {
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

            async fn notices(
                &self,
                id: &str,
            ) -> Result<Option<(Option<String>, bool)>, sqlx::Error> {
                let mut qb = Self::q("SELECT email, notify_email FROM users WHERE id = ");
                qb.push_bind(id.to_string());
                qb.build_query_as().fetch_optional(&self.pool).await
            }

            async fn set_notices(
                &self,
                id: &str,
                email: Option<&str>,
                notify: bool,
            ) -> Result<bool, sqlx::Error> {
                let mut qb = Self::q("UPDATE users SET email = ");
                qb.push_bind(email.map(str::to_string));
                qb.push(", notify_email = ");
                qb.push_bind(notify);
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

            async fn delete_expired_sessions(
                &self,
                now: DateTime<Utc>,
                idle_cutoff: DateTime<Utc>,
            ) -> Result<u64, sqlx::Error> {
                let mut qb = Self::q("DELETE FROM sessions WHERE expires_at <= ");
                qb.push_bind(now);
                qb.push(" OR last_seen_at <= ");
                qb.push_bind(idle_cutoff);
                Ok(qb.build().execute(&self.pool).await?.rows_affected())
            }

            async fn delete_sessions_of(&self, user_id: &str) -> Result<(), sqlx::Error> {
                let mut qb = Self::q("DELETE FROM sessions WHERE user_id = ");
                qb.push_bind(user_id.to_string());
                qb.build().execute(&self.pool).await?;
                Ok(())
            }

            async fn deactivate(&self, id: &str) -> Result<Deactivation, sqlx::Error> {
                let mut tx = self.pool.begin().await?;
                if let Some(lock) = $lock_admins {
                    sqlx::query(lock).execute(&mut *tx).await?;
                }
                let mut qb = Self::q(
                    "UPDATE users SET active = FALSE WHERE id = ",
                );
                qb.push_bind(id.to_string());
                qb.push(
                    " AND (role <> 'admin' OR active = FALSE OR EXISTS (SELECT 1 FROM users o \
                     WHERE o.role = 'admin' AND o.active = TRUE AND o.id <> ",
                );
                qb.push_bind(id.to_string());
                qb.push("))");
                let changed = qb.build().execute(&mut *tx).await?.rows_affected() == 1;
                tx.commit().await?;
                if changed {
                    Ok(Deactivation::Done)
                } else if self.user(id).await?.is_some() {
                    Ok(Deactivation::LastAdmin)
                } else {
                    Ok(Deactivation::NotFound)
                }
            }
        }
    };
}

pub(super) mod sqlite {
    use super::*;
    sql_identity_store!(
        SqliteIdentityStore,
        sqlx::Sqlite,
        sqlx::SqlitePool,
        None::<&'static str>
    );
}

pub(super) mod postgres {
    use super::*;
    /// Locks the active admins' rows (in one order, so two callers cannot deadlock); a
    /// concurrent `deactivate` waits, then sees this one's change.
    const LOCK_ADMINS: &str =
        "SELECT id FROM users WHERE role = 'admin' AND active = TRUE ORDER BY id FOR UPDATE";
    sql_identity_store!(
        PgIdentityStore,
        sqlx::Postgres,
        sqlx::PgPool,
        Some(LOCK_ADMINS)
    );
}
