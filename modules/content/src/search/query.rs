//! What a reader types, read the way web search reads it, and written as each engine's
//! full-text query.

use super::stop_words::is_stop_word;

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

    /// The same search with its phrases read as their words in any order, left-out phrases
    /// dropped: it finds every article this one finds, and more. A phrase among alternatives
    /// ("\"climate strike\" or protest") stands for its first word. `None` without a phrase.
    ///
    /// PostgreSQL's index holds no word positions, so it checks a phrase article by article;
    /// the search looks for one only in the newest articles this looser query finds.
    pub fn without_phrases(&self) -> Option<Query> {
        let is_phrase = |t: &Term| matches!(t, Term::Phrase(_));
        if !self
            .groups
            .iter()
            .flatten()
            .chain(&self.excluded)
            .any(is_phrase)
        {
            return None;
        }
        let word = |text: &String| Term::Word {
            text: text.clone(),
            prefix: false,
        };
        let mut groups = Vec::new();
        for group in &self.groups {
            match group.as_slice() {
                [Term::Phrase(words)] => groups.extend(
                    words
                        .iter()
                        .filter(|w| !is_stop_word(w))
                        .map(|w| vec![word(w)]),
                ),
                _ => groups.push(
                    group
                        .iter()
                        .map(|t| match t {
                            Term::Phrase(words) => words
                                .iter()
                                .find(|w| !is_stop_word(w))
                                .map_or_else(|| t.clone(), word),
                            Term::Word { .. } => t.clone(),
                        })
                        .collect(),
                ),
            }
        }
        Some(Query {
            groups,
            excluded: self
                .excluded
                .iter()
                .filter(|t| !is_phrase(t))
                .cloned()
                .collect(),
        })
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
