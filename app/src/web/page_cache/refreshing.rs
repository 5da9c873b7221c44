//! One background render per page at a time.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

/// A page's turn to be rendered in the background: held by one task at a time, given back
/// when dropped (however the task ends).
pub(super) struct Refreshing {
    set: Arc<Mutex<HashSet<String>>>,
    key: String,
}

impl Refreshing {
    pub(super) fn begin(set: &Arc<Mutex<HashSet<String>>>, key: &str) -> Option<Refreshing> {
        let mut keys = set.lock().unwrap_or_else(|e| e.into_inner());
        // Every reader of a stale page asks; only the first one's key is copied.
        if keys.contains(key) {
            return None;
        }
        keys.insert(key.to_string()).then(|| Refreshing {
            set: set.clone(),
            key: key.to_string(),
        })
    }
}

impl Drop for Refreshing {
    fn drop(&mut self) {
        let mut keys = self.set.lock().unwrap_or_else(|e| e.into_inner());
        keys.remove(&self.key);
    }
}
