//! The Node rendering sidecar: started, health-checked and restarted by the app, or an
//! external one reached by URL.

use std::process::Stdio;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Deserialize;
use tokio::process::{Child, Command};
use tokio::sync::{watch, Mutex, Notify, Semaphore};
use tokio::task::JoinHandle;

use crate::settings::SsrSettings;

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
    /// Every render slot stayed taken until the deadline: the sidecar is busy, not broken.
    #[error("the sidecar was busy for {0:?}")]
    Busy(Duration),
}

/// A page as the sidecar renders it: the markup for `#root`, and the CSS that markup needs
/// to paint (empty when the sidecar could not tell).
#[derive(Deserialize)]
pub struct Rendered {
    pub html: String,
    #[serde(default)]
    pub css: String,
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
        let client = reqwest::Client::builder()
            .pool_max_idle_per_host(64)
            .no_proxy()
            .build()?;
        let (stop, _) = watch::channel(false);
        let port = match (&cfg.url, cfg.port) {
            (Some(_), _) => 0,
            (None, 0) => free_port()?,
            (None, p) => p,
        };
        let base_url = cfg
            .url
            .clone()
            .unwrap_or_else(|| format!("http://127.0.0.1:{port}"));
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
        if cfg.url.is_none() {
            if !cfg.script.exists() {
                tracing::warn!(script = %cfg.script.display(), "sidecar script not found; pages will be client-rendered until it exists (run `make build`)");
            }
            let task = tokio::spawn(supervise(sidecar.clone(), cfg.clone(), port));
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
            Ok(response.json::<Rendered>().await?)
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

fn free_port() -> std::io::Result<u16> {
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0))?;
    Ok(listener.local_addr()?.port())
}

async fn supervise(sidecar: Arc<Sidecar>, cfg: SsrSettings, port: u16) {
    let mut stop = sidecar.stop.subscribe();
    let mut backoff = Duration::from_millis(100);
    loop {
        if *stop.borrow_and_update() {
            break;
        }
        let started = Instant::now();
        let spawned = Command::new(&cfg.node)
            // A smaller young generation: renders allocate short-lived trees, and the default
            // (16 MB semi-spaces) costs tens of MB of resident memory for little speed.
            .arg("--max-semi-space-size=4")
            .arg(&cfg.script)
            .env("SSR_PORT", port.to_string())
            .env("SSR_HOST", "127.0.0.1")
            .env("NODE_ENV", "production")
            // Its spans are the sidecar's, whatever the app's service is called.
            .env("OTEL_SERVICE_NAME", "agora-ssr")
            // A pipe the sidecar watches: the child holds our end, and the OS closes it when
            // this process ends however it ends (SIGKILL too), so the sidecar ends with it.
            .env("SSR_PARENT_PIPE", "1")
            .stdin(Stdio::piped())
            .kill_on_drop(true)
            .spawn();
        match spawned {
            Err(e) => {
                tracing::error!(error = %e, node = %cfg.node, "cannot start the rendering sidecar")
            }
            Ok(mut child) => {
                // Our end of the pipe, held until the child is gone: `Child::wait` would close
                // it first (the sidecar would take that for our death and stop).
                let _parent_pipe = child.stdin.take();
                let pid = child.id().unwrap_or(0);
                sidecar.pid.store(pid, Ordering::Release);
                if let Ok(mut t) = sidecar.started.lock() {
                    *t = Instant::now();
                }
                tracing::info!(pid, port, "rendering sidecar started");
                let ready = sidecar.clone();
                let readiness = tokio::spawn(async move {
                    ready.wait_healthy(Duration::from_secs(10)).await;
                    ready.failing.store(false, Ordering::Release);
                    ready.up.store(true, Ordering::Release);
                });
                tokio::select! {
                    status = child.wait() => {
                        crate::metrics::sidecar_restarted();
                        tracing::warn!(?status, "rendering sidecar exited; restarting");
                    }
                    _ = sidecar.restart.notified() => {
                        crate::metrics::sidecar_restarted();
                        tracing::warn!("rendering sidecar is failing; restarting it");
                        terminate(&mut child).await;
                    }
                    _ = crate::shutdown::stopped(&mut stop) => {
                        terminate(&mut child).await;
                        sidecar.pid.store(0, Ordering::Release);
                        tracing::info!("rendering sidecar stopped");
                        break;
                    }
                }
                readiness.abort();
                sidecar.up.store(false, Ordering::Release);
                sidecar.pid.store(0, Ordering::Release);
            }
        }
        if started.elapsed() > Duration::from_secs(10) {
            backoff = Duration::from_millis(100);
        }
        tokio::select! {
            _ = tokio::time::sleep(backoff) => {}
            _ = crate::shutdown::stopped(&mut stop) => break,
        }
        backoff = (backoff * 2).min(Duration::from_secs(5));
    }
}

/// SIGTERM, then SIGKILL if it does not exit within two seconds.
async fn terminate(child: &mut Child) {
    if let Some(pid) = child.id().and_then(|p| i32::try_from(p).ok()) {
        // SAFETY: sending a signal to our own child process id has no memory-safety concerns.
        unsafe {
            libc::kill(pid, libc::SIGTERM);
        }
        if tokio::time::timeout(Duration::from_secs(2), child.wait())
            .await
            .is_ok()
        {
            return;
        }
    }
    let _ = child.kill().await;
}
