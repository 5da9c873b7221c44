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
pub use derive::{render_markdown, Rendered};
pub use dto::{Article, ArticleCard, ArticleInput, ArticleList, StaffArticle};
pub use listing::{MAX_QUERY_CHARS, PAGE_STEP};
pub use model::{Category, ListQuery, NewArticle, Sort, Status, MAX_LIMIT};
pub use service::{AuthorDirectory, ContentError, ContentService, Lookup};
pub use staff_api::ContentStaffApi;
pub use store::{store_for, ContentStore};

#[cfg(feature = "conformance")]
pub mod conformance;
