//! The analytics service: which beacons count, and the admin's figures with article titles.

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use poem_openapi::Object;

use crate::limit::RateLimiter;
use crate::recorder::{Recorder, Viewer};
use crate::rules::{is_bot, is_public_page};
use crate::stats::figures;
use crate::store::AnalyticsStore;

#[derive(Debug, thiserror::Error)]
pub enum AnalyticsError {
    /// Too many beacons from one address; try again after `retry_after` seconds.
    #[error("Too many page views from this address. Try again in {retry_after} seconds.")]
    TooMany { retry_after: u64 },
    #[error("Unknown time zone {0:?}: use an IANA name such as Europe/London.")]
    UnknownTimeZone(String),
    #[error(transparent)]
    Unexpected(sqlx::Error),
}

impl From<sqlx::Error> for AnalyticsError {
    fn from(e: sqlx::Error) -> Self {
        kernel::http::note_database_error(&e);
        AnalyticsError::Unexpected(e)
    }
}

/// Titles of published articles by slug (provided by the content module).
#[async_trait]
pub trait ArticleTitles: Send + Sync {
    async fn titles(&self, slugs: &[String]) -> HashMap<String, String>;
}

/// Which paths are pages that exist: the home page and the other public pages of the route
/// table, and published articles (provided by the app, over its routes and the content module).
#[async_trait]
pub trait KnownPages: Send + Sync {
    async fn exists(&self, path: &str) -> bool;
}

#[derive(Debug, Object)]
#[oai(deny_unknown_fields)]
pub struct ViewBeacon {
    /// The path of the page loaded or navigated to, e.g. `/article/some-slug`.
    pub path: String,
    /// The tab's own random marker, kept in its `sessionStorage` (up to 64 characters): a
    /// reload of the same page in the same tab within 30 minutes is not counted again, while
    /// every other tab (another reader on the same school network and browser) is. Nothing
    /// that identifies a reader is stored; without it (or `null`), the address and browser
    /// stand in.
    #[oai(nullable)]
    pub tab: Option<String>,
}

#[derive(Debug, Object)]
pub struct DayViews {
    /// Local date (YYYY-MM-DD) in the requested time zone.
    pub date: String,
    pub views: i64,
}

#[derive(Debug, Object)]
pub struct TopArticle {
    pub slug: String,
    /// The article's title, when it is still published.
    pub title: Option<String>,
    pub views: i64,
}

#[derive(Debug, Object)]
pub struct ViewStats {
    pub total_views: i64,
    /// Views since midnight in `time_zone`.
    pub views_today: i64,
    pub time_zone: String,
    /// The last 30 days, oldest first, ending today.
    pub days: Vec<DayViews>,
    /// Most viewed articles over the same 30 days.
    pub top_articles: Vec<TopArticle>,
}

pub struct AnalyticsService {
    store: Arc<dyn AnalyticsStore>,
    recorder: Arc<Recorder>,
    titles: Arc<dyn ArticleTitles>,
    pages: Arc<dyn KnownPages>,
    beacons: RateLimiter,
}

impl AnalyticsService {
    pub fn new(
        store: Arc<dyn AnalyticsStore>,
        recorder: Arc<Recorder>,
        titles: Arc<dyn ArticleTitles>,
        pages: Arc<dyn KnownPages>,
    ) -> Self {
        let beacons = RateLimiter::new(
            recorder.beacons_per_minute(),
            std::time::Duration::from_secs(60),
        );
        Self {
            store,
            recorder,
            titles,
            pages,
            beacons,
        }
    }

    /// A page loaded or navigated to at `path` in tab `tab` (or, without a marker, by
    /// `client` with browser `user_agent`): counted when it is a page that exists and not a
    /// robot's (the recorder folds reloads). One address sends a limited number a minute.
    pub async fn beacon(
        &self,
        path: &str,
        tab: Option<&str>,
        client: &str,
        user_agent: &str,
    ) -> Result<(), AnalyticsError> {
        if let Err(retry_after) = self.beacons.check(client) {
            return Err(AnalyticsError::TooMany { retry_after });
        }
        let viewer = match tab.map(str::trim) {
            Some(tab)
                if !tab.is_empty() && tab.chars().count() <= crate::recorder::MAX_TAB_CHARS =>
            {
                Viewer::Tab(tab)
            }
            _ => Viewer::Client {
                address: client,
                user_agent,
            },
        };
        // The cheap rules first, so junk never reaches the page lookup.
        if is_public_page(path) && !is_bot(user_agent) && self.pages.exists(path).await {
            self.recorder.record(path, viewer, user_agent);
        }
        Ok(())
    }

    /// Brings the most-viewed window up to today's UTC day (see [`crate::store::WINDOW_DAYS`]);
    /// true when this call rebuilt it. Run by housekeeping; until it runs on a new day, the
    /// figures add up the per-day rows instead.
    pub async fn refresh_window(&self) -> Result<bool, AnalyticsError> {
        let today = kernel::ids::now().timestamp().div_euclid(crate::store::DAY);
        Ok(self.store.refresh_window(today).await?)
    }

    /// The figures in time zone `tz` (an IANA name).
    pub async fn stats(&self, tz: &str) -> Result<ViewStats, AnalyticsError> {
        let zone = tz
            .parse::<chrono_tz::Tz>()
            .map_err(|_| AnalyticsError::UnknownTimeZone(tz.to_string()))?;
        let f = figures(&*self.store, zone, kernel::ids::now()).await?;
        let slugs: Vec<String> = f.top_articles.iter().map(|(s, _)| s.clone()).collect();
        let titles: HashMap<String, String> = self.titles.titles(&slugs).await;
        Ok(ViewStats {
            total_views: f.total_views,
            views_today: f.views_today,
            time_zone: zone.name().to_string(),
            days: f
                .days
                .into_iter()
                .map(|(date, views)| DayViews {
                    date: date.to_string(),
                    views,
                })
                .collect(),
            top_articles: f
                .top_articles
                .into_iter()
                .map(|(slug, views)| TopArticle {
                    title: titles.get(&slug).cloned(),
                    slug,
                    views,
                })
                .collect(),
        })
    }
}
