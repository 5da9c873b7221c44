//! Reader search, the parts that are the same on both engines: what a reader types, read the
//! way web search reads it, and written as each engine's full-text query; the order of the
//! results; excerpts with the matched words marked; and "Did you mean ...?".
//!
//! The engines do the matching themselves (SQLite's FTS5, PostgreSQL's `tsvector`): both
//! stem English words ("voting" finds "vote"), ignore case and accents, and match whole
//! words, so "UN" is not "fun".

mod excerpt;
mod query;
mod rank;
mod stop_words;
mod suggest;
#[cfg(test)]
mod tests;

pub use excerpt::{excerpt, Part};
pub use query::{words, Query, Term};
pub use rank::{order, relevance, scored, Candidate, Found, SCORED_AT_MOST};
pub use suggest::{nearest, neighbourhood, prefix_end, replace_word, suggestable_words};
