//! "Did you mean …?": the words near a mistyped one.

use super::query::words;

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
