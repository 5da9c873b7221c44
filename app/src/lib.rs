//! The composition root: configuration, wiring of the modules, the HTTP surface and the CLI.
//! No business rules live here.

mod adapters;
/// How one module reads another through the app (announcements find issues this way; the
/// tests build second instances with it).
pub use adapters::PublishedIssues;
pub mod cdn;
pub mod cli;
pub mod codes;
pub mod metrics;
mod public_pages;
pub mod seed;
pub mod server;
pub mod settings;
pub mod shutdown;
pub mod ssr;
pub mod startup;
pub mod state;
pub mod web;

pub use settings::Settings;
pub use startup::Application;
pub use state::{build_openapi, Services};
