//! Page views: which public pages readers open (server-rendered requests and client-side
//! navigations), recorded in batches off the request path, with no personal data; and the
//! admin's figures, computed on the server.

mod access;
mod api;
mod limit;
mod recorder;
mod rules;
mod service;
mod stats;
mod store;

pub use api::AnalyticsApi;
pub use limit::BEACONS_PER_MINUTE;
pub use recorder::{Recorder, RecorderSettings, Viewer};
pub use service::{AnalyticsError, AnalyticsService, ArticleTitles, KnownPages};
pub use store::{store_for, AnalyticsStore, View};

pub mod codes;
#[cfg(feature = "conformance")]
pub mod conformance;
