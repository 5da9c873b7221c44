//! The identity service other modules call.

use std::collections::HashMap;
use std::sync::Arc;

use crate::model::Role;
use crate::store::IdentityStore;

pub struct IdentityService {
    store: Arc<dyn IdentityStore>,
}

impl IdentityService {
    pub fn new(store: Arc<dyn IdentityStore>) -> Self {
        Self { store }
    }

    /// Display names of the given users (unknown ids are left out).
    pub async fn names(&self, ids: &[String]) -> Result<HashMap<String, String>, sqlx::Error> {
        Ok(self.store.names(ids).await?.into_iter().collect())
    }

    /// The id of the active user with this name and role, created when missing (demo data).
    pub async fn ensure_user(&self, name: &str, role: Role) -> Result<String, sqlx::Error> {
        if let Some(id) = self.store.find_by_name_role(name, role.as_str()).await? {
            return Ok(id);
        }
        let id = kernel::ids::new_id();
        self.store
            .insert(&id, name, role.as_str(), kernel::ids::now())
            .await?;
        Ok(id)
    }

    pub async fn count(&self) -> Result<i64, sqlx::Error> {
        self.store.count().await
    }
}
