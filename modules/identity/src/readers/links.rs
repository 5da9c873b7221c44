//! Emailed one-time links: asking for one (limited per address), signing in with one, and
//! setting a new password with a reset link.

use kernel::email::is_email;
use kernel::limiter::{Admission, Rule};
use kernel::outbox::Email;
use kernel::secret::{hash_token, new_token};
use kernel::Common;

use super::error::invalid;
use super::password::check_new_password;
use super::store::{self, LinkPurpose};
use super::{
    hash_password, span, ReaderAuth, ReaderError, SignedIn, RESET_PAGE, SIGN_IN_LINK_PAGE,
};

impl ReaderAuth {
    /// Counts a request for an emailed link from `client`; refuses it once the address asked
    /// too often within the sign-in failure window.
    pub async fn admit_link_request(&self, client: &str) -> Result<(), ReaderError> {
        let bucket = format!("reader-link:ip:{client}");
        match self
            .limiter
            .hit(Rule {
                bucket: &bucket,
                window: self.settings.failure_window,
                limit: Some(self.settings.failures_per_address),
            })
            .await?
        {
            Admission::Admitted { .. } => Ok(()),
            Admission::Refused { retry_after } => Err(ReaderError::RateLimited { retry_after }),
        }
    }

    /// Emails a sign-in (or reset) link to the account of `email`, if there is one; nothing
    /// otherwise. Callers answer the same either way, without waiting for this.
    pub async fn send_link(&self, purpose: LinkPurpose, email: &str) -> Result<(), ReaderError> {
        let email = email.trim().to_lowercase();
        let Some(account) = store::credentials(&self.db, &email).await? else {
            tracing::info!(
                purpose = purpose.token().as_str(),
                "link asked for an unknown address"
            );
            return Ok(());
        };
        let s = &self.settings;
        let token = new_token();
        let (ttl, page, subject, what) = match purpose {
            LinkPurpose::SignIn => (
                s.sign_in_link_ttl,
                SIGN_IN_LINK_PAGE,
                format!("Your sign-in link for {}", s.site_name),
                "sign in",
            ),
            LinkPurpose::Reset => (
                s.reset_link_ttl,
                RESET_PAGE,
                format!("Reset your password for {}", s.site_name),
                "choose a new password",
            ),
        };
        let minutes = ttl.as_secs() / 60;
        let link = format!("{}{page}?token={token}", s.site_url);
        let mail = Email {
            html: None,
            to: vec![email.clone()],
            reply_to: None,
            subject,
            body: format!(
                "Hi,\n\nOpen this link to {what} at {} (it works once and expires in \
                 {minutes} minutes):\n{link}\n\nIf you did not ask for this, ignore this email: \
                 nothing changes.\n",
                s.site_name
            ),
            attachments: vec![],
            list_unsubscribe: None,
        };
        let expires_at = self.clock.now() + span(ttl);
        store::add_link(
            &self.db,
            &account.id,
            purpose,
            &hash_token(&token),
            expires_at,
            &mail,
        )
        .await?;
        Ok(())
    }

    /// Signs in with an emailed link (once).
    pub async fn use_sign_in_link(&self, token: &str) -> Result<SignedIn, ReaderError> {
        if token.is_empty() || token.len() > 200 {
            return Err(ReaderError::LinkInvalid);
        }
        let now = self.clock.now();
        match store::use_link(&self.db, LinkPurpose::SignIn, &hash_token(token), now).await? {
            Some(account) => self.start_session(&account).await,
            None => Err(ReaderError::LinkInvalid),
        }
    }

    /// Sets a new password with a reset link (once); every other session ends, and the
    /// reader is signed in.
    pub async fn reset_password(
        &self,
        token: &str,
        password: &str,
        confirm: &str,
    ) -> Result<SignedIn, ReaderError> {
        check_new_password(password, confirm)?;
        if token.is_empty() || token.len() > 200 {
            return Err(ReaderError::LinkInvalid);
        }
        let now = self.clock.now();
        let Some(account) =
            store::use_link(&self.db, LinkPurpose::Reset, &hash_token(token), now).await?
        else {
            return Err(ReaderError::LinkInvalid);
        };
        let hash = hash_password(password.to_string()).await?;
        store::set_password(&self.db, &account, &hash).await?;
        self.end_sessions(&account, None).await?;
        tracing::info!(%account, "reader password reset");
        self.start_session(&account).await
    }
}

/// The address of a "send me a link" form, checked before anything else happens.
pub fn checked_email(sent: &str) -> Result<String, ReaderError> {
    let email = sent.trim().to_lowercase();
    if email.is_empty() {
        return Err(invalid(
            Common::EmailRequired,
            "Please enter your email address.",
        ));
    }
    if sent.chars().count() > kernel::text::MAX_EMAIL_CHARS || !is_email(&email) {
        return Err(invalid(Common::InvalidEmail, kernel::email::INVALID_EMAIL));
    }
    Ok(email)
}
