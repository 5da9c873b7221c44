//! The time as the modules see it. Services take a [`SharedClock`] instead of reading the
//! system clock, so that a test can move time forward (sessions, links and rate windows
//! expire) without sleeping.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use chrono::{DateTime, Utc};

pub trait Clock: Send + Sync + std::fmt::Debug {
    /// Now, truncated to microseconds (both engines store and return the same instant).
    fn now(&self) -> DateTime<Utc>;
}

pub type SharedClock = Arc<dyn Clock>;

/// The system clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        crate::ids::now()
    }
}

/// The system clock, shared.
pub fn system() -> SharedClock {
    Arc::new(SystemClock)
}

/// A clock that moves only when told to: starts at the system's time, then [`advance`]
/// moves it forward.
///
/// [`advance`]: ManualClock::advance
#[derive(Debug)]
pub struct ManualClock {
    micros: AtomicI64,
}

impl Default for ManualClock {
    fn default() -> Self {
        Self::new()
    }
}

impl ManualClock {
    pub fn new() -> Self {
        Self {
            micros: AtomicI64::new(crate::ids::now().timestamp_micros()),
        }
    }

    /// Moves the clock `by` forward.
    pub fn advance(&self, by: std::time::Duration) {
        let micros = i64::try_from(by.as_micros()).unwrap_or(i64::MAX);
        self.micros.fetch_add(micros, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> DateTime<Utc> {
        DateTime::from_timestamp_micros(self.micros.load(Ordering::SeqCst))
            .unwrap_or(DateTime::<Utc>::MAX_UTC)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_manual_clock_moves_only_when_told() {
        let clock = ManualClock::new();
        let start = clock.now();
        assert_eq!(clock.now(), start);
        clock.advance(Duration::from_millis(1500));
        assert_eq!(clock.now() - start, chrono::Duration::milliseconds(1500));
        let system = SystemClock.now();
        assert!((system - start).num_seconds().abs() < 60);
    }
}
