//! Structured data (schema.org, as JSON-LD) for search engines and link previews: the
//! publisher and the site's search on the home page, a `NewsArticle` on every article, and
//! where each page sits (`BreadcrumbList`), a category's page as a `CollectionPage` of the
//! pieces it shows, and a contributor's as a `ProfilePage` about a `Person`.

use content::Article;
use serde_json::{json, Value};

use crate::ssr::{absolute, SITE_CARD};

/// The publication, as the publisher of every article.
pub fn organization(site_url: &str, site_name: &str) -> Value {
    json!({
        "@context": "https://schema.org",
        "@type": "Organization",
        "name": site_name,
        "url": format!("{site_url}/"),
        "logo": {
            "@type": "ImageObject",
            "url": absolute(site_url, SITE_CARD),
            "width": media::CARD_WIDTH,
            "height": media::CARD_HEIGHT,
        },
    })
}

/// The site, with its search (`/articles?q=…`) for a search box in results.
pub fn website(site_url: &str, site_name: &str) -> Value {
    json!({
        "@context": "https://schema.org",
        "@type": "WebSite",
        "name": site_name,
        "url": format!("{site_url}/"),
        "potentialAction": {
            "@type": "SearchAction",
            "target": {
                "@type": "EntryPoint",
                "urlTemplate": format!("{site_url}/articles?q={{search_term_string}}"),
            },
            "query-input": "required name=search_term_string",
        },
    })
}

/// An article: headline, picture, dates, author and publisher.
/// An article's `NewsArticle`, with `commentCount` (its approved responses) when known. What
/// readers wrote is never in it: only how many.
pub fn news_article(
    article: &Article,
    site_url: &str,
    site_name: &str,
    card: &str,
    responses: Option<usize>,
) -> Value {
    let card_ = &article.card;
    // Search engines show at most 110 characters of a headline.
    let headline: String = card_.title.chars().take(110).collect();
    let mut data = json!({
        "@context": "https://schema.org",
        "@type": "NewsArticle",
        "headline": headline,
        "description": article.description,
        "image": [absolute(site_url, card)],
        "datePublished": card_.created_at.to_rfc3339(),
        "dateModified": card_.updated_at.to_rfc3339(),
        "articleSection": card_.category.as_str(),
        "mainEntityOfPage": absolute(site_url, &format!("/article/{}", card_.slug)),
        "publisher": organization(site_url, site_name),
    });
    if let Some(name) = &card_.author_name {
        data["author"] = json!({"@type": "Person", "name": name});
        if let Some(slug) = &card_.author_slug {
            data["author"]["url"] = json!(absolute(site_url, &format!("/author/{slug}")));
        }
    } else {
        data["author"] = json!({"@type": "Organization", "name": site_name});
    }
    if let Some(count) = responses {
        data["commentCount"] = json!(count);
    }
    if let Some(publisher) = data.get_mut("publisher").and_then(Value::as_object_mut) {
        publisher.remove("@context");
    }
    data
}

/// Where a page sits: the home page, then each step (name, site-relative path).
pub fn breadcrumbs(site_url: &str, steps: &[(&str, &str)]) -> Value {
    let items: Vec<Value> = std::iter::once(("Home", "/"))
        .chain(steps.iter().copied())
        .enumerate()
        .map(|(i, (name, path))| {
            json!({
                "@type": "ListItem",
                "position": i + 1,
                "name": name,
                "item": absolute(site_url, path),
            })
        })
        .collect();
    json!({
        "@context": "https://schema.org",
        "@type": "BreadcrumbList",
        "itemListElement": items,
    })
}

/// A piece a listing shows, as its JSON carries it.
#[derive(serde::Deserialize)]
pub struct Listed {
    slug: String,
    title: String,
}

/// The pieces in a listing's JSON (none when it cannot be read).
pub fn listed(list_json: &[u8]) -> Vec<Listed> {
    #[derive(serde::Deserialize)]
    struct List {
        items: Vec<Listed>,
    }
    serde_json::from_slice::<List>(list_json)
        .map(|l| l.items)
        .unwrap_or_default()
}

/// The pieces a page shows, in order, as an `ItemList`.
fn item_list(site_url: &str, pieces: &[Listed]) -> Value {
    let items: Vec<Value> = pieces
        .iter()
        .enumerate()
        .map(|(i, piece)| {
            json!({
                "@type": "ListItem",
                "position": i + 1,
                "name": piece.title,
                "url": absolute(site_url, &format!("/article/{}", piece.slug)),
            })
        })
        .collect();
    json!({
        "@type": "ItemList",
        "numberOfItems": items.len(),
        "itemListElement": items,
    })
}

/// A page that collects pieces (a category's): its name, line and the pieces it shows, in
/// order.
pub fn collection_page(
    site_url: &str,
    name: &str,
    description: &str,
    path: &str,
    pieces: &[Listed],
) -> Value {
    json!({
        "@context": "https://schema.org",
        "@type": "CollectionPage",
        "name": name,
        "description": description,
        "url": absolute(site_url, path),
        "mainEntity": item_list(site_url, pieces),
    })
}

/// A contributor, as their page names them.
pub struct Contributor<'a> {
    pub name: &'a str,
    pub path: &'a str,
    /// Their role on the team, as readers know it.
    pub role: &'a str,
    pub bio: &'a str,
    pub photo: Option<&'a str>,
}

/// A contributor's page: a `Person` on the team of the publication, and the pieces the page
/// shows. No address, no link elsewhere: most contributors are minors.
pub fn profile_page(
    site_url: &str,
    site_name: &str,
    who: Contributor<'_>,
    pieces: &[Listed],
) -> Value {
    let url = absolute(site_url, who.path);
    let mut person = json!({
        "@type": "Person",
        "name": who.name,
        "url": url,
        "jobTitle": who.role,
        "worksFor": {"@type": "Organization", "name": site_name, "url": format!("{site_url}/")},
    });
    if !who.bio.is_empty() {
        person["description"] = json!(who.bio);
    }
    if let Some(photo) = who.photo {
        person["image"] = json!(absolute(site_url, photo));
    }
    json!({
        "@context": "https://schema.org",
        "@type": "ProfilePage",
        "url": url,
        "mainEntity": person,
        "hasPart": item_list(site_url, pieces),
    })
}
