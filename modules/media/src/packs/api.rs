//! The packs for readers (`GET /v1/packs`: files only once launched) and the admin's uploads
//! and launch.

use crate::access::MediaAction;
use kernel::Common;
use std::sync::Arc;

use identity::StaffSession;
use kernel::upload::MultipartStream;
use kernel::ErrorBody;
use poem::Request;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, OpenApi, Tags};

use super::{PackError, PackService, Packs, PacksUsage};
use crate::magazines::{read_pdf_upload, PdfUpload, UploadRefusal};

#[derive(Tags)]
enum ApiTags {
    /// The educational packs.
    Packs,
}

#[derive(ApiResponse)]
pub enum PacksResponse {
    #[oai(status = 200)]
    Ok(Json<Packs>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

#[derive(ApiResponse)]
pub enum StaffPacksResponse {
    #[oai(status = 200)]
    Ok(Json<Packs>),
    /// A malformed form.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// (Upload) not a PDF: `not_a_pdf`.
    #[oai(status = 415)]
    Unsupported(Json<ErrorBody>),
    /// No live staff session.
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    /// No pack has this id.
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    /// (Launch) a pack has no file yet: `pack_file_missing`, naming them.
    #[oai(status = 409)]
    Conflict(Json<ErrorBody>),
    /// Over the size limit.
    #[oai(status = 413)]
    TooLarge(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

impl From<PackError> for StaffPacksResponse {
    fn from(e: PackError) -> Self {
        match e {
            PackError::Invalid { code, message } => {
                let body = Json(ErrorBody::new(code, message));
                match code.refusal() {
                    kernel::Refusal::Unsupported => StaffPacksResponse::Unsupported(body),
                    kernel::Refusal::Invalid | kernel::Refusal::Unprocessable => {
                        StaffPacksResponse::BadRequest(body)
                    }
                }
            }
            PackError::NotReady { code, message } => {
                StaffPacksResponse::Conflict(Json(ErrorBody::new(code, message)))
            }
            PackError::NotFound => StaffPacksResponse::NotFound(Json(ErrorBody::new(
                Common::NotFound,
                "No such pack.",
            ))),
            e => StaffPacksResponse::Internal(failed(&e)),
        }
    }
}

impl From<UploadRefusal> for StaffPacksResponse {
    fn from(r: UploadRefusal) -> Self {
        match r {
            UploadRefusal::BadRequest(b) => StaffPacksResponse::BadRequest(b),
            UploadRefusal::TooLarge(b) => StaffPacksResponse::TooLarge(b),
            UploadRefusal::Internal(b) => StaffPacksResponse::Internal(b),
        }
    }
}

#[derive(ApiResponse)]
pub enum UsageResponse {
    #[oai(status = 200)]
    Ok(Json<PacksUsage>),
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

#[derive(ApiResponse)]
pub enum DownloadResponse {
    /// To the pack's file.
    #[oai(status = 303)]
    SeeOther(#[oai(header = "Location")] String),
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    /// No pack has this id (or it has no file).
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    /// The packs are not launched yet.
    #[oai(status = 409)]
    NotLaunched(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

fn failed(e: &dyn std::fmt::Debug) -> Json<ErrorBody> {
    tracing::error!(error = ?e, "packs request failed");
    Json(ErrorBody::internal())
}

pub struct PackApi {
    service: Arc<PackService>,
    max_bytes: usize,
}

impl PackApi {
    pub fn new(service: Arc<PackService>, max_bytes: usize) -> Self {
        PackApi { service, max_bytes }
    }
}

#[OpenApi(tag = "ApiTags::Packs")]
impl PackApi {
    /// The educational packs, with their files once they are launched.
    #[oai(path = "/v1/packs", method = "get", operation_id = "listPacks")]
    async fn packs(&self) -> PacksResponse {
        match self.service.packs(true).await {
            Ok(p) => PacksResponse::Ok(Json(p)),
            Err(e) => PacksResponse::Internal(failed(&e)),
        }
    }

    /// The packs with their uploaded files, launched or not (admins).
    #[oai(path = "/v1/staff/packs", method = "get", operation_id = "staffPacks")]
    async fn staff_packs(&self, auth: StaffSession) -> StaffPacksResponse {
        if !auth.may(MediaAction::ManagePacks) {
            return StaffPacksResponse::Forbidden(identity::forbidden());
        }
        match self.service.packs(false).await {
            Ok(p) => StaffPacksResponse::Ok(Json(p)),
            Err(e) => e.into(),
        }
    }

    /// The packs with how often staff downloaded each (educators, admins).
    #[oai(
        path = "/v1/staff/packs/usage",
        method = "get",
        operation_id = "packUsage"
    )]
    async fn usage(&self, auth: StaffSession) -> UsageResponse {
        if !auth.may(MediaAction::DownloadPacks) {
            return UsageResponse::Forbidden(identity::forbidden());
        }
        match self.service.usage().await {
            Ok(u) => UsageResponse::Ok(Json(u)),
            Err(e) => UsageResponse::Internal(failed(&e)),
        }
    }

    /// Download a launched pack (educators, admins): counted once per member, pack and day,
    /// then sent on to the file.
    #[oai(
        path = "/v1/staff/packs/:id/download",
        method = "get",
        operation_id = "downloadPack"
    )]
    async fn download(&self, auth: StaffSession, id: Path<String>) -> DownloadResponse {
        if !auth.may(MediaAction::DownloadPacks) {
            return DownloadResponse::Forbidden(identity::forbidden());
        }
        match self.service.download(&id.0, &auth.user().id).await {
            Ok(url) => DownloadResponse::SeeOther(url),
            Err(PackError::NotFound) => {
                DownloadResponse::NotFound(Json(ErrorBody::new(Common::NotFound, "No such pack.")))
            }
            Err(PackError::NotLaunched) => DownloadResponse::NotLaunched(Json(ErrorBody::new(
                Common::InvalidTransition,
                "The educational packs are not launched yet.",
            ))),
            Err(e) => DownloadResponse::Internal(failed(&e)),
        }
    }

    /// Upload (or replace) a pack's PDF (admins).
    #[oai(
        path = "/v1/staff/packs/:id/file",
        method = "put",
        operation_id = "uploadPack"
    )]
    async fn upload(
        &self,
        auth: StaffSession,
        id: Path<String>,
        req: &Request,
        body: MultipartStream<PdfUpload>,
    ) -> StaffPacksResponse {
        if !auth.may(MediaAction::ManagePacks) {
            return StaffPacksResponse::Forbidden(identity::forbidden());
        }
        let file = match read_pdf_upload(req, body, self.max_bytes).await {
            Ok(file) => file,
            Err(r) => return r.into(),
        };
        match self.service.upload(&id.0, &file).await {
            Ok(p) => {
                tracing::info!(by = %auth.user().id, pack = %id.0, "pack uploaded");
                StaffPacksResponse::Ok(Json(p))
            }
            Err(e) => e.into(),
        }
    }

    /// Launch the packs: readers and educators can download them from now on (admins; every
    /// pack needs its file).
    #[oai(
        path = "/v1/staff/packs/launch",
        method = "post",
        operation_id = "launchPacks"
    )]
    async fn launch(&self, auth: StaffSession) -> StaffPacksResponse {
        if !auth.may(MediaAction::ManagePacks) {
            return StaffPacksResponse::Forbidden(identity::forbidden());
        }
        match self.service.launch().await {
            Ok(p) => {
                tracing::info!(by = %auth.user().id, "packs launched");
                StaffPacksResponse::Ok(Json(p))
            }
            Err(e) => e.into(),
        }
    }
}
