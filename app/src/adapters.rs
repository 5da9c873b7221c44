//! How modules ask one another for what they need, without reading each other's tables:
//! each adapter implements a port one module declares with another module's service.

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use content::{AuthorDirectory, ContentService};
use identity::IdentityService;

/// The admin's top articles get their titles from content through this adapter (one query
/// for all of them).
pub struct ContentTitles(pub Arc<ContentService>);

#[async_trait]
impl analytics::ArticleTitles for ContentTitles {
    async fn titles(&self, slugs: &[String]) -> HashMap<String, String> {
        self.0.titles(slugs).await.unwrap_or_else(|e| {
            tracing::warn!(error = %e, "cannot read article titles; showing slugs");
            HashMap::new()
        })
    }
}

/// Beacons count only pages that exist: the app knows its route table, content its articles
/// (answered from content's memory, not from its tables) and who has a page.
pub struct SitePages(pub Arc<ContentService>, pub Arc<media::MagazineService>);

#[async_trait]
impl analytics::KnownPages for SitePages {
    async fn exists(&self, path: &str) -> bool {
        if crate::public_pages::public_page(path).is_some() {
            return true;
        }
        if let Some(slug) = path.strip_prefix("/category/") {
            return content::Category::from_slug(slug).is_some();
        }
        if let Some(slug) = path.strip_prefix("/author/") {
            return self.0.author(slug).await.unwrap_or_else(|e| {
                tracing::warn!(error = %e, "cannot tell whether a contributor has a page; view not counted");
                None
            }).is_some();
        }
        if let Some(slug) = path.strip_prefix("/magazine/") {
            return self.1.issue(slug).await.unwrap_or_else(|e| {
                tracing::warn!(error = %e, "cannot tell whether an issue exists; view not counted");
                None
            }).is_some();
        }
        let Some(slug) = path.strip_prefix("/article/") else {
            return false;
        };
        if slug.is_empty() || slug.contains('/') {
            return false;
        }
        self.0.is_published_slug(slug).await.unwrap_or_else(|e| {
            tracing::warn!(error = %e, "cannot tell whether an article exists; view not counted");
            false
        })
    }
}

/// Content asks identity for author names through this adapter, so neither module reads the
/// other's tables.
pub struct IdentityAuthors(pub Arc<IdentityService>);

#[async_trait]
impl AuthorDirectory for IdentityAuthors {
    async fn names(
        &self,
        ids: &[String],
    ) -> Result<HashMap<String, String>, Box<dyn std::error::Error + Send + Sync>> {
        Ok(self.0.names(ids).await?)
    }

    async fn bylines(
        &self,
        ids: &[String],
    ) -> Result<HashMap<String, content::Byline>, Box<dyn std::error::Error + Send + Sync>> {
        Ok(self
            .0
            .bylines(ids)
            .await?
            .into_iter()
            .map(|(id, b)| {
                let byline = content::Byline {
                    name: b.name,
                    slug: b.slug,
                };
                (id, byline)
            })
            .collect())
    }

    async fn contributor(
        &self,
        slug: &str,
    ) -> Result<Option<(String, content::Contributor)>, Box<dyn std::error::Error + Send + Sync>>
    {
        Ok(self.0.contributor(slug).await?.map(|who| {
            let shown = content::Contributor {
                name: who.name,
                slug: who.slug,
                role: who.role.label().to_string(),
                bio: who.bio,
                photo: who.photo,
            };
            (who.user_id, shown)
        }))
    }

    async fn is_active_writer(
        &self,
        id: &str,
    ) -> Result<bool, Box<dyn std::error::Error + Send + Sync>> {
        Ok(self.0.is_active_writer(id).await?)
    }

    async fn notice_address(
        &self,
        id: &str,
    ) -> Result<Option<String>, Box<dyn std::error::Error + Send + Sync>> {
        Ok(self.0.notice_address(id).await?)
    }

    async fn role_label(
        &self,
        id: &str,
    ) -> Result<Option<String>, Box<dyn std::error::Error + Send + Sync>> {
        Ok(self
            .0
            .role_of(id)
            .await?
            .map(|role| role.label().to_string()))
    }
}

/// Announcements find the magazine issue they announce through this adapter, so outreach never
/// reads the media module's tables.
pub struct PublishedIssues(pub Arc<media::MagazineService>, pub Arc<media::PackService>);

#[async_trait]
impl outreach::IssueDirectory for PublishedIssues {
    async fn issue(
        &self,
        id: &str,
    ) -> Result<outreach::IssueLookup, Box<dyn std::error::Error + Send + Sync>> {
        Ok(match self.0.by_id(id).await? {
            Some(Some(issue)) => outreach::IssueLookup::Published(outreach::AnnouncedIssue {
                title: issue.title,
                slug: issue.slug,
                description: issue.description,
                cover_url: issue.cover_url,
            }),
            Some(None) => outreach::IssueLookup::Draft,
            None => outreach::IssueLookup::Missing,
        })
    }

    async fn packs_launched(&self) -> Result<bool, Box<dyn std::error::Error + Send + Sync>> {
        Ok(self.1.is_launched().await?)
    }
}

/// The weekly digest reads the week's articles through this adapter, so outreach never reads
/// the content module's tables.
pub struct WeekArticles(pub Arc<ContentService>);

#[async_trait]
impl outreach::ArticleDirectory for WeekArticles {
    async fn published_between(
        &self,
        from: chrono::DateTime<chrono::Utc>,
        to: chrono::DateTime<chrono::Utc>,
    ) -> Result<Vec<outreach::DigestArticle>, Box<dyn std::error::Error + Send + Sync>> {
        Ok(self
            .0
            .published_between(from, to)
            .await?
            .into_iter()
            .map(|a| outreach::DigestArticle {
                title: a.title,
                slug: a.slug,
                category: a.category.as_str().to_string(),
                description: a.description,
            })
            .collect())
    }
}

/// Responses find the articles they answer through this adapter, so outreach never reads the
/// content module's tables.
pub struct RespondedArticles(pub Arc<ContentService>);

pub(crate) fn responded(card: &content::ArticleCard) -> outreach::responses::RespondedArticle {
    outreach::responses::RespondedArticle {
        id: card.id.clone(),
        slug: card.slug.clone(),
        title: card.title.clone(),
        published_at: card.created_at,
    }
}

/// The path of the article page at `slug`: what the content generation names it by.
fn article_page(slug: &str) -> String {
    format!("/article/{slug}")
}

#[async_trait]
impl outreach::responses::ResponseArticles for RespondedArticles {
    async fn published(
        &self,
        slug: &str,
    ) -> Result<
        Option<outreach::responses::RespondedArticle>,
        Box<dyn std::error::Error + Send + Sync>,
    > {
        // By its current slug only: an old address or an id is not the article's page.
        Ok(match &*self.0.lookup(slug).await? {
            content::Lookup::Found(a) if a.card.slug == slug => Some(responded(&a.card)),
            _ => None,
        })
    }

    async fn by_ids(
        &self,
        ids: &[String],
    ) -> Result<
        HashMap<String, outreach::responses::RespondedArticle>,
        Box<dyn std::error::Error + Send + Sync>,
    > {
        Ok(self
            .0
            .published_cards(ids)
            .await?
            .iter()
            .map(|card| (card.id.clone(), responded(card)))
            .collect())
    }

    fn shown_changed(&self, slug: &str, withdrawn: bool) {
        let path = article_page(slug);
        let scope = kernel::generation::Scope::Pages(&[path.as_str()]);
        let generation = self.0.generation();
        if withdrawn {
            generation.withdraw(scope);
        } else {
            generation.advance(scope);
        }
    }

    fn shown_version(&self, slug: &str) -> u64 {
        // The page's own version: `shown_changed` moves it, here and on every instance.
        self.0.generation().page(&article_page(slug))
    }

    async fn approved(&self, article_id: &str, reader: &str, body: &str) {
        self.0
            .tell_response_approved(article_id, reader, body)
            .await;
    }
}
