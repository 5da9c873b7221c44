//! The identity store in SQL: the same statements on both engines, and the one lock
//! PostgreSQL needs.

use super::*;

const USER_COLUMNS: &str = "id, name, role, active, created_at, last_login_at";

/// Locks the active admins' rows on PostgreSQL, first in the transaction of `deactivate` (in
/// one order, so two callers cannot deadlock; a concurrent `deactivate` waits, then sees this
/// one's change). Under READ COMMITTED, two conditional writes of different rows do not see
/// each other. SQLite needs none: one write statement runs alone, under the database's single
/// write lock.
const PG_LOCK_ADMINS: &str =
    "SELECT id FROM users WHERE role = 'admin' AND active = TRUE ORDER BY id FOR UPDATE";

/// The store on either engine.
pub(super) struct SqlIdentityStore {
    pub(super) db: Db,
}

#[async_trait]
impl IdentityStore for SqlIdentityStore {
    #[tracing::instrument(target = "trace_only", name = "IdentityStore.names", skip_all)]
    async fn names(&self, ids: &[String]) -> Result<Vec<(String, String)>, sqlx::Error> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut q = self.db.sql("SELECT id, name FROM users WHERE id IN (");
        q.bind_list(ids.to_vec()).push(")");
        q.fetch_all(&self.db).await
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "IdentityStore.find_by_name_role",
        skip_all
    )]
    async fn find_by_name_role(
        &self,
        name: &str,
        role: &str,
    ) -> Result<Option<String>, sqlx::Error> {
        let mut q = self.db.sql("SELECT id FROM users WHERE name = ");
        q.bind(name.to_string());
        q.push(" AND role = ");
        q.bind(role.to_string());
        q.push(" ORDER BY created_at LIMIT 1");
        q.scalar_optional(&self.db).await
    }

    #[tracing::instrument(target = "trace_only", name = "IdentityStore.insert", skip_all)]
    async fn insert(
        &self,
        id: &str,
        name: &str,
        role: &str,
        created_at: DateTime<Utc>,
    ) -> Result<(), sqlx::Error> {
        let mut q = self
            .db
            .sql("INSERT INTO users (id, name, role, created_at) VALUES (");
        q.separated()
            .bind(id.to_string())
            .bind(name.to_string())
            .bind(role.to_string())
            .bind(created_at);
        q.push(")");
        q.execute(&self.db).await?;
        Ok(())
    }

    #[tracing::instrument(target = "trace_only", name = "IdentityStore.count", skip_all)]
    async fn count(&self) -> Result<i64, sqlx::Error> {
        self.db
            .sql("SELECT COUNT(*) FROM users")
            .scalar(&self.db)
            .await
    }

    #[tracing::instrument(target = "trace_only", name = "IdentityStore.user", skip_all)]
    async fn user(&self, id: &str) -> Result<Option<UserRow>, sqlx::Error> {
        let mut q = self
            .db
            .sql(&format!("SELECT {USER_COLUMNS} FROM users WHERE id = "));
        q.bind(id.to_string());
        q.fetch_optional(&self.db).await
    }

    #[tracing::instrument(target = "trace_only", name = "IdentityStore.users", skip_all)]
    async fn users(&self) -> Result<Vec<UserRow>, sqlx::Error> {
        self.db
            .sql(&format!(
                "SELECT {USER_COLUMNS} FROM users ORDER BY role, name"
            ))
            .fetch_all(&self.db)
            .await
    }

    #[tracing::instrument(target = "trace_only", name = "IdentityStore.user_by_key", skip_all)]
    async fn user_by_key(&self, key_hash: &str) -> Result<Option<UserRow>, sqlx::Error> {
        let mut q = self.db.sql(&format!(
            "SELECT {USER_COLUMNS} FROM users WHERE active = TRUE AND key_hash = "
        ));
        q.bind(key_hash.to_string());
        q.fetch_optional(&self.db).await
    }

    #[tracing::instrument(target = "trace_only", name = "IdentityStore.set_key_hash", skip_all)]
    async fn set_key_hash(&self, id: &str, key_hash: &str) -> Result<bool, sqlx::Error> {
        let mut q = self.db.sql("UPDATE users SET key_hash = ");
        q.bind(key_hash.to_string());
        q.push(" WHERE id = ");
        q.bind(id.to_string());
        Ok(q.execute(&self.db).await? == 1)
    }

    #[tracing::instrument(target = "trace_only", name = "IdentityStore.set_active", skip_all)]
    async fn set_active(&self, id: &str, active: bool) -> Result<bool, sqlx::Error> {
        let mut q = self.db.sql("UPDATE users SET active = ");
        q.bind(active);
        q.push(" WHERE id = ");
        q.bind(id.to_string());
        Ok(q.execute(&self.db).await? == 1)
    }

    #[tracing::instrument(target = "trace_only", name = "IdentityStore.notices", skip_all)]
    async fn notices(&self, id: &str) -> Result<Option<(Option<String>, bool)>, sqlx::Error> {
        let mut q = self
            .db
            .sql("SELECT email, notify_email FROM users WHERE id = ");
        q.bind(id.to_string());
        q.fetch_optional(&self.db).await
    }

    #[tracing::instrument(target = "trace_only", name = "IdentityStore.set_notices", skip_all)]
    async fn set_notices(
        &self,
        id: &str,
        email: Option<&str>,
        notify: bool,
    ) -> Result<bool, sqlx::Error> {
        let mut q = self.db.sql("UPDATE users SET email = ");
        q.bind(email.map(str::to_string));
        q.push(", notify_email = ");
        q.bind(notify);
        q.push(" WHERE id = ");
        q.bind(id.to_string());
        Ok(q.execute(&self.db).await? == 1)
    }

    #[tracing::instrument(target = "trace_only", name = "IdentityStore.touch_login", skip_all)]
    async fn touch_login(&self, id: &str, at: DateTime<Utc>) -> Result<(), sqlx::Error> {
        let mut q = self.db.sql("UPDATE users SET last_login_at = ");
        q.bind(at);
        q.push(" WHERE id = ");
        q.bind(id.to_string());
        q.execute(&self.db).await?;
        Ok(())
    }

    #[tracing::instrument(target = "trace_only", name = "IdentityStore.deactivate", skip_all)]
    async fn deactivate(&self, id: &str) -> Result<Deactivation, sqlx::Error> {
        let mut tx = self.db.begin().await?;
        if self.db.is_postgres() {
            self.db.sql(PG_LOCK_ADMINS).execute(&mut tx).await?;
        }
        let mut q = self.db.sql("UPDATE users SET active = FALSE WHERE id = ");
        q.bind(id.to_string());
        q.push(
            " AND (role <> 'admin' OR active = FALSE OR EXISTS (SELECT 1 FROM users o \
             WHERE o.role = 'admin' AND o.active = TRUE AND o.id <> ",
        );
        q.bind(id.to_string());
        q.push("))");
        let changed = q.execute(&mut tx).await? == 1;
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
