//! The public pages of the spec's route table, once: path, title, description, and whether
//! search engines may index the page. The server's head tags, sitemap, route labels and page
//! counting read this table; the web client gets the titles from a file generated from it
//! (`web-client/src/lib/pages.gen.ts`, drift-checked by a test here), and each category's
//! page, feed and line from `web-client/src/lib/categories.gen.ts`, made the same way.

/// A public page with a fixed path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PublicPage {
    pub path: &'static str,
    /// Before " | SITE_NAME" (the home page's comes after the site name).
    pub title: &'static str,
    /// The meta description.
    pub description: &'static str,
    /// Listed in the sitemap and open to search engines.
    pub indexable: bool,
}

const fn page(
    path: &'static str,
    title: &'static str,
    description: &'static str,
    indexable: bool,
) -> PublicPage {
    PublicPage {
        path,
        title,
        description,
        indexable,
    }
}

pub const PUBLIC_PAGES: [PublicPage; 17] = [
    page("/", "Youth voices on global politics", "A youth-run political publication: high-school students write about global politics, human rights, climate justice and democracy.", true),
    page("/articles", "Articles", "Student articles on international affairs, climate justice, human rights, youth activism, culture and digital democracy.", true),
    page("/magazine", "Magazine", "Our monthly magazine of in-depth analysis, visual storytelling and global perspectives by young writers. Launching this December.", true),
    page("/educational-packs", "Educational Packs", "Classroom-ready educational packs on key political topics for ages 13-18, in English and Spanish, with a teacher's guide. Launching this January.", true),
    page("/about", "About Us", "Our mission, our values and the youth team behind a political publication written by and for high-school students.", true),
    page("/contributors", "Join as a Contributor", "Write, edit, research or design with us: eight contributor roles for high-school students aged 14-18, and how to apply.", true),
    page("/application", "Contributor Application", "Apply to join our team of student writers, editors, researchers and designers.", true),
    page("/application/success", "Application Received", "We've got your application. Thank you for applying to contribute.", false),
    page("/contact-us", "Contact Us", "Get in touch with the team: general questions, educational packs and partnerships. We answer within 24-48 hours.", true),
    page("/login", "Sign in", "Sign in to your reader account, or with a team access key.", false),
    page("/signup", "Join", "Create an account to follow student writing on global politics.", false),
    page("/signup/check-email", "Check your email", "Follow the link we emailed you to confirm your account.", false),
    page("/key-login", "Access Key Login", "Sign in with your team access key.", false),
    page("/forgot-password", "Forgot your password?", "Get an emailed link to choose a new password.", false),
    page("/account", "My account", "Your profile, interests and email subscriptions.", false),
    // Where emailed links lead (their token is in the address: never cached, never indexed).
    page(identity::readers::SIGN_IN_LINK_PAGE, "Sign in with your link", "Sign in with the link we emailed you.", false),
    page(identity::readers::RESET_PAGE, "Choose a new password", "Choose a new password for your account.", false),
];

/// The public page at `path`, if it is one of the table's.
pub fn public_page(path: &str) -> Option<&'static PublicPage> {
    PUBLIC_PAGES.iter().find(|p| p.path == path)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GENERATED: &str = "web-client/src/lib/pages.gen.ts";

    fn typescript() -> String {
        let mut out = String::from(
            "// Generated from the route table (app/src/public_pages.rs): do not edit;\n\
             // regenerate with `UPDATE_SAMPLES=1 cargo test -p agora --lib route_table`.\n\n\
             /** Each public page's title, as the server writes it before \" | site name\" (the\n \
             * home page's comes after it). */\n\
             export const PAGE_TITLES = {\n",
        );
        for p in PUBLIC_PAGES {
            out.push_str(&format!(
                "  {}: {},\n",
                serde_json::to_string(p.path).unwrap_or_default(),
                serde_json::to_string(p.title).unwrap_or_default()
            ));
        }
        out.push_str("} as const;\n\nexport type PublicPath = keyof typeof PAGE_TITLES;\n");
        out
    }

    const CATEGORIES_GENERATED: &str = "web-client/src/lib/categories.gen.ts";

    fn categories_typescript() -> String {
        let json = |s: &str| serde_json::to_string(s).unwrap_or_default();
        let mut out = String::from(
            "// Generated from the categories (modules/content/src/model.rs): do not edit;\n\
             // regenerate with `UPDATE_SAMPLES=1 cargo test -p agora --lib route_table`.\n\n\
             /** Each category's page, its feed and its one line, by name. */\n\
             export const CATEGORY_PAGES = {\n",
        );
        for c in content::Category::ALL {
            // On one line when that fits in 80 characters, as the client is written.
            let description = format!("    description: {},", json(c.description()));
            let description = if description.chars().count() <= 80 {
                description
            } else {
                format!("    description:\n      {},", json(c.description()))
            };
            out.push_str(&format!(
                "  {}: {{\n    slug: {},\n    path: {},\n    feed: {},\n{description}\n  }},\n",
                json(c.as_str()),
                json(c.slug()),
                json(&c.page_path()),
                json(&crate::web::feed::category_feed_path(c)),
            ));
        }
        out.push_str("} as const;\n");
        out
    }

    /// `file` holds `expected` (and is made to, with `UPDATE_SAMPLES` set).
    fn generated(file: &str, expected: &str) {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(file);
        if std::env::var_os("UPDATE_SAMPLES").is_some() {
            std::fs::write(&path, expected).unwrap_or_default();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == expected,
            "{file} is not what the server says: regenerate it with \
             `UPDATE_SAMPLES=1 cargo test -p agora --lib route_table`"
        );
    }

    #[test]
    fn route_table_is_what_the_web_client_was_generated_from() {
        generated(GENERATED, &typescript());
        generated(CATEGORIES_GENERATED, &categories_typescript());
    }

    #[test]
    fn every_path_is_listed_once() {
        let mut paths: Vec<&str> = PUBLIC_PAGES.iter().map(|p| p.path).collect();
        paths.sort_unstable();
        paths.dedup();
        assert_eq!(paths.len(), PUBLIC_PAGES.len());
        assert!(public_page("/about").is_some_and(|p| p.title == "About Us"));
        assert!(public_page("/nope").is_none());
    }
}
