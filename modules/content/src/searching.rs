//! The public search: the engine finds the matches, this puts them in order, quotes each
//! result's text around the matched words, and suggests a word when a typo found nothing.

use std::collections::HashMap;

use crate::dto::{ArticleList, HighlightPart};
use crate::error::ContentError;
use crate::model::{ListQuery, Sort, SEARCH_COUNT_CAP};
use crate::present::card;
use crate::search::{self, Query};
use crate::service::ContentService;

/// Matches a search reads at most (ten pages of the largest size past the count cap).
const READ_AT_MOST: i64 = SEARCH_COUNT_CAP + 500;
/// A phrase is looked for in the newest this many articles holding all its words, in any
/// order: PostgreSQL's index has no word positions, so each of them is read and checked
/// (about 3.5 µs an article at 100,000). Past that, the total says "more than" was found.
pub const PHRASE_WINDOW: i64 = 2000;
/// Known words the word being typed may complete to, at most (the first alphabetically).
const COMPLETIONS: i64 = 16;
/// Known words compared with a mistyped word, at most.
const NEAR_WORDS_READ: i64 = 5000;
/// Words of a query that found nothing looked up for a suggestion, at most.
const WORDS_CORRECTED: usize = 3;
/// Near words tried for each, nearest first, at most (each is a search).
const TRIED_PER_WORD: usize = 3;

impl ContentService {
    /// A page of the published articles matching `q.q`: best match first (or newest first),
    /// each with a highlight; the total is exact up to [`SEARCH_COUNT_CAP`] (or the end of the
    /// page asked for). Best match ranks the newest matches up to that cap (by when they went
    /// live), not every match of a very common word; a phrase is looked for in the newest
    /// [`PHRASE_WINDOW`] articles holding its words.
    pub(crate) async fn search(&self, q: &ListQuery) -> Result<ArticleList, ContentError> {
        let mut query = Query::parse(&q.q);
        self.complete(&mut query).await?;
        // Matches read: one more than the count cap (or the end of the page asked for), and
        // never more than `READ_AT_MOST` (a page past those is empty).
        let cap = q.count_cap().unwrap_or(SEARCH_COUNT_CAP).min(READ_AT_MOST);
        let found = self
            .store()
            .search(&query, &q.categories, cap + 1, PHRASE_WINDOW)
            .await?;
        let cut_short = found.cut_short;
        let mut found = found.matches;
        let counted = found.len() as i64;
        search::order(&mut found, q.sort == Sort::Relevance, self.now());
        let at = |n: i64| usize::try_from(n).unwrap_or(usize::MAX).min(found.len());
        let ids: Vec<String> = found[at(q.offset)..at(q.offset.saturating_add(q.limit))]
            .iter()
            .map(|c| c.id.clone())
            .collect();
        let mut rows: HashMap<String, crate::store::FoundRow> = self
            .store()
            .cards(&ids)
            .await?
            .into_iter()
            .map(|r| (r.card.id.clone(), r))
            .collect();
        let bylines = self
            .bylines(rows.values().map(|r| &r.card.author_id))
            .await?;
        let mut items = Vec::with_capacity(ids.len());
        for id in &ids {
            // Unpublished since it was found: left out.
            let Some(row) = rows.remove(id) else { continue };
            // A piece found by its title alone keeps its excerpt: its text has nothing to mark.
            let highlight = search::excerpt(&row.body_text, &query).map(|parts| {
                parts
                    .into_iter()
                    .map(|p| HighlightPart {
                        text: p.text,
                        marked: p.marked,
                    })
                    .collect()
            });
            let mut item = card(row.card, &bylines)?;
            item.highlight = highlight;
            items.push(item);
        }
        let suggestion = if counted == 0 {
            self.suggest(q, &query).await?
        } else {
            None
        };
        Ok(ArticleList {
            items,
            total: counted.min(cap),
            total_exact: counted <= cap && !cut_short,
            published_total: self.published_total().await?,
            suggestion,
        })
    }

    /// Lets the word the reader may still be typing also match the known words it starts
    /// ("clim": climate, climb…), unless it is a known word itself.
    async fn complete(&self, query: &mut Query) -> Result<(), ContentError> {
        let Some(typed) = query.completing().map(str::to_string) else {
            return Ok(());
        };
        let Some(end) = search::prefix_end(&typed) else {
            return Ok(());
        };
        let shortest = typed.chars().count() as i64;
        let mut words = self
            .store()
            .words_between(&typed, &end, shortest, 24, COMPLETIONS + 1)
            .await?;
        if words.first() == Some(&typed) {
            words.clear();
        }
        words.truncate(COMPLETIONS as usize);
        query.complete(&words);
        Ok(())
    }

    /// For a search that found nothing: the same search with its words that match no article
    /// replaced by the nearest words the articles use, when that finds something.
    async fn suggest(&self, q: &ListQuery, query: &Query) -> Result<Option<String>, ContentError> {
        let mut text = q.q.clone();
        let mut changed = false;
        for typed in query.plain_words().into_iter().take(WORDS_CORRECTED) {
            if self.finds_any(&Query::parse(typed), q).await? {
                continue;
            }
            let Some((from, to, shortest, longest)) = search::neighbourhood(typed) else {
                continue;
            };
            let known = self
                .store()
                .words_between(&from, &to, shortest, longest, NEAR_WORDS_READ)
                .await?;
            for near in search::nearest(typed, &known)
                .into_iter()
                .take(TRIED_PER_WORD)
            {
                if self.finds_any(&Query::parse(near), q).await? {
                    text = search::replace_word(&text, typed, near);
                    changed = true;
                    break;
                }
            }
        }
        if changed && self.finds_any(&Query::parse(&text), q).await? {
            Ok(Some(text))
        } else {
            Ok(None)
        }
    }

    /// Whether `query` finds a published article within `q`'s categories.
    async fn finds_any(&self, query: &Query, q: &ListQuery) -> Result<bool, ContentError> {
        Ok(self
            .store()
            .any_match(query, &q.categories, PHRASE_WINDOW)
            .await?)
    }
}
