//! Page views over HTTP: the beacon each page load sends (with its tab's marker), the image a
//! page loaded without scripts shows instead, and the admin's figures.

use crate::access::StatsAction;
use crate::codes::Code;
use kernel::Common;
use std::sync::Arc;

use identity::StaffSession;
use kernel::ErrorBody;
use poem::Request;
use poem_openapi::param::Query;
use poem_openapi::payload::{Binary, Json};
use poem_openapi::{ApiResponse, OpenApi, Tags};

use crate::service::{AnalyticsError, AnalyticsService, ViewBeacon, ViewStats};

#[derive(Tags)]
enum ApiTags {
    /// Page views.
    Analytics,
}

#[derive(ApiResponse)]
pub enum BeaconResponse {
    /// Received, counted or not: only a page that exists (a published article, the home page
    /// or another public page) is counted, and not for robots or quick reloads. A path that is
    /// not such a page gets the same answer and is never counted.
    #[oai(status = 204)]
    Accepted,
    /// Too many beacons from this address (600 a minute by default); try again after
    /// `Retry-After` seconds. Nothing was counted.
    #[oai(status = 429)]
    TooMany(Json<ErrorBody>, #[oai(header = "Retry-After")] u64),
}

#[derive(ApiResponse)]
pub enum PixelResponse {
    /// A transparent 1×1 GIF, whether the view counted or not.
    #[oai(status = 200, content_type = "image/gif")]
    Ok(Binary<Vec<u8>>, #[oai(header = "Cache-Control")] String),
    /// Too many views from this address; nothing was counted.
    #[oai(status = 429)]
    TooMany(Json<ErrorBody>, #[oai(header = "Retry-After")] u64),
}

/// A transparent 1×1 GIF.
const PIXEL: [u8; 43] = [
    0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00,
    0xff, 0xff, 0xff, 0x21, 0xf9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00, 0x2c, 0x00, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3b,
];

#[derive(ApiResponse)]
pub enum StatsResponse {
    #[oai(status = 200)]
    Ok(Json<ViewStats>),
    /// A time zone the server's IANA database does not name (`unknown_time_zone`).
    #[oai(status = 422)]
    UnknownTimeZone(Json<ErrorBody>),
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
    service: Arc<AnalyticsService>,
    trust_proxy: bool,
}

impl AnalyticsApi {
    pub fn new(service: Arc<AnalyticsService>, trust_proxy: bool) -> Self {
        Self {
            service,
            trust_proxy,
        }
    }
}

impl AnalyticsApi {
    /// Who sent `req`: its client address and browser.
    fn sender<'r>(&self, req: &'r Request) -> (String, &'r str) {
        let ua = req
            .headers()
            .get(poem::http::header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        (kernel::http::client_address(req, self.trust_proxy), ua)
    }
}

#[OpenApi(tag = "ApiTags::Analytics")]
impl AnalyticsApi {
    /// Count a page view: each page load and each client-side navigation sends one, with the
    /// tab's marker, so every reader counts (a class on one school address included) and only
    /// reloads of the same tab within 30 minutes are folded. Only pages that exist count:
    /// published articles, the home page and the other public pages; any other path and
    /// robots are ignored with the same 204. One address may send a limited number of beacons
    /// a minute (600 by default; 429 beyond).
    #[oai(path = "/v1/views", method = "post", operation_id = "recordView")]
    async fn beacon(&self, req: &Request, body: Json<ViewBeacon>) -> BeaconResponse {
        let (client, ua) = self.sender(req);
        match self
            .service
            .beacon(&body.0.path, body.0.tab.as_deref(), &client, ua)
            .await
        {
            Err(e @ AnalyticsError::TooMany { retry_after }) => BeaconResponse::TooMany(
                Json(ErrorBody::new(Common::TooManyRequests, e.to_string())),
                retry_after,
            ),
            // Nothing else can fail: a beacon is counted later, or not at all.
            _ => BeaconResponse::Accepted,
        }
    }

    /// The view of a page loaded without scripts (its `<noscript>` image): counted as the
    /// beacon is, with the address and browser folding reloads (there is no tab marker).
    #[oai(path = "/v1/views/pixel", method = "get", operation_id = "viewPixel")]
    async fn pixel(&self, req: &Request, path: Query<String>) -> PixelResponse {
        let (client, ua) = self.sender(req);
        match self.service.beacon(&path.0, None, &client, ua).await {
            Err(e @ AnalyticsError::TooMany { retry_after }) => PixelResponse::TooMany(
                Json(ErrorBody::new(Common::TooManyRequests, e.to_string())),
                retry_after,
            ),
            _ => PixelResponse::Ok(Binary(PIXEL.to_vec()), "no-store".into()),
        }
    }

    /// Page-view figures for the admin dashboard, in the admin's time zone (an IANA name such
    /// as `Europe/London`; UTC when omitted).
    #[oai(path = "/v1/staff/stats", method = "get", operation_id = "viewStats")]
    async fn stats(&self, auth: StaffSession, tz: Query<Option<String>>) -> StatsResponse {
        if !auth.may(StatsAction::View) {
            return StatsResponse::Forbidden(identity::forbidden());
        }
        let tz = tz.0.unwrap_or_else(|| "UTC".to_string());
        match self.service.stats(&tz).await {
            Ok(stats) => StatsResponse::Ok(Json(stats)),
            Err(e @ AnalyticsError::UnknownTimeZone(_)) => StatsResponse::UnknownTimeZone(Json(
                ErrorBody::new(Code::UnknownTimeZone, e.to_string()),
            )),
            Err(e) => {
                tracing::error!(error = %e, "view stats failed");
                StatsResponse::Internal(Json(ErrorBody::internal()))
            }
        }
    }
}
