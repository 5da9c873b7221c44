//! The data a page is rendered from (`PageData`), as the sidecar and the hydrating browser
//! read it: one variant of `Shown` per kind of page.

use content::{Article, Related};
use media::{MagazineIssue, Packs};
use outreach::responses::{ArticleResponses, MyResponse};
use outreach::Landing;
use serde::Serialize;
use serde_json::value::RawValue;

#[derive(Serialize)]
pub(super) struct Site<'a> {
    pub(super) name: &'a str,
    pub(super) url: &'a str,
}

#[derive(Serialize)]
pub(super) struct ListQueryData<'a> {
    pub(super) q: &'a str,
    pub(super) categories: Vec<&'static str>,
    pub(super) limit: i64,
    /// A search the reader asked to see newest first (`sort=newest`), not best match first.
    pub(super) newest: bool,
}

/// An article as its page carries it for hydration: everything but its body, so that the
/// page carries the body once. The markdown source a reader's page never shows; the HTML is
/// in the page's markup, where the app puts it (`PageRequest::body`) and the browser reads it
/// back before hydrating. `GET /v1/articles/{slug_or_id}` still answers the article whole.
#[derive(Serialize)]
pub(super) struct ArticleOnPage<'a> {
    #[serde(flatten)]
    pub(super) card: &'a content::ArticleCard,
    #[serde(skip)]
    pub(super) content_html: &'a str,
    pub(super) description: &'a str,
}

impl<'a> From<&'a Article> for ArticleOnPage<'a> {
    fn from(article: &'a Article) -> Self {
        ArticleOnPage {
            card: &article.card,
            content_html: &article.content_html,
            description: &article.description,
        }
    }
}

/// The data a page is rendered from, shared by the sidecar and the hydrating browser: the
/// frame every page has, and what this kind of page shows.
#[derive(Serialize)]
pub(super) struct PageData<'a> {
    pub(super) site: Site<'a>,
    pub(super) path: &'a str,
    pub(super) status: u16,
    #[serde(flatten)]
    pub(super) shown: Shown<'a>,
    /// On a page a form was posted to without JavaScript: what the server answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) form: Option<&'a RawValue>,
    /// The request came with a reader's session cookie: the header offers "Account", also
    /// without JavaScript.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(super) reader: bool,
}

/// What a page shows from the server, by its kind (`"kind"` in the JSON): one variant per
/// kind of page, each with the fields it has and no others.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(super) enum Shown<'a> {
    /// A page whose content is the web client's own (about, forms, sign-in, dashboards).
    Plain,
    /// "/": the featured articles (absent when they could not be read).
    Home {
        #[serde(skip_serializing_if = "Option::is_none")]
        home: Option<&'a RawValue>,
    },
    /// A page that is not there: the newest articles, offered instead.
    NotFound {
        #[serde(skip_serializing_if = "Option::is_none")]
        newest: Option<&'a RawValue>,
    },
    /// "/articles": the first results of the query, as the server parsed it.
    Articles {
        #[serde(skip_serializing_if = "Option::is_none")]
        list: Option<&'a RawValue>,
        list_query: ListQueryData<'a>,
    },
    /// "/category/{slug}": the category's first `list_query.limit` pieces, newest first.
    Category {
        #[serde(skip_serializing_if = "Option::is_none")]
        list: Option<&'a RawValue>,
        list_query: ListQueryData<'a>,
    },
    /// "/author/{slug}": who the contributor is, and their first `list_query.limit` pieces.
    Author {
        author: &'a content::Contributor,
        #[serde(skip_serializing_if = "Option::is_none")]
        list: Option<&'a RawValue>,
        list_query: ListQueryData<'a>,
    },
    /// "/article/{slug}": the article, what to read next, its author's box and its readers'
    /// approved responses (absent when they could not be read).
    Article {
        article: ArticleOnPage<'a>,
        related: &'a Related,
        #[serde(skip_serializing_if = "Option::is_none")]
        responses: Option<&'a ArticleResponses>,
    },
    /// The pages links in our emails lead to: how following the link went.
    Landing { landing: &'a Landing },
    /// "/magazine": the published issues, the latest first (empty before the first).
    Magazine { issues: &'a [MagazineIssue] },
    /// "/magazine/{slug}" when the issue is published.
    Issue { issue: &'a MagazineIssue },
    /// "/educational-packs": the packs, with their files once launched.
    Packs { packs: &'a Packs },
    /// "/account": the signed-in reader's account (as `GET /v1/reader/account`); absent
    /// when no reader is signed in.
    Account {
        #[serde(skip_serializing_if = "Option::is_none")]
        account: Option<&'a serde_json::Value>,
        /// Their responses to articles, newest first (as `GET /v1/reader/responses`).
        #[serde(skip_serializing_if = "Option::is_none")]
        responses: Option<&'a [MyResponse]>,
    },
}
