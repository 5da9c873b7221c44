//! The counting rules' memory: which views were counted lately, as keyed hashes (never an
//! address, never a tab's marker).

use std::time::Duration;

use crate::rules::{is_bot, is_public_page};

/// Who viewed a page, as far as folding reloads goes.
#[derive(Debug, Clone, Copy)]
pub enum Viewer<'a> {
    /// A browser tab, by the random marker it keeps in its `sessionStorage` (reloads of the
    /// same tab keep it; another tab, device or reader has another).
    Tab(&'a str),
    /// A client that sends no marker (a page loaded without scripts): its address and
    /// browser.
    Client {
        address: &'a str,
        user_agent: &'a str,
    },
}

/// The longest tab marker taken; a longer one is no marker.
pub const MAX_TAB_CHARS: usize = 64;

/// The counting rules' memory: which views were counted lately (salted, hashed).
pub(super) struct Visits {
    recent: moka::sync::Cache<u64, ()>,
    keys: std::collections::hash_map::RandomState,
}

fn today() -> i32 {
    use chrono::Datelike;
    chrono::Utc::now().date_naive().num_days_from_ce()
}

impl Visits {
    pub(super) fn new(reload_window: Duration) -> Self {
        Visits {
            recent: moka::sync::Cache::builder()
                .max_capacity(200_000)
                .time_to_live(reload_window)
                .build(),
            keys: std::collections::hash_map::RandomState::new(),
        }
    }

    /// The reload-window key: a keyed hash (SipHash, keys random per process) of the day,
    /// the viewer and the path. The keys are never stored and the day is part of the hash,
    /// so it cannot be linked across days or processes, and no address or marker is kept.
    fn visit_key(&self, viewer: Viewer<'_>, path: &str) -> u64 {
        use std::hash::{BuildHasher, Hash, Hasher};
        let mut h = self.keys.build_hasher();
        today().hash(&mut h);
        match viewer {
            Viewer::Tab(tab) => {
                "tab".hash(&mut h);
                tab.hash(&mut h);
            }
            Viewer::Client {
                address,
                user_agent,
            } => {
                "client".hash(&mut h);
                match address.parse::<std::net::IpAddr>() {
                    Ok(ip) => ip.hash(&mut h),
                    Err(_) => address.hash(&mut h),
                }
                user_agent.hash(&mut h);
            }
        }
        path.hash(&mut h);
        h.finish()
    }

    /// Whether a view is counted: a public page, not a robot, not a reload in the window
    /// (and remembered as counted).
    pub(super) fn counts(&self, path: &str, viewer: Viewer<'_>, user_agent: &str) -> bool {
        if !is_public_page(path) || is_bot(user_agent) {
            return false;
        }
        let key = self.visit_key(viewer, path);
        if self.recent.contains_key(&key) {
            return false;
        }
        self.recent.insert(key, ());
        true
    }
}
