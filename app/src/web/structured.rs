//! Structured data (schema.org, as JSON-LD) for search engines and link previews: the
//! publisher and the site's search on the home page, a `NewsArticle` on every article, and
//! where each page sits (`BreadcrumbList`).

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
pub fn news_article(article: &Article, site_url: &str, site_name: &str, card: &str) -> Value {
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
    } else {
        data["author"] = json!({"@type": "Organization", "name": site_name});
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
