//! The page a path names, parsed once: every public page the server renders is one variant
//! here, loaded and rendered by its own loader (`loaders.rs`).

use identity::readers::{RESET_PAGE, SIGN_IN_LINK_PAGE};
use outreach::{CONFIRM_PAGE, UNSUBSCRIBE_PAGE};

use super::ACCOUNT_PAGE;
use crate::public_pages::{public_page, PublicPage};

/// A page of the site, as its path names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::web) enum Route<'p> {
    /// A link from one of our emails that looks up its token as it is opened (the
    /// confirmation link acts on it; the unsubscribe link only shows the list and a button).
    EmailLanding,
    Home,
    /// The listing, searched or filtered by its query.
    Articles,
    /// An article, by slug (or id).
    Article(&'p str),
    /// One category's pieces, newest first (`/category/human-rights`).
    Category(content::Category),
    /// A contributor's page: who they are and their pieces (`/author/maya-o`).
    Author(&'p str),
    Magazine,
    /// An issue of the magazine, by slug.
    Issue(&'p str),
    Packs,
    /// A reader's account.
    Account,
    /// A page whose content is the web client's own (about, forms, the sign-in pages…).
    Public(&'static PublicPage),
    /// A staff dashboard: rendered in the browser, never cached.
    Dashboard,
    NotFound,
}

/// A path's one segment after `prefix`, if it is nothing but that.
fn segment<'p>(path: &'p str, prefix: &str) -> Option<&'p str> {
    path.strip_prefix(prefix)
        .filter(|s| !s.is_empty() && !s.contains('/'))
}

impl<'p> Route<'p> {
    pub(in crate::web) fn parse(path: &'p str) -> Route<'p> {
        if path == CONFIRM_PAGE || path == UNSUBSCRIBE_PAGE {
            return Route::EmailLanding;
        }
        match path {
            "/" => return Route::Home,
            "/articles" => return Route::Articles,
            "/magazine" => return Route::Magazine,
            "/educational-packs" => return Route::Packs,
            ACCOUNT_PAGE => return Route::Account,
            _ => {}
        }
        if let Some(slug) = segment(path, "/article/") {
            Route::Article(slug)
        } else if let Some(slug) = segment(path, "/category/") {
            content::Category::from_slug(slug).map_or(Route::NotFound, Route::Category)
        } else if let Some(slug) = segment(path, "/author/") {
            Route::Author(slug)
        } else if let Some(slug) = segment(path, "/magazine/") {
            Route::Issue(slug)
        } else if let Some(page) = public_page(path) {
            Route::Public(page)
        } else if path.starts_with("/dashboard/") {
            Route::Dashboard
        } else {
            Route::NotFound
        }
    }

    /// Pages made for one request (they act on the link's token, or carry it): never in the
    /// shared cache.
    /// Compared as strings, without parsing the path: every page request asks.
    pub(in crate::web) fn is_per_request(path: &str) -> bool {
        [
            CONFIRM_PAGE,
            UNSUBSCRIBE_PAGE,
            SIGN_IN_LINK_PAGE,
            RESET_PAGE,
            ACCOUNT_PAGE,
        ]
        .contains(&path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_path_names_one_page() {
        assert_eq!(Route::parse("/"), Route::Home);
        assert_eq!(Route::parse("/articles"), Route::Articles);
        assert_eq!(
            Route::parse("/article/the-veto"),
            Route::Article("the-veto")
        );
        assert_eq!(Route::parse("/article/the-veto/more"), Route::NotFound);
        assert_eq!(Route::parse("/article/"), Route::NotFound);
        assert_eq!(
            Route::parse("/category/human-rights"),
            Route::Category(content::Category::HumanRights)
        );
        assert_eq!(Route::parse("/category/Human%20Rights"), Route::NotFound);
        assert_eq!(Route::parse("/category/"), Route::NotFound);
        assert_eq!(Route::parse("/category/human-rights/x"), Route::NotFound);
        assert_eq!(Route::parse("/author/maya-o"), Route::Author("maya-o"));
        assert_eq!(Route::parse("/author/"), Route::NotFound);
        assert_eq!(Route::parse("/author/maya-o/feed"), Route::NotFound);
        assert_eq!(Route::parse("/magazine"), Route::Magazine);
        assert_eq!(
            Route::parse("/magazine/december-2026"),
            Route::Issue("december-2026")
        );
        assert_eq!(Route::parse("/educational-packs"), Route::Packs);
        assert_eq!(Route::parse(ACCOUNT_PAGE), Route::Account);
        assert_eq!(Route::parse(CONFIRM_PAGE), Route::EmailLanding);
        assert_eq!(Route::parse(UNSUBSCRIBE_PAGE), Route::EmailLanding);
        assert!(matches!(Route::parse("/about"), Route::Public(p) if p.path == "/about"));
        assert_eq!(Route::parse("/dashboard/admin"), Route::Dashboard);
        assert_eq!(Route::parse("/nope"), Route::NotFound);
    }

    #[test]
    fn pages_made_for_one_request() {
        for path in [
            CONFIRM_PAGE,
            UNSUBSCRIBE_PAGE,
            SIGN_IN_LINK_PAGE,
            RESET_PAGE,
            ACCOUNT_PAGE,
        ] {
            assert!(Route::is_per_request(path), "{path}");
        }
        for path in [
            "/",
            "/articles",
            "/article/x",
            "/category/human-rights",
            "/author/maya-o",
            "/about",
            "/magazine",
        ] {
            assert!(!Route::is_per_request(path), "{path}");
        }
    }
}
