//! What a slow or idle client is measured by: connection activity (for the idle timeout, see
//! `watch.rs`) and a request body's minimum rate.

use std::future::Future as _;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use futures_util::Stream;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::{Instant, Sleep};

use super::watch::Watched;

/// A socket that records activity on every successful read or write.
pub(super) struct Tracked {
    pub(super) inner: TcpStream,
    pub(super) activity: Arc<Watched>,
}

impl AsyncRead for Tracked {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let result = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(result, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.activity.touch();
        }
        result
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let result = Pin::new(&mut self.inner).poll_write(cx, buf);
        if matches!(result, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        result
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let result = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        if matches!(result, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        result
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// A request body that must keep up a minimum rate: after `grace`, at least `rate` bytes per
/// second on average, or the body ends with a timeout error (the handler answers and the
/// connection is closed).
pub(super) struct MinRate<S> {
    inner: S,
    started: Instant,
    grace: Duration,
    rate: u64,
    received: u64,
    deadline: Pin<Box<Sleep>>,
}

impl<S> MinRate<S> {
    pub(super) fn new(inner: S, grace: Duration, rate: u64) -> Self {
        let started = Instant::now();
        MinRate {
            inner,
            started,
            grace,
            rate: rate.max(1),
            received: 0,
            deadline: Box::pin(tokio::time::sleep_until(started + grace)),
        }
    }

    fn due(&self) -> Instant {
        let allowance = Duration::from_secs_f64(self.received as f64 / self.rate as f64);
        self.started + self.grace + allowance
    }
}

/// The error a body too slow to arrive ends with.
#[derive(Debug, thiserror::Error)]
#[error("the request body arrived too slowly")]
struct SlowBody;

impl<S> Stream for MinRate<S>
where
    S: Stream<Item = std::io::Result<Bytes>> + Unpin,
{
    type Item = std::io::Result<Bytes>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        match Pin::new(&mut self.inner).poll_next(cx) {
            Poll::Ready(Some(Ok(chunk))) => {
                self.received += chunk.len() as u64;
                let due = self.due();
                self.deadline.as_mut().reset(due);
                Poll::Ready(Some(Ok(chunk)))
            }
            Poll::Pending => match self.deadline.as_mut().poll(cx) {
                Poll::Ready(()) => Poll::Ready(Some(Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    SlowBody,
                )))),
                Poll::Pending => Poll::Pending,
            },
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_body_that_stalls_ends_with_a_timeout() {
        let (tx, rx) = tokio::sync::mpsc::channel::<std::io::Result<Bytes>>(4);
        let stream = tokio_stream_from(rx);
        let mut body = MinRate::new(stream, Duration::from_millis(200), 100);
        tx.send(Ok(Bytes::from_static(b"hello"))).await.unwrap();
        let first = futures_util::StreamExt::next(&mut body).await.unwrap();
        assert_eq!(first.unwrap(), Bytes::from_static(b"hello"));
        // Nothing more arrives: the deadline (0.2 s + 5 bytes at 100 B/s) passes.
        let second = futures_util::StreamExt::next(&mut body).await.unwrap();
        assert_eq!(second.unwrap_err().kind(), std::io::ErrorKind::TimedOut);
        drop(tx);
    }

    #[tokio::test]
    async fn a_body_at_a_steady_rate_is_read_whole() {
        let (tx, rx) = tokio::sync::mpsc::channel::<std::io::Result<Bytes>>(4);
        let mut body = MinRate::new(tokio_stream_from(rx), Duration::from_millis(100), 1000);
        tokio::spawn(async move {
            for _ in 0..10 {
                tokio::time::sleep(Duration::from_millis(50)).await;
                tx.send(Ok(Bytes::from(vec![b'x'; 100]))).await.unwrap();
            }
        });
        let mut total = 0;
        while let Some(chunk) = futures_util::StreamExt::next(&mut body).await {
            total += chunk.unwrap().len();
        }
        assert_eq!(total, 1000);
    }

    fn tokio_stream_from(
        mut rx: tokio::sync::mpsc::Receiver<std::io::Result<Bytes>>,
    ) -> impl Stream<Item = std::io::Result<Bytes>> + Unpin {
        Box::pin(futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx)))
    }
}
