//! What follows an article: others to read next and its author's box, read once per content
//! version and article (see [`ContentService::related`]).

use crate::dto::{Article, AuthorBox, Related};
use crate::error::ContentError;
use crate::model::ListQuery;
use crate::service::ContentService;

impl ContentService {
    /// The boxes themselves: up to three other articles to read next (its category's first),
    /// and its author with up to three of their other articles.
    pub(crate) async fn find_related(&self, article: &Article) -> Result<Related, ContentError> {
        const SHOWN: usize = 3;
        let me = &article.card;
        let nearby = ListQuery {
            categories: vec![me.category],
            limit: SHOWN as i64,
            exclude: Some(me.id.clone()),
            ..ListQuery::default()
        };
        let mut read_next = self.list(&nearby).await?.items;
        if read_next.len() < SHOWN {
            let others = ListQuery {
                limit: (SHOWN * 2) as i64,
                exclude: Some(me.id.clone()),
                ..ListQuery::default()
            };
            for card in self.list(&others).await?.items {
                if read_next.len() == SHOWN {
                    break;
                }
                if !read_next.iter().any(|c| c.id == card.id) {
                    read_next.push(card);
                }
            }
        }
        let author = match (&me.author_id, &me.author_name) {
            (Some(id), Some(name)) => {
                let theirs = ListQuery {
                    limit: SHOWN as i64,
                    author: Some(id.clone()),
                    exclude: Some(me.id.clone()),
                    ..ListQuery::default()
                };
                let role = self
                    .authors()
                    .role_label(id)
                    .await
                    .map_err(ContentError::Unexpected)?;
                Some(AuthorBox {
                    name: name.clone(),
                    slug: me.author_slug.clone(),
                    role,
                    articles: self.list(&theirs).await?.items,
                })
            }
            _ => None,
        };
        Ok(Related { read_next, author })
    }
}
