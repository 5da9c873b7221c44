//! The page template produced by the web client's build (`index.html`), split at its
//! placeholders once at start-up.

const HEAD: &str = "<!--app-head-->";
const HTML: &str = "<!--app-html-->";
const DATA: &str = "<!--app-data-->";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Head,
    Html,
    Data,
}

/// The template's text cut at its three placeholders, which may come in any order
/// (Vite puts the module script, and so the data, in the head).
#[derive(Debug, Clone)]
pub struct Template {
    /// Text before each slot, in document order, then the tail.
    pieces: Vec<(String, Slot)>,
    tail: String,
}

impl Template {
    pub fn parse(text: &str) -> anyhow::Result<Template> {
        let mut marks = Vec::new();
        for (marker, slot) in [(HEAD, Slot::Head), (HTML, Slot::Html), (DATA, Slot::Data)] {
            let at = text
                .find(marker)
                .ok_or_else(|| anyhow::anyhow!("the page template lacks {marker}"))?;
            marks.push((at, marker.len(), slot));
        }
        marks.sort_by_key(|m| m.0);
        let mut pieces = Vec::new();
        let mut from = 0;
        for (at, len, slot) in marks {
            pieces.push((text[from..at].to_string(), slot));
            from = at + len;
        }
        Ok(Template {
            pieces,
            tail: text[from..].to_string(),
        })
    }

    /// The whole document. `data_json` is embedded as inert JSON for hydration.
    pub fn page(&self, head: &str, markup: &str, data_json: &str) -> String {
        let data = escape_json_for_script(data_json);
        let size = self.pieces.iter().map(|p| p.0.len()).sum::<usize>()
            + self.tail.len()
            + head.len()
            + markup.len()
            + data.len()
            + 80;
        let mut out = String::with_capacity(size);
        for (text, slot) in &self.pieces {
            out.push_str(text);
            match slot {
                Slot::Head => out.push_str(head),
                Slot::Html => out.push_str(markup),
                Slot::Data => {
                    out.push_str("<script id=\"agora-data\" type=\"application/json\">");
                    out.push_str(&data);
                    out.push_str("</script>");
                }
            }
        }
        out.push_str(&self.tail);
        out
    }
}

/// JSON inside a `<script>` must not be able to close it.
fn escape_json_for_script(json: &str) -> String {
    json.replace('<', "\\u003c")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

#[cfg(test)]
mod tests {
    use super::Template;

    #[test]
    fn fills_the_placeholders_and_keeps_data_inert() {
        let t = Template::parse(
            "<html><head><!--app-head--></head><body><div id=\"root\"><!--app-html--></div><!--app-data--><script src=x></script></body></html>",
        )
        .expect("valid template");
        let page = t.page("<title>T</title>", "<p>hi</p>", r#"{"x":"</script><b>"}"#);
        assert!(page.contains("<head><title>T</title></head>"));
        assert!(page.contains("<div id=\"root\"><p>hi</p></div>"));
        assert!(!page.contains("</script><b>"));
        assert!(page.contains(r#"{"x":"\u003c/script>\u003cb>"}"#));
    }

    #[test]
    fn placeholders_may_come_in_any_order() {
        let t = Template::parse(
            "<head><!--app-head--><!--app-data--></head><div><!--app-html--></div>",
        )
        .expect("valid template");
        let page = t.page("<title>T</title>", "<p>x</p>", "{}");
        assert_eq!(
            page,
            "<head><title>T</title><script id=\"agora-data\" type=\"application/json\">{}</script></head><div><p>x</p></div>"
        );
    }

    #[test]
    fn rejects_a_template_without_placeholders() {
        assert!(Template::parse("<html></html>").is_err());
    }
}
