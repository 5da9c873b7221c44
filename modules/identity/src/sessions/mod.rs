//! Server-side sessions for both kinds of principal: started at sign-in, checked (and kept
//! awake) on each request, ended at sign-out or when the principal's credentials change, and
//! swept by housekeeping. Only a hash of the cookie's token is stored.

mod sql;

use std::time::Duration;

use chrono::{DateTime, Utc};
use kernel::clock::SharedClock;
use kernel::secret::{hash_token, new_token};
use kernel::Db;

use crate::principal::Kind;

/// How long a session of one kind lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lifetime {
    /// A session ends after this long without a request…
    pub idle: Duration,
    /// …and this long after sign-in, whatever happens.
    pub max: Duration,
}

/// A session as its owner may see it (the data download).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRecord {
    pub created_at: DateTime<Utc>,
    pub last_seen_at: DateTime<Utc>,
}

/// The longest token a cookie may carry; longer ones are not looked up.
const MAX_TOKEN_CHARS: usize = 200;

pub struct Sessions {
    db: Db,
    clock: SharedClock,
    staff: Lifetime,
    reader: Lifetime,
}

pub(crate) fn span(d: Duration) -> chrono::Duration {
    chrono::Duration::from_std(d).unwrap_or(chrono::Duration::hours(1))
}

impl Sessions {
    pub fn new(db: Db, clock: SharedClock, staff: Lifetime, reader: Lifetime) -> Self {
        Sessions {
            db,
            clock,
            staff,
            reader,
        }
    }

    pub fn lifetime(&self, kind: Kind) -> Lifetime {
        match kind {
            Kind::Staff => self.staff,
            Kind::Reader => self.reader,
        }
    }

    /// Starts a session for `owner`; returns the token for the cookie.
    pub async fn start(&self, kind: Kind, owner: &str) -> Result<String, sqlx::Error> {
        let token = new_token();
        let now = self.clock.now();
        let expires_at = now + span(self.lifetime(kind).max);
        sql::create(&self.db, kind, &hash_token(&token), owner, now, expires_at).await?;
        Ok(token)
    }

    /// The owner of a live session (not expired, not idle too long, its principal still
    /// usable: active staff, a confirmed reader), marking it seen now.
    pub async fn owner(&self, kind: Kind, token: &str) -> Result<Option<String>, sqlx::Error> {
        if token.is_empty() || token.len() > MAX_TOKEN_CHARS {
            return Ok(None);
        }
        let now = self.clock.now();
        let idle_cutoff = now - span(self.lifetime(kind).idle);
        sql::touch(&self.db, kind, &hash_token(token), now, idle_cutoff).await
    }

    /// Ends one session (sign-out).
    pub async fn end(&self, kind: Kind, token: &str) -> Result<(), sqlx::Error> {
        sql::delete(&self.db, kind, &hash_token(token)).await
    }

    /// Ends every session of `owner` but the one of `keep` (a token), if given.
    pub async fn end_all_of(
        &self,
        kind: Kind,
        owner: &str,
        keep: Option<&str>,
    ) -> Result<(), sqlx::Error> {
        let keep = keep.map(hash_token);
        sql::delete_of(&self.db, kind, owner, keep.as_deref()).await
    }

    /// The sessions of `owner`, oldest first.
    pub async fn of(&self, kind: Kind, owner: &str) -> Result<Vec<SessionRecord>, sqlx::Error> {
        sql::of(&self.db, kind, owner).await
    }

    /// Deletes the sessions of every kind that can no longer be used; returns how many.
    pub async fn sweep(&self) -> Result<u64, sqlx::Error> {
        let now = self.clock.now();
        let mut deleted = 0;
        for kind in Kind::ALL {
            let idle_cutoff = now - span(self.lifetime(kind).idle);
            deleted += sql::delete_expired(&self.db, kind, now, idle_cutoff).await?;
        }
        Ok(deleted)
    }
}
