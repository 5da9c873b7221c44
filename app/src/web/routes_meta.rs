//! The public routes of the spec's route table, with the title and description of each.

/// Static public pages: path, title (before " | SITE_NAME"), meta description.
pub const STATIC_PAGES: [(&str, &str, &str); 11] = [
    ("/magazine", "Magazine", "Our monthly magazine of in-depth analysis, visual storytelling and global perspectives by young writers. Launching this December."),
    ("/educational-packs", "Educational Packs", "Classroom-ready educational packs on key political topics for ages 13-18, in English and Spanish, with a teacher's guide. Launching this January."),
    ("/about", "About Us", "Our mission, our values and the youth team behind a political publication written by and for high-school students."),
    ("/contributors", "Join as a Contributor", "Write, edit, research or design with us: eight contributor roles for high-school students aged 14-18, and how to apply."),
    ("/application", "Contributor Application", "Apply to join our team of student writers, editors, researchers and designers."),
    ("/application/success", "Application Received", "We've got your application. Thank you for applying to contribute."),
    ("/contact-us", "Contact Us", "Get in touch with the team: general questions, educational packs and partnerships. We answer within 24-48 hours."),
    ("/login", "Team Access", "Sign-in for the editorial team."),
    ("/signup", "Join", "Create an account to follow student writing on global politics."),
    ("/key-login", "Access Key Login", "Sign in with your team access key."),
    ("/articles", "Articles", "Student articles on international affairs, climate justice, human rights, youth activism, culture and digital democracy."),
];

/// Pages listed in the sitemap.
pub const INDEXABLE: [&str; 7] = [
    "/",
    "/articles",
    "/magazine",
    "/educational-packs",
    "/about",
    "/contributors",
    "/contact-us",
];

pub const HOME_DESCRIPTION: &str = "A youth-run political publication: high-school students write about global politics, human rights, climate justice and democracy.";

pub fn static_page(path: &str) -> Option<(&'static str, &'static str)> {
    STATIC_PAGES
        .iter()
        .find(|(p, _, _)| *p == path)
        .map(|(_, t, d)| (*t, *d))
}

/// Pages that must not be indexed by search engines.
pub fn is_private(path: &str) -> bool {
    matches!(
        path,
        "/login" | "/key-login" | "/signup" | "/application/success"
    )
}
