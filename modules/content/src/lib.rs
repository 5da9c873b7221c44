//! Articles: storage, derived fields (excerpt, reading time, safe HTML), slugs, the public
//! listing with its cache, and the public content API.

mod api;
mod derive;
mod dto;
mod model;
mod service;
mod slug;
mod store;

pub use api::ContentApi;
pub use derive::{render_markdown, Rendered};
pub use dto::{Article, ArticleCard, ArticleList};
pub use model::{Category, ListQuery, NewArticle, Sort, Status, MAX_LIMIT};
pub use service::{AuthorDirectory, ContentError, ContentService, Lookup};
pub use store::{store_for, ContentStore};

#[cfg(feature = "conformance")]
pub mod conformance;
