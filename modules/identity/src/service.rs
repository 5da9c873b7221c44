//! The identity service: staff accounts and keys, sign-in with its limits, sessions.

use std::sync::Arc;

use chrono::Duration as ChronoDuration;

use kernel::clock::SharedClock;
use kernel::limiter::{Admission, Limiter, Rule};
use kernel::Db;

use crate::keys::{new_access_key, KeyHasher};
use crate::model::{Role, StaffNotices, StaffRecord, StaffUser, Writer};
use crate::principal::{Kind, Reader};
use crate::profiles::{profile_store_for, Profiles};
use crate::sessions::Sessions;
use crate::settings::IdentitySettings;
use crate::store::{store_for, Deactivation, IdentityStore, UserRow};
use crate::tokens;

mod profiles;

pub const MAX_NAME_CHARS: usize = 100;

#[derive(Debug, thiserror::Error)]
pub enum IdentityError {
    #[error("Invalid access key.")]
    InvalidKey,
    #[error("Too many failed attempts. Try again in {retry_after} seconds.")]
    RateLimited { retry_after: u64 },
    #[error("{0}")]
    Invalid(String),
    #[error("no such staff member")]
    NotFound,
    #[error("The last active admin cannot be disabled.")]
    LastAdmin,
    #[error(transparent)]
    Unexpected(sqlx::Error),
}

impl From<sqlx::Error> for IdentityError {
    fn from(e: sqlx::Error) -> Self {
        kernel::http::note_database_error(&e);
        IdentityError::Unexpected(e)
    }
}

pub struct IdentityService {
    db: Db,
    store: Arc<dyn IdentityStore>,
    profiles: Profiles,
    sessions: Arc<Sessions>,
    hasher: KeyHasher,
    settings: IdentitySettings,
    limiter: Limiter,
    clock: SharedClock,
}

fn user(row: UserRow) -> Option<StaffUser> {
    Some(StaffUser {
        role: Role::parse(&row.role)?,
        id: row.id,
        name: row.name,
    })
}

impl IdentityService {
    pub fn new(db: &Db, settings: IdentitySettings, limiter: Limiter, clock: SharedClock) -> Self {
        Self {
            db: db.clone(),
            store: store_for(db),
            profiles: Profiles::new(profile_store_for(db)),
            sessions: Arc::new(Sessions::new(
                db.clone(),
                clock.clone(),
                settings.staff_sessions,
                settings.reader_sessions,
            )),
            hasher: KeyHasher::new(settings.key_secret.expose().clone().into_bytes()),
            settings,
            limiter,
            clock,
        }
    }

    pub fn settings(&self) -> &IdentitySettings {
        &self.settings
    }

    /// The sessions of both kinds of principal.
    pub fn sessions(&self) -> &Arc<Sessions> {
        &self.sessions
    }

    /// The id of the user with this name and role, created (without a key) when missing.
    pub async fn ensure_user(&self, name: &str, role: Role) -> Result<String, IdentityError> {
        if let Some(id) = self.store.find_by_name_role(name, role.as_str()).await? {
            return Ok(id);
        }
        let id = kernel::ids::new_id();
        self.store
            .insert(&id, name, role.as_str(), self.clock.now())
            .await?;
        Ok(id)
    }

    pub async fn count(&self) -> Result<i64, IdentityError> {
        Ok(self.store.count().await?)
    }

    /// Creates a staff member; returns them and their access key (shown once).
    pub async fn add_staff(
        &self,
        name: &str,
        role: Role,
    ) -> Result<(StaffUser, String), IdentityError> {
        // Counted as sent, as the contract states it; kept trimmed.
        if name.chars().count() > MAX_NAME_CHARS {
            return Err(IdentityError::Invalid(format!(
                "The name must be at most {MAX_NAME_CHARS} characters."
            )));
        }
        let name = name.trim();
        if name.is_empty() {
            return Err(IdentityError::Invalid("A name is required.".into()));
        }
        let id = kernel::ids::new_id();
        self.store
            .insert(&id, name, role.as_str(), self.clock.now())
            .await?;
        let key = new_access_key();
        self.store
            .set_key_hash(&id, &self.hasher.hash_key(&key))
            .await?;
        Ok((
            StaffUser {
                id,
                name: name.to_string(),
                role,
            },
            key,
        ))
    }

    /// Gives a staff member a new key; the old one and every session stop working.
    pub async fn rotate_key(&self, id: &str) -> Result<String, IdentityError> {
        let key = new_access_key();
        if !self
            .store
            .set_key_hash(id, &self.hasher.hash_key(&key))
            .await?
        {
            return Err(IdentityError::NotFound);
        }
        self.sessions.end_all_of(Kind::Staff, id, None).await?;
        Ok(key)
    }

    /// Disables or re-enables a staff member; disabling ends their sessions. The last active
    /// admin cannot be disabled, even by two admins disabling each other at the same moment:
    /// the check and the change are one atomic step in the database.
    pub async fn set_active(&self, id: &str, active: bool) -> Result<(), IdentityError> {
        if active {
            return if self.store.set_active(id, true).await? {
                Ok(())
            } else {
                Err(IdentityError::NotFound)
            };
        }
        match self.store.deactivate(id).await? {
            Deactivation::Done => {}
            Deactivation::NotFound => return Err(IdentityError::NotFound),
            Deactivation::LastAdmin => return Err(IdentityError::LastAdmin),
        }
        self.sessions.end_all_of(Kind::Staff, id, None).await?;
        Ok(())
    }

    pub async fn staff(&self) -> Result<Vec<StaffRecord>, IdentityError> {
        Ok(self
            .store
            .users()
            .await?
            .into_iter()
            .filter_map(|u| {
                Some(StaffRecord {
                    role: Role::parse(&u.role)?,
                    id: u.id,
                    name: u.name,
                    active: u.active,
                    created_at: u.created_at,
                    last_login_at: u.last_login_at,
                })
            })
            .collect())
    }

    /// Active writers, for the content director's author choice.
    pub async fn writers(&self) -> Result<Vec<Writer>, IdentityError> {
        let mut writers: Vec<Writer> = self
            .staff()
            .await?
            .into_iter()
            .filter(|s| s.active && s.role == Role::Writer)
            .map(|s| Writer {
                id: s.id,
                name: s.name,
            })
            .collect();
        writers.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(writers)
    }

    /// The role of staff member `id`, if there is one.
    pub async fn role_of(&self, id: &str) -> Result<Option<Role>, IdentityError> {
        Ok(self
            .store
            .user(id)
            .await?
            .and_then(|u| Role::parse(&u.role)))
    }

    /// Where `id` gets newsroom notices: their email, when they are active, gave one and did
    /// not turn the notices off.
    pub async fn notice_address(&self, id: &str) -> Result<Option<String>, IdentityError> {
        let active = self.store.user(id).await?.is_some_and(|u| u.active);
        Ok(match self.store.notices(id).await? {
            Some((Some(email), true)) if active => Some(email),
            _ => None,
        })
    }

    /// A member's newsroom notice settings.
    pub async fn notices(&self, id: &str) -> Result<StaffNotices, IdentityError> {
        let (email, notify) = self
            .store
            .notices(id)
            .await?
            .ok_or(IdentityError::NotFound)?;
        Ok(StaffNotices {
            email: email.map(Into::into),
            notify,
        })
    }

    /// Sets a member's address for newsroom notices (empty: none) and whether they want them.
    pub async fn set_notices(
        &self,
        id: &str,
        notices: StaffNotices,
    ) -> Result<StaffNotices, IdentityError> {
        let sent = notices.email.map(String::from).unwrap_or_default();
        let email = Some(sent.trim().to_string()).filter(|e| !e.is_empty());
        if let Some(e) = &email {
            if sent.chars().count() > kernel::text::MAX_EMAIL_CHARS || !kernel::email::is_email(e) {
                return Err(IdentityError::Invalid(kernel::email::INVALID_EMAIL.into()));
            }
        }
        if !self
            .store
            .set_notices(id, email.as_deref(), notices.notify)
            .await?
        {
            return Err(IdentityError::NotFound);
        }
        Ok(StaffNotices {
            email: email.map(Into::into),
            notify: notices.notify,
        })
    }

    pub async fn is_active_writer(&self, id: &str) -> Result<bool, IdentityError> {
        Ok(self
            .store
            .user(id)
            .await?
            .is_some_and(|u| u.active && u.role == Role::Writer.as_str()))
    }

    /// Signs in with an access key from `client` (an address); returns the user and a new
    /// session token for the cookie.
    ///
    /// Failed attempts are limited per address and in total over a sliding window. Each attempt
    /// is recorded *before* the key is checked, by a conditional insert that refuses once the
    /// limit is reached (so concurrent attempts cannot slip past the count), and removed again
    /// when the key turns out to be right or the attempt is refused.
    #[tracing::instrument(skip(self, key))]
    pub async fn login(
        &self,
        key: &str,
        client: &str,
    ) -> Result<(StaffUser, String), IdentityError> {
        let now = self.clock.now();
        let window = self.settings.failure_window;
        let ip_bucket = format!("sign-in:ip:{client}");
        let ip = self
            .limiter
            .hit(Rule {
                bucket: &ip_bucket,
                window,
                limit: Some(self.settings.failures_per_address),
            })
            .await?;
        let (ip_hit, ip_others) = match ip {
            Admission::Admitted { hit, others } => (hit, others),
            Admission::Refused { retry_after } => {
                return Err(IdentityError::RateLimited { retry_after })
            }
        };
        // The global cap only slows addresses that already failed, so a correct key from a
        // clean address always gets through; every failure counts towards it.
        let global = self
            .limiter
            .hit(Rule {
                bucket: "sign-in:global",
                window,
                limit: (ip_others > 0).then_some(self.settings.failures_global),
            })
            .await?;
        let global_hit = match global {
            Admission::Admitted { hit, .. } => hit,
            Admission::Refused { retry_after } => {
                self.limiter.forget(&[ip_hit]).await?;
                return Err(IdentityError::RateLimited { retry_after });
            }
        };
        let found = self
            .store
            .user_by_key(&self.hasher.hash_key(key))
            .await?
            .and_then(user);
        let Some(staff) = found else {
            // The recorded attempts stay: they are this failure.
            tracing::info!(client, "failed access-key sign-in");
            return Err(IdentityError::InvalidKey);
        };
        self.limiter.forget(&[ip_hit, global_hit]).await?;
        let token = self.sessions.start(Kind::Staff, &staff.id).await?;
        self.store.touch_login(&staff.id, now).await?;
        tracing::info!(user = %staff.id, role = %staff.role, "signed in");
        Ok((staff, token))
    }

    /// Deletes the sessions of both kinds that can no longer be used (expired, or idle too
    /// long), and emailed tokens a month past their expiry (until then, opening one still
    /// says it expired rather than that it is unknown); returns how many rows went. Run by
    /// housekeeping.
    pub async fn housekeeping(&self) -> Result<u64, IdentityError> {
        let sessions = self.sessions.sweep().await?;
        let before = self.clock.now() - ChronoDuration::days(tokens::EXPIRED_KEPT_DAYS);
        let tokens = tokens::delete_expired(&self.db, before).await?;
        Ok(sessions + tokens)
    }

    /// The staff member of a live session token.
    pub async fn staff_of(&self, token: &str) -> Result<Option<StaffUser>, IdentityError> {
        let Some(id) = self.sessions.owner(Kind::Staff, token).await? else {
            return Ok(None);
        };
        Ok(self
            .store
            .user(&id)
            .await?
            .filter(|row| row.active)
            .and_then(user))
    }

    /// The reader of a live session token.
    pub async fn reader_of(&self, token: &str) -> Result<Option<Reader>, IdentityError> {
        Ok(self
            .sessions
            .owner(Kind::Reader, token)
            .await?
            .map(|account| Reader {
                account,
                token: token.to_string(),
            }))
    }

    /// Ends a staff session (sign-out).
    pub async fn logout(&self, token: &str) -> Result<(), IdentityError> {
        Ok(self.sessions.end(Kind::Staff, token).await?)
    }
}
