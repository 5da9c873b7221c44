//! The reader store in SQL: the same statements on both engines; an email is queued in the
//! transaction of what caused it. Each method's statements live with their feature: the account
//! row, the lists, and deletion.

mod account;
mod deletion;
mod lists;

use super::*;

/// The store on either engine.
pub(super) struct SqlReaderStore {
    pub(super) db: Db,
}

#[async_trait]
impl ReaderStore for SqlReaderStore {
    #[tracing::instrument(target = "trace_only", name = "ReaderStore.account", skip_all)]
    async fn account(&self, id: &str) -> Result<Option<AccountRecord>, sqlx::Error> {
        account::account(&self.db, id).await
    }

    #[tracing::instrument(target = "trace_only", name = "ReaderStore.update_profile", skip_all)]
    async fn update_profile(&self, id: &str, p: &Profile) -> Result<(), sqlx::Error> {
        account::update_profile(&self.db, id, p).await
    }

    #[tracing::instrument(target = "trace_only", name = "ReaderStore.set_list", skip_all)]
    async fn set_list(
        &self,
        list: NotifyList,
        email: &str,
        on: bool,
        unsubscribe_hash: &str,
        now: DateTime<Utc>,
    ) -> Result<(), sqlx::Error> {
        lists::set_list(&self.db, list, email, on, unsubscribe_hash, now).await
    }

    #[tracing::instrument(target = "trace_only", name = "ReaderStore.set_digest", skip_all)]
    async fn set_digest(
        &self,
        id: &str,
        on: bool,
        unsubscribe_hash: &str,
        now: DateTime<Utc>,
    ) -> Result<(), sqlx::Error> {
        lists::set_digest(&self.db, id, on, unsubscribe_hash, now).await
    }

    #[tracing::instrument(target = "trace_only", name = "ReaderStore.delete_account", skip_all)]
    async fn delete_account(
        &self,
        id: &str,
        email: &str,
        now: DateTime<Utc>,
    ) -> Result<(), sqlx::Error> {
        deletion::delete_account(&self.db, id, email, now).await
    }
}
