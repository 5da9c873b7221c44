//! The site's content generation: a counter every module that changes what public pages show
//! moves forward (articles, magazine issues), and every cache built from public content keys
//! on. One handle, cloned into each module, so a change anywhere reaches every cache.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

#[derive(Clone, Debug)]
pub struct Generation(Arc<AtomicU64>);

impl Default for Generation {
    fn default() -> Self {
        Generation(Arc::new(AtomicU64::new(1)))
    }
}

impl Generation {
    pub fn current(&self) -> u64 {
        self.0.load(Ordering::Acquire)
    }

    /// Public content changed: every cache keyed on the generation is stale.
    pub fn advance(&self) {
        self.0.fetch_add(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_one_counter() {
        let a = Generation::default();
        let b = a.clone();
        let before = b.current();
        a.advance();
        assert_eq!(b.current(), before + 1);
    }
}
