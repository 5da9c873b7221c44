//! Signing in with email and password, its failures limited per address and per account.

use kernel::limiter::{Admission, Rule};
use kernel::secret::hash_token;
use kernel::Common;

use super::error::invalid;
use super::{store, verify_password, ReaderAuth, ReaderError, SignedIn};

impl ReaderAuth {
    /// Signs in with email and password from `client` (an address). Failures are limited per
    /// address and per account; an unknown address costs as much time as a wrong password.
    #[tracing::instrument(skip(self, email, password))]
    pub async fn sign_in(
        &self,
        email: &str,
        password: &str,
        client: &str,
    ) -> Result<SignedIn, ReaderError> {
        let email = email.trim().to_lowercase();
        if email.is_empty() || password.is_empty() {
            return Err(invalid(
                Common::MissingInformation,
                "Please enter your email and password.",
            ));
        }
        if email.chars().count() > 254 || password.chars().count() > 1024 {
            return Err(ReaderError::InvalidCredentials);
        }
        let window = self.settings.failure_window;
        let mut hits = Vec::new();
        for (bucket, limit) in [
            (
                format!("reader-sign-in:ip:{client}"),
                self.settings.failures_per_address,
            ),
            (
                format!("reader-sign-in:account:{}", hash_token(&email)),
                self.settings.failures_per_account,
            ),
        ] {
            match self
                .limiter
                .hit(Rule {
                    bucket: &bucket,
                    window,
                    limit: Some(limit),
                })
                .await?
            {
                Admission::Admitted { hit, .. } => hits.push(hit),
                Admission::Refused { retry_after } => {
                    self.limiter.forget(&hits).await?;
                    return Err(ReaderError::RateLimited { retry_after });
                }
            }
        }
        let found = store::credentials(&self.db, &email).await?;
        let ok = verify_password(
            password.to_string(),
            found.as_ref().map(|c| c.password_hash.clone()),
        )
        .await;
        let Some(account) = found.filter(|_| ok) else {
            tracing::info!(client, "failed reader sign-in");
            return Err(ReaderError::InvalidCredentials);
        };
        self.limiter.forget(&hits).await?;
        if !account.confirmed {
            return Err(ReaderError::Unconfirmed);
        }
        tracing::info!(account = %account.id, "reader signed in");
        self.start_session(&account.id).await
    }
}
