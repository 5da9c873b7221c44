//! Shared plumbing for every module: the database handle and migrations, the API error body,
//! identifiers, the clock, the rate limiter, tokens, storage and uploads. No business rules live here.

pub mod clock;
pub mod db;
pub mod email;
pub mod error;
pub mod flash;
pub mod generation;
pub mod http;
pub mod ids;
pub mod jobs;
pub mod limiter;
pub mod memory;
pub mod outbox;
pub mod secret;
pub mod sql;
pub mod storage;
pub mod text;
pub mod upload;

pub use db::Db;
pub use error::{Common, ErrorBody, ErrorCode, ModuleCode, Refusal};
pub use generation::{Generation, Scope};
