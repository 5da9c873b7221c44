//! Reader sessions: started at sign-in, checked on each request, ended at sign-out, and
//! cleared by housekeeping once they (and emailed links) can no longer be used.

use kernel::secret::{hash_token, new_token};

use super::{span, ReaderError, Readers, SignedIn};

/// How long an expired link is kept, so that opening it says it expired.
const EXPIRED_LINKS_KEPT_DAYS: i64 = 30;

impl Readers {
    pub(super) async fn start_session(&self, account_id: &str) -> Result<SignedIn, ReaderError> {
        let token = new_token();
        let now = self.clock.now();
        self.store
            .create_session(
                &hash_token(&token),
                account_id,
                now,
                now + span(self.settings.session_max),
            )
            .await?;
        let first_name = self
            .store
            .account(account_id)
            .await?
            .map(|a| a.first_name)
            .ok_or(ReaderError::Gone)?;
        Ok(SignedIn { token, first_name })
    }

    /// The account of a live session token.
    pub async fn authenticate(&self, token: &str) -> Result<Option<String>, ReaderError> {
        if token.is_empty() || token.len() > 200 {
            return Ok(None);
        }
        let now = self.clock.now();
        Ok(self
            .store
            .session_account(
                &hash_token(token),
                now,
                now - span(self.settings.session_idle),
            )
            .await?)
    }

    /// Deletes sessions that can no longer be used, and links a month past their expiry (until
    /// then, opening one still says it expired rather than that it is unknown); returns how
    /// many rows went. Run by housekeeping.
    pub async fn delete_expired(&self) -> Result<u64, ReaderError> {
        let now = self.clock.now();
        Ok(self
            .store
            .delete_expired(
                now,
                now - span(self.settings.session_idle),
                now - chrono::Duration::days(EXPIRED_LINKS_KEPT_DAYS),
            )
            .await?)
    }

    pub async fn sign_out(&self, token: &str) -> Result<(), ReaderError> {
        Ok(self.store.delete_session(&hash_token(token)).await?)
    }
}
