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

use crate::recorder::Recorder;
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
    /// Received (counted or not, by the counting rules).
    #[oai(status = 204)]
    Accepted,
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
    trust_proxy: bool,
}

impl AnalyticsApi {
    pub fn new(
        store: Arc<dyn AnalyticsStore>,
        recorder: Arc<Recorder>,
        titles: Arc<dyn ArticleTitles>,
        trust_proxy: bool,
    ) -> Self {
        Self {
            store,
            recorder,
            titles,
            trust_proxy,
        }
    }
}

#[OpenApi(tag = "ApiTags::Analytics")]
impl AnalyticsApi {
    /// Count a client-side navigation to a public page (the first page of a visit is counted
    /// when the server renders it). Robots, non-public paths and quick reloads are ignored.
    #[oai(path = "/v1/views", method = "post", operation_id = "recordView")]
    async fn beacon(&self, req: &Request, body: Json<ViewBeacon>) -> BeaconResponse {
        let client = kernel::http::client_address(req, self.trust_proxy);
        let ua = req
            .headers()
            .get(poem::http::header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        self.recorder.record(&body.0.path, &client, ua);
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
