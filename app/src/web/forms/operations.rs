//! Which API operation each page's form posts to, and where a success leads.

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
    pub path: &'static str,
    pub after: After,
}

const fn call(method: Method, path: &'static str, after: After) -> Operation {
    Operation {
        method,
        path,
        after,
    }
}

const fn post(path: &'static str, after: After) -> Operation {
    call(Method::POST, path, after)
}

/// Pages showing the notify-me form (the dialog's form, posted without JavaScript).
const NOTIFY_PAGES: &[&str] = &["/magazine", "/educational-packs"];

/// The operation behind the form `intent` on `page`, if the page has such a form.
pub(super) fn operation(page: &str, intent: &str) -> Option<Operation> {
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
        (page, "notify") if NOTIFY_PAGES.contains(&page) => post("/v1/notify", After::Stay),
        _ => return None,
    })
}

/// Whether `page` takes posted forms.
pub fn takes_forms(page: &str) -> bool {
    operation(page, "").is_some() || NOTIFY_PAGES.contains(&page) || page == "/account"
}
