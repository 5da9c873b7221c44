//! Each page's loader: its data, its head tags, its markup (see `Route`). A loader answers
//! the page and whether it may be shared in the cache.

use bytes::Bytes;
use content::Lookup;
use poem::http::StatusCode;

use super::{magazine_failed, ArticleOnPage, PageResolver, RenderedHtml, Route, Shown, Visit};
use crate::public_pages::{public_page, PublicPage};
use crate::ssr::Head;
use crate::web::social::card_path;
use crate::web::structured;

mod listings;

type Loaded = Result<(RenderedHtml, bool), content::ContentError>;

impl PageResolver {
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
