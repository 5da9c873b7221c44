//! Head tags: title, description, canonical URL, Open Graph and Twitter cards (always with a
//! raster picture: the page's social card, or the site's), and structured data (JSON-LD).

use std::fmt::Write;

#[derive(Debug, Clone, Default)]
pub struct Head {
    pub title: String,
    pub description: String,
    /// Site-relative path of the canonical URL.
    pub path: String,
    /// `article` for articles, `website` otherwise.
    pub og_type: &'static str,
    /// The page's social card (absolute or site-relative URL of a 1200×630 JPEG); the site's
    /// card when there is none.
    pub image: Option<String>,
    /// What the card shows, for people who cannot see it (the site's name when empty).
    pub image_alt: String,
    /// Structured data about the page (schema.org objects), one script each.
    pub json_ld: Vec<serde_json::Value>,
    pub published_time: Option<String>,
    pub noindex: bool,
    /// Feeds of this page besides the site's own (every page links that one): what each is
    /// of (shown after the site's name) and its site-relative path.
    pub feeds: Vec<(String, String)>,
}

pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The site's own social card, for pages without a picture.
pub const SITE_CARD: &str = "/social/site.jpg";

/// JSON inside a `<script>`: nothing in it may close the element or open a comment.
fn script_json(value: &serde_json::Value) -> String {
    value
        .to_string()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

pub fn absolute(site_url: &str, url: &str) -> String {
    if url.starts_with("http://") || url.starts_with("https://") {
        url.to_string()
    } else if url.starts_with('/') {
        format!("{site_url}{url}")
    } else {
        format!("{site_url}/{url}")
    }
}

impl Head {
    pub fn to_html(&self, site_url: &str, site_name: &str) -> String {
        let title = escape_html(&self.title);
        let description = escape_html(&self.description);
        let url = escape_html(&absolute(site_url, &self.path));
        let og_type = if self.og_type.is_empty() {
            "website"
        } else {
            self.og_type
        };
        let mut h = String::with_capacity(1024);
        // Writing to a String cannot fail.
        let _ = write!(
            h,
            "<title>{title}</title>\
             <meta name=\"description\" content=\"{description}\">\
             <link rel=\"canonical\" href=\"{url}\">\
             <link rel=\"alternate\" type=\"application/atom+xml\" title=\"{site}\" href=\"{feed}\">\
             <meta property=\"og:site_name\" content=\"{site}\">\
             <meta property=\"og:title\" content=\"{title}\">\
             <meta property=\"og:description\" content=\"{description}\">\
             <meta property=\"og:type\" content=\"{og_type}\">\
             <meta property=\"og:url\" content=\"{url}\">",
            site = escape_html(site_name),
            feed = escape_html(&absolute(site_url, "/feed.xml")),
        );
        for (of, path) in &self.feeds {
            let _ = write!(
                h,
                "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"{}: {}\" href=\"{}\">",
                escape_html(site_name),
                escape_html(of),
                escape_html(&absolute(site_url, path)),
            );
        }
        let _ = write!(
            h,
            "<meta name=\"twitter:card\" content=\"summary_large_image\">\
             <meta name=\"twitter:title\" content=\"{title}\">\
             <meta name=\"twitter:description\" content=\"{description}\">"
        );
        let image = escape_html(&absolute(
            site_url,
            self.image.as_deref().unwrap_or(SITE_CARD),
        ));
        let alt = escape_html(if self.image_alt.is_empty() {
            site_name
        } else {
            &self.image_alt
        });
        let _ = write!(
            h,
            "<meta property=\"og:image\" content=\"{image}\">\
             <meta property=\"og:image:type\" content=\"image/jpeg\">\
             <meta property=\"og:image:width\" content=\"{w}\">\
             <meta property=\"og:image:height\" content=\"{h_}\">\
             <meta property=\"og:image:alt\" content=\"{alt}\">\
             <meta name=\"twitter:image\" content=\"{image}\">\
             <meta name=\"twitter:image:alt\" content=\"{alt}\">",
            w = media::CARD_WIDTH,
            h_ = media::CARD_HEIGHT,
        );
        for data in &self.json_ld {
            let _ = write!(
                h,
                "<script type=\"application/ld+json\">{}</script>",
                script_json(data)
            );
        }
        if let Some(t) = &self.published_time {
            let _ = write!(
                h,
                "<meta property=\"article:published_time\" content=\"{}\">",
                escape_html(t)
            );
        }
        if self.noindex {
            h.push_str("<meta name=\"robots\" content=\"noindex\">");
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn article_head_has_social_tags_and_escapes() {
        let head = Head {
            title: "A \"quoted\" <title> | The Agora".into(),
            description: "Desc & more".into(),
            path: "/article/x".into(),
            og_type: "article",
            image: Some("/social/article/x.jpg".into()),
            image_alt: "A <cover>".into(),
            json_ld: vec![serde_json::json!({"@type": "NewsArticle", "headline": "</script><b>"})],
            published_time: None,
            noindex: false,
            feeds: vec![("Rights & \"more\"".into(), "/feed/human-rights.xml".into())],
        };
        let html = head.to_html("https://agora.example", "The Agora");
        assert!(html.contains("<title>A &quot;quoted&quot; &lt;title&gt; | The Agora</title>"));
        assert!(html.contains("<meta property=\"og:type\" content=\"article\">"));
        assert!(html.contains(
            "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"The Agora: Rights &amp; &quot;more&quot;\" href=\"https://agora.example/feed/human-rights.xml\">"
        ));
        assert!(html.contains("<link rel=\"canonical\" href=\"https://agora.example/article/x\">"));
        assert!(html.contains(
            "<meta property=\"og:image\" content=\"https://agora.example/social/article/x.jpg\">"
        ));
        assert!(html.contains("<meta property=\"og:image:width\" content=\"1200\">"));
        assert!(html.contains("<meta property=\"og:image:height\" content=\"630\">"));
        assert!(html.contains("<meta property=\"og:image:alt\" content=\"A &lt;cover&gt;\">"));
        // Structured data cannot close its script.
        assert!(html.contains(
            "<script type=\"application/ld+json\">{\"@type\":\"NewsArticle\",\"headline\":\"\\u003c/script\\u003e\\u003cb\\u003e\"}</script>"
        ));
        assert!(html.contains("content=\"Desc &amp; more\""));
        assert!(html.contains("twitter:card\" content=\"summary_large_image\""));

        // A page without a picture shows the site's card.
        let plain = Head::default().to_html("https://agora.example", "The Agora");
        assert!(plain.contains(
            "<meta property=\"og:image\" content=\"https://agora.example/social/site.jpg\">"
        ));
        assert!(plain.contains("<meta property=\"og:image:alt\" content=\"The Agora\">"));
    }
}
