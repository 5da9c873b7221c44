//! The ceiling of the app's stack for `make bench`: Tokio and hyper (the same versions,
//! connection builder and allocator as the app) answering every request with one file's bytes held in
//! memory, with a content type and length and nothing else — no routing, no cache lookup,
//! no headers to choose. The app serving a cached page cannot be faster than this.
//!
//! Given a headers file (one `name: value` a line, as `curl -D` writes them), it sends those
//! headers instead of the content type: the app's own response, byte for byte, at the least
//! cost hyper allows (every value made once and shared without a reference count). What the
//! app spends beyond that is its own work; what this costs beyond the bare ceiling is the cost
//! of the headers themselves.
//!
//! Usage: bench-ceiling PORT FILE [HEADERS-FILE]

use std::convert::Infallible;
use std::net::SocketAddr;

use bytes::Bytes;
use http_body_util::Full;
use hyper::header::{HeaderMap, HeaderName, HeaderValue, CONTENT_TYPE, DATE};
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use tokio::net::TcpListener;

/// The app's allocator, so that the ceiling is the same stack.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The headers of a `curl -D` file, less its status line and `Date` (hyper writes its own).
/// Each value is leaked once, at start, so that cloning it per response is a copy.
fn headers_from(text: &str) -> Result<HeaderMap, Box<dyn std::error::Error>> {
    let mut headers = HeaderMap::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let Some((name, value)) = line.split_once(':') else {
            continue; // the status line
        };
        let name = HeaderName::from_bytes(name.trim().as_bytes())?;
        if name == DATE {
            continue;
        }
        let value: &'static str = Box::leak(value.trim().to_string().into_boxed_str());
        headers.append(name, HeaderValue::from_static(value));
    }
    Ok(headers)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: bench-ceiling PORT FILE [HEADERS-FILE]";
    let port: u16 = args.next().ok_or(usage)?.parse()?;
    let body = Bytes::from(std::fs::read(args.next().ok_or(usage)?)?);
    let headers = match args.next() {
        Some(file) => headers_from(&std::fs::read_to_string(file)?)?,
        None => HeaderMap::from_iter([(
            CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        )]),
    };
    let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], port))).await?;
    loop {
        let (stream, _) = listener.accept().await?;
        let _ = stream.set_nodelay(true);
        let body = body.clone();
        let headers = headers.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |_req| {
                let mut response = hyper::Response::new(Full::new(body.clone()));
                *response.headers_mut() = headers.clone();
                async move { Ok::<_, Infallible>(response) }
            });
            let _ = auto::Builder::new(TokioExecutor::new())
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
