//! Media: cover images (checked by content, re-encoded, downscaled, with a WebP twin) and the
//! endpoint that serves stored files; magazine issues (PDFs checked by content).

mod api;
mod covers;
mod magazines;
mod serve;

pub use api::MediaApi;
pub use covers::{
    process_cover, CoverError, ProcessedCover, MAX_COVER_BODY_BYTES, MAX_COVER_BYTES,
    MAX_COVER_WIDTH,
};
pub use magazines::{title_from_file_name, Magazine, MagazineApi};
pub use serve::MediaEndpoint;

#[cfg(feature = "conformance")]
pub mod conformance;
