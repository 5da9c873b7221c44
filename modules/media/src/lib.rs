//! Media: cover images (checked by content, re-encoded, downscaled, with a WebP twin) and the
//! endpoint that serves stored files. Magazine PDFs join later.

mod api;
mod covers;
mod serve;

pub use api::MediaApi;
pub use covers::{process_cover, CoverError, ProcessedCover, MAX_COVER_BYTES, MAX_COVER_WIDTH};
pub use serve::MediaEndpoint;
