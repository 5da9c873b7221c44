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
    /// No issue has this id.
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    /// Nothing to announce yet: the issue is not published, or the packs are not launched.
    #[oai(status = 409)]
    NotYet(Json<ErrorBody>),
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
    /// No issue has this id.
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    /// Nothing to announce yet: the issue is not published, or the packs are not launched.
    #[oai(status = 409)]
    NotYet(Json<ErrorBody>),
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

fn not_found() -> Json<ErrorBody> {
    Json(ErrorBody::new(Common::NotFound, "No issue has this id."))
}

/// The issue exists but is a draft, or the packs exist but are not launched: a state the
/// announcement has to wait for, not something missing.
fn not_yet(e: &AnnouncementError) -> Json<ErrorBody> {
    Json(ErrorBody::new(
        Common::InvalidTransition,
        match e {
            AnnouncementError::NotLaunched => "Launch the packs first.",
            _ => "This issue is not published yet: publish it first.",
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
            Err(AnnouncementError::NotFound) => PreviewResponse::NotFound(not_found()),
            Err(e @ (AnnouncementError::Unpublished | AnnouncementError::NotLaunched)) => {
                PreviewResponse::NotYet(not_yet(&e))
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
            Err(AnnouncementError::NotFound) => SendResponse::NotFound(not_found()),
            Err(e @ (AnnouncementError::Unpublished | AnnouncementError::NotLaunched)) => {
                SendResponse::NotYet(not_yet(&e))
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
