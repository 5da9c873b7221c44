//! The composition root: configuration, wiring of the modules, the HTTP surface and the CLI.
//! No business rules live here.

pub mod cdn;
pub mod cli;
pub mod seed;
pub mod server;
pub mod settings;
pub mod ssr;
pub mod startup;
pub mod web;

pub use settings::Settings;
pub use startup::{build_openapi, Application, Services};
