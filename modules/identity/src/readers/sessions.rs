//! Reader sessions, through identity's one sessions mechanism: started at sign-in, ended at
//! sign-out and when the password changes; and the password checked again or changed.

use super::{check_new_password, hash_password, store, verify_password};
use super::{ReaderAuth, ReaderError, SignedIn};
use crate::principal::Kind;

impl ReaderAuth {
    pub(super) async fn start_session(&self, account_id: &str) -> Result<SignedIn, ReaderError> {
        let first_name = store::first_name(&self.db, account_id)
            .await?
            .ok_or(ReaderError::Gone)?;
        let token = self.sessions.start(Kind::Reader, account_id).await?;
        Ok(SignedIn { token, first_name })
    }

    /// Ends every session of the account but the one of `keep` (a token).
    pub(super) async fn end_sessions(
        &self,
        account_id: &str,
        keep: Option<&str>,
    ) -> Result<(), ReaderError> {
        Ok(self
            .sessions
            .end_all_of(Kind::Reader, account_id, keep)
            .await?)
    }

    pub async fn sign_out(&self, token: &str) -> Result<(), ReaderError> {
        Ok(self.sessions.end(Kind::Reader, token).await?)
    }

    /// Checks the account's password, asked again before a change that matters.
    pub async fn check_password(&self, id: &str, password: &str) -> Result<(), ReaderError> {
        let stored = store::password_hash(&self.db, id)
            .await?
            .ok_or(ReaderError::Gone)?;
        if password.chars().count() > 1024
            || !verify_password(password.to_string(), Some(stored)).await
        {
            return Err(ReaderError::WrongPassword);
        }
        Ok(())
    }

    /// Changes the password (the current one is asked again); every other session ends.
    pub async fn change_password(
        &self,
        id: &str,
        current: &str,
        password: &str,
        confirm: &str,
        session_token: &str,
    ) -> Result<(), ReaderError> {
        self.check_password(id, current).await?;
        check_new_password(password, confirm)?;
        let hash = hash_password(password.to_string()).await?;
        store::set_password(&self.db, id, &hash).await?;
        self.end_sessions(id, Some(session_token)).await
    }
}
