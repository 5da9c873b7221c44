//! The ceiling of the app's stack for `make bench`: Tokio and hyper (the same versions,
//! connection builder and allocator as the app) answering every request with one file's bytes held in
//! memory, with a content type and length and nothing else — no routing, no cache lookup,
//! no headers to choose. The app serving a cached page cannot be faster than this.
//!
//! Usage: bench-ceiling PORT FILE [CONTENT-ENCODING]

use std::convert::Infallible;
use std::net::SocketAddr;

use bytes::Bytes;
use http_body_util::Full;
use hyper::header::{HeaderValue, CONTENT_ENCODING, CONTENT_TYPE};
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use tokio::net::TcpListener;

/// The app's allocator, so that the ceiling is the same stack.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: bench-ceiling PORT FILE [CONTENT-ENCODING]";
    let port: u16 = args.next().ok_or(usage)?.parse()?;
    let body = Bytes::from(std::fs::read(args.next().ok_or(usage)?)?);
    let encoding = args.next().map(HeaderValue::try_from).transpose()?;
    let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], port))).await?;
    loop {
        let (stream, _) = listener.accept().await?;
        let _ = stream.set_nodelay(true);
        let body = body.clone();
        let encoding = encoding.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |_req| {
                let mut response = hyper::Response::new(Full::new(body.clone()));
                let headers = response.headers_mut();
                headers.insert(
                    CONTENT_TYPE,
                    HeaderValue::from_static("text/html; charset=utf-8"),
                );
                if let Some(e) = &encoding {
                    headers.insert(CONTENT_ENCODING, e.clone());
                }
                async move { Ok::<_, Infallible>(response) }
            });
            let _ = auto::Builder::new(TokioExecutor::new())
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
