use super::{
    before_body_end, push_css_for_style, push_json_for_script, Markup, Template, ARTICLE_BODY_MARK,
};

#[test]
fn extra_goes_before_the_last_body_end_in_any_case() {
    assert_eq!(
        before_body_end("<p>a</body>x</BODY>".into(), "<i>"),
        "<p>a</body>x<i></BODY>"
    );
    assert_eq!(before_body_end("<p>no end".into(), "<i>"), "<p>no end<i>");
    assert_eq!(before_body_end(String::new(), "<i>"), "<i>");
}

/// Markup with no article body.
fn m(html: &str) -> Markup<'_> {
    Markup { html, body: None }
}

#[test]
fn an_articles_body_goes_at_its_mark_once_and_never_in_the_data() {
    let t = Template::parse(
        "<head><!--app-head--><!--app-data--></head><div id=\"root\"><!--app-html--></div>",
    )
    .expect("valid template");
    let body = "<h2>Why</h2><p>Because &amp; so.</p>";
    let html = format!("<article><div class=\"prose\" data-agora-body=\"\">{ARTICLE_BODY_MARK}</div><p>after</p></article>");
    let page = t.page(
        "",
        Markup {
            html: &html,
            body: Some(body),
        },
        "{}",
        "",
    );
    assert_eq!(
        page,
        format!("<head><script id=\"agora-data\" type=\"application/json\">{{}}</script></head><div id=\"root\"><article><div class=\"prose\" data-agora-body=\"\">{body}</div><p>after</p></article></div>")
    );
    // Only the first mark is the body's place.
    let twice = format!("{ARTICLE_BODY_MARK}|{ARTICLE_BODY_MARK}");
    let page = t.page(
        "",
        Markup {
            html: &twice,
            body: Some("B"),
        },
        "{}",
        "",
    );
    assert!(page.contains(&format!("B|{ARTICLE_BODY_MARK}")), "{page}");
    // A page that is not an article keeps its markup as it is.
    let page = t.page("", m(&html), "{}", "");
    assert!(page.contains(ARTICLE_BODY_MARK));
    assert!(!page.contains("agora-body\">"));
}

#[test]
fn the_shell_of_an_article_carries_its_body_in_an_inert_template() {
    let t = Template::parse(
        "<head><!--app-head--><!--app-data--></head><div id=\"root\"><!--app-html--></div>",
    )
    .expect("valid template");
    let page = t.page(
        "",
        Markup {
            html: "",
            body: Some("<p>B</p>"),
        },
        "{}",
        "",
    );
    assert_eq!(
        page,
        "<head><script id=\"agora-data\" type=\"application/json\">{}</script><template id=\"agora-body\"><p>B</p></template></head><div id=\"root\"></div>"
    );
}

#[test]
fn page_data_cannot_close_its_script_nor_css_its_style() {
    let written = |push: fn(&mut String, &str), text: &str| {
        let mut out = String::new();
        push(&mut out, text);
        out
    };
    let escape = |json: &str| written(push_json_for_script, json);
    assert_eq!(escape(""), "");
    assert_eq!(escape("plain"), "plain");
    // Other characters whose UTF-8 starts as the separators' does pass as they are.
    assert_eq!(escape("€ – “x” …"), "€ – “x” …");
    assert_eq!(
        escape("<\u{2028}é</script>\u{2029}<"),
        "\\u003c\\u2028é\\u003c/script>\\u2029\\u003c"
    );
    let style = |css: &str| written(push_css_for_style, css);
    assert_eq!(style(""), "");
    assert_eq!(style("a{b:c}"), "a{b:c}");
    assert_eq!(style("</style></</"), "<\\/style><\\/<\\/");
    assert_eq!(style("a</b"), "a<\\/b");
}

#[test]
fn fills_the_placeholders_and_keeps_data_inert() {
    let t = Template::parse(
        "<html><head><!--app-head--></head><body><div id=\"root\"><!--app-html--></div><!--app-data--><script src=x></script></body></html>",
    )
    .expect("valid template");
    let page = t.page(
        "<title>T</title>",
        m("<p>hi</p>"),
        r#"{"x":"</script><b>"}"#,
        "",
    );
    assert!(page.contains("<head><title>T</title></head>"));
    assert!(page.contains("<div id=\"root\"><p>hi</p></div>"));
    assert!(!page.contains("</script><b>"));
    assert!(page.contains(r#"{"x":"\u003c/script>\u003cb>"}"#));
}

#[test]
fn placeholders_may_come_in_any_order() {
    let t =
        Template::parse("<head><!--app-head--><!--app-data--></head><div><!--app-html--></div>")
            .expect("valid template");
    let page = t.page("<title>T</title>", m("<p>x</p>"), "{}", "");
    assert_eq!(
        page,
        "<head><title>T</title><script id=\"agora-data\" type=\"application/json\">{}</script></head><div><p>x</p></div>"
    );
}

const BUILT: &str = "<html><head><meta charset=\"UTF-8\" /><!--app-head--><!--app-data--><script type=\"module\" src=\"/assets/index.js\"></script>\n<link rel=\"modulepreload\" href=\"/assets/h.js\"><link rel=\"stylesheet\" crossorigin href=\"/assets/index.css\"><link rel=\"icon\" href=\"/i.svg\"></head><body><div id=\"root\"><!--app-html--></div></body></html>";

#[test]
fn with_critical_css_the_stylesheet_moves_to_the_end_of_the_body() {
    let t = Template::parse(BUILT).expect("valid template");
    let page = t.page(
        "<title>T</title>",
        m("<p>x</p>"),
        "{}",
        "p{color:red}</style>",
    );
    let style = page
        .find("<style>p{color:red}<\\/style></style>")
        .expect(&page);
    // Loaded for print (never holding the first paint) until the script applies it…
    let link = page
        .find("<link media=\"print\" data-agora-css rel=\"stylesheet\" crossorigin href=\"/assets/index.css\">")
        .expect(&page);
    assert!(style < page.find("</head>").expect("head"), "{page}");
    assert!(link > page.find("<p>x</p>").expect("markup"), "{page}");
    // …and applied at once where scripts are off.
    assert!(
        page.ends_with("<noscript><link rel=\"stylesheet\" crossorigin href=\"/assets/index.css\"></noscript></body></html>"),
        "{page}"
    );
    assert_eq!(page.matches("rel=\"stylesheet\"").count(), 2);
    // Scripts come after what paints the page.
    assert!(
        page.contains("<script type=\"module\" fetchpriority=\"low\" src=\"/assets/index.js\">")
    );
    assert!(
        page.contains("<link rel=\"modulepreload\" fetchpriority=\"low\" href=\"/assets/h.js\">")
    );
    assert!(page.contains("<link rel=\"icon\" href=\"/i.svg\"></head>"));
}

#[test]
fn without_critical_css_the_page_is_as_built() {
    let t = Template::parse(BUILT).expect("valid template");
    let page = t.page("<title>T</title>", m("<p>x</p>"), "{}", "");
    assert!(!page.contains("<style>"));
    assert!(!page.contains("fetchpriority"));
    let link = page.find("rel=\"stylesheet\"").expect(&page);
    assert!(link < page.find("</head>").expect("head"));
    // A template without stylesheets has nothing to defer.
    let bare =
        Template::parse("<head><!--app-head--><!--app-data--></head><div><!--app-html--></div>")
            .expect("valid template");
    assert!(!bare.page("", m(""), "{}", "p{}").contains("<style>"));
}

#[test]
fn rejects_a_template_without_placeholders() {
    assert!(Template::parse("<html></html>").is_err());
}
