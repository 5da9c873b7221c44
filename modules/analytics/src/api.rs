//! The page-view beacon (client-side navigations) and the admin's figures.

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use identity::{Role, StaffSession};
use kernel::ErrorBody;
use poem::Request;
use poem_openapi::param::Query;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi, Tags};

use crate::limit::RateLimiter;
use crate::recorder::Recorder;
use crate::rules::{is_bot, is_public_page};
use crate::stats::figures;
use crate::store::AnalyticsStore;

#[derive(Tags)]
enum ApiTags {
    /// Page views.
    Analytics,
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
pub struct ViewBeacon {
    /// The path the reader navigated to, e.g. `/article/some-slug`.
    pub path: String,
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

#[derive(ApiResponse)]
pub enum BeaconResponse {
    /// Received, counted or not: only a page that exists (a published article, the home page
    /// or another public page) is counted, and not for robots or quick reloads. A path that is
    /// not such a page gets the same answer and is never counted.
    #[oai(status = 204)]
    Accepted,
    /// Too many beacons from this address (60 a minute by default); try again after
    /// `Retry-After` seconds. Nothing was counted.
    #[oai(status = 429)]
    TooMany(Json<ErrorBody>, #[oai(header = "Retry-After")] u64),
}

#[derive(ApiResponse)]
pub enum StatsResponse {
    #[oai(status = 200)]
    Ok(Json<ViewStats>),
    /// Unknown time zone.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// No live staff session.
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    /// Only admins see the figures.
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

pub struct AnalyticsApi {
    store: Arc<dyn AnalyticsStore>,
    recorder: Arc<Recorder>,
    titles: Arc<dyn ArticleTitles>,
    pages: Arc<dyn KnownPages>,
    beacons: RateLimiter,
    trust_proxy: bool,
}

impl AnalyticsApi {
    pub fn new(
        store: Arc<dyn AnalyticsStore>,
        recorder: Arc<Recorder>,
        titles: Arc<dyn ArticleTitles>,
        pages: Arc<dyn KnownPages>,
        trust_proxy: bool,
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
            trust_proxy,
        }
    }
}

#[OpenApi(tag = "ApiTags::Analytics")]
impl AnalyticsApi {
    /// Count a client-side navigation to a page (the first page of a visit is counted when
    /// the server renders it). Only pages that exist count: published articles, the home page
    /// and the other public pages; any other path, robots and quick reloads are ignored with
    /// the same 204. One address may send a limited number of beacons a minute (60 by default;
    /// 429 beyond).
    #[oai(path = "/v1/views", method = "post", operation_id = "recordView")]
    async fn beacon(&self, req: &Request, body: Json<ViewBeacon>) -> BeaconResponse {
        let client = kernel::http::client_address(req, self.trust_proxy);
        if let Err(retry_after) = self.beacons.check(&client) {
            return BeaconResponse::TooMany(
                Json(ErrorBody::new(
                    "too_many_requests",
                    format!("Too many page views from this address. Try again in {retry_after} seconds."),
                )),
                retry_after,
            );
        }
        let ua = req
            .headers()
            .get(poem::http::header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        let path = &body.0.path;
        // The cheap rules first, so junk never reaches the page lookup.
        if is_public_page(path) && !is_bot(ua) && self.pages.exists(path).await {
            self.recorder.record(path, &client, ua);
        }
        BeaconResponse::Accepted
    }

    /// Page-view figures for the admin dashboard, in the admin's time zone (an IANA name such
    /// as `Europe/London`; UTC when omitted).
    #[oai(path = "/v1/staff/stats", method = "get", operation_id = "viewStats")]
    async fn stats(&self, auth: StaffSession, tz: Query<Option<String>>) -> StatsResponse {
        if !auth.has_role(&[Role::Admin]) {
            return StatsResponse::Forbidden(identity::forbidden());
        }
        let name = tz.0.unwrap_or_else(|| "UTC".to_string());
        let Ok(zone) = name.parse::<chrono_tz::Tz>() else {
            return StatsResponse::BadRequest(Json(ErrorBody::new(
                "unknown_time_zone",
                format!("Unknown time zone {name:?}: use an IANA name such as Europe/London."),
            )));
        };
        let f = match figures(&*self.store, zone, kernel::ids::now()).await {
            Ok(f) => f,
            Err(e) => {
                tracing::error!(error = %e, "view stats failed");
                return StatsResponse::Internal(Json(ErrorBody::internal()));
            }
        };
        let slugs: Vec<String> = f.top_articles.iter().map(|(s, _)| s.clone()).collect();
        let titles = self.titles.titles(&slugs).await;
        StatsResponse::Ok(Json(ViewStats {
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
        }))
    }
}
