//! Reader sessions, through identity's one sessions mechanism: started at sign-in, ended at
//! sign-out and when the password changes.

use identity::Kind;

use super::{ReaderError, Readers, SignedIn};

impl Readers {
    pub(super) async fn start_session(&self, account_id: &str) -> Result<SignedIn, ReaderError> {
        let first_name = self
            .store
            .account(account_id)
            .await?
            .map(|a| a.first_name)
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

    /// The account of a live reader session token.
    pub async fn account_of(&self, token: &str) -> Result<Option<String>, ReaderError> {
        Ok(self.sessions.owner(Kind::Reader, token).await?)
    }

    pub async fn sign_out(&self, token: &str) -> Result<(), ReaderError> {
        Ok(self.sessions.end(Kind::Reader, token).await?)
    }
}
