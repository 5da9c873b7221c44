//! Each page's loader: its data, its head tags, its markup (see `Route`). A loader answers
//! the page and whether it may be shared in the cache.

use bytes::Bytes;
use content::{ListQuery, Lookup};
use poem::http::StatusCode;

use super::{
    magazine_failed, raw_json, ArticleOnPage, ListQueryData, PageResolver, RenderedHtml, Route,
    Shown, Visit,
};
use crate::public_pages::{public_page, PublicPage};
use crate::ssr::Head;
use crate::web::feed::{author_feed_path, category_feed_path};
use crate::web::social::card_path;
use crate::web::structured;

type Loaded = Result<(RenderedHtml, bool), content::ContentError>;

impl PageResolver {
    pub(super) async fn home(&self, url: &str, visit: Visit<'_>) -> Loaded {
        let home = self.content.list_json(&ListQuery::home()).await?;
        let raw = raw_json(&home);
        let page = public_page("/");
        let head = Head {
            title: format!(
                "{} | {}",
                self.renderer.site_name(),
                page.map_or("", |p| p.title)
            ),
            description: page.map_or("", |p| p.description).into(),
            path: "/".into(),
            json_ld: vec![
                structured::organization(self.site_url(), self.renderer.site_name()),
                structured::website(self.site_url(), self.renderer.site_name()),
            ],
            ..Head::default()
        };
        let shown = Shown::Home {
            home: raw.as_deref(),
        };
        let json = self.data_json(url, StatusCode::OK, visit, shown);
        Ok(self.render(url, StatusCode::OK, head, json).await)
    }

    pub(super) async fn articles(&self, url: &str, query: &str, visit: Visit<'_>) -> Loaded {
        let q = ListQuery::from_page_query(query);
        let list = self.content.list_json(&q).await?;
        let raw = raw_json(&list);
        let articles = public_page("/articles");
        let head = Head {
            title: self.title(articles.map_or("", |p| p.title)),
            description: articles.map_or("", |p| p.description).into(),
            path: "/articles".into(),
            json_ld: vec![structured::breadcrumbs(
                self.site_url(),
                &[("Articles", "/articles")],
            )],
            // A reader looking at a category can follow it in a feed reader.
            feeds: q
                .categories
                .iter()
                .map(|c| (c.as_str().to_string(), category_feed_path(*c)))
                .collect(),
            ..Head::default()
        };
        let shown = Shown::Articles {
            list: raw.as_deref(),
            list_query: ListQueryData {
                q: &q.q,
                categories: q.categories.iter().map(|c| c.as_str()).collect(),
                limit: q.limit,
                newest: !q.q.is_empty() && q.sort == content::Sort::Newest,
            },
        };
        let json = self.data_json(url, StatusCode::OK, visit, shown);
        Ok(self.render(url, StatusCode::OK, head, json).await)
    }

    /// A category's page: its pieces, newest first, growing by a page with `?limit=`.
    pub(super) async fn category(
        &self,
        category: content::Category,
        url: &str,
        query: &str,
        visit: Visit<'_>,
    ) -> Loaded {
        let q = ListQuery::category(category, ListQuery::from_page_query(query).limit);
        let list = self.content.list_json(&q).await?;
        let raw = raw_json(&list);
        let path = category.page_path();
        let name = category.as_str();
        let head = Head {
            title: self.title(name),
            description: category.description().into(),
            path: path.clone(),
            json_ld: vec![
                structured::collection_page(
                    self.site_url(),
                    name,
                    category.description(),
                    &path,
                    &structured::listed(&list),
                ),
                structured::breadcrumbs(
                    self.site_url(),
                    &[("Articles", "/articles"), (name, &path)],
                ),
            ],
            feeds: vec![(name.to_string(), category_feed_path(category))],
            ..Head::default()
        };
        let shown = Shown::Category {
            list: raw.as_deref(),
            list_query: ListQueryData {
                q: "",
                categories: vec![name],
                limit: q.limit,
                newest: false,
            },
        };
        let json = self.data_json(url, StatusCode::OK, visit, shown);
        Ok(self.render(url, StatusCode::OK, head, json).await)
    }

    /// A contributor's page: who they are, their pieces newest first (growing with
    /// `?limit=`). Not found for a contributor with nothing published.
    pub(super) async fn author(
        &self,
        path: &str,
        slug: &str,
        url: &str,
        query: &str,
        visit: Visit<'_>,
    ) -> Loaded {
        let Some((id, who)) = self.content.author(slug).await? else {
            return Ok(self.not_found(path, url, visit).await);
        };
        let q = ListQuery::by_author(&id, ListQuery::from_page_query(query).limit);
        let list = self.content.list_json(&q).await?;
        let raw = raw_json(&list);
        let page = format!("/author/{}", who.slug);
        let role = who.role.as_str();
        let description = author_description(&who.name, role, self.renderer.site_name(), &who.bio);
        let head = Head {
            title: self.title(&who.name),
            description: description.clone(),
            path: page.clone(),
            og_type: "profile",
            json_ld: vec![
                structured::profile_page(
                    self.site_url(),
                    self.renderer.site_name(),
                    structured::Contributor {
                        name: &who.name,
                        path: &page,
                        role,
                        bio: &who.bio,
                        photo: who.photo.as_deref(),
                    },
                    &structured::listed(&list),
                ),
                structured::breadcrumbs(
                    self.site_url(),
                    &[("Articles", "/articles"), (&who.name, &page)],
                ),
            ],
            feeds: vec![(who.name.clone(), author_feed_path(&who.slug))],
            ..Head::default()
        };
        let shown = Shown::Author {
            author: &who,
            list: raw.as_deref(),
            list_query: ListQueryData {
                q: "",
                categories: Vec::new(),
                limit: q.limit,
                newest: false,
            },
        };
        let json = self.data_json(url, StatusCode::OK, visit, shown);
        Ok(self.render(url, StatusCode::OK, head, json).await)
    }

    /// An article, or where it moved to (`Err`, a path to redirect to).
    pub(super) async fn article(
        &self,
        path: &str,
        slug: &str,
        url: &str,
        visit: Visit<'_>,
    ) -> Result<Result<(RenderedHtml, bool), String>, content::ContentError> {
        let found = self.content.lookup(slug).await?;
        let article = match &*found {
            Lookup::Moved(to) => return Ok(Err(format!("/article/{to}"))),
            Lookup::Missing => return Ok(Ok(self.not_found(path, url, visit).await)),
            Lookup::Found(article) => article,
        };
        let card = card_path(
            "article",
            &article.card.slug,
            article.card.cover_image.as_deref(),
        );
        let canonical = format!("/article/{}", article.card.slug);
        let responses = self
            .responses
            .under(&crate::adapters::responded(&article.card))
            .await
            .map_err(|e| tracing::error!(error = ?e, "reading an article's responses failed"))
            .ok();
        let head = Head {
            title: self.title(&article.card.title),
            description: article.description.clone(),
            path: path.into(),
            og_type: "article",
            image_alt: article.card.title.clone(),
            json_ld: vec![
                structured::news_article(
                    article,
                    self.site_url(),
                    self.renderer.site_name(),
                    card.as_deref().unwrap_or(crate::ssr::SITE_CARD),
                    responses.as_ref().map(|r| r.responses.len()),
                ),
                structured::breadcrumbs(
                    self.site_url(),
                    &[("Articles", "/articles"), (&article.card.title, &canonical)],
                ),
            ],
            image: card,
            published_time: Some(article.card.created_at.to_rfc3339()),
            ..Head::default()
        };
        let related = self.content.related(article).await?;
        let shown = Shown::Article {
            article: ArticleOnPage::from(article.as_ref()),
            related: &related,
            responses: responses.as_ref(),
        };
        let json = self.data_json(url, StatusCode::OK, visit, shown);
        Ok(Ok(self.render(url, StatusCode::OK, head, json).await))
    }

    pub(super) async fn magazine(&self, path: &str, url: &str, visit: Visit<'_>) -> Loaded {
        let issues = self.magazines.issues().await.map_err(magazine_failed)?;
        let page = public_page(path);
        let latest = issues.first();
        let head = Head {
            title: self.title(page.map_or("", |p| p.title)),
            description: match latest {
                Some(issue) => format!("{}: {}", issue.title, issue.description),
                None => page.map_or("", |p| p.description).into(),
            },
            path: path.into(),
            image: latest.and_then(|i| card_path("magazine", &i.slug, Some(&i.cover_url))),
            image_alt: latest.map(|i| i.title.clone()).unwrap_or_default(),
            json_ld: vec![structured::breadcrumbs(
                self.site_url(),
                &[("Magazine", "/magazine")],
            )],
            ..Head::default()
        };
        let json = self.data_json(
            url,
            StatusCode::OK,
            visit,
            Shown::Magazine { issues: &issues },
        );
        Ok(self.render(url, StatusCode::OK, head, json).await)
    }

    pub(super) async fn issue(
        &self,
        path: &str,
        slug: &str,
        url: &str,
        visit: Visit<'_>,
    ) -> Loaded {
        let Some(issue) = self.magazines.issue(slug).await.map_err(magazine_failed)? else {
            return Ok(self.not_found(path, url, visit).await);
        };
        let head = Head {
            title: self.title(&issue.title),
            description: issue.description.clone(),
            path: path.into(),
            og_type: "article",
            image: card_path("magazine", &issue.slug, Some(&issue.cover_url)),
            image_alt: issue.title.clone(),
            json_ld: vec![structured::breadcrumbs(
                self.site_url(),
                &[("Magazine", "/magazine"), (&issue.title, path)],
            )],
            published_time: Some(issue.published_at.to_rfc3339()),
            ..Head::default()
        };
        let json = self.data_json(url, StatusCode::OK, visit, Shown::Issue { issue: &issue });
        Ok(self.render(url, StatusCode::OK, head, json).await)
    }

    pub(super) async fn packs_page(&self, path: &str, url: &str, visit: Visit<'_>) -> Loaded {
        let packs = self
            .packs
            .packs(true)
            .await
            .map_err(|e| content::ContentError::Unexpected(Box::new(e)))?;
        let page = public_page(path);
        let head = Head {
            title: self.title(page.map_or("", |p| p.title)),
            description: if packs.launched_at.is_some() {
                "Classroom-ready educational packs on democracy, climate policy and human \
                 rights for ages 13-18, in English and Spanish, with a teacher's guide: \
                 download them here."
                    .into()
            } else {
                page.map_or("", |p| p.description).into()
            },
            path: path.into(),
            ..Head::default()
        };
        let json = self.data_json(url, StatusCode::OK, visit, Shown::Packs { packs: &packs });
        Ok(self.render(url, StatusCode::OK, head, json).await)
    }

    /// A reader's account page: theirs only, never shared.
    pub(super) async fn account(
        &self,
        path: &str,
        url: &str,
        reader: Option<&str>,
        visit: Visit<'_>,
    ) -> (RenderedHtml, bool) {
        let account = self.reader_account(reader).await;
        let page = public_page(path);
        let head = Head {
            title: self.title(page.map_or("", |p| p.title)),
            description: page.map_or("", |p| p.description).into(),
            path: path.into(),
            noindex: true,
            ..Head::default()
        };
        let shown = Shown::Account {
            account: account.as_ref().map(|(a, _)| a),
            responses: account.as_ref().map(|(_, r)| r.as_slice()),
        };
        let json = self.data_json(url, StatusCode::OK, visit, shown);
        let (rendered, _) = self.render(url, StatusCode::OK, head, json).await;
        (rendered, false)
    }

    pub(super) async fn public(
        &self,
        page: &PublicPage,
        path: &str,
        url: &str,
        visit: Visit<'_>,
    ) -> (RenderedHtml, bool) {
        let head = Head {
            title: self.title(page.title),
            description: page.description.into(),
            path: path.into(),
            noindex: !page.indexable,
            json_ld: if page.indexable {
                vec![structured::breadcrumbs(
                    self.site_url(),
                    &[(page.title, path)],
                )]
            } else {
                vec![]
            },
            ..Head::default()
        };
        let json = self.data_json(url, StatusCode::OK, visit, Shown::Plain);
        let (rendered, shareable) = self.render(url, StatusCode::OK, head, json).await;
        // A page whose address carries a link's token is nobody else's.
        (rendered, shareable && !Route::is_per_request(path))
    }

    /// Dashboards are rendered in the browser and never cached.
    pub(super) fn dashboard(
        &self,
        path: &str,
        url: &str,
        visit: Visit<'_>,
    ) -> (RenderedHtml, bool) {
        let head = Head {
            title: self.title("Dashboard"),
            description: "Staff dashboard".into(),
            path: path.into(),
            noindex: true,
            ..Head::default()
        };
        let json = self.data_json(url, StatusCode::OK, visit, Shown::Plain);
        let html = self.renderer.shell(&head, &json.text);
        (
            RenderedHtml {
                status: StatusCode::OK,
                html: Bytes::from(html),
            },
            false,
        )
    }
}

/// What search results and shared links say about a contributor: their bio's first line when
/// they wrote one (cut at a word, about a snippet's length), else who they are.
fn author_description(name: &str, role: &str, site_name: &str, bio: &str) -> String {
    const MAX: usize = 160;
    let first = bio.lines().map(str::trim).find(|l| !l.is_empty());
    let Some(line) = first else {
        return format!("{name}, {role} at {site_name}: their articles, newest first.");
    };
    if line.chars().count() <= MAX {
        return line.to_string();
    }
    let cut: String = line.chars().take(MAX).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head);
    format!("{}…", cut.trim_end_matches([',', ';', ':', '.', ' ']))
}

#[cfg(test)]
mod tests {
    use super::author_description;

    #[test]
    fn an_author_is_described_by_their_bio_or_their_role() {
        assert_eq!(
            author_description("Maya O.", "Writer", "The Agora", ""),
            "Maya O., Writer at The Agora: their articles, newest first."
        );
        assert_eq!(
            author_description(
                "Maya O.",
                "Writer",
                "The Agora",
                "\n  I cover the UN.\nAnd more."
            ),
            "I cover the UN."
        );
        let long = "word ".repeat(60);
        let d = author_description("Maya O.", "Writer", "The Agora", &long);
        assert!(d.ends_with("word…") && d.chars().count() <= 161, "{d}");
    }
}
