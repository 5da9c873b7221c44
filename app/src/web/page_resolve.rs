//! What a page is: the route resolved, its data loaded from `content`, its head tags, and the
//! markup rendered through the sidecar (or the client-rendered shell when that fails).

use std::borrow::Cow;
use std::sync::Arc;

use bytes::Bytes;
use content::{ContentService, ListQuery};
use media::{MagazineService, PackService};
use outreach::responses::{MyResponse, Responses};
use outreach::{OutreachService, Readers, CONFIRM_PAGE};
use poem::http::StatusCode;
use serde_json::value::RawValue;

use crate::ssr::{Head, PageRequest, Renderer};
use data::{ArticleOnPage, ListQueryData, PageData, Shown, Site};

/// A page as rendered: what `resolve` produces.
#[derive(Clone)]
pub(super) struct RenderedHtml {
    pub status: StatusCode,
    pub html: Bytes,
}

/// What a request brings besides its address.
#[derive(Clone, Copy, Default)]
pub(super) struct Visit<'a> {
    /// What the server answered a form posted to this page without JavaScript.
    pub form: Option<&'a RawValue>,
    /// The request carries a reader's session cookie.
    pub reader: bool,
}

/// A page's data as JSON, whether it shows what the server answered a form posted without
/// JavaScript, and the article's body the markup carries outside the data.
struct PageJson<'a> {
    text: String,
    answers_form: bool,
    body: Option<&'a str>,
}

pub(super) enum Outcome {
    Page(RenderedHtml),
    Redirect(String),
}

/// Resolves paths to rendered pages.
pub(super) struct PageResolver {
    content: Arc<ContentService>,
    identity: Arc<identity::IdentityService>,
    outreach: Arc<OutreachService>,
    readers: Arc<Readers>,
    magazines: Arc<MagazineService>,
    packs: Arc<PackService>,
    responses: Arc<Responses>,
    renderer: Arc<Renderer>,
}

/// The account page's path.
pub(super) const ACCOUNT_PAGE: &str = "/account";

/// A page's data failed to load.
fn magazine_failed(e: media::MagazineError) -> content::ContentError {
    content::ContentError::Unexpected(Box::new(e))
}

impl PageResolver {
    pub(super) fn new(services: &crate::state::Services, renderer: Arc<Renderer>) -> Self {
        Self {
            content: services.content.clone(),
            identity: services.identity.clone(),
            outreach: services.outreach.clone(),
            readers: services.readers.clone(),
            magazines: services.magazines.clone(),
            packs: services.packs.clone(),
            responses: services.responses.clone(),
            renderer,
        }
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
        let json = self.data_json(url, status, visit, Shown::Landing { landing: &landing });
        let (page, _) = self.render(url, status, head, json).await;
        (page, false)
    }

    fn data_json<'a>(
        &'a self,
        path: &'a str,
        status: StatusCode,
        visit: Visit<'a>,
        shown: Shown<'a>,
    ) -> PageJson<'a> {
        let body = match &shown {
            Shown::Article { article, .. } => Some(article.content_html),
            _ => None,
        };
        let data = PageData {
            site: Site {
                name: self.renderer.site_name(),
                url: self.renderer.site_url(),
            },
            path,
            status: status.as_u16(),
            shown,
            form: visit.form,
            reader: visit.reader,
        };
        PageJson {
            text: serde_json::to_string(&data).unwrap_or_else(|_| "{}".to_string()),
            answers_form: visit.form.is_some(),
            body,
        }
    }

    async fn render(
        &self,
        url: &str,
        status: StatusCode,
        head: Head,
        data: PageJson<'_>,
    ) -> (RenderedHtml, bool) {
        let page = self
            .renderer
            .render(&PageRequest {
                url,
                head,
                data_json: data.text,
                answers_form: data.answers_form,
                body: data.body,
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

    /// Whether `token` is a live reader session.
    pub(super) async fn is_reader(&self, token: &str) -> bool {
        match self.identity.reader_of(token).await {
            Ok(reader) => reader.is_some(),
            Err(e) => {
                tracing::error!(error = ?e, "reader session check failed");
                false
            }
        }
    }

    /// The signed-in reader's account as the API shows it, for the session `token`.
    async fn reader_account(
        &self,
        token: Option<&str>,
    ) -> Option<(serde_json::Value, Vec<MyResponse>)> {
        use poem_openapi::types::ToJSON;
        let id = match self.identity.reader_of(token?).await {
            Ok(reader) => reader?.account,
            Err(e) => {
                tracing::error!(error = ?e, "reader session check failed");
                return None;
            }
        };
        let responses = match self.responses.mine(&id).await {
            Ok(mine) => mine,
            Err(e) => {
                tracing::error!(error = ?e, "reading the reader's responses failed");
                Vec::new()
            }
        };
        match self.readers.account(&id).await {
            Ok(account) => account.to_json().map(|a| (a, responses)),
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
        let shown = Shown::NotFound {
            newest: newest.as_deref(),
        };
        let json = self.data_json(url, StatusCode::NOT_FOUND, visit, shown);
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
        let (page, cacheable) = match Route::parse(path) {
            Route::EmailLanding => self.email_landing(path, url, query, visit).await,
            Route::Home => self.home(url, visit).await?,
            Route::Articles => self.articles(url, query, visit).await?,
            Route::Category(category) => self.category(category, url, query, visit).await?,
            Route::Author(slug) => self.author(path, slug, url, query, visit).await?,
            Route::Article(slug) => match self.article(path, slug, url, visit).await? {
                Ok(page) => page,
                Err(moved_to) => return Ok((Outcome::Redirect(moved_to), true)),
            },
            Route::Magazine => self.magazine(path, url, visit).await?,
            Route::Issue(slug) => self.issue(path, slug, url, visit).await?,
            Route::Packs => self.packs_page(path, url, visit).await?,
            Route::Account => self.account(path, url, reader, visit).await,
            Route::Public(page) => self.public(page, path, url, visit).await,
            Route::Dashboard => self.dashboard(path, url, visit),
            Route::NotFound => self.not_found(path, url, visit).await,
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
        } else if (path.starts_with("/category/") || path.starts_with("/author/"))
            && !query.is_empty()
        {
            // Only the length of the list ("Load More" without JavaScript) changes the page:
            // at the first page's length (a shared link's `?utm_…`) it is the plain page.
            match ListQuery::from_page_query(query).limit {
                content::PAGE_STEP => Cow::Borrowed(path),
                limit => Cow::Owned(format!("{path}?limit={limit}")),
            }
        } else {
            Cow::Borrowed(path)
        }
    }
}

fn raw_json(bytes: &Bytes) -> Option<Box<RawValue>> {
    let text = String::from_utf8(bytes.to_vec()).ok()?;
    RawValue::from_string(text).ok()
}

mod data;
mod loaders;
mod route;

pub(super) use route::Route;

#[cfg(test)]
mod tests;
