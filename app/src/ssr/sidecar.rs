//! The Node rendering sidecar: started, health-checked and restarted by the app, or an
//! external one reached by URL.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{watch, Mutex, Notify, Semaphore};
use tokio::task::JoinHandle;

use crate::settings::SsrSettings;

mod process;
use process::{socket_path, supervise, Listen};

/// Consecutive failed renders after which the sidecar's health is checked.
const FAILURES_BEFORE_CHECK: u32 = 3;
/// A health check is this many attempts, `HEALTH_SPACING` apart, each given `HEALTH_WAIT`:
/// a sidecar is restarted only when it fails them all and finished no render meanwhile. A
/// busy sidecar answers its health check late (its event loop is rendering), and restarting
/// it then turned a busy minute into a restart loop on every instance.
const HEALTH_ATTEMPTS: u32 = 3;
const HEALTH_SPACING: Duration = Duration::from_secs(1);
const HEALTH_WAIT: Duration = Duration::from_secs(2);
/// Renders in flight at once; more wait (within their deadline) in the app, so the sidecar
/// keeps a fixed set of warm connections instead of a burst of new ones.
const MAX_IN_FLIGHT: usize = 16;
/// A freshly started sidecar is not judged before this.
const STARTUP_GRACE: Duration = Duration::from_secs(5);

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("the sidecar did not answer within {0:?}")]
    Deadline(Duration),
    #[error("the sidecar request failed: {0}")]
    Request(#[from] reqwest::Error),
    #[error("the sidecar answered {0}")]
    Status(reqwest::StatusCode),
    #[error("the sidecar is down")]
    Down,
    #[error("the sidecar's answer is malformed: {0}")]
    Malformed(&'static str),
    /// Every render slot stayed taken until the deadline: the sidecar is busy, not broken.
    #[error("the sidecar was busy for {0:?}")]
    Busy(Duration),
}

/// A page as the sidecar renders it: the markup for `#root`, and the CSS that markup needs
/// to paint (empty when the sidecar could not tell).
pub struct Rendered {
    body: String,
    /// Where the CSS ends and the markup starts (a character boundary of `body`).
    at: usize,
}

/// The header of a render's answer giving the length of its CSS, in bytes.
const CSS_BYTES: &str = "x-critical-css-bytes";

impl Rendered {
    /// A render's answer: the CSS then the markup (not a JSON document: neither is escaped
    /// on one side and unescaped on the other), `CSS_BYTES` saying where the CSS ends.
    fn split(body: bytes::Bytes, css_bytes: Option<&str>) -> Result<Rendered, RenderError> {
        let at = css_bytes
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|at| *at <= body.len())
            .ok_or(RenderError::Malformed("no valid length of its CSS"))?;
        // Checked once, in place: the answer's buffer becomes the page's text without a copy
        // when nothing else holds it.
        let body =
            String::from_utf8(Vec::from(body)).map_err(|_| RenderError::Malformed("not UTF-8"))?;
        if !body.is_char_boundary(at) {
            return Err(RenderError::Malformed("its CSS length splits a character"));
        }
        Ok(Rendered { body, at })
    }

    /// The markup for `#root`.
    pub fn html(&self) -> &str {
        &self.body[self.at..]
    }

    /// The CSS the markup needs to paint.
    pub fn css(&self) -> &str {
        &self.body[..self.at]
    }
}

pub struct Sidecar {
    base_url: String,
    client: reqwest::Client,
    failures: AtomicU32,
    /// Whether the last render sent failed.
    failing: AtomicBool,
    /// False while the supervised process is known to be starting or gone.
    up: AtomicBool,
    checking: AtomicBool,
    started: std::sync::Mutex<Instant>,
    in_flight: Semaphore,
    /// When a render last succeeded, in milliseconds since `epoch`.
    last_ok: AtomicU64,
    epoch: Instant,
    restart: Notify,
    stop: watch::Sender<bool>,
    pid: AtomicU32,
    task: Mutex<Option<JoinHandle<()>>>,
}

impl Sidecar {
    /// Uses the external sidecar at `SSR_URL`, or starts and supervises one, without waiting
    /// for it: the app does its own start-up meanwhile, then calls [`Sidecar::wait_started`].
    pub async fn spawn(cfg: &SsrSettings) -> anyhow::Result<Arc<Sidecar>> {
        let (stop, _) = watch::channel(false);
        // The sidecar this app starts listens on a Unix socket of its own, unless a port is
        // set: a page crosses it without going through TCP on either side.
        // `listen` is `None` for an external sidecar, reached at its URL. The host of a socket's
        // URL names nothing: every connection goes to the socket.
        let (listen, base_url) = match (&cfg.url, cfg.port) {
            (Some(url), _) => (None, url.clone()),
            (None, 0) => (
                Some(Listen::Socket(socket_path())),
                "http://sidecar".to_string(),
            ),
            (None, p) => (Some(Listen::Port(p)), format!("http://127.0.0.1:{p}")),
        };
        let mut client = reqwest::Client::builder()
            .pool_max_idle_per_host(64)
            .no_proxy();
        if let Some(Listen::Socket(path)) = &listen {
            client = client.unix_socket(path.as_path());
        }
        let client = client.build()?;
        let sidecar = Arc::new(Sidecar {
            base_url,
            client,
            failures: AtomicU32::new(0),
            failing: AtomicBool::new(false),
            up: AtomicBool::new(true),
            checking: AtomicBool::new(false),
            started: std::sync::Mutex::new(Instant::now()),
            in_flight: Semaphore::new(MAX_IN_FLIGHT),
            last_ok: AtomicU64::new(0),
            epoch: Instant::now(),
            restart: Notify::new(),
            stop,
            pid: AtomicU32::new(0),
            task: Mutex::new(None),
        });
        if let Some(listen) = listen {
            if !cfg.script.exists() {
                tracing::warn!(script = %cfg.script.display(), "sidecar script not found; pages will be client-rendered until it exists (run `make build`)");
            }
            let task = tokio::spawn(supervise(sidecar.clone(), cfg.clone(), listen));
            *sidecar.task.lock().await = Some(task);
        }
        Ok(sidecar)
    }

    /// Waits (10 s at most) for the sidecar [`Sidecar::spawn`] started to answer.
    pub async fn wait_started(&self, cfg: &SsrSettings) {
        if cfg.url.is_none() {
            self.wait_healthy(Duration::from_secs(10)).await;
        }
    }

    async fn wait_healthy(&self, within: Duration) {
        let start = Instant::now();
        while start.elapsed() < within {
            if self.healthy().await {
                tracing::info!(url = %self.base_url, "rendering sidecar is ready");
                return;
            }
            // Polled often: start-up (and the first page a reader gets) waits on this.
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        tracing::warn!(url = %self.base_url, "rendering sidecar is not answering yet");
    }

    pub async fn healthy(&self) -> bool {
        self.answers_within(Duration::from_millis(500)).await
    }

    async fn answers_within(&self, wait: Duration) -> bool {
        let request = self
            .client
            .get(format!("{}/healthz", self.base_url))
            .timeout(wait)
            .send();
        matches!(request.await, Ok(r) if r.status().is_success())
    }

    /// What the sidecar is doing, for `/readyz`: "restarting", "busy" (every render slot
    /// taken), "failing" (its last render failed) or "ok".
    pub fn state(&self) -> &'static str {
        if !self.is_up() {
            "restarting"
        } else if self.in_flight.available_permits() == 0 {
            "busy"
        } else if self.failing.load(Ordering::Acquire) {
            "failing"
        } else {
            "ok"
        }
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Whether renders are being sent to the sidecar (false while it restarts).
    pub fn is_up(&self) -> bool {
        self.up.load(Ordering::Acquire)
    }

    /// The process id of the supervised sidecar (0 when none runs).
    pub fn pid(&self) -> u32 {
        self.pid.load(Ordering::Acquire)
    }

    /// Renders a page body; `body` is the JSON request `{url, data}`.
    pub async fn render(
        self: &Arc<Self>,
        body: String,
        deadline: Duration,
    ) -> Result<Rendered, RenderError> {
        if !self.up.load(Ordering::Acquire) {
            return Err(RenderError::Down);
        }
        let mut request = self
            .client
            .post(format!("{}/render", self.base_url))
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body);
        for (k, v) in observability::trace_headers() {
            request = request.header(k, v);
        }
        let until = Instant::now() + deadline;
        // Waiting for a slot is the app's queue: a render still waiting at its deadline says
        // the sidecar is busy, and is no failure of the sidecar's.
        let _permit = match tokio::time::timeout(deadline, self.in_flight.acquire()).await {
            Ok(Ok(permit)) => permit,
            Ok(Err(_)) => return Err(RenderError::Down),
            Err(_) => {
                crate::metrics::sidecar_busy();
                return Err(RenderError::Busy(deadline));
            }
        };
        let attempt = async {
            let response = request.send().await?;
            if !response.status().is_success() {
                return Err(RenderError::Status(response.status()));
            }
            let css_bytes = response
                .headers()
                .get(CSS_BYTES)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string);
            let body = response.bytes().await?;
            Rendered::split(body, css_bytes.as_deref())
        };
        let left = until.saturating_duration_since(Instant::now());
        let result = match tokio::time::timeout(left, attempt).await {
            Ok(r) => r,
            Err(_) => Err(RenderError::Deadline(deadline)),
        };
        match &result {
            Ok(_) => {
                self.failures.store(0, Ordering::Release);
                self.failing.store(false, Ordering::Release);
                self.last_ok.store(self.now_ms(), Ordering::Release);
            }
            Err(_) => {
                self.failing.store(true, Ordering::Release);
                if self.failures.fetch_add(1, Ordering::AcqRel) + 1 >= FAILURES_BEFORE_CHECK {
                    self.failures.store(0, Ordering::Release);
                    self.check_health();
                }
            }
        }
        result
    }

    /// After repeated failures: restart the sidecar only if it is past its start-up grace and
    /// fails [`HEALTH_ATTEMPTS`] health checks in a row without finishing a render meanwhile
    /// (a busy sidecar is slow, not broken). A sidecar that exits is restarted by
    /// [`supervise`] at once.
    fn check_health(self: &Arc<Self>) {
        let in_grace = self
            .started
            .lock()
            .map(|t| t.elapsed() < STARTUP_GRACE)
            .unwrap_or(false);
        if in_grace || self.checking.swap(true, Ordering::AcqRel) {
            return;
        }
        let this = self.clone();
        tokio::spawn(async move {
            let since = this.now_ms();
            let mut alive = false;
            for attempt in 0..HEALTH_ATTEMPTS {
                if attempt > 0 {
                    tokio::time::sleep(HEALTH_SPACING).await;
                }
                if this.last_ok.load(Ordering::Acquire) > since
                    || this.answers_within(HEALTH_WAIT).await
                {
                    alive = true;
                    break;
                }
                crate::metrics::sidecar_health_missed();
                tracing::warn!(attempt, "rendering sidecar did not answer its health check");
            }
            if !alive {
                tracing::warn!("rendering sidecar is not answering; restarting it");
                this.up.store(false, Ordering::Release);
                this.restart.notify_waiters();
            }
            this.checking.store(false, Ordering::Release);
        });
    }

    /// Stops a supervised sidecar and waits for it to exit.
    pub async fn stop(&self) {
        let _ = self.stop.send(true);
        if let Some(task) = self.task.lock().await.take() {
            let _ = task.await;
        }
    }
}

#[cfg(test)]
mod tests;
