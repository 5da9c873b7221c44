//! The site's news feed: the newest articles as an Atom 1.0 document, for feed readers and
//! the integrators who follow the publication without scraping its pages.

use atom_syndication::{Entry, Feed, Link, Person, Text};
use chrono::{DateTime, FixedOffset, Utc};
use content::{ArticleList, Category};

/// Where the feed of every article is served.
pub const FEED_PATH: &str = "/feed.xml";
pub const FEED_TYPE: &str = "application/atom+xml; charset=utf-8";

/// Where the feed of one category is served: `/feed/human-rights.xml`.
pub fn category_feed_path(category: Category) -> String {
    format!("/feed/{}.xml", category.slug())
}

/// Where the feed of one contributor is served: `/feed/author/maya-o.xml`.
pub fn author_feed_path(slug: &str) -> String {
    format!("/feed/author/{slug}.xml")
}

/// What a feed is of: its title, where it is, and the page that lists the same articles.
pub struct Scope {
    pub title: String,
    pub path: String,
    pub page: String,
}

impl Scope {
    pub fn of(site_name: &str, category: Option<Category>) -> Scope {
        match category {
            None => Scope {
                title: site_name.to_string(),
                path: FEED_PATH.to_string(),
                page: "/".to_string(),
            },
            Some(c) => Scope {
                title: format!("{site_name}: {}", c.as_str()),
                path: category_feed_path(c),
                page: c.page_path(),
            },
        }
    }

    /// The feed of the contributor `name` whose page is `/author/{slug}`.
    pub fn of_author(site_name: &str, name: &str, slug: &str) -> Scope {
        Scope {
            title: format!("{site_name}: {name}"),
            path: author_feed_path(slug),
            page: format!("/author/{slug}"),
        }
    }
}

fn link(href: String, rel: &str, mime: Option<&str>) -> Link {
    Link {
        href,
        rel: rel.into(),
        mime_type: mime.map(Into::into),
        ..Link::default()
    }
}

fn at(t: DateTime<Utc>) -> DateTime<FixedOffset> {
    t.fixed_offset()
}

/// The feed document. Its bytes depend only on the articles (the feed's own `updated` is the
/// newest article's), so a rebuild with nothing new keeps its validators.
pub fn atom(site_url: &str, scope: &Scope, description: &str, list: &ArticleList) -> String {
    let entries: Vec<Entry> = list
        .items
        .iter()
        .map(|a| Entry {
            // The id never changes, even when a rename moves the article to a new slug.
            id: format!("{site_url}/article/{}", a.id),
            title: Text::plain(a.title.clone()),
            updated: at(a.updated_at),
            published: Some(at(a.created_at)),
            authors: a
                .author_name
                .iter()
                .map(|name| Person {
                    name: name.clone(),
                    uri: a
                        .author_slug
                        .as_ref()
                        .map(|slug| format!("{site_url}/author/{slug}")),
                    ..Person::default()
                })
                .collect(),
            categories: vec![atom_syndication::Category {
                term: a.category.as_str().into(),
                ..atom_syndication::Category::default()
            }],
            links: vec![link(
                format!("{site_url}/article/{}", a.slug),
                "alternate",
                Some("text/html"),
            )],
            summary: Some(Text::plain(match &a.subtitle {
                Some(s) if !s.is_empty() => s.clone(),
                _ => a.excerpt.clone(),
            })),
            ..Entry::default()
        })
        .collect();
    let updated = list
        .items
        .iter()
        .map(|a| a.updated_at)
        .max()
        .unwrap_or(DateTime::<Utc>::UNIX_EPOCH);
    let feed = Feed {
        id: format!("{site_url}{}", scope.path),
        title: Text::plain(scope.title.clone()),
        subtitle: Some(Text::plain(description)),
        updated: at(updated),
        links: vec![
            link(format!("{site_url}{}", scope.path), "self", Some(FEED_TYPE)),
            link(
                format!("{site_url}{}", scope.page),
                "alternate",
                Some("text/html"),
            ),
        ],
        entries,
        ..Feed::default()
    };
    feed.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use content::{ArticleCard, Category as Topic};

    fn card(title: &str, slug: &str) -> ArticleCard {
        let t = DateTime::parse_from_rfc3339("2026-03-04T05:06:07Z")
            .map(|t| t.with_timezone(&Utc))
            .unwrap_or_default();
        ArticleCard {
            id: "id-1".into(),
            slug: slug.into(),
            title: title.into(),
            subtitle: None,
            excerpt: "Tom & Jerry <script>".into(),
            category: Topic::HumanRights,
            cover_image: None,
            featured: false,
            author_id: None,
            author_name: Some("Ana".into()),
            author_slug: Some("ana".into()),
            created_at: t,
            updated_at: t,
            read_time: "1 min".into(),
            highlight: None,
        }
    }

    #[test]
    fn entries_escape_text_and_read_back() {
        let list = ArticleList {
            items: vec![card("Rights <b>& wrongs</b>", "rights")],
            total: 1,
            total_exact: true,
            published_total: 1,
            suggestion: None,
        };
        let scope = Scope::of("The Agora", None);
        let xml = atom("https://agora.example", &scope, "Youth & politics", &list);
        assert!(!xml.contains("<script>"), "{xml}");
        assert!(!xml.contains("<b>"), "{xml}");
        let back: Feed = xml.parse().unwrap();
        assert_eq!(back.title.value, "The Agora");
        assert_eq!(back.entries.len(), 1);
        let e = &back.entries[0];
        assert_eq!(e.title.value, "Rights <b>& wrongs</b>");
        assert_eq!(e.links[0].href, "https://agora.example/article/rights");
        assert_eq!(e.id, "https://agora.example/article/id-1");
        assert_eq!(e.authors[0].name, "Ana");
        assert_eq!(
            e.authors[0].uri.as_deref(),
            Some("https://agora.example/author/ana")
        );
        assert_eq!(
            e.summary.as_ref().map(|s| s.value.as_str()),
            Some("Tom & Jerry <script>")
        );
        assert_eq!(e.categories[0].term, "Human Rights");
        assert_eq!(back.updated.to_rfc3339(), "2026-03-04T05:06:07+00:00");
    }

    #[test]
    fn an_empty_feed_is_still_valid_and_stable() {
        let list = ArticleList {
            items: vec![],
            total: 0,
            total_exact: true,
            published_total: 0,
            suggestion: None,
        };
        let scope = Scope::of("The Agora", Some(Topic::CulturePolitics));
        assert_eq!(scope.path, "/feed/culture-politics.xml");
        assert_eq!(scope.page, "/category/culture-politics");
        let a = atom("https://agora.example", &scope, "d", &list);
        let b = atom("https://agora.example", &scope, "d", &list);
        assert_eq!(a, b);
        let feed = a.parse::<Feed>().unwrap();
        assert_eq!(feed.title.value, "The Agora: Culture & Politics");
        assert_eq!(feed.id, "https://agora.example/feed/culture-politics.xml");
    }
}
