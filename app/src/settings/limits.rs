//! The limits of the HTTP server: what one client may hold and for how long.

use std::time::Duration;

/// What one client may hold and for how long. Every field is a setting (see `Settings`).
#[derive(Clone, Debug)]
pub struct ServerLimits {
    /// A request's headers must arrive whole within this time (also bounds how long an idle
    /// keep-alive connection waits for its next request).
    pub header_read_timeout: Duration,
    /// A connection on which nothing is read or written for this long is closed (looked at
    /// once per period, so within two periods).
    pub idle_timeout: Duration,
    /// A request body may take `body_grace` plus one second per `body_min_rate` bytes.
    pub body_grace: Duration,
    pub body_min_rate: u64,
    /// Open connections at most; further clients wait in the listen queue.
    pub max_connections: usize,
    /// How long in-flight requests get to finish on shutdown.
    pub shutdown_grace: Duration,
}

impl Default for ServerLimits {
    fn default() -> Self {
        ServerLimits {
            header_read_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            body_grace: Duration::from_secs(10),
            body_min_rate: 1024,
            max_connections: 4096,
            shutdown_grace: Duration::from_secs(15),
        }
    }
}
