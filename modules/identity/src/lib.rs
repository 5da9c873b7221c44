//! Who is signed in: staff (users and roles, access keys stored only as keyed hashes, sign-in
//! with limits kept in the database) and readers, the two kinds of principal. One sessions
//! mechanism for both, one store of single-use emailed tokens, one guard yielding the typed
//! principal.

mod access;
mod api;
mod guard;
mod keys;
mod model;
mod principal;
pub mod profiles;
pub mod readers;
mod service;
pub mod sessions;
mod settings;
mod staff_api;
mod store;
pub mod tokens;

pub use access::StaffListAction;
pub use api::{forbidden, IdentityApi};
pub use guard::{
    cookie, Principal, ReaderSession, StaffAction, StaffSession, READER_COOKIE, SESSION_COOKIE,
};
pub use model::{Role, StaffNotices, StaffRecord, StaffUser, Writer};
pub use principal::{Kind, Reader};
pub use service::{IdentityError, IdentityService};
pub use sessions::{Lifetime, SessionRecord, Sessions};
pub use settings::{IdentitySettings, READER_SESSIONS};
pub use staff_api::StaffAdminApi;
pub use store::store_for;

pub mod codes;
#[cfg(feature = "conformance")]
pub mod conformance;
