//! A per-address limit on view beacons. Best effort and in process: it protects a view counter,
//! not data, so it is not shared between instances; its memory is bounded.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Beacons one client address may send per minute by default (all at once, or spread out);
/// `VIEW_BEACONS_PER_MINUTE` changes it. Every page load sends one, and a whole school can be
/// behind one address: ten a second is a busy school, and still caps what one address adds.
pub const BEACONS_PER_MINUTE: u32 = 600;

/// Client addresses remembered at most; an address idle for a whole period is forgotten (it
/// would be allowed a full burst again anyway).
const MAX_CLIENTS: u64 = 100_000;

/// A generic cell rate algorithm per client: `limit` requests per `period`, all at once or
/// spread out.
pub struct RateLimiter {
    /// Time one request "costs".
    interval: Duration,
    /// How far ahead of now a client's allowance may be spent.
    tolerance: Duration,
    /// Per client: the time at which its allowance is whole again.
    clients: moka::sync::Cache<String, Arc<Mutex<Instant>>>,
}

impl RateLimiter {
    pub fn new(limit: u32, period: Duration) -> RateLimiter {
        let interval = period / limit.max(1);
        RateLimiter {
            interval,
            tolerance: period.saturating_sub(interval),
            clients: moka::sync::Cache::builder()
                .max_capacity(MAX_CLIENTS)
                .time_to_idle(period)
                .build(),
        }
    }

    /// Takes one request of `client`; when over the limit, the whole seconds to wait instead.
    pub fn check(&self, client: &str) -> Result<(), u64> {
        let now = Instant::now();
        let cell = self
            .clients
            .get_with(client.to_string(), || Arc::new(Mutex::new(now)));
        let mut whole_at = cell.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let start = (*whole_at).max(now);
        let ahead = start.duration_since(now);
        if ahead > self.tolerance {
            let wait = ahead - self.tolerance;
            let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            return Err(secs.max(1));
        }
        *whole_at = start + self.interval;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_up_to_the_limit_then_one_per_interval() {
        let limiter = RateLimiter::new(60, Duration::from_secs(60));
        for i in 0..60 {
            assert_eq!(limiter.check("198.51.100.1"), Ok(()), "beacon {i}");
        }
        assert_eq!(limiter.check("198.51.100.1"), Err(1));
        // Another address has its own allowance.
        assert_eq!(limiter.check("198.51.100.2"), Ok(()));
    }

    #[test]
    fn the_allowance_comes_back_over_time() {
        let limiter = RateLimiter::new(5, Duration::from_millis(250));
        for _ in 0..5 {
            assert_eq!(limiter.check("a"), Ok(()));
        }
        assert!(limiter.check("a").is_err());
        std::thread::sleep(Duration::from_millis(60));
        assert_eq!(limiter.check("a"), Ok(()));
    }
}
