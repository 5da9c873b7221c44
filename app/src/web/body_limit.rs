//! Caps on request bodies, per API route: a declared `Content-Length` over the cap is refused
//! with 413 before anything is read; a body without one (chunked) is cut off at the cap.

use crate::codes::Code;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{ready, Context, Poll};

use kernel::ErrorBody;
use poem::http::{header, StatusCode};
use poem::{Body, Endpoint, IntoResponse, Request, Response};
use tokio::io::{AsyncRead, ReadBuf};

const MB: u64 = 1024 * 1024;

/// The largest body accepted on `path` (the full request path), given the magazine limit.
fn limit_for(path: &str, magazine_bytes: u64) -> u64 {
    match path {
        // One PDF plus the multipart envelope.
        "/api/v1/staff/magazines" => magazine_bytes + MB,
        "/api/v1/applications" => outreach::MAX_APPLICATION_BODY_BYTES,
        "/api/v1/staff/covers" => media::MAX_COVER_BODY_BYTES,
        _ => MB,
    }
}

struct Capped<R> {
    inner: R,
    left: u64,
    /// Set when the body went past the cap, so the answer can be 413 whatever the handler
    /// made of the cut-off body.
    over: Arc<AtomicBool>,
}

impl<R: AsyncRead + Unpin> AsyncRead for Capped<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        ready!(Pin::new(&mut self.inner).poll_read(cx, buf))?;
        let read = (buf.filled().len() - before) as u64;
        if read > self.left {
            self.over.store(true, Ordering::Relaxed);
            return Poll::Ready(Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                "the request body is larger than this endpoint accepts",
            )));
        }
        self.left -= read;
        Poll::Ready(Ok(()))
    }
}

pub async fn limit_body<E: Endpoint>(
    next: E,
    mut req: Request,
    magazine_bytes: u64,
) -> poem::Result<Response> {
    let limit = limit_for(req.original_uri().path(), magazine_bytes);
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let too_large = || {
        let body = ErrorBody::titled(
            Code::PayloadTooLarge,
            "Too Large",
            format!(
                "The request is too large: this endpoint accepts at most {} MB.",
                limit.div_ceil(MB)
            ),
        );
        (StatusCode::PAYLOAD_TOO_LARGE, poem::web::Json(body)).into_response()
    };
    match declared {
        Some(n) if n > limit => Ok(too_large()),
        Some(_) => next.call(req).await.map(IntoResponse::into_response),
        None => {
            let over = Arc::new(AtomicBool::new(false));
            let body = req.take_body().into_async_read();
            req.set_body(Body::from_async_read(Capped {
                inner: body,
                left: limit,
                over: over.clone(),
            }));
            let answer = next.call(req).await.map(IntoResponse::into_response);
            if over.load(Ordering::Relaxed) {
                return Ok(too_large());
            }
            answer
        }
    }
}

#[cfg(test)]
mod tests {
    use super::limit_for;

    #[test]
    fn applications_may_carry_four_documents() {
        let mb = 1024 * 1024;
        assert!(limit_for("/api/v1/applications", 50 * mb) > 40 * mb);
        assert!(limit_for("/api/v1/staff/covers", 50 * mb) > 5 * mb);
        assert!(limit_for("/api/v1/staff/magazines", 50 * mb) > 50 * mb);
        assert_eq!(limit_for("/api/v1/contact", 50 * mb), mb);
    }
}
