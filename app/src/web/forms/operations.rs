//! Which API operation each page's form posts to, and where a success leads.

use std::borrow::Cow;

use poem::http::Method;

/// Where the browser goes after a success.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum After {
    /// Back to the form's page, which says it went through.
    Stay,
    /// To another page.
    To(&'static str),
    /// To the signed-in staff member's dashboard.
    Dashboard,
}

/// The API operation a form posts to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Operation {
    pub method: Method,
    /// The address called (`/v1/articles/a-slug/responses`).
    pub path: Cow<'static, str>,
    /// The contract's template of that address (`/v1/articles/{slug}/responses`), whose body
    /// the form's fields are read into.
    pub template: &'static str,
    pub after: After,
}

fn call(method: Method, path: &'static str, after: After) -> Operation {
    Operation {
        method,
        path: Cow::Borrowed(path),
        template: path,
        after,
    }
}

fn post(path: &'static str, after: After) -> Operation {
    call(Method::POST, path, after)
}

/// An operation on one thing: `template`'s `{…}` filled in with `id` (encoded, so whatever
/// was posted stays inside its path segment).
fn on(method: Method, template: &'static str, id: &str, after: After) -> Operation {
    let id: String = form_urlencoded::byte_serialize(id.as_bytes()).collect();
    let path = match template.split_once('{').zip(template.split_once('}')) {
        Some(((head, _), (_, tail))) => format!("{head}{id}{tail}"),
        None => template.to_string(),
    };
    Operation {
        method,
        path: Cow::Owned(path),
        template,
        after,
    }
}

/// Article pages take the response form and the report buttons.
const ARTICLE_PAGE: &str = "/article/";

/// Pages showing the notify-me form (the dialog's form, posted without JavaScript).
const NOTIFY_PAGES: &[&str] = &["/magazine", "/educational-packs"];

/// The operation behind the form `intent` on `page`, if the page has such a form; `target` is
/// the thing it acts on, for forms that name one (a response to report or delete).
pub(super) fn operation(page: &str, intent: &str, target: &str) -> Option<Operation> {
    if let Some(slug) = page.strip_prefix(ARTICLE_PAGE).filter(|s| !s.is_empty()) {
        return match intent {
            "respond" => Some(on(
                Method::POST,
                "/v1/articles/{slug}/responses",
                slug,
                After::Stay,
            )),
            "report" => Some(on(
                Method::POST,
                "/v1/responses/{id}/report",
                target,
                After::Stay,
            )),
            _ => None,
        };
    }
    Some(match (page, intent) {
        ("/contact-us", _) => post("/v1/contact", After::Stay),
        ("/email/unsubscribe", "resubscribe") => post("/v1/email/resubscribe", After::Stay),
        ("/email/unsubscribe", _) => post("/v1/email/unsubscribe", After::Stay),
        ("/signup", _) => post("/v1/accounts", After::To("/signup/check-email")),
        ("/application", _) => post("/v1/applications", After::To("/application/success")),
        ("/key-login", _) => post("/v1/session", After::Dashboard),
        ("/login", "link") => post("/v1/reader/sign-in-link", After::Stay),
        ("/login", "confirmation") => post("/v1/accounts/confirmation", After::Stay),
        ("/login", _) => post("/v1/reader/session", After::To("/account")),
        ("/forgot-password", _) => post("/v1/reader/password-reset", After::Stay),
        ("/reset-password", _) => post("/v1/reader/password-reset/use", After::To("/account")),
        ("/email/sign-in", _) => post("/v1/reader/sign-in-link/use", After::To("/account")),
        ("/account", "sign-out") => call(Method::DELETE, "/v1/reader/session", After::To("/login")),
        ("/account", "profile") => call(Method::PUT, "/v1/reader/account", After::Stay),
        ("/account", "subscriptions") => {
            call(Method::PUT, "/v1/reader/account/subscriptions", After::Stay)
        }
        ("/account", "password") => call(Method::PUT, "/v1/reader/account/password", After::Stay),
        ("/account", "delete") => call(Method::DELETE, "/v1/reader/account", After::Stay),
        ("/account", "delete-response") => on(
            Method::DELETE,
            "/v1/reader/responses/{id}",
            target,
            After::Stay,
        ),
        (page, "notify") if NOTIFY_PAGES.contains(&page) => post("/v1/notify", After::Stay),
        _ => return None,
    })
}

/// Whether `page` takes posted forms.
pub fn takes_forms(page: &str) -> bool {
    operation(page, "", "").is_some()
        || NOTIFY_PAGES.contains(&page)
        || page == "/account"
        || page.len() > ARTICLE_PAGE.len() && page.starts_with(ARTICLE_PAGE)
}
