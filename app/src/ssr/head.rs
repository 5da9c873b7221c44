//! Head tags: title, description, canonical URL, Open Graph and Twitter cards.

use std::fmt::Write;

#[derive(Debug, Clone, Default)]
pub struct Head {
    pub title: String,
    pub description: String,
    /// Site-relative path of the canonical URL.
    pub path: String,
    /// `article` for articles, `website` otherwise.
    pub og_type: &'static str,
    /// Absolute or site-relative image URL.
    pub image: Option<String>,
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

fn absolute(site_url: &str, url: &str) -> String {
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
        let card = if self.image.is_some() {
            "summary_large_image"
        } else {
            "summary"
        };
        let _ = write!(
            h,
            "<meta name=\"twitter:card\" content=\"{card}\">\
             <meta name=\"twitter:title\" content=\"{title}\">\
             <meta name=\"twitter:description\" content=\"{description}\">"
        );
        if let Some(image) = &self.image {
            let image = escape_html(&absolute(site_url, image));
            let _ = write!(
                h,
                "<meta property=\"og:image\" content=\"{image}\">\
                 <meta name=\"twitter:image\" content=\"{image}\">"
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
            image: Some("/media/demo/x.svg".into()),
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
            "<meta property=\"og:image\" content=\"https://agora.example/media/demo/x.svg\">"
        ));
        assert!(html.contains("content=\"Desc &amp; more\""));
        assert!(html.contains("twitter:card\" content=\"summary_large_image\""));
    }
}
