//! The site's content generation: a counter every module that changes what public pages show
//! moves forward (articles, magazine issues), and every cache built from public content keys
//! on. One handle, cloned into each module, so a change anywhere reaches every cache.
//!
//! Several instances on one PostgreSQL database keep their caches coherent through
//! [`share`]: a change made here is announced with `NOTIFY`, and a change announced by another
//! instance moves this counter forward too. SQLite runs one instance: nothing to share.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{watch, Notify};

/// The PostgreSQL channel content changes are announced on.
pub const CHANNEL: &str = "agora_content";

#[derive(Debug, Default)]
struct Inner {
    counter: AtomicU64,
    /// Woken by every local change, for [`share`] to announce it.
    changed: Notify,
}

#[derive(Clone, Debug)]
pub struct Generation(Arc<Inner>);

impl Default for Generation {
    fn default() -> Self {
        Generation(Arc::new(Inner {
            counter: AtomicU64::new(1),
            changed: Notify::new(),
        }))
    }
}

impl Generation {
    pub fn current(&self) -> u64 {
        self.0.counter.load(Ordering::Acquire)
    }

    /// Public content changed here: every cache keyed on the generation is stale, on this
    /// instance and (once [`share`] announces it) on every other.
    pub fn advance(&self) {
        self.0.counter.fetch_add(1, Ordering::AcqRel);
        self.0.changed.notify_one();
    }

    /// Public content changed elsewhere (or may have): stale here, nothing to announce.
    pub fn advance_quietly(&self) {
        self.0.counter.fetch_add(1, Ordering::AcqRel);
    }

    /// Waits for the next local change (changes made meanwhile are coalesced into one).
    async fn local_change(&self) {
        self.0.changed.notified().await;
    }
}

/// Keeps `generation` coherent with the other instances on `pool` until `stop` turns true:
/// announces local changes on [`CHANNEL`] and follows the others' announcements. A lost
/// connection counts as a change (announcements may have been missed meanwhile).
pub async fn share(
    pool: sqlx::PgPool,
    generation: Generation,
    instance: String,
    mut stop: watch::Receiver<bool>,
) {
    loop {
        let mut listener = match sqlx::postgres::PgListener::connect_with(&pool).await {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!(error = %e, "content changes: cannot listen; retrying");
                tokio::select! {
                    _ = tokio::time::sleep(Duration::from_secs(1)) => continue,
                    _ = stopped(&mut stop) => return,
                }
            }
        };
        if let Err(e) = listener.listen(CHANNEL).await {
            tracing::warn!(error = %e, "content changes: LISTEN failed; retrying");
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        }
        // Whatever changed before we listened is unknown: start from fresh caches.
        generation.advance_quietly();
        loop {
            tokio::select! {
                _ = stopped(&mut stop) => return,
                _ = generation.local_change() => {
                    let sent = sqlx::query("SELECT pg_notify($1, $2)")
                        .bind(CHANNEL)
                        .bind(&instance)
                        .execute(&pool)
                        .await;
                    if let Err(e) = sent {
                        tracing::warn!(error = %e, "content changes: NOTIFY failed");
                    }
                }
                received = listener.try_recv() => match received {
                    Ok(Some(n)) if n.payload() == instance => {}
                    Ok(Some(_)) => generation.advance_quietly(),
                    // The connection dropped; the next call reconnects. Announcements may
                    // have been missed meanwhile.
                    Ok(None) => generation.advance_quietly(),
                    Err(e) => {
                        tracing::warn!(error = %e, "content changes: listener failed; reconnecting");
                        generation.advance_quietly();
                        break;
                    }
                },
            }
        }
    }
}

/// Resolves once `stop` turns true (or its sender is gone).
async fn stopped(stop: &mut watch::Receiver<bool>) {
    loop {
        if *stop.borrow_and_update() {
            return;
        }
        if stop.changed().await.is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_one_counter() {
        let a = Generation::default();
        let b = a.clone();
        let before = b.current();
        a.advance();
        assert_eq!(b.current(), before + 1);
        b.advance_quietly();
        assert_eq!(a.current(), before + 2);
    }

    #[tokio::test]
    async fn local_changes_wake_the_announcer_quiet_ones_do_not() {
        let g = Generation::default();
        g.advance_quietly();
        let woke = tokio::time::timeout(Duration::from_millis(50), g.local_change()).await;
        assert!(
            woke.is_err(),
            "a change from elsewhere is not announced again"
        );
        g.advance();
        g.advance();
        let woke = tokio::time::timeout(Duration::from_millis(50), g.local_change()).await;
        assert!(woke.is_ok(), "a local change is announced");
    }
}
