//! Media: cover images (checked by content, re-encoded, downscaled, with a WebP twin) and the
//! endpoint that serves stored files; magazine issues (PDFs checked by content).

mod api;
mod covers;
mod magazines;
mod packs;
mod serve;
mod social;

pub use api::MediaApi;
pub use covers::MAX_COVER_BODY_BYTES;
pub use magazines::{
    IssuePublication, Magazine, MagazineApi, MagazineError, MagazineIssue, MagazineService,
};
pub use packs::{Pack, PackApi, PackService, Packs, CATALOGUE as PACK_CATALOGUE};
pub use serve::MediaEndpoint;
pub use social::{SocialCards, CARD_CONTENT_TYPE, CARD_HEIGHT, CARD_WIDTH};

#[cfg(feature = "conformance")]
pub mod conformance;
