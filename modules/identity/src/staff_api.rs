//! Staff management for admins: the same rules as the `agora staff` commands.

use crate::access::StaffListAction;
use crate::codes::Code;
use kernel::Common;
use std::sync::Arc;

use kernel::ErrorBody;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi, Tags};

use crate::guard::StaffSession;
use crate::model::{Role, StaffNotices, StaffRecord, StaffUser};
use crate::service::{IdentityError, IdentityService};

#[derive(Tags)]
enum ApiTags {
    /// Staff management (admins only).
    Staff,
}

#[derive(Debug, Object)]
#[oai(deny_unknown_fields)]
pub struct NewStaffMember {
    pub name: kernel::text::Text<kernel::text::Required<{ crate::service::MAX_NAME_CHARS }>>,
    pub role: Role,
}

#[derive(Debug, Object)]
pub struct IssuedKey {
    pub member: StaffUser,
    /// The access key. It is shown this once; only its keyed hash is stored.
    pub access_key: String,
}

#[derive(Debug, Object)]
#[oai(deny_unknown_fields)]
pub struct ActiveChange {
    pub active: bool,
}

#[derive(ApiResponse)]
pub enum StaffListResponse {
    #[oai(status = 200)]
    Ok(Json<Vec<StaffRecord>>),
    /// No live staff session.
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

#[derive(ApiResponse)]
pub enum AddedResponse {
    /// The new member and their key, shown this once.
    #[oai(status = 201)]
    Created(Json<IssuedKey>),
    /// A name or role the product does not accept.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// No live staff session.
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

#[derive(ApiResponse)]
pub enum RotatedResponse {
    /// The member and their new key, shown this once.
    #[oai(status = 200)]
    Ok(Json<IssuedKey>),
    /// No live staff session.
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

#[derive(ApiResponse)]
pub enum ActiveResponse {
    #[oai(status = 200)]
    Ok(Json<StaffRecord>),
    /// No live staff session.
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    /// The last active admin cannot be disabled.
    #[oai(status = 409)]
    Conflict(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

#[derive(ApiResponse)]
pub enum NoticesResponse {
    #[oai(status = 200)]
    Ok(Json<StaffNotices>),
    /// The address is not an email address.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// No live staff session.
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

fn notices_answer(r: Result<StaffNotices, IdentityError>) -> NoticesResponse {
    match r {
        Ok(n) => NoticesResponse::Ok(Json(n)),
        Err(IdentityError::Invalid(m)) => {
            NoticesResponse::BadRequest(Json(ErrorBody::new(Common::InvalidEmail, m)))
        }
        Err(e) => NoticesResponse::Internal(internal(&e)),
    }
}

pub struct StaffAdminApi {
    service: Arc<IdentityService>,
}

impl StaffAdminApi {
    pub fn new(service: Arc<IdentityService>) -> Self {
        Self { service }
    }
}

fn not_found() -> Json<ErrorBody> {
    Json(ErrorBody::new(Common::NotFound, "No such staff member."))
}

fn internal(e: &dyn std::fmt::Debug) -> Json<ErrorBody> {
    tracing::error!(error = ?e, "staff management failed");
    Json(ErrorBody::internal())
}

#[OpenApi(tag = "ApiTags::Staff")]
impl StaffAdminApi {
    /// The signed-in member's newsroom email notices (any role).
    #[oai(
        path = "/v1/staff/me/notices",
        method = "get",
        operation_id = "myNotices"
    )]
    async fn my_notices(&self, auth: StaffSession) -> NoticesResponse {
        notices_answer(self.service.notices(&auth.user().id).await)
    }

    /// Set where the signed-in member gets newsroom notices, and whether they want them.
    #[oai(
        path = "/v1/staff/me/notices",
        method = "put",
        operation_id = "setMyNotices"
    )]
    async fn set_my_notices(
        &self,
        auth: StaffSession,
        body: Json<StaffNotices>,
    ) -> NoticesResponse {
        notices_answer(self.service.set_notices(&auth.user().id, body.0).await)
    }

    /// Every staff member with role, state and last sign-in (never a key).
    #[oai(path = "/v1/staff/members", method = "get", operation_id = "listStaff")]
    async fn list(&self, auth: StaffSession) -> StaffListResponse {
        if !auth.may(StaffListAction::Manage) {
            return StaffListResponse::Forbidden(crate::api::forbidden());
        }
        match self.service.staff().await {
            Ok(staff) => StaffListResponse::Ok(Json(staff)),
            Err(e) => StaffListResponse::Internal(internal(&e)),
        }
    }

    /// Add a staff member; the answer carries their access key, shown once.
    #[oai(path = "/v1/staff/members", method = "post", operation_id = "addStaff")]
    async fn add(&self, auth: StaffSession, body: Json<NewStaffMember>) -> AddedResponse {
        if !auth.may(StaffListAction::Manage) {
            return AddedResponse::Forbidden(crate::api::forbidden());
        }
        match self.service.add_staff(&body.0.name, body.0.role).await {
            Ok((member, access_key)) => {
                tracing::info!(by = %auth.user().id, id = %member.id, "staff member added");
                AddedResponse::Created(Json(IssuedKey { member, access_key }))
            }
            Err(IdentityError::Invalid(m)) => {
                AddedResponse::BadRequest(Json(ErrorBody::new(Code::InvalidStaff, m)))
            }
            Err(e) => AddedResponse::Internal(internal(&e)),
        }
    }

    /// Issue a new key: the old key and every session of the member stop working.
    #[oai(
        path = "/v1/staff/members/:id/rotate-key",
        method = "post",
        operation_id = "rotateStaffKey"
    )]
    async fn rotate(&self, auth: StaffSession, id: Path<String>) -> RotatedResponse {
        if !auth.may(StaffListAction::Manage) {
            return RotatedResponse::Forbidden(crate::api::forbidden());
        }
        let member = match self.service.staff().await {
            Ok(staff) => staff.into_iter().find(|s| s.id == id.0),
            Err(e) => return RotatedResponse::Internal(internal(&e)),
        };
        let Some(member) = member else {
            return RotatedResponse::NotFound(not_found());
        };
        match self.service.rotate_key(&id.0).await {
            Ok(access_key) => {
                tracing::info!(by = %auth.user().id, id = %id.0, "staff key rotated");
                RotatedResponse::Ok(Json(IssuedKey {
                    member: StaffUser {
                        id: member.id,
                        name: member.name,
                        role: member.role,
                    },
                    access_key,
                }))
            }
            Err(IdentityError::NotFound) => RotatedResponse::NotFound(not_found()),
            Err(e) => RotatedResponse::Internal(internal(&e)),
        }
    }

    /// Disable (ending their sessions) or re-enable a staff member. The last active admin
    /// cannot be disabled.
    #[oai(
        path = "/v1/staff/members/:id/active",
        method = "put",
        operation_id = "setStaffActive"
    )]
    async fn set_active(
        &self,
        auth: StaffSession,
        id: Path<String>,
        body: Json<ActiveChange>,
    ) -> ActiveResponse {
        if !auth.may(StaffListAction::Manage) {
            return ActiveResponse::Forbidden(crate::api::forbidden());
        }
        match self.service.set_active(&id.0, body.0.active).await {
            Ok(()) => {}
            Err(IdentityError::NotFound) => return ActiveResponse::NotFound(not_found()),
            Err(e @ IdentityError::LastAdmin) => {
                return ActiveResponse::Conflict(Json(ErrorBody::new(
                    Code::LastAdmin,
                    e.to_string(),
                )))
            }
            Err(e) => return ActiveResponse::Internal(internal(&e)),
        }
        tracing::info!(by = %auth.user().id, id = %id.0, active = body.0.active, "staff state changed");
        match self.service.staff().await {
            Ok(staff) => match staff.into_iter().find(|s| s.id == id.0) {
                Some(member) => ActiveResponse::Ok(Json(member)),
                None => ActiveResponse::NotFound(not_found()),
            },
            Err(e) => ActiveResponse::Internal(internal(&e)),
        }
    }
}
