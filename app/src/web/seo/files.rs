//! The sitemap's files: one `<urlset>` while the URLs fit in one file, else an index of
//! parts.

/// URLs one sitemap file may list (the protocol's limit). Beyond it, `/sitemap.xml` is an
/// index of `/sitemap-1.xml`, `/sitemap-2.xml`, … of this many URLs each.
pub const SITEMAP_URLS: usize = 50_000;

const URLSET_OPEN: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";

/// The sitemap file of `entries` (`<url>` elements), whole when they fit in one file, else
/// its index; and the parts the index lists.
pub fn sitemap_files(entries: &[String], limit: usize, site_url: &str) -> (String, usize) {
    let limit = limit.max(1);
    if entries.len() <= limit {
        return (urlset(entries), 0);
    }
    let parts = entries.len().div_ceil(limit);
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for n in 1..=parts {
        xml.push_str(&format!(
            "<sitemap><loc>{site_url}/sitemap-{n}.xml</loc></sitemap>\n"
        ));
    }
    xml.push_str("</sitemapindex>\n");
    (xml, parts)
}

/// Part `n` (from 1) of a sitemap split into files of `limit` URLs, when there is one.
pub fn sitemap_part(entries: &[String], limit: usize, n: usize) -> Option<String> {
    let limit = limit.max(1);
    if entries.len() <= limit || n == 0 {
        return None;
    }
    let start = (n - 1).checked_mul(limit)?;
    let part = entries.get(start..entries.len().min(start + limit))?;
    (!part.is_empty()).then(|| urlset(part))
}

fn urlset(entries: &[String]) -> String {
    let mut xml = String::with_capacity(entries.iter().map(String::len).sum::<usize>() + 200);
    xml.push_str(URLSET_OPEN);
    for e in entries {
        xml.push_str(e);
    }
    xml.push_str("</urlset>\n");
    xml
}
