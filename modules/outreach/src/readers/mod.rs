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
    /// The articles their responses are under, whose pages show their name.
    articles: Arc<dyn crate::responses::ResponseArticles>,
    clock: SharedClock,
}

impl Readers {
    pub fn new(
        store: Arc<dyn ReaderStore>,
        auth: Arc<ReaderAuth>,
        responses: Arc<dyn crate::responses::ResponseStore>,
        articles: Arc<dyn crate::responses::ResponseArticles>,
        clock: SharedClock,
    ) -> Self {
        Readers {
            store,
            auth,
            responses,
            articles,
            clock,
        }
    }

    /// The articles the reader `id` has an approved response under.
    async fn shown_under(&self, id: &str) -> Result<Vec<String>, sqlx::Error> {
        let mut ids: Vec<String> = self
            .responses
            .of_reader(id)
            .await?
            .into_iter()
            .filter(|r| r.status == "approved")
            .map(|r| r.article_id)
            .collect();
        ids.sort_unstable();
        ids.dedup();
        Ok(ids)
    }

    /// How readers sign in (identity's), which the account page asks to check the password.
    pub fn auth(&self) -> &Arc<ReaderAuth> {
        &self.auth
    }
}
