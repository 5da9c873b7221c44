//! Form answers kept across a redirect: a form posted without JavaScript is answered with a
//! redirect back to its page (post/redirect/get, so a reload never sends it again), and what
//! the server said — the messages and the values to show again — waits here for that page,
//! under a random token in a cookie. Read once; kept in the database so any instance can
//! answer the page; forgotten after a few minutes.

use std::sync::Arc;
use std::time::Duration;

use crate::clock::SharedClock;
use crate::secret::{hash_token, new_token};
use crate::Db;

mod store;
pub use store::{flash_store_for, FlashStore};

#[cfg(feature = "conformance")]
pub mod conformance;

/// How long an answer waits for its page.
pub const KEEP_FOR: Duration = Duration::from_secs(10 * 60);

#[derive(Clone)]
pub struct Flash {
    store: Arc<dyn FlashStore>,
    clock: SharedClock,
}

impl Flash {
    pub fn new(db: &Db, clock: SharedClock) -> Self {
        Self {
            store: flash_store_for(db),
            clock,
        }
    }

    /// Keeps `answer` (JSON) for `page`; the token to hand the browser.
    pub async fn keep(&self, page: &str, answer: &str) -> Result<String, sqlx::Error> {
        let now = self.clock.now().timestamp_millis();
        self.store.prune(now).await?;
        let token = new_token();
        let expires = now.saturating_add(i64::try_from(KEEP_FOR.as_millis()).unwrap_or(i64::MAX));
        self.store
            .put(&hash_token(&token), page, answer, expires)
            .await?;
        Ok(token)
    }

    /// The answer kept under `token` for `page`, once: reading it forgets it. An answer for
    /// another page, or one past its time, is nothing.
    /// Deletes the answers past their time. Run by housekeeping.
    pub async fn prune(&self) -> Result<(), sqlx::Error> {
        self.store.prune(self.clock.now().timestamp_millis()).await
    }

    pub async fn take(&self, token: &str, page: &str) -> Result<Option<String>, sqlx::Error> {
        let now = self.clock.now().timestamp_millis();
        self.store.take(&hash_token(token), page, now).await
    }
}
