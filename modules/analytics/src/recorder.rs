//! Recording views without slowing pages: `record` only checks the rules and hands the view to
//! a background writer, which inserts in batches, retries failed writes with backoff and
//! flushes what it holds on shutdown.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use crate::rules::{is_bot, is_public_page, is_view};
use crate::store::{AnalyticsStore, View};

#[derive(Debug, Clone)]
pub struct RecorderSettings {
    /// A reload of the same page by the same client within this window is not counted again.
    pub reload_window: Duration,
    /// Views written per batch at most; a full batch is written at once.
    pub batch_size: usize,
    /// A partial batch is written after this long.
    pub flush_every: Duration,
    /// Views held while the database is unavailable; beyond this the oldest are dropped
    /// (and logged as an error).
    pub max_pending: usize,
    /// Beacons (`POST /api/v1/views`) taken from one client address per minute.
    pub beacons_per_minute: u32,
}

impl Default for RecorderSettings {
    fn default() -> Self {
        RecorderSettings {
            reload_window: Duration::from_secs(30 * 60),
            batch_size: 500,
            flush_every: Duration::from_secs(2),
            max_pending: 200_000,
            beacons_per_minute: crate::limit::BEACONS_PER_MINUTE,
        }
    }
}

enum Msg {
    View(View),
    Flush(oneshot::Sender<bool>),
}

/// A page served, not yet judged by the counting rules.
struct Seen {
    key: u64,
    path: String,
    user_agent: String,
    at: chrono::DateTime<chrono::Utc>,
}

/// Pages served are collected here and judged by the writer every `SEEN_EVERY`, so a request
/// neither hashes nor wakes another task.
const SEEN_EVERY: Duration = Duration::from_millis(200);

/// The counting rules' memory: which visits were counted lately (salted, hashed), and the
/// pages served since the writer last looked.
struct Visits {
    recent: moka::sync::Cache<u64, ()>,
    keys: std::collections::hash_map::RandomState,
    seen: std::sync::Mutex<Vec<Seen>>,
    max_seen: usize,
    /// Today (UTC) as days since the common era, kept current by the writer.
    day: std::sync::atomic::AtomicI32,
}

fn today() -> i32 {
    use chrono::Datelike;
    chrono::Utc::now().date_naive().num_days_from_ce()
}

pub struct Recorder {
    tx: mpsc::Sender<Msg>,
    visits: Arc<Visits>,
    beacons_per_minute: u32,
    task: std::sync::Mutex<Option<tokio::task::JoinHandle<()>>>,
}

impl Recorder {
    /// Starts the background writer (call inside a Tokio runtime).
    pub fn start(store: Arc<dyn AnalyticsStore>, settings: RecorderSettings) -> Arc<Recorder> {
        let (tx, rx) = mpsc::channel(10_000);
        let recent = moka::sync::Cache::builder()
            .max_capacity(200_000)
            .time_to_live(settings.reload_window)
            .build();
        let visits = Arc::new(Visits {
            recent,
            keys: std::collections::hash_map::RandomState::new(),
            seen: std::sync::Mutex::new(Vec::new()),
            max_seen: settings.max_pending.min(50_000),
            day: std::sync::atomic::AtomicI32::new(today()),
        });
        let beacons_per_minute = settings.beacons_per_minute;
        let task = tokio::spawn(write_batches(store, rx, settings, visits.clone()));
        Arc::new(Recorder {
            tx,
            visits,
            beacons_per_minute,
            task: std::sync::Mutex::new(Some(task)),
        })
    }

    /// Beacons taken from one client address per minute.
    pub fn beacons_per_minute(&self) -> u32 {
        self.beacons_per_minute
    }

    /// Counts a view of `path` by a GET from `client` with `user_agent`, unless the rules say
    /// otherwise. Returns whether it was counted. Never waits on the database.
    pub fn record(&self, path: &str, client: &str, user_agent: &str) -> bool {
        if !self.visits.counts(path, client, user_agent) {
            return false;
        }
        let view = View {
            path: path.to_string(),
            at: kernel::ids::now(),
        };
        match self.tx.try_send(Msg::View(view)) {
            Ok(()) => true,
            Err(e) => {
                tracing::error!(error = %e, "page view not recorded: the writer is behind");
                false
            }
        }
    }

    /// Like `record`, for the answer to a page request (`status`, and whether it was a
    /// HEAD): whether it is a view at all is decided here; the other rules (robots, reloads)
    /// are applied by the background writer, so the request only pays for handing the
    /// strings over.
    pub fn record_later(
        &self,
        path: &str,
        head_only: bool,
        status: u16,
        client: kernel::http::Client<'_>,
        user_agent: &str,
    ) {
        if !is_view(path, head_only, status) {
            return;
        }
        // A visit already judged (counted, a reload, or a robot) costs a hash and a lookup.
        let key = self.visits.visit_key_of(client, user_agent, path);
        if self.visits.recent.contains_key(&key) {
            return;
        }
        let seen = Seen {
            key,
            path: path.to_string(),
            user_agent: user_agent.to_string(),
            at: kernel::ids::now(),
        };
        let Ok(mut held) = self.visits.seen.lock() else {
            return;
        };
        if held.len() < self.visits.max_seen {
            held.push(seen);
        } else {
            tracing::error!("page view not recorded: the writer is behind");
        }
    }

    /// Writes everything held now; false when the database refused.
    pub async fn flush(&self) -> bool {
        let (ack, done) = oneshot::channel();
        if self.tx.send(Msg::Flush(ack)).await.is_err() {
            return false;
        }
        done.await.unwrap_or(false)
    }

    /// Flushes and stops the writer (on shutdown).
    pub async fn shutdown(&self) {
        let flushed = self.flush().await;
        if !flushed {
            tracing::error!("page views could not be written before shutdown");
        }
        let task = self.task.lock().ok().and_then(|mut t| t.take());
        if let Some(task) = task {
            task.abort();
            let _ = task.await;
        }
    }
}

impl Visits {
    /// The reload-window key: a keyed hash (SipHash, keys random per process) of the day,
    /// client, browser and path. The keys are never stored and the day is part of the hash,
    /// so it cannot be linked across days or processes and no address is ever kept.
    fn visit_key(&self, client: &str, user_agent: &str, path: &str) -> u64 {
        let client = match client.parse::<std::net::IpAddr>() {
            Ok(ip) => kernel::http::Client::Ip(ip),
            Err(_) => kernel::http::Client::Forwarded(client),
        };
        self.visit_key_of(client, user_agent, path)
    }

    /// `visit_key` for a client not yet written out (an address or a proxy's hop are hashed
    /// alike however they arrive). The day is read from a number the writer keeps current,
    /// not from the clock.
    fn visit_key_of(&self, client: kernel::http::Client<'_>, user_agent: &str, path: &str) -> u64 {
        use kernel::http::Client;
        use std::hash::{BuildHasher, Hash, Hasher};
        let mut h = self.keys.build_hasher();
        self.day
            .load(std::sync::atomic::Ordering::Relaxed)
            .hash(&mut h);
        match client {
            Client::Ip(ip) => ip.hash(&mut h),
            Client::Forwarded(s) => match s.parse::<std::net::IpAddr>() {
                Ok(ip) => ip.hash(&mut h),
                Err(_) => s.hash(&mut h),
            },
            Client::Unknown => "unknown".hash(&mut h),
        }
        user_agent.hash(&mut h);
        path.hash(&mut h);
        h.finish()
    }

    /// Whether a view is counted: a public page, not a robot, not a reload in the window
    /// (and remembered as counted).
    fn counts(&self, path: &str, client: &str, user_agent: &str) -> bool {
        if !is_public_page(path) || is_bot(user_agent) {
            return false;
        }
        let key = self.visit_key(client, user_agent, path);
        if self.recent.contains_key(&key) {
            return false;
        }
        self.recent.insert(key, ());
        true
    }

    /// Judges the pages served since the last call; the views that count go to `pending`.
    fn judge_seen(&self, pending: &mut Vec<View>) {
        self.day
            .store(today(), std::sync::atomic::Ordering::Relaxed);
        let seen = match self.seen.lock() {
            Ok(mut held) => std::mem::take(&mut *held),
            Err(_) => return,
        };
        for s in seen {
            if self.recent.contains_key(&s.key) {
                continue;
            }
            // Robots are remembered too, so their next requests stop at the lookup.
            self.recent.insert(s.key, ());
            if !is_bot(&s.user_agent) {
                pending.push(View {
                    path: s.path,
                    at: s.at,
                });
            }
        }
    }
}

async fn write_batches(
    store: Arc<dyn AnalyticsStore>,
    mut rx: mpsc::Receiver<Msg>,
    settings: RecorderSettings,
    visits: Arc<Visits>,
) {
    let mut pending: Vec<View> = Vec::new();
    let mut backoff = Duration::from_secs(1);
    let mut retrying = false;
    let mut next_write = Instant::now() + settings.flush_every;
    let mut judge = tokio::time::interval(SEEN_EVERY);
    judge.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = judge.tick() => {
                visits.judge_seen(&mut pending);
                if pending.len() >= settings.batch_size && !retrying {
                    next_write = Instant::now();
                }
            }
            msg = rx.recv() => match msg {
                Some(Msg::View(v)) => {
                    pending.push(v);
                    if pending.len() > settings.max_pending {
                        let excess = pending.len() - settings.max_pending;
                        pending.drain(..excess);
                        tracing::error!(dropped = excess, "page views dropped: database unavailable too long");
                    }
                    // A full batch goes out at once, unless the database is being waited for.
                    if pending.len() >= settings.batch_size && !retrying {
                        next_write = Instant::now();
                    }
                }
                Some(Msg::Flush(ack)) => {
                    visits.judge_seen(&mut pending);
                    let ok = write(&*store, &mut pending, settings.batch_size).await;
                    let _ = ack.send(ok);
                }
                None => {
                    visits.judge_seen(&mut pending);
                    write(&*store, &mut pending, settings.batch_size).await;
                    return;
                }
            },
            _ = tokio::time::sleep_until(next_write) => {
                if write(&*store, &mut pending, settings.batch_size).await {
                    retrying = false;
                    backoff = Duration::from_secs(1);
                    next_write = Instant::now() + settings.flush_every;
                } else {
                    retrying = true;
                    next_write = Instant::now() + backoff;
                    backoff = (backoff * 2).min(Duration::from_secs(60));
                }
            }
        }
    }
}

/// Writes `pending` in batches, removing what was written; false on the first failure (the
/// rest stays for the next attempt).
async fn write(store: &dyn AnalyticsStore, pending: &mut Vec<View>, batch: usize) -> bool {
    while !pending.is_empty() {
        let n = pending.len().min(batch.max(1));
        match store.insert(&pending[..n]).await {
            Ok(()) => {
                pending.drain(..n);
            }
            Err(e) => {
                tracing::warn!(error = %e, held = pending.len(), "page views not written yet; will retry");
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;

    use async_trait::async_trait;
    use chrono::{DateTime, Utc};

    use super::*;

    /// A store whose first `failures` writes fail.
    struct Flaky {
        failures: AtomicUsize,
        written: Mutex<Vec<View>>,
        batches: AtomicUsize,
    }

    #[async_trait]
    impl AnalyticsStore for Flaky {
        async fn insert(&self, views: &[View]) -> Result<(), sqlx::Error> {
            if self
                .failures
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                .is_ok()
            {
                return Err(sqlx::Error::PoolTimedOut);
            }
            self.batches.fetch_add(1, Ordering::SeqCst);
            if let Ok(mut w) = self.written.lock() {
                w.extend_from_slice(views);
            }
            Ok(())
        }
        async fn total(&self) -> Result<i64, sqlx::Error> {
            Ok(self.written.lock().map(|w| w.len() as i64).unwrap_or(0))
        }
        async fn between(&self, _: DateTime<Utc>, _: DateTime<Utc>) -> Result<i64, sqlx::Error> {
            Ok(0)
        }
        async fn top_paths(
            &self,
            _: &str,
            _: DateTime<Utc>,
            _: i64,
        ) -> Result<Vec<(String, i64)>, sqlx::Error> {
            Ok(vec![])
        }
    }

    const UA: &str = "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0";

    #[tokio::test]
    async fn failed_writes_are_retried_and_nothing_is_lost() {
        let store = Arc::new(Flaky {
            failures: AtomicUsize::new(2),
            written: Mutex::new(vec![]),
            batches: AtomicUsize::new(0),
        });
        let recorder = Recorder::start(
            store.clone(),
            RecorderSettings {
                flush_every: Duration::from_millis(20),
                ..RecorderSettings::default()
            },
        );
        for i in 0..50 {
            assert!(recorder.record(&format!("/article/a{i}"), "10.0.0.1", UA));
        }
        // Two failed attempts (1 s, then 2 s of backoff), then the write goes through.
        let start = Instant::now();
        while store.total().await.unwrap_or(0) < 50 && start.elapsed() < Duration::from_secs(10) {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(store.total().await.unwrap_or(0), 50);
        recorder.shutdown().await;
    }

    #[tokio::test]
    async fn views_are_written_in_batches_and_reloads_are_not_views() {
        let store = Arc::new(Flaky {
            failures: AtomicUsize::new(0),
            written: Mutex::new(vec![]),
            batches: AtomicUsize::new(0),
        });
        let recorder = Recorder::start(
            store.clone(),
            RecorderSettings {
                batch_size: 100,
                flush_every: Duration::from_secs(3600),
                ..RecorderSettings::default()
            },
        );
        for i in 0..250 {
            recorder.record(&format!("/p{i}"), "10.0.0.1", UA);
            // The same page again from the same reader: a reload.
            assert!(!recorder.record(&format!("/p{i}"), "10.0.0.1", UA));
        }
        assert!(recorder.flush().await);
        assert_eq!(store.total().await.unwrap_or(0), 250);
        assert!(
            store.batches.load(Ordering::SeqCst) <= 4,
            "written in batches"
        );
        recorder.shutdown().await;
    }
}
