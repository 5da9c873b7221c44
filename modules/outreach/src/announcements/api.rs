//! The admin's announcement endpoints: preview (the email, the recipient count, how far a send
//! got) and send.

use crate::access::OutreachAction;
use kernel::Common;
use std::sync::Arc;

use identity::StaffSession;
use kernel::ErrorBody;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, OpenApi, Tags};

use super::{
    Announced, AnnouncementError, AnnouncementPreview, AnnouncementProgress, Announcements,
};

#[derive(Tags)]
enum ApiTags {
    /// Launch announcements to the notify lists (admins only).
    Announcements,
}

#[derive(ApiResponse)]
pub enum PreviewResponse {
    #[oai(status = 200)]
    Ok(Json<AnnouncementPreview>),
    /// No live staff session.
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    /// Nothing to announce: no published issue has this id, or the packs are not launched.
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

#[derive(ApiResponse)]
pub enum SendResponse {
    /// Sending (or sent before: nothing new is sent); how far it got.
    #[oai(status = 202)]
    Accepted(Json<AnnouncementProgress>),
    /// No live staff session.
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    /// Nothing to announce: no published issue has this id, or the packs are not launched.
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

pub struct AnnouncementApi {
    announcements: Arc<Announcements>,
}

impl AnnouncementApi {
    pub fn new(announcements: Arc<Announcements>) -> Self {
        AnnouncementApi { announcements }
    }
}

fn not_found(e: &AnnouncementError) -> Json<ErrorBody> {
    Json(ErrorBody::new(
        Common::NotFound,
        match e {
            AnnouncementError::NotLaunched => "Launch the packs first.",
            _ => "No published issue has this id: publish it first.",
        },
    ))
}

impl AnnouncementApi {
    async fn preview_of(&self, auth: &StaffSession, what: Announced<'_>) -> PreviewResponse {
        if !auth.may(OutreachAction::Announce) {
            return PreviewResponse::Forbidden(identity::forbidden());
        }
        match self.announcements.preview(what).await {
            Ok(p) => PreviewResponse::Ok(Json(p)),
            Err(e @ (AnnouncementError::NotFound | AnnouncementError::NotLaunched)) => {
                PreviewResponse::NotFound(not_found(&e))
            }
            Err(e) => PreviewResponse::Internal(failed(&e)),
        }
    }

    async fn send_of(&self, auth: &StaffSession, what: Announced<'_>) -> SendResponse {
        if !auth.may(OutreachAction::Announce) {
            return SendResponse::Forbidden(identity::forbidden());
        }
        match self.announcements.announce(what, &auth.user().id).await {
            Ok(p) => SendResponse::Accepted(Json(p)),
            Err(e @ (AnnouncementError::NotFound | AnnouncementError::NotLaunched)) => {
                SendResponse::NotFound(not_found(&e))
            }
            Err(e) => SendResponse::Internal(failed(&e)),
        }
    }
}

fn failed(e: &AnnouncementError) -> Json<ErrorBody> {
    tracing::error!(error = ?e, "announcement request failed");
    Json(ErrorBody::internal())
}

#[OpenApi(tag = "ApiTags::Announcements")]
impl AnnouncementApi {
    /// The announcement of a published issue: the email, how many addresses are on the
    /// magazine list, and how far the send got once it was sent.
    #[oai(
        path = "/v1/staff/magazines/:id/announcement",
        method = "get",
        operation_id = "previewAnnouncement"
    )]
    async fn preview(&self, auth: StaffSession, id: Path<String>) -> PreviewResponse {
        self.preview_of(&auth, Announced::Issue(&id.0)).await
    }

    /// Send the announcement of a published issue to the magazine list, once: in batches,
    /// after transactional email, each address once. Asking again sends nothing new.
    #[oai(
        path = "/v1/staff/magazines/:id/announcement",
        method = "post",
        operation_id = "sendAnnouncement"
    )]
    async fn send(&self, auth: StaffSession, id: Path<String>) -> SendResponse {
        self.send_of(&auth, Announced::Issue(&id.0)).await
    }

    /// The announcement of the packs' launch to the packs list: the email, how many addresses
    /// are on the list, and how far the send got once it was sent.
    #[oai(
        path = "/v1/staff/packs/announcement",
        method = "get",
        operation_id = "previewPacksAnnouncement"
    )]
    async fn preview_packs(&self, auth: StaffSession) -> PreviewResponse {
        self.preview_of(&auth, Announced::PacksLaunch).await
    }

    /// Send the announcement of the packs' launch to the packs list, once.
    #[oai(
        path = "/v1/staff/packs/announcement",
        method = "post",
        operation_id = "sendPacksAnnouncement"
    )]
    async fn send_packs(&self, auth: StaffSession) -> SendResponse {
        self.send_of(&auth, Announced::PacksLaunch).await
    }
}
