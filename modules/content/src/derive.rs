//! Fields derived from an article's markdown, computed once on write and used everywhere:
//! plain text (for excerpts and search), sanitized HTML (for the article page) and reading time.

use std::collections::HashSet;
use std::sync::OnceLock;

use pulldown_cmark::{html, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// Words per minute used for every reading-time figure.
pub const WORDS_PER_MINUTE: usize = 230;
/// Longest excerpt shown on a card, in characters.
pub const EXCERPT_CHARS: usize = 160;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// Safe HTML for the article body.
    pub html: String,
    /// The text with every markdown mark removed, whitespace collapsed.
    pub plain: String,
    pub excerpt: String,
    pub reading_minutes: i32,
}

pub fn render_markdown(markdown: &str) -> Rendered {
    let plain = plain_text(markdown);
    Rendered {
        html: to_safe_html(markdown),
        excerpt: excerpt(markdown, None),
        reading_minutes: reading_minutes(&plain),
        plain,
    }
}

/// The excerpt a card shows: the piece's opening prose (its first paragraphs outside headings,
/// lists, quotes, code and tables, as many as fit), or its subtitle when it opens with none,
/// or its text as a last resort. Never a heading run into list items.
pub fn excerpt(markdown: &str, subtitle: Option<&str>) -> String {
    let opening = prose(markdown);
    if !opening.is_empty() {
        return truncate_words(&opening, EXCERPT_CHARS);
    }
    match subtitle.map(str::trim).filter(|s| !s.is_empty()) {
        Some(subtitle) => truncate_words(subtitle, EXCERPT_CHARS),
        None => truncate_words(&plain_text(markdown), EXCERPT_CHARS),
    }
}

/// The text of the top-level paragraphs, in order, up to a little more than an excerpt holds.
fn prose(markdown: &str) -> String {
    let mut out = String::new();
    // How deep inside blocks that are not prose (lists, quotes, tables, footnotes) we are.
    let mut nested = 0usize;
    let mut in_paragraph = false;
    for event in Parser::new_ext(markdown, Options::empty()) {
        match event {
            Event::Start(Tag::List(_) | Tag::BlockQuote(_) | Tag::Table(_)) => nested += 1,
            Event::End(TagEnd::List(_) | TagEnd::BlockQuote(_) | TagEnd::Table) => {
                nested = nested.saturating_sub(1)
            }
            Event::Start(Tag::Paragraph) if nested == 0 => in_paragraph = true,
            Event::End(TagEnd::Paragraph) if in_paragraph => {
                in_paragraph = false;
                out.push(' ');
                if out.chars().count() > EXCERPT_CHARS {
                    break;
                }
            }
            Event::Text(t) | Event::Code(t) | Event::InlineHtml(t) if in_paragraph => {
                out.push_str(&t)
            }
            Event::SoftBreak | Event::HardBreak if in_paragraph => out.push(' '),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Words ÷ 230, rounded up, at least 1 minute.
pub fn reading_minutes(text: &str) -> i32 {
    let words = text.split_whitespace().count();
    let minutes = words.div_ceil(WORDS_PER_MINUTE).max(1);
    i32::try_from(minutes).unwrap_or(i32::MAX)
}

pub fn read_time_label(minutes: i32) -> String {
    format!("{minutes} min")
}

fn plain_text(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    for event in Parser::new_ext(markdown, Options::empty()) {
        match event {
            // HTML written in the Markdown is not text a reader sees (the page drops or
            // renders it): left out, like the other marks.
            Event::Text(t) | Event::Code(t) => out.push_str(&t),
            Event::SoftBreak | Event::HardBreak | Event::Rule => out.push(' '),
            // Only block ends separate words: "**Human Rights**." stays "Human Rights.".
            Event::End(
                TagEnd::Emphasis
                | TagEnd::Strong
                | TagEnd::Strikethrough
                | TagEnd::Link
                | TagEnd::Image,
            ) => {}
            Event::End(_) => out.push(' '),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Cuts `text` to at most `max` characters at a word boundary, adding an ellipsis when cut.
pub fn truncate_words(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max).collect();
    let trimmed = match cut.rfind(' ') {
        Some(i) if i > max / 2 => &cut[..i],
        _ => cut.as_str(),
    };
    format!("{}…", trimmed.trim_end_matches([' ', ',', ';', ':', '.']))
}

fn to_safe_html(markdown: &str) -> String {
    // Raw HTML is shown as text, never interpreted. Headings are shifted so the body's top
    // level is <h2>: the article title stays the page's only <h1> and no level is skipped.
    let events: Vec<Event> = Parser::new_ext(markdown, Options::empty()).collect();
    let top = events
        .iter()
        .filter_map(|e| match e {
            Event::Start(Tag::Heading { level, .. }) => Some(*level as usize),
            _ => None,
        })
        .min()
        .unwrap_or(2);
    let shift = |level: HeadingLevel| level_of((level as usize + 2).saturating_sub(top));
    let events = events.into_iter().map(|event| match event {
        Event::Html(t) | Event::InlineHtml(t) => Event::Text(t),
        Event::Start(Tag::Heading {
            level,
            id,
            classes,
            attrs,
        }) => Event::Start(Tag::Heading {
            level: shift(level),
            id,
            classes,
            attrs,
        }),
        Event::End(TagEnd::Heading(level)) => Event::End(TagEnd::Heading(shift(level))),
        other => other,
    });
    let mut raw = String::with_capacity(markdown.len() * 2);
    html::push_html(&mut raw, events);
    sanitizer().clean(&raw).to_string()
}

fn level_of(n: usize) -> HeadingLevel {
    match n {
        0..=2 => HeadingLevel::H2,
        3 => HeadingLevel::H3,
        4 => HeadingLevel::H4,
        5 => HeadingLevel::H5,
        _ => HeadingLevel::H6,
    }
}

fn sanitizer() -> &'static ammonia::Builder<'static> {
    static BUILDER: OnceLock<ammonia::Builder<'static>> = OnceLock::new();
    BUILDER.get_or_init(|| {
        let tags: HashSet<&str> = [
            "p",
            "h2",
            "h3",
            "h4",
            "h5",
            "h6",
            "hr",
            "blockquote",
            "code",
            "pre",
            "a",
            "strong",
            "em",
            "ul",
            "ol",
            "li",
            "br",
        ]
        .into_iter()
        .collect();
        let mut b = ammonia::Builder::default();
        b.tags(tags)
            .url_schemes(["http", "https", "mailto"].into_iter().collect())
            .link_rel(Some("noopener noreferrer"))
            .set_tag_attribute_value("a", "target", "_blank")
            .add_tag_attributes("ol", ["start"]);
        b
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpt_removes_markdown_marks() {
        let r = render_markdown("## Heading\n\nSome **bold** and *italic* with a [link](https://x.org) and `code`.\n\n> quoted\n\n- one\n- two");
        assert_eq!(r.excerpt, "Some bold and italic with a link and code.");
        // The plain text (search, reading time) keeps every block.
        assert_eq!(
            r.plain,
            "Heading Some bold and italic with a link and code. quoted one two"
        );
        assert!(!r.excerpt.contains('*') && !r.excerpt.contains('#') && !r.excerpt.contains('['));
    }

    #[test]
    fn inline_marks_leave_no_space_before_punctuation() {
        let r =
            render_markdown("We defend **Human Rights**. See [the charter](https://x.org), *now*!");
        assert_eq!(r.excerpt, "We defend Human Rights. See the charter, now!");
    }

    #[test]
    fn excerpt_is_the_opening_prose_never_headings_or_list_items() {
        let md = "## Why it matters\n\nMost of us first vote at eighteen.\n\n## Campaigns\n\n\
                  - Debates\n- Turnout\n\nThe second paragraph.";
        assert_eq!(
            excerpt(md, None),
            "Most of us first vote at eighteen. The second paragraph."
        );
        assert_eq!(
            render_markdown(md).excerpt,
            "Most of us first vote at eighteen. The second paragraph."
        );
        // A piece that opens with no prose shows its subtitle, else its text.
        let list = "## Campaigns\n\n- Debates\n- Turnout";
        assert_eq!(excerpt(list, Some("What to watch")), "What to watch");
        assert_eq!(excerpt(list, None), "Campaigns Debates Turnout");
        assert_eq!(excerpt("> A quote.\n\nThen prose.", None), "Then prose.");
    }

    #[test]
    fn excerpt_is_cut_at_a_word_with_ellipsis() {
        let text = "word ".repeat(100);
        let r = render_markdown(&text);
        assert!(r.excerpt.ends_with('…'));
        assert!(r.excerpt.chars().count() <= EXCERPT_CHARS + 1);
        assert!(!r.excerpt.contains("wor…"));
    }

    #[test]
    fn reading_time_is_words_over_230_rounded_up() {
        assert_eq!(reading_minutes(""), 1);
        assert_eq!(reading_minutes(&"w ".repeat(230)), 1);
        assert_eq!(reading_minutes(&"w ".repeat(231)), 2);
        assert_eq!(reading_minutes(&"w ".repeat(1000)), 5);
        assert_eq!(read_time_label(3), "3 min");
    }

    #[test]
    fn html_renders_the_light_formatting() {
        let r = render_markdown(
            "# Title\n\n## Sub\n\n---\n\n> quote\n\n**b** *i* `c`\n\n1. one\n2. two\n\n- a\n- b",
        );
        for needle in [
            "<h2>Title</h2>",
            "<h3>Sub</h3>",
            "<hr>",
            "<blockquote>",
            "<strong>b</strong>",
            "<em>i</em>",
            "<code>c</code>",
            "<ol>",
            "<ul>",
        ] {
            assert!(r.html.contains(needle), "missing {needle} in {}", r.html);
        }
    }

    #[test]
    fn the_top_heading_level_becomes_h2() {
        let r = render_markdown("## Part\n\ntext\n\n### Sub\n\ntext");
        assert!(
            r.html.contains("<h2>Part</h2>") && r.html.contains("<h3>Sub</h3>"),
            "{}",
            r.html
        );
        let r = render_markdown("### Only\n\ntext");
        assert!(r.html.contains("<h2>Only</h2>"), "{}", r.html);
    }

    #[test]
    fn links_open_in_a_new_tab_safely() {
        let r = render_markdown("[site](https://example.org)");
        assert!(r.html.contains("href=\"https://example.org\""));
        assert!(r.html.contains("target=\"_blank\""));
        assert!(r.html.contains("rel=\"noopener noreferrer\""));
    }

    #[test]
    fn raw_html_and_script_links_stay_inert() {
        let r = render_markdown(
            "<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[x](javascript:alert(1))",
        );
        assert!(!r.html.contains("<script"));
        assert!(!r.html.contains("<img"));
        assert!(!r.html.contains("javascript:"));
        assert!(r.html.contains("&lt;script&gt;"));
    }
}
