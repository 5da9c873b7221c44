//! Reading server-rendered pages: an app with the real sidecar, a page's status and HTML,
//! the markup inside `#root`, and the page's structured data.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use serde_json::Value;

use super::{spawn_app_with, Engine, Options, TestApp};

/// An app on SQLite that renders its pages through the real sidecar.
pub async fn ssr_app() -> TestApp {
    spawn_app_with(
        Engine::Sqlite,
        Options {
            ssr: true,
            ..Options::default()
        },
    )
    .await
}

/// An app rendering through the sidecar, with the demo content.
pub async fn demo_ssr_app() -> TestApp {
    let app = ssr_app().await;
    agora::seed::demo(&app.services).await.unwrap();
    app
}

/// The page at `path`: its status and its HTML.
pub async fn page(app: &TestApp, path: &str) -> (u16, String) {
    let r = app.get(path).await;
    (r.status().as_u16(), r.text().await.unwrap())
}

/// What the server rendered inside `#root` (and what follows it).
pub fn root_markup(html: &str) -> &str {
    let start = html.find("<div id=\"root\">").unwrap() + "<div id=\"root\">".len();
    &html[start..]
}

/// Every JSON-LD block of the page, parsed.
pub fn json_ld(html: &str) -> Vec<Value> {
    let open = "<script type=\"application/ld+json\">";
    html.match_indices(open)
        .map(|(i, _)| {
            let body = &html[i + open.len()..];
            let end = body.find("</script>").unwrap();
            serde_json::from_str(&body[..end]).expect("JSON-LD parses")
        })
        .collect()
}
