//! Staff identity: users and their roles. Access keys, sessions and guards build on this
//! (the staff-access work); for now it answers who wrote what and lets demo staff be created.

mod model;
mod service;
mod store;

pub use model::Role;
pub use service::IdentityService;
pub use store::{store_for, IdentityStore};

#[cfg(feature = "conformance")]
pub mod conformance;
