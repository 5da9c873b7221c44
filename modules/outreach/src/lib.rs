//! Everything a visitor sends the team: "notify me" signups (with working unsubscribe links)
//! and contact messages, each stored together with its queued email.

mod api;
mod model;
mod service;
mod store;
mod validate;

pub use api::OutreachApi;
pub use model::{ContactInput, NotifyInput, NotifyList};
pub use service::{OutreachError, OutreachService, OutreachSettings};
pub use store::{store_for, OutreachStore};
