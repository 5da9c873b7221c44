//! The page template produced by the web client's build (`index.html`), split at its
//! placeholders once at start-up, in the two layouts a page can take (see [`Template`]).

const HEAD: &str = "<!--app-head-->";
const HTML: &str = "<!--app-html-->";
const DATA: &str = "<!--app-data-->";
const CRITICAL: &str = "<!--app-critical-->";

/// Where the sidecar's markup leaves an article's body (the web client's `ARTICLE_BODY_MARK`,
/// written when the page data has no body). The app puts the body there: it never crosses to
/// the sidecar and back, and the page carries it once, in its markup, where the browser reads
/// it back before hydrating. Only the app's own markup can hold the mark: React escapes `<`
/// in every text and attribute it writes.
pub const ARTICLE_BODY_MARK: &str = "<!--agora-body-->";

/// What a page shows in `#root`: the markup, and an article's body to put at its mark.
#[derive(Debug, Clone, Copy)]
pub struct Markup<'a> {
    pub html: &'a str,
    pub body: Option<&'a str>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Head,
    Html,
    Data,
    Critical,
}

/// The page template, in two layouts: as built (stylesheets in the head: the first paint
/// waits for them) and, for a page whose critical CSS is known, with that CSS inlined where
/// the stylesheets were and the stylesheets moved to the end of the body, loaded for print
/// (which never holds the first paint) until the page's script applies them to the screen
/// (`data-agora-css`); where scripts are off, a `<noscript>` copy applies them at once. The
/// inlined CSS styles everything the markup holds: the stylesheet adds what scripts show
/// (menus, toasts, dialogs opened by script).
#[derive(Debug, Clone)]
pub struct Template {
    blocking: Layout,
    deferred: Option<Layout>,
}

/// A template's text cut at its placeholders, which may come in any order (Vite puts the
/// module script, and so the data, in the head).
#[derive(Debug, Clone)]
struct Layout {
    /// Text before each slot, in document order, then the tail.
    pieces: Vec<(String, Slot)>,
    tail: String,
}

impl Layout {
    fn parse(text: &str) -> anyhow::Result<Layout> {
        let mut marks = Vec::new();
        for (marker, slot) in [(HEAD, Slot::Head), (HTML, Slot::Html), (DATA, Slot::Data)] {
            let at = text
                .find(marker)
                .ok_or_else(|| anyhow::anyhow!("the page template lacks {marker}"))?;
            marks.push((at, marker.len(), slot));
        }
        if let Some(at) = text.find(CRITICAL) {
            marks.push((at, CRITICAL.len(), Slot::Critical));
        }
        marks.sort_by_key(|m| m.0);
        let mut pieces = Vec::new();
        let mut from = 0;
        for (at, len, slot) in marks {
            pieces.push((text[from..at].to_string(), slot));
            from = at + len;
        }
        Ok(Layout {
            pieces,
            tail: text[from..].to_string(),
        })
    }
}

/// The `<link rel="stylesheet">` tags of a built template: where each starts and ends.
fn stylesheet_links(text: &str) -> Vec<std::ops::Range<usize>> {
    let lower = text.to_ascii_lowercase();
    let mut links = Vec::new();
    let mut from = 0;
    while let Some(start) = lower[from..].find("<link").map(|i| from + i) {
        let Some(end) = lower[start..].find('>').map(|i| start + i + 1) else {
            break;
        };
        let tag = &lower[start..end];
        if tag.contains("rel=\"stylesheet\"") || tag.contains("rel=stylesheet") {
            links.push(start..end);
        }
        from = end;
    }
    links
}

/// `text` with its stylesheet links moved before `</body>` (loaded for print, applied by the
/// page's script; as they are inside `<noscript>`) and the critical-CSS placeholder where the
/// first of them was; `None` when it links no stylesheet.
fn deferred_text(text: &str) -> Option<String> {
    let links = stylesheet_links(text);
    let first = links.first()?.start;
    let mut out = String::with_capacity(text.len() + CRITICAL.len());
    let mut deferred = String::new();
    let mut plain = String::new();
    let mut from = 0;
    for link in &links {
        out.push_str(&text[from..link.start]);
        if link.start == first {
            out.push_str(CRITICAL);
        }
        let tag = &text[link.clone()];
        plain.push_str(tag);
        // `<link` + ` media="print" data-agora-css` + the rest of the tag.
        deferred.push_str(&tag[..5]);
        deferred.push_str(" media=\"print\" data-agora-css");
        deferred.push_str(&tag[5..]);
        from = link.end;
    }
    out.push_str(&text[from..]);
    // The page is whole without its scripts (they make it interactive): they load after
    // what paints it (`fetchpriority="low"`), never ahead of the images or the stylesheet.
    let mut out = out
        .replace(
            "<script type=\"module\"",
            "<script type=\"module\" fetchpriority=\"low\"",
        )
        .replace(
            "<link rel=\"modulepreload\"",
            "<link rel=\"modulepreload\" fetchpriority=\"low\"",
        );
    let moved = format!("{deferred}<noscript>{plain}</noscript>");
    match out.to_ascii_lowercase().rfind("</body>") {
        Some(at) => out.insert_str(at, &moved),
        None => out.push_str(&moved),
    }
    Some(out)
}

/// `html` with `extra` inserted just before its `</body>` (at the end when it has none).
pub fn before_body_end(mut html: String, extra: &str) -> String {
    // Found from the end, in any case, without copying the page.
    let end = html
        .as_bytes()
        .windows(b"</body>".len())
        .rposition(|w| w.eq_ignore_ascii_case(b"</body>"));
    match end {
        Some(at) => html.insert_str(at, extra),
        None => html.push_str(extra),
    }
    html
}

impl Template {
    pub fn parse(text: &str) -> anyhow::Result<Template> {
        Ok(Template {
            blocking: Layout::parse(text)?,
            deferred: deferred_text(text).map(|t| Layout::parse(&t)).transpose()?,
        })
    }

    /// The whole document. `data_json` is embedded as inert JSON for hydration; `critical`
    /// is the CSS the markup needs to paint (empty: unknown, and the page waits for the
    /// stylesheets as built). An article's body goes where the markup marks it; markup
    /// without the mark (the client-rendered shell) gets the body as an inert
    /// `<template id="agora-body">` beside the data, for the client to render.
    pub fn page(&self, head: &str, markup: Markup<'_>, data_json: &str, critical: &str) -> String {
        let layout = match &self.deferred {
            Some(deferred) if !critical.is_empty() => deferred,
            _ => &self.blocking,
        };
        // Escaping only lengthens: a few bytes to spare for what it adds.
        let size = layout.pieces.iter().map(|p| p.0.len()).sum::<usize>()
            + layout.tail.len()
            + head.len()
            + markup.html.len()
            + markup.body.map_or(0, |b| b.len() + 64)
            + data_json.len()
            + critical.len()
            + 256;
        let mark = markup
            .body
            .and_then(|body| Some((markup.html.find(ARTICLE_BODY_MARK)?, body)));
        let mut out = String::with_capacity(size);
        for (text, slot) in &layout.pieces {
            out.push_str(text);
            match slot {
                Slot::Head => out.push_str(head),
                Slot::Html => match mark {
                    Some((at, body)) => {
                        out.push_str(&markup.html[..at]);
                        out.push_str(body);
                        out.push_str(&markup.html[at + ARTICLE_BODY_MARK.len()..]);
                    }
                    None => out.push_str(markup.html),
                },
                Slot::Data => {
                    out.push_str("<script id=\"agora-data\" type=\"application/json\">");
                    push_json_for_script(&mut out, data_json);
                    out.push_str("</script>");
                    if let (None, Some(body)) = (mark, markup.body) {
                        // Sanitised HTML (no `<template>`, no script): inert until used.
                        out.push_str("<template id=\"agora-body\">");
                        out.push_str(body);
                        out.push_str("</template>");
                    }
                }
                Slot::Critical => {
                    out.push_str("<style>");
                    push_css_for_style(&mut out, critical);
                    out.push_str("</style>");
                }
            }
        }
        out.push_str(&layout.tail);
        out
    }
}

/// `json` onto `out` so that it cannot close its `<script>`: `<` and the two line separators
/// JavaScript once took for line ends, as `\u` escapes. One pass, no copy of the page data:
/// `memchr` finds `<` and the first byte of U+2028 and U+2029 (E2 80 A8, E2 80 A9).
fn push_json_for_script(out: &mut String, json: &str) {
    let bytes = json.as_bytes();
    let mut from = 0;
    for at in memchr::memchr2_iter(b'<', 0xE2, bytes) {
        let (escaped, len) = match &bytes[at..] {
            [b'<', ..] => ("\\u003c", 1),
            [0xE2, 0x80, 0xA8, ..] => ("\\u2028", 3),
            [0xE2, 0x80, 0xA9, ..] => ("\\u2029", 3),
            _ => continue,
        };
        // Both bytes start a character: `at` is a boundary.
        out.push_str(&json[from..at]);
        out.push_str(escaped);
        from = at + len;
    }
    out.push_str(&json[from..]);
}

/// `css` onto `out` so that it cannot close its `<style>`: every `</` as `<\/`.
fn push_css_for_style(out: &mut String, css: &str) {
    let bytes = css.as_bytes();
    let mut from = 0;
    for at in memchr::memchr_iter(b'<', bytes) {
        if bytes.get(at + 1) == Some(&b'/') {
            out.push_str(&css[from..=at]);
            out.push('\\');
            from = at + 1;
        }
    }
    out.push_str(&css[from..]);
}

#[cfg(test)]
mod tests;
