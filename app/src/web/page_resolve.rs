//! What a page is: the route resolved, its data loaded from `content`, its head tags, and the
//! markup rendered through the sidecar (or the client-rendered shell when that fails).

use std::borrow::Cow;
use std::sync::Arc;

use bytes::Bytes;
use content::{Article, ContentService, ListQuery, Lookup, Related};
use media::{MagazineIssue, MagazineService, PackService, Packs};
use outreach::{
    Landing, OutreachService, Readers, CONFIRM_PAGE, RESET_PAGE, SIGN_IN_LINK_PAGE,
    UNSUBSCRIBE_PAGE,
};
use poem::http::StatusCode;
use serde::Serialize;
use serde_json::value::RawValue;

use super::feed::category_feed_path;
use super::social::card_path;
use super::structured;
use crate::public_pages::public_page;
use crate::ssr::{Head, PageRequest, Renderer};

/// A page as rendered: what `resolve` produces.
#[derive(Clone)]
pub(super) struct RenderedHtml {
    pub status: StatusCode,
    pub html: Bytes,
}

#[derive(Serialize)]
struct Site<'a> {
    name: &'a str,
    url: &'a str,
}

#[derive(Serialize)]
struct ListQueryData<'a> {
    q: &'a str,
    categories: Vec<&'static str>,
    limit: i64,
    /// A search the reader asked to see newest first (`sort=newest`), not best match first.
    newest: bool,
}

/// The data a page is rendered from, shared by the sidecar and the hydrating browser.
#[derive(Serialize)]
struct PageData<'a> {
    site: Site<'a>,
    path: &'a str,
    status: u16,
    #[serde(skip_serializing_if = "Option::is_none")]
    home: Option<&'a RawValue>,
    /// On a page that is not there: the newest articles, offered instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    newest: Option<&'a RawValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    list: Option<&'a RawValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    list_query: Option<ListQueryData<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    article: Option<&'a Article>,
    /// On "/article/{slug}": what to read next and the author's box.
    #[serde(skip_serializing_if = "Option::is_none")]
    related: Option<&'a Related>,
    /// On the pages links in our emails lead to: how following the link went.
    #[serde(skip_serializing_if = "Option::is_none")]
    landing: Option<&'a Landing>,
    /// On "/magazine": the published issues, the latest first (empty before the first).
    #[serde(skip_serializing_if = "Option::is_none")]
    issues: Option<&'a [MagazineIssue]>,
    /// On "/magazine/{slug}" when the issue is published.
    #[serde(skip_serializing_if = "Option::is_none")]
    issue: Option<&'a MagazineIssue>,
    /// On "/educational-packs": the packs, with their files once launched.
    #[serde(skip_serializing_if = "Option::is_none")]
    packs: Option<&'a Packs>,
    /// On "/account" for a signed-in reader: their account (as `GET /v1/reader/account`).
    #[serde(skip_serializing_if = "Option::is_none")]
    account: Option<&'a serde_json::Value>,
    /// On a page a form was posted to without JavaScript: what the server answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    form: Option<&'a RawValue>,
    /// The request came with a reader's session cookie: the header offers "Account", also
    /// without JavaScript.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    reader: bool,
}

/// What a request brings besides its address.
#[derive(Clone, Copy, Default)]
pub(super) struct Visit<'a> {
    /// What the server answered a form posted to this page without JavaScript.
    pub form: Option<&'a RawValue>,
    /// The request carries a reader's session cookie.
    pub reader: bool,
}

/// A page's data as JSON, and whether it shows what the server answered a form posted
/// without JavaScript.
struct PageJson {
    text: String,
    answers_form: bool,
}

pub(super) enum Outcome {
    Page(RenderedHtml),
    Redirect(String),
}

/// Resolves paths to rendered pages.
pub(super) struct PageResolver {
    content: Arc<ContentService>,
    outreach: Arc<OutreachService>,
    readers: Arc<Readers>,
    magazines: Arc<MagazineService>,
    packs: Arc<PackService>,
    renderer: Arc<Renderer>,
}

/// The account page's path.
pub(super) const ACCOUNT_PAGE: &str = "/account";

/// A page's data failed to load.
fn magazine_failed(e: media::MagazineError) -> content::ContentError {
    content::ContentError::Unexpected(Box::new(e))
}

impl PageResolver {
    pub(super) fn new(
        content: Arc<ContentService>,
        outreach: Arc<OutreachService>,
        readers: Arc<Readers>,
        magazines: Arc<MagazineService>,
        packs: Arc<PackService>,
        renderer: Arc<Renderer>,
    ) -> Self {
        Self {
            content,
            outreach,
            readers,
            magazines,
            packs,
            renderer,
        }
    }

    /// Pages made for one request (they act on the link's token, or carry it): never in the
    /// shared cache.
    pub(super) fn is_per_request(path: &str) -> bool {
        Self::acts_on_link(path)
            || path == SIGN_IN_LINK_PAGE
            || path == RESET_PAGE
            || path == ACCOUNT_PAGE
    }

    /// Pages that look up their link's token as they are opened (the confirmation link acts
    /// on it; the unsubscribe link only shows the list and a button).
    fn acts_on_link(path: &str) -> bool {
        path == CONFIRM_PAGE || path == UNSUBSCRIBE_PAGE
    }

    /// The landing page of a link from one of our emails.
    async fn email_landing(
        &self,
        path: &str,
        url: &str,
        query: &str,
        visit: Visit<'_>,
    ) -> (RenderedHtml, bool) {
        let token = form_urlencoded::parse(query.as_bytes())
            .find(|(k, _)| k == "token")
            .map(|(_, v)| v.into_owned())
            .unwrap_or_default();
        let landing = if path == CONFIRM_PAGE {
            self.outreach.confirm_landing(&token).await
        } else {
            self.outreach.unsubscribe_landing(&token).await
        };
        let status = StatusCode::from_u16(landing.status).unwrap_or(StatusCode::OK);
        let head = Head {
            title: self.title(&landing.heading),
            description: landing.text.clone(),
            path: path.into(),
            noindex: true,
            ..Head::default()
        };
        let json = self.data_json(url, status, visit, |d| d.landing = Some(&landing));
        let (page, _) = self.render(url, status, head, json).await;
        (page, false)
    }

    fn data_json<'a>(
        &'a self,
        path: &'a str,
        status: StatusCode,
        visit: Visit<'a>,
        fill: impl FnOnce(&mut PageData<'a>),
    ) -> PageJson {
        let mut data = PageData {
            site: Site {
                name: self.renderer.site_name(),
                url: self.renderer.site_url(),
            },
            path,
            status: status.as_u16(),
            home: None,
            newest: None,
            list: None,
            list_query: None,
            article: None,
            related: None,
            landing: None,
            issues: None,
            issue: None,
            packs: None,
            account: None,
            form: visit.form,
            reader: visit.reader,
        };
        fill(&mut data);
        PageJson {
            text: serde_json::to_string(&data).unwrap_or_else(|_| "{}".to_string()),
            answers_form: visit.form.is_some(),
        }
    }

    async fn render(
        &self,
        url: &str,
        status: StatusCode,
        head: Head,
        data: PageJson,
    ) -> (RenderedHtml, bool) {
        let page = self
            .renderer
            .render(&PageRequest {
                url,
                head,
                data_json: data.text,
                answers_form: data.answers_form,
            })
            .await;
        (
            RenderedHtml {
                status,
                html: Bytes::from(page.html),
            },
            page.server_rendered,
        )
    }

    /// The signed-in reader's account as the API shows it, for the session `token`.
    /// Whether `token` is a live reader session.
    pub(super) async fn is_reader(&self, token: &str) -> bool {
        match self.readers.authenticate(token).await {
            Ok(id) => id.is_some(),
            Err(e) => {
                tracing::error!(error = ?e, "reader session check failed");
                false
            }
        }
    }

    async fn reader_account(&self, token: Option<&str>) -> Option<serde_json::Value> {
        use poem_openapi::types::ToJSON;
        let id = match self.readers.authenticate(token?).await {
            Ok(id) => id?,
            Err(e) => {
                tracing::error!(error = ?e, "reader session check failed");
                return None;
            }
        };
        match self.readers.account(&id).await {
            Ok(account) => account.to_json(),
            Err(e) => {
                tracing::error!(error = ?e, "reading the reader's account failed");
                None
            }
        }
    }

    fn site_url(&self) -> &str {
        self.renderer.site_url().trim_end_matches('/')
    }

    fn title(&self, page: &str) -> String {
        format!("{page} | {}", self.renderer.site_name())
    }

    async fn not_found(&self, path: &str, url: &str, visit: Visit<'_>) -> (RenderedHtml, bool) {
        tracing::info!(path, "page not found");
        let head = Head {
            title: self.title("Page not found"),
            description: "Oops! Page not found".into(),
            path: path.into(),
            noindex: true,
            ..Head::default()
        };
        // What the page offers instead; without it the page still says what happened.
        let newest = match self.content.list_json(&ListQuery::newest()).await {
            Ok(list) => raw_json(&list),
            Err(e) => {
                tracing::warn!(error = ?e, "newest articles for a 404 page");
                None
            }
        };
        let json = self.data_json(url, StatusCode::NOT_FOUND, visit, |d| {
            d.newest = newest.as_deref()
        });
        self.render(url, StatusCode::NOT_FOUND, head, json).await
    }

    /// Resolves and renders one page. The flag says whether it may be cached.
    pub(super) async fn resolve(
        &self,
        path: &str,
        url: &str,
        query: &str,
        form: Option<&RawValue>,
        reader: Option<&str>,
    ) -> Result<(Outcome, bool), content::ContentError> {
        let visit = Visit {
            form,
            reader: reader.is_some(),
        };
        let (page, cacheable) = if Self::acts_on_link(path) {
            self.email_landing(path, url, query, visit).await
        } else if path == "/" {
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
            let json = self.data_json(url, StatusCode::OK, visit, |d| d.home = raw.as_deref());
            self.render(url, StatusCode::OK, head, json).await
        } else if path == "/articles" {
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
            let json = self.data_json(url, StatusCode::OK, visit, |d| {
                d.list = raw.as_deref();
                d.list_query = Some(ListQueryData {
                    q: &q.q,
                    categories: q.categories.iter().map(|c| c.as_str()).collect(),
                    limit: q.limit,
                    newest: !q.q.is_empty() && q.sort == content::Sort::Newest,
                });
            });
            self.render(url, StatusCode::OK, head, json).await
        } else if let Some(slug) = path.strip_prefix("/article/").filter(|s| !s.contains('/')) {
            match self.content.lookup(slug).await? {
                Lookup::Moved(to) => {
                    return Ok((Outcome::Redirect(format!("/article/{to}")), true))
                }
                Lookup::Missing => self.not_found(path, url, visit).await,
                Lookup::Found(article) => {
                    let card = card_path(
                        "article",
                        &article.card.slug,
                        article.card.cover_image.as_deref(),
                    );
                    let canonical = format!("/article/{}", article.card.slug);
                    let head = Head {
                        title: self.title(&article.card.title),
                        description: article.description.clone(),
                        path: path.into(),
                        og_type: "article",
                        image_alt: article.card.title.clone(),
                        json_ld: vec![
                            structured::news_article(
                                &article,
                                self.site_url(),
                                self.renderer.site_name(),
                                card.as_deref().unwrap_or(crate::ssr::SITE_CARD),
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
                    let related = self.content.related(&article).await?;
                    let json = self.data_json(url, StatusCode::OK, visit, |d| {
                        d.article = Some(&article);
                        d.related = Some(&related);
                    });
                    self.render(url, StatusCode::OK, head, json).await
                }
            }
        } else if path == "/magazine" {
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
            let json = self.data_json(url, StatusCode::OK, visit, |d| d.issues = Some(&issues));
            self.render(url, StatusCode::OK, head, json).await
        } else if let Some(slug) = path.strip_prefix("/magazine/").filter(|s| !s.contains('/')) {
            match self.magazines.issue(slug).await.map_err(magazine_failed)? {
                None => self.not_found(path, url, visit).await,
                Some(issue) => {
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
                    let json =
                        self.data_json(url, StatusCode::OK, visit, |d| d.issue = Some(&issue));
                    self.render(url, StatusCode::OK, head, json).await
                }
            }
        } else if path == "/educational-packs" {
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
            let json = self.data_json(url, StatusCode::OK, visit, |d| d.packs = Some(&packs));
            self.render(url, StatusCode::OK, head, json).await
        } else if path == ACCOUNT_PAGE {
            let account = self.reader_account(reader).await;
            let page = public_page(path);
            let head = Head {
                title: self.title(page.map_or("", |p| p.title)),
                description: page.map_or("", |p| p.description).into(),
                path: path.into(),
                noindex: true,
                ..Head::default()
            };
            let json = self.data_json(url, StatusCode::OK, visit, |d| d.account = account.as_ref());
            let (rendered, _) = self.render(url, StatusCode::OK, head, json).await;
            (rendered, false)
        } else if let Some(page) = public_page(path) {
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
            let json = self.data_json(url, StatusCode::OK, visit, |_| {});
            let (rendered, shareable) = self.render(url, StatusCode::OK, head, json).await;
            // A page whose address carries a link's token is nobody else's.
            (rendered, shareable && !Self::is_per_request(path))
        } else if path.starts_with("/dashboard/") {
            // Dashboards are rendered in the browser and never cached.
            let head = Head {
                title: self.title("Dashboard"),
                description: "Staff dashboard".into(),
                path: path.into(),
                noindex: true,
                ..Head::default()
            };
            let json = self.data_json(url, StatusCode::OK, visit, |_| {});
            let html = self.renderer.shell(&head, &json.text);
            (
                RenderedHtml {
                    status: StatusCode::OK,
                    html: Bytes::from(html),
                },
                false,
            )
        } else {
            self.not_found(path, url, visit).await
        };
        Ok((Outcome::Page(page), cacheable))
    }

    /// The cache key: the page as the server understands it, so arbitrary query strings
    /// cannot fill the cache. Borrowed from the request for every page but a searched or
    /// filtered listing, so a cache hit allocates nothing for its key.
    pub(super) fn cache_key<'a>(&self, path: &'a str, query: &str) -> Cow<'a, str> {
        if path == "/articles" && !query.is_empty() {
            // The page echoes the search box as typed, so its key keeps the casing
            // (the listing data underneath is shared through the case-folded listing key).
            let list = ListQuery::from_page_query(query);
            Cow::Owned(format!("/articles?{}|{}", list.cache_key(), list.q))
        } else {
            Cow::Borrowed(path)
        }
    }
}

fn raw_json(bytes: &Bytes) -> Option<Box<RawValue>> {
    let text = String::from_utf8(bytes.to_vec()).ok()?;
    RawValue::from_string(text).ok()
}

#[cfg(test)]
mod tests;
