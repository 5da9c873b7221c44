//! The counting rules' memory: which visits were counted lately (as keyed hashes, never an
//! address), and the pages served since the writer last judged them.

use std::time::Duration;

use crate::rules::{is_bot, is_public_page};
use crate::store::View;

/// A page served, not yet judged by the counting rules.
struct Seen {
    key: u64,
    path: String,
    user_agent: String,
    at: chrono::DateTime<chrono::Utc>,
}

/// The counting rules' memory: which visits were counted lately (salted, hashed), and the
/// pages served since the writer last looked.
pub(super) struct Visits {
    recent: moka::sync::Cache<u64, ()>,
    keys: std::collections::hash_map::RandomState,
    seen: std::sync::Mutex<Vec<Seen>>,
    max_seen: usize,
    /// Today (UTC) as days since the common era, kept current by the writer.
    day: std::sync::atomic::AtomicI32,
}

fn today() -> i32 {
    use chrono::Datelike;
    chrono::Utc::now().date_naive().num_days_from_ce()
}

impl Visits {
    pub(super) fn new(reload_window: Duration, max_seen: usize) -> Self {
        Visits {
            recent: moka::sync::Cache::builder()
                .max_capacity(200_000)
                .time_to_live(reload_window)
                .build(),
            keys: std::collections::hash_map::RandomState::new(),
            seen: std::sync::Mutex::new(Vec::new()),
            max_seen,
            day: std::sync::atomic::AtomicI32::new(today()),
        }
    }

    /// Holds a page served for the writer to judge, unless this visit was judged already
    /// (counted, a reload, or a robot): that costs a hash and a lookup.
    pub(super) fn hold(&self, path: &str, client: kernel::http::Client<'_>, user_agent: &str) {
        let key = self.visit_key_of(client, user_agent, path);
        if self.recent.contains_key(&key) {
            return;
        }
        let seen = Seen {
            key,
            path: path.to_string(),
            user_agent: user_agent.to_string(),
            at: kernel::ids::now(),
        };
        let Ok(mut held) = self.seen.lock() else {
            return;
        };
        if held.len() < self.max_seen {
            held.push(seen);
        } else {
            tracing::error!("page view not recorded: the writer is behind");
        }
    }

    /// The reload-window key: a keyed hash (SipHash, keys random per process) of the day,
    /// client, browser and path. The keys are never stored and the day is part of the hash,
    /// so it cannot be linked across days or processes and no address is ever kept.
    fn visit_key(&self, client: &str, user_agent: &str, path: &str) -> u64 {
        let client = match client.parse::<std::net::IpAddr>() {
            Ok(ip) => kernel::http::Client::Ip(ip),
            Err(_) => kernel::http::Client::Forwarded(client),
        };
        self.visit_key_of(client, user_agent, path)
    }

    /// `visit_key` for a client not yet written out (an address or a proxy's hop are hashed
    /// alike however they arrive). The day is read from a number the writer keeps current,
    /// not from the clock.
    fn visit_key_of(&self, client: kernel::http::Client<'_>, user_agent: &str, path: &str) -> u64 {
        use kernel::http::Client;
        use std::hash::{BuildHasher, Hash, Hasher};
        let mut h = self.keys.build_hasher();
        self.day
            .load(std::sync::atomic::Ordering::Relaxed)
            .hash(&mut h);
        match client {
            Client::Ip(ip) => ip.hash(&mut h),
            Client::Forwarded(s) => match s.parse::<std::net::IpAddr>() {
                Ok(ip) => ip.hash(&mut h),
                Err(_) => s.hash(&mut h),
            },
            Client::Unknown => "unknown".hash(&mut h),
        }
        user_agent.hash(&mut h);
        path.hash(&mut h);
        h.finish()
    }

    /// Whether a view is counted: a public page, not a robot, not a reload in the window
    /// (and remembered as counted).
    pub(super) fn counts(&self, path: &str, client: &str, user_agent: &str) -> bool {
        if !is_public_page(path) || is_bot(user_agent) {
            return false;
        }
        let key = self.visit_key(client, user_agent, path);
        if self.recent.contains_key(&key) {
            return false;
        }
        self.recent.insert(key, ());
        true
    }

    /// Judges the pages served since the last call; the views that count go to `pending`.
    pub(super) fn judge_seen(&self, pending: &mut Vec<View>) {
        self.day
            .store(today(), std::sync::atomic::Ordering::Relaxed);
        let seen = match self.seen.lock() {
            Ok(mut held) => std::mem::take(&mut *held),
            Err(_) => return,
        };
        for s in seen {
            if self.recent.contains_key(&s.key) {
                continue;
            }
            // Robots are remembered too, so their next requests stop at the lookup.
            self.recent.insert(s.key, ());
            if !is_bot(&s.user_agent) {
                pending.push(View {
                    path: s.path,
                    at: s.at,
                });
            }
        }
    }
}
