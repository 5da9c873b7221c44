//! Everything a visitor sends the team: "notify me" signups (with working unsubscribe links)
//! contact messages, contributor applications (with their documents) and reader registrations,
//! each stored together with its queued email, behind per-address submission limits.

mod access;
mod accounts;
mod announcements;
mod api;
mod application;
mod digest;
mod email_html;
mod files;
mod landing;
mod limits;
mod links;
mod model;
mod readers;
pub mod responses;
mod service;
mod store;

pub use announcements::{
    announcement_store_for, Announced, AnnouncedIssue, AnnouncementApi, AnnouncementSettings,
    Announcements, IssueDirectory, IssueLookup,
};
pub use api::OutreachApi;
/// Multipart forms whose contract names all their parts: the application. (Parts it does not
/// name are ignored rather than refused: the site's no-script form sends its bookkeeping.)
pub const NAMED_PART_FORMS: [&str; 1] = ["submitApplication"];
pub use digest::{
    digest_store_for, ArticleDirectory, Digest, DigestArticle, DigestReport, DigestSettings,
    DEFAULT_CLAIM as DEFAULT_DIGEST_CLAIM,
};
pub use files::MAX_APPLICATION_BODY_BYTES;
pub use landing::Landing;
pub use links::{CONFIRM_PAGE, UNSUBSCRIBE_PAGE};
pub use model::NotifyList;
pub use readers::{reader_store_for, ReaderApi, ReaderStore, Readers};
pub use service::{
    Form, OutreachService, OutreachSettings, DEFAULT_ATTACH_AT_MOST, DEFAULT_DOCUMENTS_TTL,
};
pub use store::store_for;

pub mod codes;
#[cfg(feature = "conformance")]
pub mod conformance;
