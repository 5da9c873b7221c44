//! The page template produced by the web client's build (`index.html`), split at its
//! placeholders once at start-up.

const HEAD: &str = "<!--app-head-->";
const HTML: &str = "<!--app-html-->";
const DATA: &str = "<!--app-data-->";

#[derive(Debug, Clone)]
pub struct Template {
    parts: [String; 4],
}

impl Template {
    pub fn parse(text: &str) -> anyhow::Result<Template> {
        let (a, rest) = text
            .split_once(HEAD)
            .ok_or_else(|| anyhow::anyhow!("template lacks {HEAD}"))?;
        let (b, rest) = rest
            .split_once(HTML)
            .ok_or_else(|| anyhow::anyhow!("template lacks {HTML} after {HEAD}"))?;
        let (c, d) = rest
            .split_once(DATA)
            .ok_or_else(|| anyhow::anyhow!("template lacks {DATA} after {HTML}"))?;
        Ok(Template {
            parts: [a.into(), b.into(), c.into(), d.into()],
        })
    }

    /// The whole document. `data_json` is embedded as inert JSON for hydration.
    pub fn page(&self, head: &str, markup: &str, data_json: &str) -> String {
        let data = escape_json_for_script(data_json);
        let [a, b, c, d] = &self.parts;
        let mut out = String::with_capacity(
            a.len() + b.len() + c.len() + d.len() + head.len() + markup.len() + data.len() + 80,
        );
        out.push_str(a);
        out.push_str(head);
        out.push_str(b);
        out.push_str(markup);
        out.push_str(c);
        out.push_str("<script id=\"agora-data\" type=\"application/json\">");
        out.push_str(&data);
        out.push_str("</script>");
        out.push_str(d);
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
    fn rejects_a_template_without_placeholders() {
        assert!(Template::parse("<html></html>").is_err());
    }
}
