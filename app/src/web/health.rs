//! Liveness and readiness.

use std::sync::Arc;

use kernel::Db;
use poem::http::StatusCode;
use poem::web::{Data, Json};
use poem::{handler, IntoResponse, Response};
use serde_json::json;

use crate::ssr::Sidecar;

#[derive(Clone)]
pub struct Health {
    pub db: Db,
    pub sidecar: Arc<Sidecar>,
}

/// Alive: the process answers.
#[handler]
pub fn healthz() -> &'static str {
    "ok"
}

/// Ready: the database answers, and the rendering sidecar answers and is being sent renders
/// (after a restart the app resumes rendering only once it has seen the new sidecar answer, so
/// "ready" must not run ahead of that).
#[handler]
pub async fn readyz(health: Data<&Health>) -> Response {
    let db = health.db.ping().await.is_ok();
    let sidecar = health.sidecar.is_up() && health.sidecar.healthy().await;
    let status = if db && sidecar {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let word = |ok: bool| if ok { "ok" } else { "unavailable" };
    (
        status,
        Json(json!({"database": word(db), "sidecar": word(sidecar)})),
    )
        .into_response()
}
