//! Liveness and readiness.

use std::sync::Arc;

use kernel::Db;
use poem::http::StatusCode;
use poem::web::{Data, Json};
use poem::{handler, IntoResponse, Response};
use serde_json::json;

use crate::ssr::Sidecar;

#[derive(Clone)]
pub struct Health {
    pub db: Db,
    pub sidecar: Arc<Sidecar>,
    pub storage: Arc<StorageProbe>,
}

/// Whether the file store answers, asked at most every [`StorageProbe::EVERY`]: `/readyz` is
/// polled often, and each probe of S3 is a request. A probe runs in the background, so a store
/// that never answers does not hold `/readyz` (a load balancer's check waits a second or two).
pub struct StorageProbe {
    storage: Arc<kernel::storage::Storage>,
    last: Arc<std::sync::Mutex<Probed>>,
}

#[derive(Default)]
struct Probed {
    /// When the last probe ended, and whether the store answered it.
    answered: Option<(std::time::Instant, bool)>,
    running: bool,
}

impl StorageProbe {
    const EVERY: std::time::Duration = std::time::Duration::from_secs(5);

    pub fn new(storage: Arc<kernel::storage::Storage>) -> Self {
        Self {
            storage,
            last: Arc::new(std::sync::Mutex::new(Probed::default())),
        }
    }

    /// Whether the store answered its last probe (a `head` of a key that need not exist). The
    /// first one is awaited; later ones start when the last is older than [`Self::EVERY`],
    /// and the answer is the last known until they end.
    pub async fn reachable(&self) -> bool {
        let (known, start) = {
            let Ok(mut last) = self.last.lock() else {
                return false;
            };
            let due = !last.running
                && last
                    .answered
                    .is_none_or(|(at, _)| at.elapsed() >= Self::EVERY);
            if due {
                last.running = true;
            }
            (last.answered.map(|(_, ok)| ok), due)
        };
        if !start {
            return known.unwrap_or(false);
        }
        let (storage, last) = (self.storage.clone(), self.last.clone());
        let probe = async move {
            let ok = storage.head("readyz-probe").await.is_ok();
            if !ok {
                tracing::warn!("readiness: the file store does not answer");
            }
            if let Ok(mut last) = last.lock() {
                *last = Probed {
                    answered: Some((std::time::Instant::now(), ok)),
                    running: false,
                };
            }
            ok
        };
        match known {
            None => probe.await,
            Some(ok) => {
                tokio::spawn(probe);
                ok
            }
        }
    }
}

/// How long `/readyz` waits for the database: a load balancer's check gives up after a
/// second or two, and a database that does not answer that fast is not ready.
const DATABASE_WITHIN: std::time::Duration = std::time::Duration::from_secs(1);

/// Alive: the process answers.
#[handler]
pub fn healthz() -> &'static str {
    "ok"
}

/// Ready: the database answers, so this instance can serve every page (a page the sidecar
/// cannot render in time is served as the client-rendered shell). The sidecar's state ("ok",
/// "busy", "failing", "restarting") and whether the file store answers ("ok",
/// "unreachable") are reported beside it but decide nothing: every instance shares the store,
/// and a busy sidecar is when traffic peaks; a load balancer must not take every instance out
/// then.
#[handler]
pub async fn readyz(health: Data<&Health>) -> Response {
    let db = matches!(
        tokio::time::timeout(DATABASE_WITHIN, health.db.ping()).await,
        Ok(Ok(()))
    );
    let status = if db {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (
        status,
        Json(json!({
            "database": if db { "ok" } else { "unavailable" },
            "sidecar": health.sidecar.state(),
            "storage": if health.storage.reachable().await { "ok" } else { "unreachable" },
        })),
    )
        .into_response()
}

#[derive(Clone)]
pub struct MetricsAccess {
    pub token: Option<kernel::secret::Secret<String>>,
    pub outbox: Arc<kernel::outbox::Outbox>,
}

/// The metrics in the Prometheus text format, for a scraper that sends `METRICS_TOKEN` as a
/// bearer token; not served at all when no token is set.
#[handler]
pub async fn metrics(req: &poem::Request, access: Data<&MetricsAccess>) -> Response {
    let Some(token) = &access.token else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let sent = req
        .headers()
        .get(poem::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or_default();
    // Compared as hashes: the time taken tells nothing about the token.
    if kernel::secret::hash_token(sent) != kernel::secret::hash_token(token.expose()) {
        return poem::Response::builder()
            .status(StatusCode::UNAUTHORIZED)
            .header(poem::http::header::WWW_AUTHENTICATE, "Bearer")
            .body("metrics need the bearer token set in METRICS_TOKEN");
    }
    let queue = match access.outbox.queue().await {
        Ok(q) => Some(q),
        Err(e) => {
            tracing::warn!(error = %e, "metrics: outbox queue not read");
            None
        }
    };
    let given_up = match access.outbox.given_up().await {
        Ok(n) => Some(n),
        Err(e) => {
            tracing::warn!(error = %e, "metrics: given-up email not counted");
            None
        }
    };
    poem::Response::builder()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .header(poem::http::header::CACHE_CONTROL, "no-store")
        .body(crate::metrics::render(queue, given_up))
}
