//! Excerpts with the words asked for marked.

use super::query::{Query, Term};
use super::stop_words::is_stop_word;

/// A piece of an excerpt: text, marked when it is a matched word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    pub text: String,
    pub marked: bool,
}

/// Words in an excerpt: about four lines of a phone's card.
const EXCERPT_WORDS: usize = 18;
/// Words an excerpt shows before the first one matched, when it can.
const EXCERPT_LEAD: usize = 3;

/// A word as the engines compare it: in lower case, without accents, as its English stem
/// (Snowball's, as PostgreSQL's; SQLite's Porter stemmer agrees on nearly every word).
fn stem(stemmer: &rust_stemmers::Stemmer, word: &str) -> String {
    let lower = word.to_lowercase();
    let plain = if lower.is_ascii() {
        lower
    } else {
        deunicode::deunicode(&lower)
    };
    stemmer.stem(&plain).into_owned()
}

/// Where the words of `text` are (runs of letters and digits, as [`words`] cuts them).
fn word_spans(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_alphanumeric(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, text.len()));
    }
    out
}

/// What stood between two words of an excerpt, on one line: spaces and line ends as one
/// space, and a line end after no punctuation (a heading, a list item) as a dash, so that
/// the line before does not read as the start of the next one's sentence.
fn gap(between: &str) -> String {
    let mut out = String::with_capacity(between.len());
    for c in between.chars() {
        if !c.is_whitespace() {
            out.push(c);
        } else if !out.ends_with(' ') {
            out.push(' ');
        }
    }
    if out == " " && between.contains('\n') {
        return " — ".to_string();
    }
    out
}

impl Query {
    /// The stems of the words asked for, in phrases too (not left-out words, not stop words).
    fn wanted(&self, stemmer: &rust_stemmers::Stemmer) -> Vec<String> {
        let mut out: Vec<String> = self
            .groups
            .iter()
            .flatten()
            .flat_map(|t| match t {
                Term::Word { text, .. } => std::slice::from_ref(text),
                Term::Phrase(words) => words.as_slice(),
            })
            .filter(|w| !is_stop_word(w))
            .map(|w| stem(stemmer, w))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The stems of the words of each phrase asked for, stop words included, in order.
    fn phrases(&self, stemmer: &rust_stemmers::Stemmer) -> Vec<Vec<String>> {
        self.groups
            .iter()
            .flatten()
            .filter_map(|t| match t {
                Term::Phrase(words) => Some(words.iter().map(|w| stem(stemmer, w)).collect()),
                Term::Word { .. } => None,
            })
            .collect()
    }
}

/// For each word of a text (as `stems`), whether one of `phrases` begins there, its words
/// side by side, as the engines match a phrase.
fn phrase_starts(stems: &[String], phrases: &[Vec<String>]) -> Vec<bool> {
    (0..stems.len())
        .map(|i| phrases.iter().any(|p| stems[i..].starts_with(p)))
        .collect()
}

/// A short piece of `text` around the words `query` asks for, those words marked: the
/// [`EXCERPT_WORDS`] words holding the most phrases asked for (side by side), then the most
/// different words, then the most of them, then the first; starting a few words before the
/// first when it can, with "…" where the text goes on. `None` when `text` holds none of them
/// (a piece found by its title).
pub fn excerpt(text: &str, query: &Query) -> Option<Vec<Part>> {
    let stemmer = rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English);
    let wanted = query.wanted(&stemmer);
    let spans = word_spans(text);
    let stems: Vec<String> = spans
        .iter()
        .map(|&(s, e)| stem(&stemmer, &text[s..e]))
        .collect();
    // For each word of the text, which wanted word it is.
    let found: Vec<Option<usize>> = stems.iter().map(|w| wanted.binary_search(w).ok()).collect();
    let first = found.iter().position(Option::is_some)?;
    let starts = phrase_starts(&stems, &query.phrases(&stemmer));
    let size = EXCERPT_WORDS.min(spans.len());
    let score = |start: usize| {
        let mut seen: Vec<usize> = found[start..start + size]
            .iter()
            .flatten()
            .copied()
            .collect();
        let count = seen.len();
        seen.sort_unstable();
        seen.dedup();
        let side_by_side = starts[start..start + size].iter().filter(|&&b| b).count();
        (side_by_side, seen.len(), count)
    };
    // The best window among those starting at most `EXCERPT_LEAD` words before a match.
    let mut best = (
        first.saturating_sub(EXCERPT_LEAD).min(spans.len() - size),
        (0, 0, 0),
    );
    for (at, word) in found.iter().enumerate() {
        if word.is_none() {
            continue;
        }
        let start = at.saturating_sub(EXCERPT_LEAD).min(spans.len() - size);
        let s = score(start);
        if s > best.1 {
            best = (start, s);
        }
    }
    let start = best.0;
    let end = start + size;
    let mut parts: Vec<Part> = Vec::new();
    let mut push = |text: &str, marked: bool| match parts.last_mut() {
        _ if text.is_empty() => {}
        Some(last) if last.marked == marked => last.text.push_str(text),
        _ => parts.push(Part {
            text: text.to_string(),
            marked,
        }),
    };
    if start > 0 {
        push("…", false);
    }
    for i in start..end {
        let (s, e) = spans[i];
        if i > start {
            push(&gap(&text[spans[i - 1].1..s]), false);
        }
        push(&text[s..e], found[i].is_some());
    }
    if end < spans.len() {
        push("…", false);
    } else {
        // The text's own end (a full stop) after its last word.
        push(text[spans[end - 1].1..].trim(), false);
    }
    Some(parts)
}
