//! What counts as a page view.

/// Fragments of user agents that are robots, link previews, monitors or scripted browsers.
const BOT_MARKERS: [&str; 24] = [
    "bot",
    "crawl",
    "spider",
    "slurp",
    "facebookexternalhit",
    "embedly",
    "preview",
    "lighthouse",
    "headlesschrome",
    "phantomjs",
    "curl/",
    "wget/",
    "python-requests",
    "python-urllib",
    "aiohttp",
    "go-http-client",
    "java/",
    "okhttp",
    "axios/",
    "node-fetch",
    "httpclient",
    "monitor",
    "pingdom",
    "uptime",
];

/// True for robots and scripts (including an empty user agent).
pub fn is_bot(user_agent: &str) -> bool {
    let ua = user_agent.trim().to_ascii_lowercase();
    ua.is_empty() || BOT_MARKERS.iter().any(|m| ua.contains(m))
}

/// True for paths of public pages: not the API, assets, media, health checks, feeds or the
/// staff dashboards.
pub fn is_public_page(path: &str) -> bool {
    const EXCLUDED_PREFIXES: [&str; 6] =
        ["/api/", "/assets/", "/media/", "/dashboard", "/feed/", "/."];
    const EXCLUDED: [&str; 6] = [
        "/healthz",
        "/readyz",
        "/robots.txt",
        "/sitemap.xml",
        "/feed.xml",
        "/favicon.ico",
    ];
    path.starts_with('/')
        && path.len() <= 300
        && !EXCLUDED_PREFIXES.iter().any(|p| path.starts_with(p))
        && !EXCLUDED.contains(&path)
        && !path.chars().any(|c| c.is_control() || c == '?' || c == '#')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn robots_and_scripts_are_not_readers() {
        for ua in [
            "",
            "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
            "facebookexternalhit/1.1",
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0 Safari/537.36",
            "curl/8.5.0",
            "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119 Mobile Safari/537.36 Chrome-Lighthouse",
        ] {
            assert!(is_bot(ua), "{ua}");
        }
        for ua in [
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
        ] {
            assert!(!is_bot(ua), "{ua}");
        }
    }

    #[test]
    fn only_public_pages_count() {
        for p in [
            "/",
            "/articles",
            "/article/some-slug",
            "/magazine",
            "/no-such-page",
        ] {
            assert!(is_public_page(p), "{p}");
        }
        for p in [
            "/api/v1/articles",
            "/assets/app.js",
            "/media/covers/a.png",
            "/dashboard/admin",
            "/healthz",
            "/robots.txt",
            "/feed.xml",
            "/feed/human-rights.xml",
            "relative",
            "/a?b",
        ] {
            assert!(!is_public_page(p), "{p}");
        }
    }
}
