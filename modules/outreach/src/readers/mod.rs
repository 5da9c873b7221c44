//! Reader accounts once registered: sign-in with a password or an emailed one-time link,
//! password reset, the account page (profile, interests, subscriptions, password, data
//! download, deletion). Reader sessions live apart from staff sessions (their own table and
//! cookie), so neither kind ever opens the other's doors.

mod api;
mod guard;
mod model;
mod password;
mod store;

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use kernel::clock::SharedClock;
use kernel::limiter::{Admission, Limiter, Rule};
use kernel::outbox::Email;
use kernel::secret::{hash_token, new_token};
use kernel::ErrorCode;

pub use api::ReaderApi;
pub use guard::READER_COOKIE;
pub(crate) use password::{hash as hash_password, verify as verify_password};
pub use store::{reader_store_for, ReaderStore};

use crate::accounts::INTERESTS;
use crate::model::NotifyList;
use kernel::email::is_email;
use model::{Account, ProfileInput, Subscriptions};
pub(crate) use model::{LinkRequest, LinkToken};
use store::{LinkPurpose, LinkUse, Profile};

/// Where the emailed links lead (`?token=…`): pages of the site.
pub const SIGN_IN_LINK_PAGE: &str = "/email/sign-in";
pub const RESET_PAGE: &str = "/reset-password";

#[derive(Debug, Clone)]
pub struct ReaderSettings {
    pub site_url: String,
    pub site_name: String,
    /// Mark the cookie `Secure` (the site is served over https).
    pub secure_cookie: bool,
    /// A session ends after this long without a request…
    pub session_idle: Duration,
    /// …and this long after sign-in, whatever happens.
    pub session_max: Duration,
    /// How long an emailed sign-in link works.
    pub sign_in_link_ttl: Duration,
    /// How long a password reset link works.
    pub reset_link_ttl: Duration,
    /// Failed sign-ins allowed per client address, and per account, within `failure_window`.
    pub failures_per_address: i64,
    pub failures_per_account: i64,
    pub failure_window: Duration,
}

impl ReaderSettings {
    pub fn for_site(site_url: &str) -> Self {
        ReaderSettings {
            site_url: site_url.trim_end_matches('/').to_string(),
            site_name: "The Agora".into(),
            secure_cookie: site_url.starts_with("https://"),
            session_idle: Duration::from_secs(14 * 24 * 3600),
            session_max: Duration::from_secs(60 * 24 * 3600),
            sign_in_link_ttl: Duration::from_secs(20 * 60),
            reset_link_ttl: Duration::from_secs(3600),
            failures_per_address: 10,
            failures_per_account: 10,
            failure_window: Duration::from_secs(15 * 60),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ReaderError {
    /// Something the reader typed, with the message to show next to it.
    #[error("{message}")]
    Invalid { code: ErrorCode, message: String },
    #[error("Invalid email or password.")]
    InvalidCredentials,
    #[error("Please confirm your email address first: follow the link we emailed you, or ask for a new one.")]
    Unconfirmed,
    #[error("This link has expired or has already been used. Please ask for a new one.")]
    LinkInvalid,
    #[error("Your current password is not right.")]
    WrongPassword,
    #[error("Too many failed attempts. Try again in {retry_after} seconds.")]
    RateLimited { retry_after: u64 },
    #[error("the account no longer exists")]
    Gone,
    #[error(transparent)]
    Outreach(#[from] crate::service::OutreachError),
    #[error(transparent)]
    Unexpected(sqlx::Error),
}

impl From<sqlx::Error> for ReaderError {
    fn from(e: sqlx::Error) -> Self {
        kernel::http::note_database_error(&e);
        ReaderError::Unexpected(e)
    }
}

impl ReaderError {
    /// The code of an `Invalid` error (others never reach a form's field).
    pub(crate) fn code(&self) -> ErrorCode {
        match self {
            ReaderError::Invalid { code, .. } => *code,
            _ => ErrorCode::InvalidRequest,
        }
    }
}

fn invalid(code: ErrorCode, message: impl Into<String>) -> ReaderError {
    ReaderError::Invalid {
        code,
        message: message.into(),
    }
}

/// The rules of a new password (registration's).
pub(crate) fn new_password_problem(
    password: &str,
    confirm: &str,
) -> Option<(ErrorCode, &'static str)> {
    let chars = password.chars().count();
    if password != confirm {
        Some((ErrorCode::PasswordMismatch, "Passwords do not match."))
    } else if chars < crate::accounts::MIN_PASSWORD_CHARS {
        Some((
            ErrorCode::PasswordTooShort,
            "Password must be at least 6 characters long.",
        ))
    } else if chars > crate::accounts::MAX_PASSWORD_CHARS {
        Some((
            ErrorCode::PasswordTooLong,
            "Password must be at most 128 characters long.",
        ))
    } else {
        None
    }
}

fn check_new_password(password: &str, confirm: &str) -> Result<(), ReaderError> {
    match new_password_problem(password, confirm) {
        Some((code, message)) => Err(invalid(code, message)),
        None => Ok(()),
    }
}

/// How long an expired link is kept, so that opening it says it expired.
const EXPIRED_LINKS_KEPT_DAYS: i64 = 30;

fn span(d: Duration) -> chrono::Duration {
    chrono::Duration::from_std(d).unwrap_or(chrono::Duration::hours(1))
}

/// A new session: the cookie's token, and whose it is.
#[derive(Debug, Clone)]
pub struct SignedIn {
    pub token: String,
    pub first_name: String,
}

pub struct Readers {
    store: Arc<dyn ReaderStore>,
    settings: ReaderSettings,
    limiter: Limiter,
    clock: SharedClock,
}

impl Readers {
    pub fn new(
        store: Arc<dyn ReaderStore>,
        settings: ReaderSettings,
        limiter: Limiter,
        clock: SharedClock,
    ) -> Self {
        Readers {
            store,
            settings,
            limiter,
            clock,
        }
    }

    pub fn settings(&self) -> &ReaderSettings {
        &self.settings
    }

    async fn start_session(&self, account_id: &str) -> Result<SignedIn, ReaderError> {
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
                ErrorCode::MissingInformation,
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
        let found = self.store.credentials(&email).await?;
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
        let Some(account) = self.store.credentials(&email).await? else {
            tracing::info!(
                purpose = purpose.as_str(),
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
        self.store
            .add_link(&account.id, purpose, &hash_token(&token), expires_at, &mail)
            .await?;
        Ok(())
    }

    /// Signs in with an emailed link (once).
    pub async fn use_sign_in_link(&self, token: &str) -> Result<SignedIn, ReaderError> {
        if token.is_empty() || token.len() > 200 {
            return Err(ReaderError::LinkInvalid);
        }
        match self
            .store
            .use_link(LinkPurpose::SignIn, &hash_token(token), self.clock.now())
            .await?
        {
            LinkUse::Used(account) => self.start_session(&account).await,
            LinkUse::Invalid => Err(ReaderError::LinkInvalid),
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
        let account = match self
            .store
            .use_link(LinkPurpose::Reset, &hash_token(token), self.clock.now())
            .await?
        {
            LinkUse::Used(account) => account,
            LinkUse::Invalid => return Err(ReaderError::LinkInvalid),
        };
        let hash = hash_password(password.to_string()).await?;
        self.store.set_password(&account, &hash).await?;
        self.store.delete_sessions_of(&account, None).await?;
        tracing::info!(%account, "reader password reset");
        self.start_session(&account).await
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

    pub async fn account(&self, id: &str) -> Result<Account, ReaderError> {
        let a = self.store.account(id).await?.ok_or(ReaderError::Gone)?;
        Ok(Account {
            first_name: a.first_name,
            last_name: a.last_name,
            email: a.email,
            age: a.age,
            country: a.country,
            interests: serde_json::from_str(&a.interests).unwrap_or_default(),
            created_at: a.created_at,
            subscriptions: Subscriptions {
                magazine: a.magazine_since.is_some(),
                packs: a.packs_since.is_some(),
                digest: a.digest_since.is_some(),
            },
        })
    }

    pub async fn update_profile(
        &self,
        id: &str,
        input: ProfileInput,
    ) -> Result<Account, ReaderError> {
        let first = input.first_name.trim().to_string();
        let last = input.last_name.trim().to_string();
        if first.is_empty() || last.is_empty() {
            return Err(invalid(
                ErrorCode::MissingInformation,
                "Please fill in your first and last name.",
            ));
        }
        let country = Some(input.country.trim())
            .filter(|c| !c.is_empty())
            .map(str::to_string);
        // Counted as sent, as the contract states them.
        for (field, value) in [
            ("first name", input.first_name.as_str()),
            ("last name", input.last_name.as_str()),
            ("country", input.country.as_str()),
        ] {
            if value.chars().count() > 100 {
                return Err(invalid(
                    ErrorCode::TooLong,
                    format!("The {field} must be at most 100 characters."),
                ));
            }
        }
        let mut interests: Vec<String> = Vec::new();
        for i in input.interests.into_iter().map(String::from) {
            if !INTERESTS.contains(&i.as_str()) {
                return Err(invalid(
                    ErrorCode::UnknownInterest,
                    "Please choose interests from the list.",
                ));
            }
            if !interests.contains(&i) {
                interests.push(i);
            }
        }
        self.store
            .update_profile(
                id,
                &Profile {
                    first_name: first,
                    last_name: last,
                    country,
                    interests: serde_json::to_string(&interests).unwrap_or_else(|_| "[]".into()),
                },
            )
            .await?;
        self.account(id).await
    }

    pub async fn set_subscriptions(
        &self,
        id: &str,
        wanted: Subscriptions,
    ) -> Result<Account, ReaderError> {
        let account = self.account(id).await?;
        let now = self.clock.now();
        for (list, on) in [
            (NotifyList::Magazine, wanted.magazine),
            (NotifyList::Packs, wanted.packs),
        ] {
            self.store
                .set_list(list, &account.email, on, &hash_token(&new_token()), now)
                .await?;
        }
        self.store
            .set_digest(id, wanted.digest, &hash_token(&new_token()), now)
            .await?;
        self.account(id).await
    }

    async fn check_password(&self, id: &str, password: &str) -> Result<(), ReaderError> {
        let stored = self
            .store
            .password_hash(id)
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
        self.store.set_password(id, &hash).await?;
        self.store
            .delete_sessions_of(id, Some(&hash_token(session_token)))
            .await?;
        Ok(())
    }

    /// Everything kept about the account, as its owner may download it.
    pub async fn export(&self, id: &str) -> Result<serde_json::Value, ReaderError> {
        let a = self.store.account(id).await?.ok_or(ReaderError::Gone)?;
        let sessions = self.store.sessions_of(id).await?;
        let interests: Vec<String> = serde_json::from_str(&a.interests).unwrap_or_default();
        let iso = |d: Option<DateTime<Utc>>| d.map(|d| d.to_rfc3339());
        Ok(serde_json::json!({
            "site": self.settings.site_url,
            "exported_at": self.clock.now().to_rfc3339(),
            "account": {
                "first_name": a.first_name,
                "last_name": a.last_name,
                "email": a.email,
                "age": a.age,
                "country": a.country,
                "interests": interests,
                "registered_at": a.created_at.to_rfc3339(),
                "confirmed_at": iso(a.confirmed_at),
            },
            "subscriptions": {
                "magazine_launch_since": iso(a.magazine_since),
                "packs_launch_since": iso(a.packs_since),
                "weekly_digest_since": iso(a.digest_since),
            },
            "sessions": sessions.iter().map(|s| serde_json::json!({
                "signed_in_at": s.created_at.to_rfc3339(),
                "last_seen_at": s.last_seen_at.to_rfc3339(),
            })).collect::<Vec<_>>(),
            "note": "The password is kept only as a one-way hash and is not included.",
        }))
    }

    /// Deletes the account (its password asked again) with its sessions, links and list
    /// entries, at once.
    pub async fn delete(&self, id: &str, password: &str) -> Result<(), ReaderError> {
        self.check_password(id, password).await?;
        let a = self.store.account(id).await?.ok_or(ReaderError::Gone)?;
        self.store
            .delete_account(id, &a.email, self.clock.now())
            .await?;
        tracing::info!(account = %id, "reader account deleted");
        Ok(())
    }
}

/// The address of a "send me a link" form, checked before anything else happens.
pub(crate) fn checked_email(sent: &str) -> Result<String, ReaderError> {
    let email = sent.trim().to_lowercase();
    if email.is_empty() {
        return Err(invalid(
            ErrorCode::EmailRequired,
            "Please enter your email address.",
        ));
    }
    if sent.chars().count() > kernel::text::MAX_EMAIL_CHARS || !is_email(&email) {
        return Err(invalid(
            ErrorCode::InvalidEmail,
            "Please enter a valid email address.",
        ));
    }
    Ok(email)
}
