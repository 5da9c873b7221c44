//! The HTTP server loop: hyper connections serving the poem routes, with the limits a public
//! server needs against slow or idle clients — a deadline for a request's headers, a minimum
//! rate for its body, an idle timeout per connection (both kept by one watchdog, see
//! `watch.rs`) and a cap on open connections — and a graceful stop.

use std::convert::Infallible;
use std::future::Future as _;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use futures_util::future::{self, FutureExt as _};
use http_body_util::{Either, Full};
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use poem::endpoint::BoxEndpoint;
use poem::http::{header, uri::Scheme};
use poem::web::{LocalAddr, RemoteAddr};
use poem::{Addr, Body, Endpoint};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

pub use crate::settings::ServerLimits;
use crate::web::CachedPages;

mod slow;
mod watch;

use slow::{MinRate, Tracked};
use watch::{HeaderTimer, Orders, Watchdog};

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
    let watchdog = Arc::new(Watchdog::new(
        limits.header_read_timeout,
        limits.idle_timeout,
    ));
    let watching = tokio::spawn(watchdog.clone().run());
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
        let watched = watchdog.watch();
        tokio::spawn(async move {
            let app = App {
                endpoint,
                cached_pages,
            };
            let io = Tracked {
                inner: stream,
                activity: watched.clone(),
            };
            serve_connection(io, local, remote, app, limits, &watched).await;
            drop(permit);
        });
    }
    drop(listener);
    watchdog.stop();
    // Every connection holds a permit: all of them back means all connections are closed.
    let total = u32::try_from(limits.connection_cap()).unwrap_or(u32::MAX);
    let drained = tokio::time::timeout(limits.shutdown_grace, slots.acquire_many(total)).await;
    if drained.is_err() {
        tracing::warn!("connections still open after the shutdown grace period; closing them");
    }
    watching.abort();
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
    /// event, so the logs never show it). Answered as the request is taken, without a task
    /// of its own: the cache's lookup finishes at once unless its housekeeping is busy, and
    /// then the page endpoint, which looks too, answers.
    fn stored_page(&self, req: &hyper::Request<Incoming>) -> Option<hyper::Response<Full<Bytes>>> {
        let pages = self.cached_pages.as_ref()?;
        if req.headers().contains_key(header::CONTENT_LENGTH)
            || req.headers().contains_key(header::TRANSFER_ENCODING)
        {
            return None;
        }
        let started = std::time::Instant::now();
        let answer = pages
            .answer(req.method(), req.uri(), req.headers(), started)
            .now_or_never()
            .flatten()?;
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
    io: Tracked,
    local: SocketAddr,
    remote: SocketAddr,
    app: App,
    limits: Arc<ServerLimits>,
    watched: &watch::Watched,
) {
    let service = {
        let limits = limits.clone();
        hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
            if let Some(response) = app.stored_page(&req) {
                return future::Either::Left(future::ready(Ok::<_, Infallible>(
                    response.map(Either::Left),
                )));
            }
            let app = app.clone();
            let limits = limits.clone();
            // Boxed: the connection holds its request's future inline, and this one (poem's
            // whole path) is large; a stored page's is not.
            future::Either::Right(Box::pin(async move {
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
                let response = hyper::Response::<BoxBody>::from(response);
                Ok::<_, Infallible>(response.map(Either::Right))
            }))
        })
    };
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(HeaderTimer)
        .header_read_timeout(limits.header_read_timeout);
    builder.http2().timer(TokioTimer::new());
    let conn = builder.serve_connection_with_upgrades(TokioIo::new(io), service);
    tokio::pin!(conn);
    let mut finishing = false;
    std::future::poll_fn(|cx| {
        match watched.poll_orders(cx) {
            Orders::Close => {
                tracing::debug!(remote = %remote, "closing an idle connection");
                return std::task::Poll::Ready(());
            }
            Orders::Finish if !finishing => {
                finishing = true;
                conn.as_mut().graceful_shutdown();
            }
            Orders::Finish | Orders::Serve => {}
        }
        conn.as_mut().poll(cx).map(|_| ())
    })
    .await;
}

/// What poem answers; a stored page is sent as `Full` bytes (no allocation, no dynamic call).
type BoxBody = http_body_util::combinators::BoxBody<Bytes, std::io::Error>;

fn has_body(req: &poem::Request) -> bool {
    let headers = req.headers();
    headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim() != "0")
}
