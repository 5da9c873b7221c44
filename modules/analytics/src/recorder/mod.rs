//! Recording views without slowing pages: `record` only checks the rules and hands the view to
//! a background writer, which inserts in batches, retries failed writes with backoff and
//! flushes what it holds on shutdown.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};

use crate::store::{AnalyticsStore, View};

mod visits;
mod writer;

use visits::Visits;
pub use visits::{Viewer, MAX_TAB_CHARS};
use writer::{write_batches, Msg};

#[derive(Debug, Clone)]
pub struct RecorderSettings {
    /// A reload of the same page in the same tab (or, without a tab marker, by the same
    /// client) within this window is not counted again.
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
        let visits = Arc::new(Visits::new(settings.reload_window));
        let beacons_per_minute = settings.beacons_per_minute;
        let task = tokio::spawn(write_batches(store, rx, settings));
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

    /// Counts a view of `path` by `viewer` with browser `user_agent`, unless the rules say
    /// otherwise. Returns whether it was counted. Never waits on the database.
    pub fn record(&self, path: &str, viewer: Viewer<'_>, user_agent: &str) -> bool {
        if !self.visits.counts(path, viewer, user_agent) {
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

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;

    use async_trait::async_trait;
    use chrono::{DateTime, Utc};
    use tokio::time::Instant;

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
        async fn refresh_window(&self, _: i64) -> Result<bool, sqlx::Error> {
            Ok(false)
        }
    }

    const UA: &str = "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0";

    fn client() -> Viewer<'static> {
        Viewer::Client {
            address: "10.0.0.1",
            user_agent: UA,
        }
    }

    #[tokio::test]
    async fn each_tab_counts_and_only_its_own_reloads_are_folded() {
        let store = Arc::new(Flaky {
            failures: AtomicUsize::new(0),
            written: Mutex::new(vec![]),
            batches: AtomicUsize::new(0),
        });
        let recorder = Recorder::start(store.clone(), RecorderSettings::default());
        // 25 identical devices behind one address, each its own tab: 25 views.
        let tabs: Vec<String> = (0..25).map(|i| format!("tab-{i}")).collect();
        for tab in &tabs {
            assert!(recorder.record("/article/vote", Viewer::Tab(tab), UA));
        }
        // One of them reloads ten times: no more views.
        for _ in 0..10 {
            assert!(!recorder.record("/article/vote", Viewer::Tab(&tabs[0]), UA));
        }
        // The same tab on another page: a view.
        assert!(recorder.record("/about", Viewer::Tab(&tabs[0]), UA));
        assert!(recorder.flush().await);
        assert_eq!(store.total().await.unwrap_or(0), 26);
        recorder.shutdown().await;
    }

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
            assert!(recorder.record(&format!("/article/a{i}"), client(), UA));
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
            recorder.record(&format!("/p{i}"), client(), UA);
            // The same page again from the same reader: a reload.
            assert!(!recorder.record(&format!("/p{i}"), client(), UA));
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
