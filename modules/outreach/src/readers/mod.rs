//! The account page of a registered reader: profile, interests, subscriptions, data download
//! and deletion. How a reader signs in (passwords, emailed links, sessions, the guard) is
//! identity's.

mod account;
mod api;
mod model;
mod store;

use std::sync::Arc;

use identity::readers::ReaderAuth;
use kernel::clock::SharedClock;

pub use api::ReaderApi;
pub use store::{reader_store_for, ReaderStore};

pub struct Readers {
    store: Arc<dyn ReaderStore>,
    auth: Arc<ReaderAuth>,
    /// Their responses to articles, for the data download.
    responses: Arc<dyn crate::responses::ResponseStore>,
    clock: SharedClock,
}

impl Readers {
    pub fn new(
        store: Arc<dyn ReaderStore>,
        auth: Arc<ReaderAuth>,
        responses: Arc<dyn crate::responses::ResponseStore>,
        clock: SharedClock,
    ) -> Self {
        Readers {
            store,
            auth,
            responses,
            clock,
        }
    }

    /// How readers sign in (identity's), which the account page asks to check the password.
    pub fn auth(&self) -> &Arc<ReaderAuth> {
        &self.auth
    }
}
