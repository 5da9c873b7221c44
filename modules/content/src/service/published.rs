//! What the content service tells of published work beyond one article: authors' pages,
//! cards by id, the digest's articles, and the names under pieces.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::{ContentService, PublishedArticle};
use crate::dto::Contributor;
use crate::error::ContentError;
use crate::model::Byline;
use crate::present::card;

impl ContentService {
    /// The contributor at `/author/{slug}` and their id, when they have a public page: a
    /// member who may have one, with a piece published.
    pub async fn author(&self, slug: &str) -> Result<Option<(String, Contributor)>, ContentError> {
        let Some((id, who)) = self
            .authors
            .contributor(slug)
            .await
            .map_err(ContentError::Unexpected)?
        else {
            return Ok(None);
        };
        let published = self
            .authors_published
            .try_get_with(self.version(), async {
                let rows = self.store.published_authors().await?;
                Ok::<_, ContentError>(Arc::new(
                    rows.into_iter().map(|(id, _)| id).collect::<HashSet<_>>(),
                ))
            })
            .await
            .map_err(ContentError::unshared)?;
        Ok(published.contains(&id).then_some((id, who)))
    }

    /// The published articles among `ids` (in no particular order), as cards.
    pub async fn published_cards(
        &self,
        ids: &[String],
    ) -> Result<Vec<crate::dto::ArticleCard>, ContentError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let rows = self.store.cards(ids).await?;
        let bylines = self.bylines(rows.iter().map(|r| &r.card.author_id)).await?;
        rows.into_iter().map(|r| card(r.card, &bylines)).collect()
    }

    /// Everyone with a published article, and when the last of theirs changed.
    pub async fn published_authors(
        &self,
    ) -> Result<Vec<(String, chrono::DateTime<chrono::Utc>)>, ContentError> {
        Ok(self.store.published_authors().await?)
    }

    pub async fn published_slugs(
        &self,
    ) -> Result<Vec<(String, chrono::DateTime<chrono::Utc>)>, ContentError> {
        Ok(self.store.published_slugs().await?)
    }

    /// Articles first published in `[from, to)`, newest first (for the weekly digest).
    pub async fn published_between(
        &self,
        from: chrono::DateTime<chrono::Utc>,
        to: chrono::DateTime<chrono::Utc>,
    ) -> Result<Vec<PublishedArticle>, ContentError> {
        Ok(self
            .store
            .published_between(from, to)
            .await?
            .into_iter()
            .filter_map(|row| {
                Some(PublishedArticle {
                    category: crate::model::Category::parse(&row.category)?,
                    slug: row.slug,
                    title: row.title,
                    description: row.description,
                    published_at: row.first_published_at,
                })
            })
            .collect())
    }

    /// The bylines of the authors `ids`, for public pages.
    pub(crate) async fn bylines<'a>(
        &self,
        ids: impl Iterator<Item = &'a Option<String>>,
    ) -> Result<HashMap<String, Byline>, ContentError> {
        let Some(wanted) = distinct(ids) else {
            return Ok(HashMap::new());
        };
        self.authors
            .bylines(&wanted)
            .await
            .map_err(ContentError::Unexpected)
    }

    /// The full names of the authors `ids`, for staff.
    pub(crate) async fn author_names<'a>(
        &self,
        ids: impl Iterator<Item = &'a Option<String>>,
    ) -> Result<HashMap<String, String>, ContentError> {
        let Some(wanted) = distinct(ids) else {
            return Ok(HashMap::new());
        };
        self.authors
            .names(&wanted)
            .await
            .map_err(ContentError::Unexpected)
    }
}

/// The ids given, each once; `None` when there are none.
fn distinct<'a>(ids: impl Iterator<Item = &'a Option<String>>) -> Option<Vec<String>> {
    let mut wanted: Vec<String> = ids.flatten().cloned().collect();
    wanted.sort_unstable();
    wanted.dedup();
    (!wanted.is_empty()).then_some(wanted)
}
