//! Articles: storage, derived fields (excerpt, reading time, safe HTML), slugs, the public
//! listing with its cache, and the public content API.

mod access;
mod api;
pub mod codes;
mod cover;
mod derive;
mod draft;
mod dto;
mod editorial;
mod error;
mod history;
mod import;
mod listing;
pub use listing::{FEED_ARTICLES, PAGE_STEP};
mod model;
mod newsroom;
mod newsroom_dto;
mod notices;
mod pending;
mod present;
mod related;
pub mod search;
mod searching;
mod service;
mod slug;
mod staff_answers;
mod staff_api;
mod store;
mod workflow;
mod writer;

pub use api::ContentApi;
pub use derive::Rendered;
pub use dto::{Article, ArticleCard, ArticleList, AuthorBox, AuthorPage, Contributor, Related};
pub use error::ContentError;
pub use import::PreparedArticles;
pub use model::{Byline, Category, ListQuery, NewArticle, Sort, Status};
pub use newsroom_dto::{
    ArticleEvent, ConflictBody, DiffLine, DiffOp, EventAction, FieldChange, PendingChange,
    PendingDecision, ReviewNote, Revision, RevisionDiff, RevisionSummary,
};
pub use service::{AuthorDirectory, ContentService, Lookup, NewsroomSettings, PublishedArticle};
pub use staff_api::ContentStaffApi;
pub use store::store_for;
pub use workflow::{decide, Action, Actor, Refusal, Stage};

#[cfg(feature = "conformance")]
pub mod conformance;
