//! The reader store in SQL: the same statements on both engines; an email is queued in the
//! transaction of what caused it. Each method's statements live with their feature: emailed
//! links, the account row, the lists, and deletion.

mod account;
mod deletion;
mod links;
mod lists;

use super::*;

/// The store on either engine.
pub(super) struct SqlReaderStore {
    pub(super) db: Db,
}

#[async_trait]
impl ReaderStore for SqlReaderStore {
    #[tracing::instrument(target = "trace_only", name = "ReaderStore.credentials", skip_all)]
    async fn credentials(&self, email: &str) -> Result<Option<Credentials>, sqlx::Error> {
        account::credentials(&self.db, email).await
    }

    #[tracing::instrument(target = "trace_only", name = "ReaderStore.add_link", skip_all)]
    async fn add_link(
        &self,
        account_id: &str,
        purpose: LinkPurpose,
        token_hash: &str,
        expires_at: DateTime<Utc>,
        email: &Email,
    ) -> Result<(), sqlx::Error> {
        links::add_link(&self.db, account_id, purpose, token_hash, expires_at, email).await
    }

    #[tracing::instrument(target = "trace_only", name = "ReaderStore.use_link", skip_all)]
    async fn use_link(
        &self,
        purpose: LinkPurpose,
        token_hash: &str,
        now: DateTime<Utc>,
    ) -> Result<LinkUse, sqlx::Error> {
        links::use_link(&self.db, purpose, token_hash, now).await
    }

    #[tracing::instrument(target = "trace_only", name = "ReaderStore.account", skip_all)]
    async fn account(&self, id: &str) -> Result<Option<AccountRecord>, sqlx::Error> {
        account::account(&self.db, id).await
    }

    #[tracing::instrument(target = "trace_only", name = "ReaderStore.password_hash", skip_all)]
    async fn password_hash(&self, id: &str) -> Result<Option<String>, sqlx::Error> {
        account::password_hash(&self.db, id).await
    }

    #[tracing::instrument(target = "trace_only", name = "ReaderStore.update_profile", skip_all)]
    async fn update_profile(&self, id: &str, p: &Profile) -> Result<(), sqlx::Error> {
        account::update_profile(&self.db, id, p).await
    }

    #[tracing::instrument(target = "trace_only", name = "ReaderStore.set_password", skip_all)]
    async fn set_password(&self, id: &str, password_hash: &str) -> Result<(), sqlx::Error> {
        account::set_password(&self.db, id, password_hash).await
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
