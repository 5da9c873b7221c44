//! The supervised sidecar's process: where it listens, how it is started, watched,
//! restarted and stopped.

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::process::{Child, Command};

use super::Sidecar;
use crate::settings::SsrSettings;

/// Where a supervised sidecar listens.
#[derive(Debug, Clone)]
pub(super) enum Listen {
    /// A loopback port (`SSR_PORT`).
    Port(u16),
    /// A Unix socket only this app's user can reach, removed when the sidecar stops.
    Socket(PathBuf),
}

/// A socket path of this process's own (several apps may run in one process: tests).
pub(super) fn socket_path() -> PathBuf {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("agora-ssr-{}-{n}.sock", std::process::id()))
}

pub(super) async fn supervise(sidecar: Arc<Sidecar>, cfg: SsrSettings, listen: Listen) {
    watch_over(&sidecar, &cfg, &listen).await;
    if let Listen::Socket(path) = &listen {
        // A sidecar that was killed leaves its socket behind.
        let _ = std::fs::remove_file(path);
    }
}

async fn watch_over(sidecar: &Arc<Sidecar>, cfg: &SsrSettings, listen: &Listen) {
    let mut stop = sidecar.stop.subscribe();
    let mut backoff = Duration::from_millis(100);
    loop {
        if *stop.borrow_and_update() {
            break;
        }
        let started = Instant::now();
        let spawned = command(cfg, listen, observability::export_requested()).spawn();
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
                tracing::info!(pid, ?listen, "rendering sidecar started");
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

/// How the sidecar is started: `exporting` when it is to export spans.
fn command(cfg: &SsrSettings, listen: &Listen, exporting: bool) -> Command {
    let mut command = Command::new(&cfg.node);
    // A smaller young generation: renders allocate short-lived trees, and the default
    // (16 MB semi-spaces) costs tens of MB of resident memory for little speed. The
    // sidecar's build writes its code cache under the same flag (ssr-renderer's
    // package.json): V8 uses a cache only with the flags it was made with.
    command.arg("--max-semi-space-size=4").arg(&cfg.script);
    match listen {
        Listen::Port(port) => command
            .env("SSR_PORT", port.to_string())
            .env("SSR_HOST", "127.0.0.1"),
        // The sidecar removes a stale socket file before it listens.
        Listen::Socket(path) => command.env("SSR_SOCKET", path),
    };
    // Node 20 reads every certificate named by NODE_EXTRA_CA_CERTS as it starts (a system
    // bundle: 90 ms, two thirds of its start-up), for TLS the sidecar only does to export
    // spans. Often set machine-wide (behind a school's TLS-inspecting proxy), it is kept
    // from the sidecar unless the sidecar exports.
    if !exporting {
        command.env_remove("NODE_EXTRA_CA_CERTS");
    }
    command
        .env("NODE_ENV", "production")
        // Its spans are the sidecar's, whatever the app's service is called.
        .env("OTEL_SERVICE_NAME", "agora-ssr")
        // A pipe the sidecar watches: the child holds our end, and the OS closes it when
        // this process ends however it ends (SIGKILL too), so the sidecar ends with it.
        .env("SSR_PARENT_PIPE", "1")
        .stdin(Stdio::piped())
        .kill_on_drop(true);
    command
}

#[cfg(test)]
mod tests {
    use std::ffi::OsStr;

    use super::*;

    fn env_of(command: &Command, name: &str) -> Option<Option<String>> {
        command
            .as_std()
            .get_envs()
            .find(|(k, _)| *k == OsStr::new(name))
            .map(|(_, v)| v.map(|v| v.to_string_lossy().into_owned()))
    }

    fn settings() -> SsrSettings {
        SsrSettings {
            url: None,
            node: "node".into(),
            script: "ssr-renderer/dist/server.js".into(),
            port: 0,
            deadline: Duration::from_secs(1),
        }
    }

    #[test]
    fn a_sidecar_that_exports_nothing_starts_without_the_extra_certificates() {
        let listen = Listen::Socket("/tmp/s.sock".into());
        let quiet = command(&settings(), &listen, false);
        assert_eq!(env_of(&quiet, "NODE_EXTRA_CA_CERTS"), Some(None), "removed");
        let exporting = command(&settings(), &listen, true);
        assert_eq!(env_of(&exporting, "NODE_EXTRA_CA_CERTS"), None, "inherited");
        assert_eq!(
            env_of(&quiet, "SSR_SOCKET"),
            Some(Some("/tmp/s.sock".into()))
        );
        let args: Vec<_> = quiet.as_std().get_args().collect();
        assert_eq!(
            args,
            ["--max-semi-space-size=4", "ssr-renderer/dist/server.js"]
        );
    }
}
