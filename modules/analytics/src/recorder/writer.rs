//! The background writer: writes views in batches, retries with backoff while the database is
//! away, and writes what it holds when asked or stopped.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use super::RecorderSettings;
use crate::store::{AnalyticsStore, View};

pub(super) enum Msg {
    View(View),
    Flush(oneshot::Sender<bool>),
}

pub(super) async fn write_batches(
    store: Arc<dyn AnalyticsStore>,
    mut rx: mpsc::Receiver<Msg>,
    settings: RecorderSettings,
) {
    let mut pending: Vec<View> = Vec::new();
    let mut backoff = Duration::from_secs(1);
    let mut retrying = false;
    let mut next_write = Instant::now() + settings.flush_every;
    loop {
        tokio::select! {
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
                    let ok = write(&*store, &mut pending, settings.batch_size).await;
                    let _ = ack.send(ok);
                }
                None => {
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
