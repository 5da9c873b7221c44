//! Telling a CDN in front of the site that content changed. Public pages may be held by a
//! shared cache for `CDN_MAX_AGE_SECONDS`; with `CDN_PURGE_URL` set, each change of content
//! (coalesced over a second) is followed by `POST {"purge_everything":true}` there, with the
//! optional `CDN_PURGE_HEADER`. That body is Cloudflare's purge API as is; Fastly's
//! `purge_all` and Bunny's `purgeCache` take the POST and ignore the body. No vendor SDK.

use std::sync::Arc;
use std::time::Duration;

use content::ContentService;
use tokio::sync::watch;

use crate::settings::CdnSettings;

/// How often the content version is looked at; changes within one tick make one purge.
const TICK: Duration = Duration::from_secs(1);

/// Runs until `stop` turns true; does nothing without a purge URL.
pub async fn purge_on_change(
    content: Arc<ContentService>,
    settings: CdnSettings,
    mut stop: watch::Receiver<bool>,
) {
    let Some(url) = settings.purge_url else {
        return;
    };
    let client = match reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
    {
        Ok(c) => c,
        Err(e) => {
            tracing::error!(error = %e, "CDN purge disabled: no HTTP client");
            return;
        }
    };
    let mut seen = content.version();
    loop {
        tokio::select! {
            _ = tokio::time::sleep(TICK) => {}
            _ = stop.changed() => return,
        }
        let now = content.version();
        if now == seen {
            continue;
        }
        let mut request = client
            .post(&url)
            .header("content-type", "application/json")
            .body(r#"{"purge_everything":true}"#);
        if let Some((name, value)) = &settings.purge_header {
            request = request.header(name.as_str(), value.expose().as_str());
        }
        match request.send().await {
            Ok(r) if r.status().is_success() => {
                tracing::info!(
                    status = r.status().as_u16(),
                    "CDN purged after a content change"
                );
                seen = now;
            }
            // Tried again on the next tick: a missed purge would leave pages stale for up to
            // `CDN_MAX_AGE_SECONDS`, not for ever.
            Ok(r) => tracing::warn!(status = r.status().as_u16(), "CDN purge refused"),
            Err(e) => tracing::warn!(error = %e, "CDN purge failed"),
        }
    }
}
