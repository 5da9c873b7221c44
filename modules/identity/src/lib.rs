//! Staff identity: users and roles, access keys (stored only as keyed hashes), sign-in with
//! limits kept in the database, server-side sessions and the guard staff endpoints use.

mod access;
mod api;
mod guard;
mod keys;
mod model;
mod service;
mod settings;
mod staff_api;
mod store;

pub use access::StaffListAction;
pub use api::{forbidden, IdentityApi};
pub use guard::{StaffAction, StaffSession, SESSION_COOKIE};
pub use model::{Role, StaffNotices, StaffRecord, StaffUser, Writer};
pub use service::{IdentityError, IdentityService};
pub use settings::IdentitySettings;
pub use staff_api::StaffAdminApi;
pub use store::store_for;

pub mod codes;
#[cfg(feature = "conformance")]
pub mod conformance;
