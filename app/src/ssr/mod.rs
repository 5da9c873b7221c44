//! Server-side rendering: the supervised Node sidecar, the HTML template the web client
//! builds, and the head tags computed here (so they are right even without the sidecar).

mod head;
mod sidecar;
mod template;

pub use head::{absolute, escape_html, Head, SITE_CARD};
pub use sidecar::Sidecar;
pub use template::{Template, ARTICLE_BODY_MARK};

use std::sync::Arc;
use std::time::Duration;

use crate::settings::Settings;

/// Everything the sidecar needs for one page, plus the head tags.
pub struct PageRequest<'a> {
    /// Path and query as requested.
    pub url: &'a str,
    pub head: Head,
    /// The page data as JSON (also embedded in the page for hydration).
    pub data_json: String,
    /// The page shows what the server answered a form posted without JavaScript: the
    /// client-rendered shell would show such a browser nothing, so its render may take
    /// longer ([`FORM_ANSWER_DEADLINE`]).
    pub answers_form: bool,
    /// An article's body (sanitised HTML): kept out of the page data, so that the page
    /// carries it once, and put into the markup where the sidecar left
    /// [`ARTICLE_BODY_MARK`].
    pub body: Option<&'a str>,
}

/// How long the render of a page answering a no-script form may take: the browser that
/// posted it runs no scripts, so the shell would be a blank page, and the answer (read once)
/// would be lost with it.
pub const FORM_ANSWER_DEADLINE: Duration = Duration::from_secs(5);

/// What a dashboard shows where scripts do not run.
const NEEDS_JAVASCRIPT: &str =
    "<noscript><main class=\"section\"><div class=\"container auth-card\">\
<h1 class=\"page-title\">This dashboard needs JavaScript</h1>\
<p>The staff dashboards run in the browser. Turn JavaScript on for this site (or use another \
browser or device), then reload this page. Everything readers see works without it.</p>\
<p><a href=\"/\">Back to the home page</a></p></div></main></noscript>";

pub struct RenderedPage {
    pub html: String,
    /// False when the sidecar failed and this is the client-rendered shell.
    pub server_rendered: bool,
}

pub struct Renderer {
    template: Template,
    sidecar: Arc<Sidecar>,
    deadline: Duration,
    site_url: String,
    site_name: String,
}

impl Renderer {
    pub fn new(settings: &Settings, sidecar: Arc<Sidecar>) -> anyhow::Result<Renderer> {
        let index = settings.web_dist.join("client").join("index.html");
        let text = std::fs::read_to_string(&index).map_err(|e| {
            anyhow::anyhow!(
                "cannot read the web client template {}: {e} (build it with `make build`)",
                index.display()
            )
        })?;
        Ok(Renderer {
            template: Template::parse(&text)?,
            sidecar,
            deadline: settings.ssr.deadline,
            site_url: settings.site_url.clone(),
            site_name: settings.site_name.clone(),
        })
    }

    pub fn sidecar(&self) -> Arc<Sidecar> {
        self.sidecar.clone()
    }

    pub fn site_url(&self) -> &str {
        &self.site_url
    }

    pub fn site_name(&self) -> &str {
        &self.site_name
    }

    /// Renders through the sidecar within the deadline, or falls back to the shell.
    #[tracing::instrument(skip_all, fields(url = page.url))]
    pub async fn render(&self, page: &PageRequest<'_>) -> RenderedPage {
        let head = page.head.to_html(&self.site_url, &self.site_name);
        let body = format!(
            "{{\"url\":{},\"data\":{}}}",
            serde_json::Value::String(page.url.to_string()),
            page.data_json
        );
        let pixel = view_pixel(page.url);
        let deadline = if page.answers_form {
            self.deadline.max(FORM_ANSWER_DEADLINE)
        } else {
            self.deadline
        };
        match self.sidecar.render(body, deadline).await {
            Ok(rendered) => RenderedPage {
                html: template::before_body_end(
                    self.template.page(
                        &head,
                        template::Markup {
                            html: rendered.html(),
                            body: page.body,
                        },
                        &page.data_json,
                        rendered.css(),
                    ),
                    &pixel,
                ),
                server_rendered: true,
            },
            Err(e) => {
                // A busy sidecar is counted where the render waited for a slot.
                if !matches!(e, sidecar::RenderError::Busy(_)) {
                    crate::metrics::sidecar_failed();
                }
                tracing::warn!(error = %e, "server render failed; serving the client-rendered shell");
                RenderedPage {
                    html: template::before_body_end(
                        self.template.page(
                            &head,
                            template::Markup {
                                html: "",
                                body: page.body,
                            },
                            &page.data_json,
                            "",
                        ),
                        &pixel,
                    ),
                    server_rendered: false,
                }
            }
        }
    }

    /// The client-rendered shell, for pages that are never server-rendered (dashboards).
    /// Without scripts it says plainly that the page needs them.
    pub fn shell(&self, head: &Head, data_json: &str) -> String {
        self.template.page(
            &head.to_html(&self.site_url, &self.site_name),
            template::Markup {
                html: NEEDS_JAVASCRIPT,
                body: None,
            },
            data_json,
            "",
        )
    }
}

/// How a page loaded without scripts is counted as a view: an image only such a browser loads
/// (with scripts, the page's beacon counts it, with its tab's marker).
fn view_pixel(url: &str) -> String {
    let path = url.split(['?', '#']).next().unwrap_or("/");
    let path: String = form_urlencoded::byte_serialize(path.as_bytes()).collect();
    format!(
        "<noscript><img src=\"/api/v1/views/pixel?path={path}\" alt=\"\" width=\"1\" \
         height=\"1\"></noscript>"
    )
}
