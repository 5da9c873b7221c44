//! Articles: storage, derived fields (excerpt, reading time, safe HTML), slugs, the public
//! listing with its cache, and the public content API.

mod api;
mod derive;
mod dto;
mod editorial;
mod listing;
mod model;
mod service;
mod slug;
mod staff_api;
mod store;

pub use api::ContentApi;
pub use derive::Rendered;
pub use dto::{Article, ArticleCard, ArticleList};
pub use model::{Category, ListQuery, NewArticle, Status};
pub use service::{AuthorDirectory, ContentError, ContentService, Lookup};
pub use staff_api::ContentStaffApi;
pub use store::store_for;

#[cfg(feature = "conformance")]
pub mod conformance;
