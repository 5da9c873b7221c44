//! The HTTP server loop: hyper connections serving the poem routes, with the limits a public
//! server needs against slow or idle clients — a deadline for a request's headers, a minimum
//! rate for its body, an idle timeout per connection and a cap on open connections — and a
//! graceful stop.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use poem::endpoint::BoxEndpoint;
use poem::http::{header, uri::Scheme};
use poem::web::{LocalAddr, RemoteAddr};
use poem::{Addr, Body, Endpoint};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Semaphore};
use tokio::time::Instant;

pub use crate::settings::ServerLimits;
use crate::web::CachedPages;

mod slow;

use slow::{Activity, MinRate, Tracked};

impl ServerLimits {
    /// `max_connections`, lowered to what the process's file-descriptor limit allows (with
    /// room for the database pool, files and the sidecar).
    fn connection_cap(&self) -> usize {
        let mut cap = self.max_connections.max(1);
        #[cfg(unix)]
        {
            let mut limit = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            // SAFETY: getrlimit only writes into the struct we pass.
            if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0 {
                let usable = (limit.rlim_cur as usize).saturating_sub(256).max(64);
                cap = cap.min(usable);
            }
        }
        cap
    }
}

/// Serves `endpoint` on `listener` until `shutdown` resolves, then lets in-flight requests
/// finish for at most `limits.shutdown_grace`.
pub async fn serve(
    listener: TcpListener,
    endpoint: BoxEndpoint<'static>,
    cached_pages: Option<CachedPages>,
    limits: ServerLimits,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let endpoint = Arc::new(endpoint);
    let cached_pages = cached_pages.map(Arc::new);
    let local = listener.local_addr()?;
    let slots = Arc::new(Semaphore::new(limits.connection_cap()));
    let (stop_tx, stop_rx) = watch::channel(false);
    let limits = Arc::new(limits);
    tracing::info!(addr = %local, max_connections = slots.available_permits(), "listening");
    tokio::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            _ = &mut shutdown => break,
            permit = slots.clone().acquire_owned() => match permit {
                Ok(p) => p,
                Err(_) => break,
            },
        };
        let (stream, remote) = tokio::select! {
            _ = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of descriptors or a reset before accept: wait a little, go on.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        let endpoint = endpoint.clone();
        let cached_pages = cached_pages.clone();
        let limits = limits.clone();
        let stop = stop_rx.clone();
        tokio::spawn(async move {
            let app = App {
                endpoint,
                cached_pages,
            };
            serve_connection(stream, local, remote, app, limits, stop).await;
            drop(permit);
        });
    }
    drop(listener);
    let _ = stop_tx.send(true);
    // Every connection holds a permit: all of them back means all connections are closed.
    let total = u32::try_from(limits.connection_cap()).unwrap_or(u32::MAX);
    let drained = tokio::time::timeout(limits.shutdown_grace, slots.acquire_many(total)).await;
    if drained.is_err() {
        tracing::warn!("connections still open after the shutdown grace period; closing them");
    }
    Ok(())
}

/// What a connection serves: stored pages first, then the routes.
#[derive(Clone)]
struct App {
    endpoint: Arc<BoxEndpoint<'static>>,
    cached_pages: Option<Arc<CachedPages>>,
}

impl App {
    /// A stored public page, answered without routing (see `CachedPages`), with the span
    /// the tracing middleware would have made for it (for the trace exporter: it holds no
    /// event, so the logs never show it).
    async fn stored_page(
        &self,
        req: &hyper::Request<Incoming>,
    ) -> Option<hyper::Response<BoxBody>> {
        let pages = self.cached_pages.as_ref()?;
        if req.headers().contains_key(header::CONTENT_LENGTH)
            || req.headers().contains_key(header::TRANSFER_ENCODING)
        {
            return None;
        }
        let started = std::time::Instant::now();
        let answer = pages
            .answer(req.method(), req.uri(), req.headers(), started)
            .await?;
        let route = crate::web::route_of(req.uri().path());
        crate::metrics::request(
            route,
            req.method().as_str(),
            answer.status.as_u16(),
            started.elapsed(),
        );
        tracing::info_span!(
            target: observability::TRACE_ONLY,
            "request",
            http.method = req.method().as_str(),
            http.route = route,
            http.status_code = answer.status.as_u16(),
            cache = "hit",
        )
        .in_scope(|| {});
        Some(answer.into_hyper())
    }
}

async fn serve_connection(
    stream: TcpStream,
    local: SocketAddr,
    remote: SocketAddr,
    app: App,
    limits: Arc<ServerLimits>,
    mut stop: watch::Receiver<bool>,
) {
    let activity = Arc::new(Activity::new());
    let io = TokioIo::new(Tracked {
        inner: stream,
        activity: activity.clone(),
    });
    let service = {
        let limits = limits.clone();
        hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
            let app = app.clone();
            let limits = limits.clone();
            async move {
                if let Some(response) = app.stored_page(&req).await {
                    return Ok::<_, Infallible>(response);
                }
                let mut req = poem::Request::from((
                    req,
                    LocalAddr(Addr::SocketAddr(local)),
                    RemoteAddr(Addr::SocketAddr(remote)),
                    Scheme::HTTP,
                ));
                if has_body(&req) {
                    let body = req.take_body().into_bytes_stream();
                    req.set_body(Body::from_bytes_stream(MinRate::new(
                        body,
                        limits.body_grace,
                        limits.body_min_rate,
                    )));
                }
                let response = app.endpoint.get_response(req).await;
                Ok::<_, Infallible>(hyper::Response::<BoxBody>::from(response))
            }
        })
    };
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout);
    builder.http2().timer(TokioTimer::new());
    let conn = builder.serve_connection_with_upgrades(io, service);
    tokio::pin!(conn);
    let mut stopping = false;
    // Looked at every `idle_timeout`: a connection with no read or write over a whole period
    // is closed, so an idle one goes after one to two periods.
    let mut watch =
        tokio::time::interval_at(Instant::now() + limits.idle_timeout, limits.idle_timeout);
    loop {
        tokio::select! {
            _ = conn.as_mut() => return,
            _ = watch.tick() => {
                if activity.was_idle() {
                    tracing::debug!(remote = %remote, "closing an idle connection");
                    return;
                }
            }
            changed = stop.changed(), if !stopping => {
                if changed.is_err() || *stop.borrow() {
                    stopping = true;
                    conn.as_mut().graceful_shutdown();
                }
            }
        }
    }
}

type BoxBody = http_body_util::combinators::BoxBody<Bytes, std::io::Error>;

fn has_body(req: &poem::Request) -> bool {
    let headers = req.headers();
    headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim() != "0")
}
