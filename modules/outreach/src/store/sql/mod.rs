//! The outreach store in SQL: the same statements on both engines; an email is queued in the
//! transaction of what caused it. Each method's statements live with their feature: the notify
//! lists, applications and their documents, registration, and contact messages.

mod accounts;
mod applications;
mod contact;
mod lists;

pub(crate) use lists::{join_list, set_unsubscribed};

use super::*;

/// The store on either engine.
pub(super) struct SqlOutreachStore {
    pub(super) db: Db,
}

#[async_trait]
impl OutreachStore for SqlOutreachStore {
    #[tracing::instrument(target = "trace_only", name = "OutreachStore.subscribe", skip_all)]
    async fn subscribe(
        &self,
        list: NotifyList,
        email: &str,
        unsubscribe_hash: &str,
        now: DateTime<Utc>,
        confirmation: &Email,
    ) -> Result<bool, sqlx::Error> {
        lists::subscribe(&self.db, list, email, unsubscribe_hash, now, confirmation).await
    }

    #[tracing::instrument(target = "trace_only", name = "OutreachStore.unsubscribe", skip_all)]
    async fn unsubscribe(
        &self,
        unsubscribe_hash: &str,
        now: DateTime<Utc>,
    ) -> Result<bool, sqlx::Error> {
        lists::unsubscribe(&self.db, unsubscribe_hash, now).await
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "OutreachStore.unsubscribe_target",
        skip_all
    )]
    async fn unsubscribe_target(
        &self,
        unsubscribe_hash: &str,
    ) -> Result<Option<(String, bool)>, sqlx::Error> {
        lists::unsubscribe_target(self, unsubscribe_hash).await
    }

    #[tracing::instrument(target = "trace_only", name = "OutreachStore.resubscribe", skip_all)]
    async fn resubscribe(
        &self,
        unsubscribe_hash: &str,
        now: DateTime<Utc>,
        digest_hash: &str,
    ) -> Result<bool, sqlx::Error> {
        lists::resubscribe(&self.db, unsubscribe_hash, now, digest_hash).await
    }

    #[tracing::instrument(target = "trace_only", name = "OutreachStore.is_subscribed", skip_all)]
    async fn is_subscribed(&self, list: NotifyList, email: &str) -> Result<bool, sqlx::Error> {
        lists::is_subscribed(&self.db, list, email).await
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "OutreachStore.save_application",
        skip_all
    )]
    async fn save_application(
        &self,
        r: &ApplicationRow,
        emails: &[Email],
        linked: &[String],
    ) -> Result<(), sqlx::Error> {
        applications::save_application(&self.db, r, emails, linked).await
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "OutreachStore.linked_documents",
        skip_all
    )]
    async fn linked_documents(&self, id: &str) -> Result<Option<LinkedDocuments>, sqlx::Error> {
        applications::linked_documents(&self.db, id).await
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "OutreachStore.record_download",
        skip_all
    )]
    async fn record_download(
        &self,
        id: &str,
        field: &str,
        user: &str,
        at: DateTime<Utc>,
    ) -> Result<i64, sqlx::Error> {
        applications::record_download(&self.db, id, field, user, at).await
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "OutreachStore.expired_documents",
        skip_all
    )]
    async fn expired_documents(&self, now: DateTime<Utc>) -> Result<Vec<String>, sqlx::Error> {
        applications::expired_documents(&self.db, now).await
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "OutreachStore.forget_document",
        skip_all
    )]
    async fn forget_document(&self, key: &str) -> Result<(), sqlx::Error> {
        applications::forget_document(&self.db, key).await
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "OutreachStore.account_by_email",
        skip_all
    )]
    async fn account_by_email(&self, email: &str) -> Result<Option<ExistingAccount>, sqlx::Error> {
        accounts::account_by_email(&self.db, email).await
    }

    #[tracing::instrument(target = "trace_only", name = "OutreachStore.create_account", skip_all)]
    async fn create_account(
        &self,
        r: &AccountRow,
        token_hash: &str,
        expires_at: DateTime<Utc>,
        email: &Email,
    ) -> Result<bool, sqlx::Error> {
        accounts::create_account(&self.db, r, token_hash, expires_at, email).await
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "OutreachStore.add_confirmation",
        skip_all
    )]
    async fn add_confirmation(
        &self,
        account_id: &str,
        token_hash: &str,
        expires_at: DateTime<Utc>,
        email: &Email,
        signup_lists: Option<&str>,
    ) -> Result<(), sqlx::Error> {
        accounts::add_confirmation(
            &self.db,
            account_id,
            token_hash,
            expires_at,
            email,
            signup_lists,
        )
        .await
    }

    #[tracing::instrument(target = "trace_only", name = "OutreachStore.enqueue", skip_all)]
    async fn enqueue(&self, email: &Email) -> Result<(), sqlx::Error> {
        accounts::enqueue(&self.db, email).await
    }

    #[tracing::instrument(target = "trace_only", name = "OutreachStore.confirm", skip_all)]
    async fn confirm(
        &self,
        token_hash: &str,
        now: DateTime<Utc>,
        hashes: &SignupHashes,
    ) -> Result<Confirmation, sqlx::Error> {
        accounts::confirm(&self.db, token_hash, now, hashes).await
    }

    #[tracing::instrument(target = "trace_only", name = "OutreachStore.save_contact", skip_all)]
    async fn save_contact(&self, r: &ContactRow, email: &Email) -> Result<(), sqlx::Error> {
        contact::save_contact(&self.db, r, email).await
    }
}
