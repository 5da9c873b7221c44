//! The order of the results: relevance blended with freshness, or newest first.

use chrono::{DateTime, Utc};

/// A published article a search found, with how well it matches (higher is better; only
/// comparable within one search on one engine).
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct Candidate {
    pub id: String,
    pub created_at: DateTime<Utc>,
    pub relevance: f64,
}

/// What a search found, newest first (by when each went live).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Found {
    pub matches: Vec<Candidate>,
    /// A phrase was looked for only in the newest articles holding all its words (the window
    /// asked for), and older ones hold them too: more may match than were found.
    pub cut_short: bool,
}

/// Matches at most this many are ranked by the engine's score (bm25, `ts_rank_cd`) within
/// their tier; more are ordered by tier and freshness alone. Scoring reads every match's
/// words (and FTS5's bm25 first counts each term's matches in the whole index: 5 ms for a
/// word in most of 100,000 articles); past this many, a word that common says little anyway.
pub const SCORED_AT_MOST: usize = 200;

/// Whether the engine scores a search's `found` matches: every match was found (fewer than
/// the `limit` asked for, and no phrase cut short by its window: FTS5's bm25 would count the
/// phrase in the whole index, 20 ms for two common words at 100,000 articles), and few.
pub fn scored(found: usize, limit: i64, cut_short: bool) -> bool {
    !cut_short && found <= SCORED_AT_MOST && (found as i64) < limit
}

/// A match's relevance: ten times more when its title or subtitle holds a word asked for, so
/// those come first, and within that one plus the engine's `score` brought within [0, 1)
/// (freshness at most doubles a relevance, so it never overturns a tier).
pub fn relevance(in_headings: bool, score: f64) -> f64 {
    let tier = if in_headings { 10.0 } else { 1.0 };
    let score = score.max(0.0);
    tier * (1.0 + score / (1.0 + score))
}

/// How much newer counts: a piece published today counts twice its relevance, one a month old
/// 1.5 times, one a year old 1.08 times. So a strong recent piece beats an old passing
/// mention, while a piece about the query still beats a recent one that mentions it once.
fn freshness(created_at: DateTime<Utc>, now: DateTime<Utc>) -> f64 {
    let days = (now - created_at).num_seconds().max(0) as f64 / 86_400.0;
    1.0 + 1.0 / (1.0 + days / 30.0)
}

/// Puts `found` in order: best match first (relevance blended with freshness), or newest
/// first; ties newest first, then by id.
pub fn order(found: &mut [Candidate], best_first: bool, now: DateTime<Utc>) {
    let newest = |a: &Candidate, b: &Candidate| (&b.created_at, &b.id).cmp(&(&a.created_at, &a.id));
    if best_first {
        found.sort_by(|a, b| {
            let (sa, sb) = (
                a.relevance * freshness(a.created_at, now),
                b.relevance * freshness(b.created_at, now),
            );
            sb.total_cmp(&sa).then_with(|| newest(a, b))
        });
    } else {
        found.sort_by(newest);
    }
}
