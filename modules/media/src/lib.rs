//! Media: cover images (checked by content, re-encoded, downscaled, with a WebP twin) and the
//! endpoint that serves stored files; magazine issues (PDFs checked by content).

mod access;
mod api;
mod covers;
mod magazines;
mod packs;
mod serve;
mod social;

pub use api::{MediaApi, DECODE_BUDGET_MIB};
/// The uploads whose form is one part, `file`: any other part is refused (400), so the
/// contract says their forms name all their parts.
pub const SINGLE_FILE_FORMS: [&str; 3] = ["uploadCover", "uploadMagazine", "uploadPack"];
pub use covers::{decode_cost_mib, MAX_COVER_BODY_BYTES};
pub use magazines::{
    IssuePublication, Magazine, MagazineApi, MagazineError, MagazineIssue, MagazineService,
};
pub use packs::{Pack, PackApi, PackService, Packs, CATALOGUE as PACK_CATALOGUE};
pub use serve::MediaEndpoint;
pub use social::{SocialCards, CARD_CONTENT_TYPE, CARD_HEIGHT, CARD_WIDTH};

pub mod codes;
#[cfg(feature = "conformance")]
pub mod conformance;
