//! An article's cover address: a web address, read as a URL would be by a browser, or a file
//! this site stores (served under `/media/`). The contract gives the field no pattern, so
//! this is the rule.

/// The web schemes a cover may be loaded from.
const SCHEMES: &[&str] = &["https", "http"];

/// Whether `text` (already trimmed) is an http(s) address with a host, or the path of a
/// stored file. No white space, control character or `"` anywhere, and no user name or
/// password in a web address (every reader would be sent them).
pub(crate) fn is_cover_address(text: &str) -> bool {
    if text.is_empty()
        || text
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == '"' || c == '\\')
    {
        return false;
    }
    if let Some(path) = text.strip_prefix("/media/") {
        return !path.is_empty() && !path.split('/').any(|part| part == "..");
    }
    let Ok(url) = url::Url::parse(text) else {
        return false;
    };
    // The text itself must be written `scheme://host`: `Url` also reads `https:x.org` and
    // `https:///x.org` as `https://x.org/`.
    let written_scheme = text
        .split_once("://")
        .filter(|(_, rest)| !rest.starts_with('/'))
        .map(|(scheme, _)| scheme.to_ascii_lowercase());
    SCHEMES.contains(&url.scheme())
        && written_scheme.as_deref() == Some(url.scheme())
        && url.host_str().is_some_and(|host| !host.is_empty())
        && url.username().is_empty()
        && url.password().is_none()
}

#[cfg(test)]
mod tests {
    use super::is_cover_address;

    #[test]
    fn web_addresses_with_a_host_and_stored_files_are_taken() {
        for ok in [
            "https://images.example.org/cover.jpg",
            "http://example.org/a.png?w=800&h=400",
            "https://example.org:8443/a%20b.png",
            "HTTPS://Example.org/x.jpg",
            "https://[2001:db8::1]/x.png",
            "https://192.0.2.1/x.png",
            "https://école.example/x.png",
            "/media/covers/a.webp",
            "/media/covers/a.webp?v=2",
        ] {
            assert!(is_cover_address(ok), "{ok}");
        }
    }

    #[test]
    fn anything_a_browser_could_not_load_as_an_image_is_refused() {
        for bad in [
            "",
            "http://[x",
            "http://",
            "https://",
            "https:///path",
            "https:example.org/x.png",
            "https://exa mple.org/x.png",
            "https://example.org/x\".png",
            "https://example.org/\u{7}.png",
            "https://user:secret@example.org/x.png",
            "https://user@example.org/x.png",
            "javascript:alert(1)",
            "data:image/png;base64,AAAA",
            "ftp://example.org/x.png",
            "//example.org/x.png",
            "example.org/x.png",
            "/media/",
            "/media/../private/key",
            "/media/covers/../../x",
            "/media\\covers\\x.png",
            "/other/x.png",
        ] {
            assert!(!is_cover_address(bad), "{bad}");
        }
    }
}
