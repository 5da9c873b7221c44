//! How long a page is kept: a missing page briefly, every other for [`KEEP_FOR`].

use std::time::Duration;

use moka::Expiry;
use poem::http::StatusCode;

use super::{CachedPage, KEEP_FOR};

/// Missing pages are kept briefly (anyone can mint their addresses), everything else
/// [`KEEP_FOR`].
pub(super) struct PageExpiry;

impl PageExpiry {
    fn lifetime(page: &CachedPage) -> Duration {
        if page.page.status() == StatusCode::NOT_FOUND {
            Duration::from_secs(30)
        } else {
            KEEP_FOR
        }
    }
}

impl Expiry<String, CachedPage> for PageExpiry {
    fn expire_after_create(
        &self,
        _key: &String,
        page: &CachedPage,
        _now: std::time::Instant,
    ) -> Option<Duration> {
        Some(Self::lifetime(page))
    }

    /// A page rendered again (new content version, or the old one expired) gets a whole
    /// lifetime. moka's default keeps the old deadline: a page re-rendered after expiring
    /// would be born expired, and every request would render it again.
    fn expire_after_update(
        &self,
        _key: &String,
        page: &CachedPage,
        _now: std::time::Instant,
        _remaining: Option<Duration>,
    ) -> Option<Duration> {
        Some(Self::lifetime(page))
    }
}
