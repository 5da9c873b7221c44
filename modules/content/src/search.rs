//! Reader search, the parts that are the same on both engines: what a reader types, read the
//! way web search reads it, and written as each engine's full-text query; the order of the
//! results; excerpts with the matched words marked; and "Did you mean ...?".
//!
//! The engines do the matching themselves (SQLite's FTS5, PostgreSQL's `tsvector`): both
//! stem English words ("voting" finds "vote"), ignore case and accents, and match whole
//! words, so "UN" is not "fun".

use chrono::{DateTime, Utc};

/// Words too common to search on their own, dropped from a query unless quoted in a phrase:
/// PostgreSQL's English list (`english.stop`), so that both engines ask for the same words.
const STOP_WORDS: [&str; 127] = [
    "i",
    "me",
    "my",
    "myself",
    "we",
    "our",
    "ours",
    "ourselves",
    "you",
    "your",
    "yours",
    "yourself",
    "yourselves",
    "he",
    "him",
    "his",
    "himself",
    "she",
    "her",
    "hers",
    "herself",
    "it",
    "its",
    "itself",
    "they",
    "them",
    "their",
    "theirs",
    "themselves",
    "what",
    "which",
    "who",
    "whom",
    "this",
    "that",
    "these",
    "those",
    "am",
    "is",
    "are",
    "was",
    "were",
    "be",
    "been",
    "being",
    "have",
    "has",
    "had",
    "having",
    "do",
    "does",
    "did",
    "doing",
    "a",
    "an",
    "the",
    "and",
    "but",
    "if",
    "or",
    "because",
    "as",
    "until",
    "while",
    "of",
    "at",
    "by",
    "for",
    "with",
    "about",
    "against",
    "between",
    "into",
    "through",
    "during",
    "before",
    "after",
    "above",
    "below",
    "to",
    "from",
    "up",
    "down",
    "in",
    "out",
    "on",
    "off",
    "over",
    "under",
    "again",
    "further",
    "then",
    "once",
    "here",
    "there",
    "when",
    "where",
    "why",
    "how",
    "all",
    "any",
    "both",
    "each",
    "few",
    "more",
    "most",
    "other",
    "some",
    "such",
    "no",
    "nor",
    "not",
    "only",
    "own",
    "same",
    "so",
    "than",
    "too",
    "very",
    "s",
    "t",
    "can",
    "will",
    "just",
    "don",
    "should",
    "now",
];

/// The last word also matches as the start of a longer one ("clim" finds "climate") when it
/// has at least this many letters: shorter ones are words of their own ("war", "UN").
const PREFIX_AT_LEAST: usize = 4;

/// At most this many terms of a query are used (a 200-character query has fewer).
const TERMS_AT_MOST: usize = 32;

/// One thing to find: a word, or words side by side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Term {
    /// A word; with `prefix`, also the words it starts, once [`Query::complete`] has been
    /// told which those are (the engines' own prefix search reads every word of the index that
    /// starts so: 6 ms and more for a common one at 100,000 articles, on each use).
    Word { text: String, prefix: bool },
    /// Words in this order, side by side (a quoted phrase, or "e-mail").
    Phrase(Vec<String>),
}

/// A reader's search: every group must match (any one term of a group: "vote or election"),
/// and no excluded term may ("-war").
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Query {
    pub groups: Vec<Vec<Term>>,
    pub excluded: Vec<Term>,
}

/// A piece of what a reader typed, before it is read as terms.
struct Piece<'a> {
    text: &'a str,
    quoted: bool,
    excluded: bool,
}

fn pieces(input: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = input;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return out;
        }
        let excluded =
            rest.len() > 1 && rest.starts_with('-') && !rest[1..].starts_with(char::is_whitespace);
        if excluded {
            rest = &rest[1..];
        }
        if let Some(inner) = rest.strip_prefix('"') {
            // To the closing quote, or to the end when there is none.
            let end = inner.find('"').unwrap_or(inner.len());
            out.push(Piece {
                text: &inner[..end],
                quoted: true,
                excluded,
            });
            rest = inner.get(end + 1..).unwrap_or("");
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            out.push(Piece {
                text: &rest[..end],
                quoted: false,
                excluded,
            });
            rest = &rest[end..];
        }
    }
}

/// The words of `text` (letters and digits), in lower case.
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.contains(&word)
}

impl Query {
    /// Reads a query as people type them into web search: words in any order, `"a phrase"`,
    /// `or` between two terms, `-word` to leave out; the last word also as the start of a
    /// longer one (unless the reader typed a space after it).
    pub fn parse(input: &str) -> Query {
        let pieces = pieces(input);
        let last = pieces.len().saturating_sub(1);
        let typing = !input.ends_with(char::is_whitespace);
        let mut query = Query::default();
        let mut or_next = false;
        for (i, piece) in pieces.iter().enumerate() {
            if !piece.quoted && !piece.excluded && piece.text.eq_ignore_ascii_case("or") {
                or_next = !query.groups.is_empty();
                continue;
            }
            let mut found: Vec<String> = words(piece.text).collect();
            let term = match found.len() {
                0 => continue,
                1 if !piece.quoted => {
                    let text = found.remove(0);
                    let prefix = i == last
                        && typing
                        && !piece.excluded
                        && text.chars().count() >= PREFIX_AT_LEAST;
                    if is_stop_word(&text) {
                        continue;
                    }
                    Term::Word { text, prefix }
                }
                _ if found.iter().all(|w| is_stop_word(w)) => continue,
                _ => Term::Phrase(found),
            };
            if query.groups.len() + query.excluded.len() >= TERMS_AT_MOST {
                break;
            }
            if piece.excluded {
                query.excluded.push(term);
            } else if or_next {
                if let Some(group) = query.groups.last_mut() {
                    group.push(term);
                }
            } else {
                query.groups.push(vec![term]);
            }
            or_next = false;
        }
        query
    }

    /// Nothing to look for (only left-out words, or only words too common to search).
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// The words a reader asked for on their own (not in phrases, not left out), as typed
    /// (lower case): each may be a typo.
    pub fn plain_words(&self) -> Vec<&str> {
        self.groups
            .iter()
            .flatten()
            .filter_map(|t| match t {
                Term::Word { text, .. } => Some(text.as_str()),
                Term::Phrase(_) => None,
            })
            .collect()
    }

    /// The word the reader may still be typing, to be completed ([`Query::complete`]).
    pub fn completing(&self) -> Option<&str> {
        self.groups.iter().flatten().find_map(|t| match t {
            Term::Word { text, prefix: true } => Some(text.as_str()),
            _ => None,
        })
    }

    /// Lets the word being typed also match `words` (known words it starts): each becomes
    /// one more alternative of its group.
    pub fn complete(&mut self, words: &[String]) {
        for group in &mut self.groups {
            let Some(at) = group
                .iter()
                .position(|t| matches!(t, Term::Word { prefix: true, .. }))
            else {
                continue;
            };
            if let Term::Word { prefix, .. } = &mut group[at] {
                *prefix = false;
            }
            group.extend(
                words
                    .iter()
                    .filter(|w| !is_stop_word(w))
                    .map(|w| Term::Word {
                        text: w.clone(),
                        prefix: false,
                    }),
            );
        }
    }

    /// Any one of the words and phrases asked for (what makes a title a match worth more).
    pub fn any_term(&self) -> Query {
        Query {
            groups: vec![self.groups.iter().flatten().cloned().collect()],
            excluded: Vec::new(),
        }
    }

    /// The query in FTS5's syntax (every word quoted, so nothing typed is read as FTS5's own
    /// syntax); `None` when empty.
    pub fn fts5(&self) -> Option<String> {
        fn term(t: &Term) -> String {
            match t {
                Term::Word { text, .. } => format!("\"{text}\""),
                Term::Phrase(words) => format!("\"{}\"", words.join(" ")),
            }
        }
        if self.is_empty() {
            return None;
        }
        let groups: Vec<String> = self
            .groups
            .iter()
            .map(|g| {
                let any: Vec<String> = g.iter().map(term).collect();
                format!("({})", any.join(" OR "))
            })
            .collect();
        let mut out = format!("({})", groups.join(" AND "));
        for t in &self.excluded {
            out.push_str(" NOT ");
            out.push_str(&term(t));
        }
        Some(out)
    }

    /// The query in `to_tsquery`'s syntax (every word quoted); `None` when empty.
    pub fn tsquery(&self) -> Option<String> {
        fn term(t: &Term) -> String {
            match t {
                Term::Word { text, .. } => format!("'{text}'"),
                Term::Phrase(words) => {
                    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
                    format!("({})", quoted.join(" <-> "))
                }
            }
        }
        if self.is_empty() {
            return None;
        }
        let mut parts: Vec<String> = self
            .groups
            .iter()
            .map(|g| {
                let any: Vec<String> = g.iter().map(term).collect();
                format!("({})", any.join(" | "))
            })
            .collect();
        parts.extend(self.excluded.iter().map(|t| format!("!{}", term(t))));
        Some(parts.join(" & "))
    }
}

/// A published article a search found, with how well it matches (higher is better; only
/// comparable within one search on one engine).
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct Candidate {
    pub id: String,
    pub created_at: DateTime<Utc>,
    pub relevance: f64,
}

/// Matches at most this many are ranked by the engine's score (bm25, `ts_rank_cd`) within
/// their tier; more are ordered by tier and freshness alone. Scoring reads every match's
/// words (and FTS5's bm25 first counts each term's matches in the whole index: 5 ms for a
/// word in most of 100,000 articles); past this many, a word that common says little anyway.
pub const SCORED_AT_MOST: usize = 200;

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
}

/// A short piece of `text` around the words `query` asks for, those words marked: the
/// [`EXCERPT_WORDS`] words holding the most different ones asked for (then the most of
/// them, then the first), starting a few words before the first when it can, with "…" where
/// the text goes on. `None` when `text` holds none of them (a piece found by its title).
pub fn excerpt(text: &str, query: &Query) -> Option<Vec<Part>> {
    let stemmer = rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English);
    let wanted = query.wanted(&stemmer);
    let spans = word_spans(text);
    // For each word of the text, which wanted word it is.
    let found: Vec<Option<usize>> = spans
        .iter()
        .map(|&(s, e)| wanted.binary_search(&stem(&stemmer, &text[s..e])).ok())
        .collect();
    let first = found.iter().position(Option::is_some)?;
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
        (seen.len(), count)
    };
    // The best window among those starting at most `EXCERPT_LEAD` words before a match.
    let mut best = (
        first.saturating_sub(EXCERPT_LEAD).min(spans.len() - size),
        (0, 0),
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

/// The distinct words of an article worth suggesting to a reader who mistyped one: of three
/// to 24 letters, without digits, in lower case and sorted.
pub fn suggestable_words<'a>(texts: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = texts
        .into_iter()
        .flat_map(words)
        .filter(|w| (3..=24).contains(&w.chars().count()) && w.chars().all(char::is_alphabetic))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// How far a word may be from what was typed to be suggested: one edit for short words, two
/// for longer ones.
fn edits_allowed(typed: &str) -> usize {
    if typed.chars().count() <= 5 {
        1
    } else {
        2
    }
}

/// The words of `known` near enough to `typed` to suggest, nearest first (then shortest, then
/// alphabetically), compared without accents; `typed` itself is left out.
pub fn nearest<'a>(typed: &str, known: &'a [String]) -> Vec<&'a str> {
    let plain = deunicode::deunicode(typed);
    let allowed = edits_allowed(typed);
    let mut near: Vec<(usize, &str)> = known
        .iter()
        .filter(|w| w.as_str() != typed)
        .filter_map(|w| {
            let d = strsim::damerau_levenshtein(&plain, &deunicode::deunicode(w));
            (d <= allowed).then_some((d, w.as_str()))
        })
        .collect();
    near.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then(a.1.len().cmp(&b.1.len()))
            .then(a.1.cmp(b.1))
    });
    near.into_iter().map(|(_, w)| w).collect()
}

/// The bounds of the words to look at for a typed word: those starting with its first letter
/// (`[from, to)`), and their lengths in characters.
pub fn neighbourhood(typed: &str) -> Option<(String, String, i64, i64)> {
    let first = typed.chars().next()?;
    let next = char::from_u32(u32::from(first) + 1)?;
    let n = typed.chars().count() as i64;
    let allowed = edits_allowed(typed) as i64;
    Some((
        first.to_string(),
        next.to_string(),
        (n - allowed).max(3),
        n + allowed,
    ))
}

/// The end of the words starting with `prefix` (exclusive), alphabetically: `prefix` with its
/// last character moved on by one.
pub fn prefix_end(prefix: &str) -> Option<String> {
    let mut chars: Vec<char> = prefix.chars().collect();
    let last = chars.pop()?;
    chars.push(char::from_u32(u32::from(last) + 1)?);
    Some(chars.into_iter().collect())
}

/// `input` with each whole word equal to `typed` (ignoring case) replaced by `with`.
pub fn replace_word(input: &str, typed: &str, with: &str) -> String {
    let mut out = String::with_capacity(input.len() + with.len());
    let mut word_start = None;
    let flush = |out: &mut String, word: &str| {
        if word.to_lowercase() == typed {
            out.push_str(with);
        } else {
            out.push_str(word);
        }
    };
    for (i, c) in input.char_indices() {
        if c.is_alphanumeric() {
            word_start.get_or_insert(i);
        } else {
            if let Some(start) = word_start.take() {
                flush(&mut out, &input[start..i]);
            }
            out.push(c);
        }
    }
    if let Some(start) = word_start {
        flush(&mut out, &input[start..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(text: &str, prefix: bool) -> Term {
        Term::Word {
            text: text.into(),
            prefix,
        }
    }

    #[test]
    fn words_in_any_order_each_a_group_and_the_last_also_a_prefix() {
        let q = Query::parse("Security Veto");
        assert_eq!(
            q.groups,
            vec![vec![word("security", false)], vec![word("veto", true)]]
        );
        assert_eq!(q.completing(), Some("veto"));
        // The word being typed matches the known words it starts too.
        let mut q = Query::parse("security clim");
        q.complete(&["climate".to_string(), "climb".to_string()]);
        assert_eq!(q.completing(), None);
        assert_eq!(
            q.fts5().as_deref(),
            Some("((\"security\") AND (\"clim\" OR \"climate\" OR \"climb\"))")
        );
        assert_eq!(
            q.tsquery().as_deref(),
            Some("('security') & ('clim' | 'climate' | 'climb')")
        );
        // A space after the last word: the reader finished it.
        assert_eq!(
            Query::parse("veto ").groups,
            vec![vec![word("veto", false)]]
        );
        // Short words are words.
        assert_eq!(Query::parse("UN").groups, vec![vec![word("un", false)]]);
    }

    #[test]
    fn phrases_or_and_left_out_words_as_in_web_search() {
        let q = Query::parse("\"climate strike\" vote OR election -war");
        assert_eq!(
            q.groups,
            vec![
                vec![Term::Phrase(vec!["climate".into(), "strike".into()])],
                vec![word("vote", false), word("election", false)],
            ]
        );
        assert_eq!(q.excluded, vec![word("war", false)]);
        assert_eq!(
            q.fts5().as_deref(),
            Some("((\"climate strike\") AND (\"vote\" OR \"election\")) NOT \"war\"")
        );
        assert_eq!(
            q.tsquery().as_deref(),
            Some("(('climate' <-> 'strike')) & ('vote' | 'election') & !'war'")
        );
        // An unclosed quote runs to the end; a hyphenated word is a phrase of its parts.
        assert_eq!(
            Query::parse("\"e-mail privacy").groups,
            vec![vec![Term::Phrase(vec![
                "e".into(),
                "mail".into(),
                "privacy".into()
            ])]]
        );
    }

    #[test]
    fn syntax_typed_by_readers_is_never_the_engines_syntax() {
        for typed in [
            "NEAR(a b)",
            "title:veto",
            "a AND b",
            "x'); DROP TABLE articles; --",
            "'quoted' \\ back",
            "*",
            "\"",
            "-",
            "or",
            "(",
        ] {
            let q = Query::parse(typed);
            for rendered in [q.fts5(), q.tsquery()].into_iter().flatten() {
                for c in rendered.chars() {
                    assert!(
                        c.is_alphanumeric() || " \"'()*:|&!<->".contains(c),
                        "{typed:?} gave {rendered:?}"
                    );
                }
            }
        }
        assert!(Query::parse("\" - or").is_empty());
    }

    #[test]
    fn words_too_common_to_search_are_left_out_unless_in_a_phrase() {
        let q = Query::parse("the vote of the council");
        assert_eq!(
            q.groups,
            vec![vec![word("vote", false)], vec![word("council", true)]]
        );
        assert_eq!(
            Query::parse("\"vote of no confidence\"").groups,
            vec![vec![Term::Phrase(
                ["vote", "of", "no", "confidence"]
                    .map(String::from)
                    .to_vec()
            )]]
        );
        assert!(Query::parse("the who").is_empty());
        assert_eq!(
            Query::parse("vote council -war")
                .any_term()
                .fts5()
                .as_deref(),
            Some("((\"vote\" OR \"council\"))")
        );
        assert!(Query::parse("-war").is_empty());
    }

    #[test]
    fn best_match_blends_relevance_with_freshness() {
        let now = Utc::now();
        let day = chrono::Duration::days(1);
        let c = |id: &str, days: i64, relevance: f64| Candidate {
            id: id.into(),
            created_at: now - day * (days as i32),
            relevance,
        };
        // A strong recent piece beats an old passing mention; a strong old piece beats a
        // recent passing mention; equal matches come newest first.
        let mut found = vec![
            c("old-mention", 900, 1.0),
            c("old-strong", 700, 10.0),
            c("new-strong", 3, 10.0),
            c("new-mention", 1, 1.0),
            c("same-older", 20, 10.0),
        ];
        order(&mut found, true, now);
        let ids: Vec<&str> = found.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "new-strong",
                "same-older",
                "old-strong",
                "new-mention",
                "old-mention"
            ]
        );
        order(&mut found, false, now);
        assert_eq!(found[0].id, "new-mention");
        assert_eq!(found[4].id, "old-mention");
    }

    /// An excerpt as text, marked words in brackets.
    fn shown(text: &str, query: &str) -> Option<String> {
        excerpt(text, &Query::parse(&format!("{query} "))).map(|parts| {
            parts
                .iter()
                .map(|p| {
                    if p.marked {
                        format!("[{}]", p.text)
                    } else {
                        p.text.clone()
                    }
                })
                .collect()
        })
    }

    #[test]
    fn excerpts_mark_word_forms_case_and_accents() {
        assert_eq!(
            shown(
                "Students voted.\n\nVoting age: the Émigré vote.",
                "votes emigre"
            )
            .as_deref(),
            Some("Students [voted]. [Voting] age: the [Émigré] [vote].")
        );
        // Words apart from a phrase, stop words and left-out words are not marked.
        assert_eq!(
            shown(
                "Loss and damage, and the loss of war.",
                "\"loss and damage\" -war"
            )
            .as_deref(),
            Some("[Loss] and [damage], and the [loss] of war.")
        );
        // Short words are words: "UN" is not in "fun".
        assert_eq!(shown("A fun day.", "UN"), None);
        assert_eq!(shown("Nothing here.", "vote"), None);
    }

    #[test]
    fn excerpts_show_the_words_around_the_most_words_asked_for() {
        let filler = |n: usize| vec!["word"; n].join(" ");
        let text = format!(
            "{} climate alone. {} so the climate vote came at last {}.",
            filler(30),
            filler(30),
            filler(30)
        );
        assert_eq!(
            shown(&text, "climate vote").as_deref(),
            Some("…word so the [climate] [vote] came at last word word word word word word word word word word…")
        );
        // A match near the start shows the text from its start, without "…".
        assert_eq!(
            shown(&format!("The vote {}", filler(40)), "vote").as_deref(),
            Some(format!("The [vote] {}…", filler(16)).as_str())
        );
    }

    #[test]
    fn typos_find_the_nearest_known_words() {
        let known: Vec<String> = ["elect", "election", "elections", "electoral", "erection"]
            .map(String::from)
            .to_vec();
        assert_eq!(nearest("electon", &known)[0], "election");
        assert_eq!(nearest("élection", &known)[0], "election");
        assert!(nearest("zzz", &known).is_empty());
        assert_eq!(prefix_end("clim").as_deref(), Some("clin"));
        assert_eq!(
            neighbourhood("electon"),
            Some(("e".into(), "f".into(), 5, 9))
        );
        assert_eq!(
            replace_word("Electon results, electon-night", "electon", "election"),
            "election results, election-night"
        );
        assert_eq!(
            suggestable_words(["The Vote 2024", "vote, VOTES! a x1"]),
            ["the", "vote", "votes"]
        );
    }
}
