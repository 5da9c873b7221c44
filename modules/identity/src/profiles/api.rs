//! Contributors edit their profiles; the content director and admins edit anyone's.

use std::sync::Arc;

use kernel::{Common, ErrorBody, Generation, Scope};
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, OpenApi, Tags};

use super::{ProfileChange, ProfileSettings};
use crate::access::ProfileAction;
use crate::codes::Code;
use crate::guard::StaffSession;
use crate::service::{IdentityError, IdentityService};

#[derive(Tags)]
enum ApiTags {
    /// Contributors' public profiles: the name their bylines show and their bio.
    Profiles,
}

#[derive(ApiResponse)]
pub enum ProfileResponse {
    #[oai(status = 200)]
    Ok(Json<ProfileSettings>),
    /// The bio is too long or holds control characters.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// No live staff session.
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    /// No such member, or one without a public page (an educator).
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

fn answer(r: Result<ProfileSettings, IdentityError>) -> ProfileResponse {
    match r {
        Ok(p) => ProfileResponse::Ok(Json(p)),
        Err(IdentityError::Invalid(m)) => {
            ProfileResponse::BadRequest(Json(ErrorBody::new(Code::InvalidProfile, m)))
        }
        Err(IdentityError::NotFound) => ProfileResponse::NotFound(Json(ErrorBody::new(
            Common::NotFound,
            "This member has no contributor profile.",
        ))),
        Err(e) => {
            tracing::error!(error = ?e, "profile failed");
            ProfileResponse::Internal(Json(ErrorBody::internal()))
        }
    }
}

pub struct ProfileApi {
    service: Arc<IdentityService>,
    /// Bylines show on every public page: a changed name makes them all stale. They are
    /// withdrawn, not served stale while they render again: a contributor who hides their
    /// last name or takes back a line of their bio is not shown as before to anyone.
    pages: Generation,
}

impl ProfileApi {
    pub fn new(service: Arc<IdentityService>, pages: Generation) -> Self {
        Self { service, pages }
    }

    async fn change(&self, id: &str, change: ProfileChange) -> ProfileResponse {
        let r = self.service.set_profile(id, change).await;
        if r.is_ok() {
            self.pages.withdraw(Scope::Everything);
        }
        answer(r)
    }
}

#[OpenApi(tag = "ApiTags::Profiles")]
impl ProfileApi {
    /// The signed-in member's profile, as their page shows it.
    #[oai(
        path = "/v1/staff/me/profile",
        method = "get",
        operation_id = "myProfile"
    )]
    async fn mine(&self, auth: StaffSession) -> ProfileResponse {
        if !auth.may(ProfileAction::EditOwn) {
            return ProfileResponse::Forbidden(crate::api::forbidden());
        }
        answer(self.service.profile_settings(&auth.user().id).await)
    }

    /// Change the signed-in member's bio and the name their page shows.
    #[oai(
        path = "/v1/staff/me/profile",
        method = "put",
        operation_id = "setMyProfile"
    )]
    async fn set_mine(&self, auth: StaffSession, body: Json<ProfileChange>) -> ProfileResponse {
        if !auth.may(ProfileAction::EditOwn) {
            return ProfileResponse::Forbidden(crate::api::forbidden());
        }
        self.change(&auth.user().id, body.0).await
    }

    /// A member's profile (content director and admins).
    #[oai(
        path = "/v1/staff/members/:id/profile",
        method = "get",
        operation_id = "memberProfile"
    )]
    async fn theirs(&self, auth: StaffSession, id: Path<String>) -> ProfileResponse {
        if !auth.may(ProfileAction::EditAnyone) {
            return ProfileResponse::Forbidden(crate::api::forbidden());
        }
        answer(self.service.profile_settings(&id.0).await)
    }

    /// Change a member's bio and the name their page shows (content director and admins).
    #[oai(
        path = "/v1/staff/members/:id/profile",
        method = "put",
        operation_id = "setMemberProfile"
    )]
    async fn set_theirs(
        &self,
        auth: StaffSession,
        id: Path<String>,
        body: Json<ProfileChange>,
    ) -> ProfileResponse {
        if !auth.may(ProfileAction::EditAnyone) {
            return ProfileResponse::Forbidden(crate::api::forbidden());
        }
        tracing::info!(by = %auth.user().id, id = %id.0, "profile changed by staff");
        self.change(&id.0, body.0).await
    }
}
