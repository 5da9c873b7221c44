//! One watchdog for every connection, instead of timers per connection and per request: it
//! looks at each connection every `period`, closes those with no read or write over the idle
//! timeout (or with no byte at all within the header deadline), and asks them all to finish
//! when the server stops. Its look also wakes each
//! connection, which is what lets a request's header deadline ([`HeaderDeadline`]) be a
//! clock comparison instead of an entry in the runtime's timer wheel (set and cleared on
//! every request, under a lock, by hyper's own header timer).

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use futures_util::task::AtomicWaker;

/// What the watchdog and one connection share.
#[derive(Default)]
pub(super) struct Watched {
    /// Read or written since the watchdog last looked (one store a read or write, no clock).
    busy: AtomicBool,
    /// Idle too long: to be closed.
    close: AtomicBool,
    /// The server is stopping: finish the request in flight, then close.
    stop: AtomicBool,
    waker: AtomicWaker,
}

impl Watched {
    pub(super) fn touch(&self) {
        self.busy.store(true, Ordering::Relaxed);
    }

    /// What the connection is to do, registering its task to be woken at the next look.
    pub(super) fn poll_orders(&self, cx: &Context<'_>) -> Orders {
        self.waker.register(cx.waker());
        if self.close.load(Ordering::Relaxed) {
            Orders::Close
        } else if self.stop.load(Ordering::Relaxed) {
            Orders::Finish
        } else {
            Orders::Serve
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
pub(super) enum Orders {
    Serve,
    /// Finish what is in flight, take nothing new.
    Finish,
    /// Close now.
    Close,
}

struct Entry {
    conn: Weak<Watched>,
    /// Looks in a row that found the connection idle.
    idle_looks: u32,
    /// Whether it ever read or wrote: one that never did has sent no request yet.
    ever_busy: bool,
}

pub(super) struct Watchdog {
    period: Duration,
    /// Idle looks after which a connection is closed.
    idle_looks: u32,
    /// Looks after which a connection that has sent nothing is closed (hyper's header
    /// deadline starts with the first byte, when it knows which HTTP version it serves).
    /// One more than the deadline's periods: the first look may come just after the
    /// connection opened.
    silent_looks: u32,
    conns: Mutex<Vec<Entry>>,
    stopping: AtomicBool,
}

impl Watchdog {
    /// A watchdog looking often enough to hold a header deadline of `header_timeout` to
    /// within a quarter of it, and closing a connection idle for `idle_timeout` (to within
    /// one look).
    pub(super) fn new(header_timeout: Duration, idle_timeout: Duration) -> Self {
        let period = (header_timeout.min(idle_timeout) / 4).max(Duration::from_millis(20));
        let looks = |timeout: Duration| {
            let n = timeout.as_nanos().div_ceil(period.as_nanos());
            u32::try_from(n).unwrap_or(u32::MAX).max(1)
        };
        Watchdog {
            period,
            idle_looks: looks(idle_timeout),
            silent_looks: looks(header_timeout).saturating_add(1),
            conns: Mutex::new(Vec::new()),
            stopping: AtomicBool::new(false),
        }
    }

    /// Watches a new connection.
    pub(super) fn watch(&self) -> Arc<Watched> {
        let watched = Arc::new(Watched::default());
        let mut conns = self.conns.lock().unwrap_or_else(PoisonError::into_inner);
        // Read under the lock `stop` takes: a connection accepted as the server stops is
        // told so either here or by `stop`.
        if self.stopping.load(Ordering::Relaxed) {
            watched.stop.store(true, Ordering::Relaxed);
        }
        conns.push(Entry {
            conn: Arc::downgrade(&watched),
            idle_looks: 0,
            ever_busy: false,
        });
        watched
    }

    /// Looks at every connection until the process ends (the task is dropped with the
    /// runtime, or aborted when the server stops).
    pub(super) async fn run(self: Arc<Self>) {
        let mut ticks = tokio::time::interval(self.period);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        ticks.tick().await;
        loop {
            ticks.tick().await;
            self.look();
        }
    }

    /// One look: forget closed connections, close the idle ones and those that sent nothing
    /// within the header deadline, wake the rest (so each checks its header deadline).
    fn look(&self) {
        let mut conns = self.conns.lock().unwrap_or_else(PoisonError::into_inner);
        conns.retain_mut(|entry| {
            let Some(conn) = entry.conn.upgrade() else {
                return false;
            };
            if conn.busy.swap(false, Ordering::Relaxed) {
                entry.idle_looks = 0;
                entry.ever_busy = true;
            } else {
                entry.idle_looks = entry.idle_looks.saturating_add(1);
                let limit = if entry.ever_busy {
                    self.idle_looks
                } else {
                    self.silent_looks
                };
                if entry.idle_looks >= limit {
                    conn.close.store(true, Ordering::Relaxed);
                }
            }
            conn.waker.wake();
            true
        });
    }

    /// Tells every connection, and those accepted from now on, to finish and close.
    pub(super) fn stop(&self) {
        let conns = self.conns.lock().unwrap_or_else(PoisonError::into_inner);
        self.stopping.store(true, Ordering::Relaxed);
        for conn in conns.iter().filter_map(|e| e.conn.upgrade()) {
            conn.stop.store(true, Ordering::Relaxed);
            conn.waker.wake();
        }
    }
}

/// hyper's timer for HTTP/1 connections, which it uses for one thing: the deadline of a
/// request's headers (including the wait for the next request on a kept-alive connection).
/// Its sleeps register nowhere; they are looked at whenever hyper polls the connection,
/// which the watchdog's look ensures at least every period.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct HeaderTimer;

impl hyper::rt::Timer for HeaderTimer {
    fn sleep(&self, duration: Duration) -> Pin<Box<dyn hyper::rt::Sleep>> {
        Box::pin(HeaderDeadline(Instant::now() + duration))
    }

    fn sleep_until(&self, deadline: Instant) -> Pin<Box<dyn hyper::rt::Sleep>> {
        Box::pin(HeaderDeadline(deadline))
    }
}

/// Ready once its instant has passed, when polled.
struct HeaderDeadline(Instant);

impl Future for HeaderDeadline {
    type Output = ();

    fn poll(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<()> {
        if Instant::now() >= self.0 {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    }
}

impl hyper::rt::Sleep for HeaderDeadline {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::task::Waker;

    fn orders(w: &Watched) -> Orders {
        w.poll_orders(&Context::from_waker(Waker::noop()))
    }

    #[test]
    fn a_connection_idle_for_the_whole_timeout_is_closed_and_a_busy_one_is_not() {
        // Looks every 250 ms; idle for 1 s = 4 looks after the one that saw it busy.
        let dog = Watchdog::new(Duration::from_secs(1), Duration::from_secs(1));
        let idle = dog.watch();
        let busy = dog.watch();
        idle.touch();
        busy.touch();
        dog.look();
        for _ in 0..3 {
            busy.touch();
            dog.look();
            assert_eq!(orders(&idle), Orders::Serve);
        }
        busy.touch();
        dog.look();
        assert_eq!(orders(&idle), Orders::Close);
        assert_eq!(orders(&busy), Orders::Serve);
    }

    #[test]
    fn a_connection_that_never_sends_a_byte_is_closed_at_the_header_deadline() {
        // Header deadline 1 s (4 looks, the first maybe at once), idle timeout an hour.
        let dog = Watchdog::new(Duration::from_secs(1), Duration::from_secs(3600));
        let silent = dog.watch();
        let spoke = dog.watch();
        spoke.touch();
        for _ in 0..4 {
            dog.look();
        }
        assert_eq!(orders(&silent), Orders::Serve);
        dog.look();
        assert_eq!(orders(&silent), Orders::Close);
        // Quiet since its request: held to the idle timeout (and hyper's header deadline).
        assert_eq!(orders(&spoke), Orders::Serve);
    }

    #[test]
    fn activity_between_looks_starts_the_idle_count_again() {
        let dog = Watchdog::new(Duration::from_secs(1), Duration::from_secs(1));
        let conn = dog.watch();
        for _ in 0..3 {
            dog.look();
        }
        conn.touch();
        dog.look();
        for _ in 0..3 {
            dog.look();
        }
        assert_eq!(orders(&conn), Orders::Serve);
        dog.look();
        assert_eq!(orders(&conn), Orders::Close);
    }

    #[test]
    fn stopping_reaches_open_connections_and_those_accepted_after() {
        let dog = Watchdog::new(Duration::from_secs(10), Duration::from_secs(60));
        let before = dog.watch();
        dog.stop();
        let after = dog.watch();
        assert_eq!(orders(&before), Orders::Finish);
        assert_eq!(orders(&after), Orders::Finish);
    }

    #[test]
    fn closed_connections_are_forgotten() {
        let dog = Watchdog::new(Duration::from_secs(10), Duration::from_secs(60));
        let kept = dog.watch();
        drop(dog.watch());
        dog.look();
        assert_eq!(dog.conns.lock().unwrap().len(), 1);
        drop(kept);
    }

    #[test]
    fn a_look_wakes_every_connection_so_it_checks_its_header_deadline() {
        struct Count(std::sync::atomic::AtomicUsize);
        impl std::task::Wake for Count {
            fn wake(self: Arc<Self>) {
                self.0.fetch_add(1, Ordering::Relaxed);
            }
        }
        let dog = Watchdog::new(Duration::from_secs(1), Duration::from_secs(60));
        let conn = dog.watch();
        let count = Arc::new(Count(Default::default()));
        let waker = Waker::from(count.clone());
        conn.poll_orders(&Context::from_waker(&waker));
        dog.look();
        assert_eq!(count.0.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn the_look_period_holds_the_header_deadline_to_a_quarter() {
        let dog = Watchdog::new(Duration::from_secs(10), Duration::from_secs(60));
        assert_eq!(dog.period, Duration::from_millis(2500));
        assert_eq!(dog.idle_looks, 24);
        assert_eq!(dog.silent_looks, 5);
    }

    #[test]
    fn a_header_deadline_is_ready_only_once_passed() {
        let cx = &mut Context::from_waker(Waker::noop());
        let mut passed = HeaderDeadline(Instant::now() - Duration::from_millis(1));
        let mut ahead = HeaderDeadline(Instant::now() + Duration::from_secs(60));
        assert!(Pin::new(&mut passed).poll(cx).is_ready());
        assert!(Pin::new(&mut ahead).poll(cx).is_pending());
    }
}
