//! The staff API over issues (admins only): list, upload (streamed, its size capped as it
//! arrives), rename, delete; the rules are the service's.

use std::sync::Arc;

use identity::{Role, StaffSession};
use kernel::upload::{spool, MultipartStream, PartError};
use kernel::ErrorBody;
use poem::Request;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::types::multipart::Upload;
use poem_openapi::{ApiResponse, Multipart, Object, OpenApi, Tags};

use super::service::{MagazineError, MagazineService};
use super::{IssuePublication, Magazine, MagazineIssue};
use kernel::ErrorCode;

#[derive(Tags)]
enum ApiTags {
    /// Magazine issues (admins only).
    Magazines,
    /// Published magazine issues, for readers.
    Magazine,
}

/// The form the contract shows for a PDF upload; it is read part by part (see
/// [`read_pdf_upload`]).
#[derive(Debug, Multipart)]
#[allow(dead_code)]
pub struct PdfUpload {
    /// The PDF.
    pub file: Upload,
}

/// Why an uploaded PDF was not read.
pub(crate) enum UploadRefusal {
    BadRequest(Json<ErrorBody>),
    TooLarge(Json<ErrorBody>),
    Internal(Json<ErrorBody>),
}

impl From<UploadRefusal> for UploadedResponse {
    fn from(r: UploadRefusal) -> Self {
        match r {
            UploadRefusal::BadRequest(b) => UploadedResponse::BadRequest(b),
            UploadRefusal::TooLarge(b) => UploadedResponse::TooLarge(b),
            UploadRefusal::Internal(b) => UploadedResponse::Internal(b),
        }
    }
}

fn too_large(max_bytes: usize) -> UploadRefusal {
    UploadRefusal::TooLarge(Json(ErrorBody::new(
        ErrorCode::FileTooLarge,
        format!(
            "The PDF is too large: it can be at most {} MB.",
            max_bytes / (1024 * 1024)
        ),
    )))
}

fn refused(e: PartError) -> UploadRefusal {
    match e {
        PartError::Nul => UploadRefusal::BadRequest(Json(ErrorBody::new(
            kernel::upload::NUL_CODE,
            kernel::upload::NUL_MESSAGE,
        ))),
        e @ PartError::Malformed(_) => UploadRefusal::BadRequest(Json(ErrorBody::new(
            ErrorCode::InvalidRequest,
            e.to_string(),
        ))),
        PartError::Io(e) => UploadRefusal::Internal(failed(&e)),
    }
}

/// The `file` part of a multipart body, written to a temporary file as it arrives with its
/// size counted on the way: past `max_bytes` nothing more of it is kept.
pub(crate) async fn read_pdf_upload(
    req: &Request,
    mut body: MultipartStream<PdfUpload>,
    max_bytes: usize,
) -> Result<kernel::upload::Spooled, UploadRefusal> {
    let declared = req
        .headers()
        .get(poem::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > max_bytes + 64 * 1024) {
        return Err(too_large(max_bytes));
    }
    let mut file = None;
    loop {
        let field = match body.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => break,
            Err(e) => return Err(refused(e)),
        };
        if field.name() != Some("file") {
            return Err(refused(PartError::form(crate::api::ONLY_FILE)));
        }
        if file.is_some() {
            return Err(refused(PartError::form(
                "failed to parse field `file`: repeated field",
            )));
        }
        file = Some(spool(field, max_bytes as u64).await.map_err(refused)?);
    }
    let Some(file) = file else {
        return Err(refused(PartError::form("field `file` is required")));
    };
    if file.over_limit() || file.path().is_none() {
        return Err(too_large(max_bytes));
    }
    Ok(file)
}

#[derive(Debug, Object)]
#[oai(deny_unknown_fields)]
pub struct MagazineRename {
    pub title: kernel::text::Text<kernel::text::Required<{ super::MAX_TITLE_CHARS }>>,
}

#[derive(ApiResponse)]
pub enum MagazineListResponse {
    #[oai(status = 200)]
    Ok(Json<Vec<Magazine>>),
    /// No live staff session.
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

#[derive(ApiResponse)]
pub enum UploadedResponse {
    /// The new issue.
    #[oai(status = 201)]
    Created(Json<Magazine>),
    /// A malformed form, or a title the product does not accept.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// Not a PDF: `not_a_pdf`.
    #[oai(status = 415)]
    Unsupported(Json<ErrorBody>),
    /// No live staff session.
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    /// The same PDF is already an issue (the message names it).
    #[oai(status = 409)]
    Duplicate(Json<ErrorBody>),
    /// Over the size limit.
    #[oai(status = 413)]
    TooLarge(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
    /// The file store did not take the PDF (unreachable, or not answering): try again after
    /// `Retry-After` seconds.
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>, #[oai(header = "Retry-After")] u64),
}

#[derive(ApiResponse)]
pub enum RenamedResponse {
    #[oai(status = 200)]
    Ok(Json<Magazine>),
    /// A title the product does not accept.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
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

/// A failure of the service, before each operation answers with the statuses it declares.
enum Refusal {
    BadRequest(Json<ErrorBody>),
    /// A file of a kind the product does not take.
    Unsupported(Json<ErrorBody>),
    Duplicate(Json<ErrorBody>),
    NotFound(Json<ErrorBody>),
    /// The file store failed.
    Unavailable(Json<ErrorBody>),
    Internal(Json<ErrorBody>),
}

impl From<MagazineError> for Refusal {
    fn from(e: MagazineError) -> Self {
        match e {
            MagazineError::Invalid { code, message } => {
                let body = Json(ErrorBody::new(code, message));
                match code.refusal() {
                    kernel::Refusal::Unsupported => Refusal::Unsupported(body),
                    kernel::Refusal::Invalid | kernel::Refusal::Unprocessable => {
                        Refusal::BadRequest(body)
                    }
                }
            }
            MagazineError::NotFound => Refusal::NotFound(not_found()),
            e @ MagazineError::Duplicate { .. } => Refusal::Duplicate(Json(ErrorBody::new(
                ErrorCode::DuplicateUpload,
                e.to_string(),
            ))),
            MagazineError::Storage(e) => {
                tracing::error!(error = ?e, "magazine request: the file store failed");
                Refusal::Unavailable(Json(ErrorBody::new(
                    ErrorCode::ServiceUnavailable,
                    "The file store is unavailable for a moment. Please try again.",
                )))
            }
            e => Refusal::Internal(failed(&e)),
        }
    }
}

impl From<Refusal> for UploadedResponse {
    fn from(r: Refusal) -> Self {
        match r {
            Refusal::BadRequest(b) => UploadedResponse::BadRequest(b),
            Refusal::Unsupported(b) => UploadedResponse::Unsupported(b),
            Refusal::Duplicate(b) => UploadedResponse::Duplicate(b),
            // Nothing is looked up by an upload: a "not found" would be a bug.
            Refusal::NotFound(_) => UploadedResponse::Internal(failed(&"not found on upload")),
            Refusal::Unavailable(b) => {
                UploadedResponse::Unavailable(b, kernel::http::RETRY_AFTER_SECONDS)
            }
            Refusal::Internal(b) => UploadedResponse::Internal(b),
        }
    }
}

impl From<Refusal> for RenamedResponse {
    fn from(r: Refusal) -> Self {
        match r {
            // A rename sends no file.
            Refusal::BadRequest(b) | Refusal::Unsupported(b) => RenamedResponse::BadRequest(b),
            // A rename never stores a file: a duplicate would be a bug.
            Refusal::Duplicate(_) => RenamedResponse::Internal(failed(&"duplicate on rename")),
            Refusal::NotFound(b) => RenamedResponse::NotFound(b),
            Refusal::Unavailable(b) | Refusal::Internal(b) => RenamedResponse::Internal(b),
        }
    }
}

#[derive(ApiResponse)]
pub enum UnpublishedResponse {
    /// The issue, a private draft again.
    #[oai(status = 200)]
    Ok(Json<Magazine>),
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
pub enum IssuesResponse {
    /// Published issues, the latest first.
    #[oai(status = 200)]
    Ok(Json<Vec<MagazineIssue>>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

#[derive(ApiResponse)]
pub enum IssueResponse {
    #[oai(status = 200)]
    Ok(Json<MagazineIssue>),
    /// No published issue has this slug.
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

#[derive(ApiResponse)]
pub enum DeleteResponse {
    #[oai(status = 204)]
    Deleted,
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

pub struct MagazineApi {
    service: Arc<MagazineService>,
    max_bytes: usize,
}

impl MagazineApi {
    pub fn new(service: Arc<MagazineService>, max_bytes: usize) -> Self {
        Self { service, max_bytes }
    }
}

fn not_found() -> Json<ErrorBody> {
    Json(ErrorBody::new(
        ErrorCode::NotFound,
        "No such magazine issue.",
    ))
}

fn failed(e: &dyn std::fmt::Debug) -> Json<ErrorBody> {
    tracing::error!(error = ?e, "magazine request failed");
    Json(ErrorBody::new(
        ErrorCode::UploadFailed,
        "Failed to upload magazine.",
    ))
}

#[OpenApi(tag = "ApiTags::Magazines")]
impl MagazineApi {
    /// Every issue, newest first.
    #[oai(
        path = "/v1/staff/magazines",
        method = "get",
        operation_id = "listMagazines"
    )]
    async fn list(&self, auth: StaffSession) -> MagazineListResponse {
        if !auth.has_role(&[Role::Admin]) {
            return MagazineListResponse::Forbidden(identity::forbidden());
        }
        match self.service.list().await {
            Ok(issues) => MagazineListResponse::Ok(Json(issues)),
            Err(e) => MagazineListResponse::Internal(failed(&e)),
        }
    }

    /// Upload an issue (a PDF, checked by content). Its title is the file name without `.pdf`.
    #[oai(
        path = "/v1/staff/magazines",
        method = "post",
        operation_id = "uploadMagazine"
    )]
    async fn upload(
        &self,
        auth: StaffSession,
        req: &Request,
        body: MultipartStream<PdfUpload>,
    ) -> UploadedResponse {
        if !auth.has_role(&[Role::Admin]) {
            return UploadedResponse::Forbidden(identity::forbidden());
        }
        let file = match read_pdf_upload(req, body, self.max_bytes).await {
            Ok(file) => file,
            Err(r) => return r.into(),
        };
        match self.service.add(&file).await {
            Ok(issue) => {
                tracing::info!(by = %auth.user().id, id = %issue.id, bytes = issue.size_bytes, "magazine uploaded");
                UploadedResponse::Created(Json(issue))
            }
            Err(e) => Refusal::from(e).into(),
        }
    }

    /// Rename an issue.
    #[oai(
        path = "/v1/staff/magazines/:id",
        method = "patch",
        operation_id = "renameMagazine"
    )]
    async fn rename(
        &self,
        auth: StaffSession,
        id: Path<String>,
        body: Json<MagazineRename>,
    ) -> RenamedResponse {
        if !auth.has_role(&[Role::Admin]) {
            return RenamedResponse::Forbidden(identity::forbidden());
        }
        match self.service.rename(&id.0, &body.0.title).await {
            Ok(issue) => RenamedResponse::Ok(Json(issue)),
            Err(e) => Refusal::from(e).into(),
        }
    }

    /// Publish an uploaded issue for readers (or change a published one): title, issue date,
    /// description and cover. Its address `/magazine/{slug}` is given at the first
    /// publication and kept.
    #[oai(
        path = "/v1/staff/magazines/:id/publication",
        method = "put",
        operation_id = "publishMagazine"
    )]
    async fn publish(
        &self,
        auth: StaffSession,
        id: Path<String>,
        body: Json<IssuePublication>,
    ) -> RenamedResponse {
        if !auth.has_role(&[Role::Admin]) {
            return RenamedResponse::Forbidden(identity::forbidden());
        }
        match self.service.publish(&id.0, &body.0).await {
            Ok(issue) => RenamedResponse::Ok(Json(issue)),
            Err(e) => Refusal::from(e).into(),
        }
    }

    /// Take a published issue back to a private draft.
    #[oai(
        path = "/v1/staff/magazines/:id/publication",
        method = "delete",
        operation_id = "unpublishMagazine"
    )]
    async fn unpublish(&self, auth: StaffSession, id: Path<String>) -> UnpublishedResponse {
        if !auth.has_role(&[Role::Admin]) {
            return UnpublishedResponse::Forbidden(identity::forbidden());
        }
        match self.service.unpublish(&id.0).await {
            Ok(issue) => UnpublishedResponse::Ok(Json(issue)),
            Err(MagazineError::NotFound) => UnpublishedResponse::NotFound(not_found()),
            Err(e) => UnpublishedResponse::Internal(failed(&e)),
        }
    }

    /// Published issues, the latest first.
    #[oai(
        path = "/v1/magazine/issues",
        method = "get",
        operation_id = "listIssues",
        tag = "ApiTags::Magazine"
    )]
    async fn issues(&self) -> IssuesResponse {
        match self.service.issues().await {
            Ok(issues) => IssuesResponse::Ok(Json(issues)),
            Err(e) => IssuesResponse::Internal(failed(&e)),
        }
    }

    /// One published issue.
    #[oai(
        path = "/v1/magazine/issues/:slug",
        method = "get",
        operation_id = "getIssue",
        tag = "ApiTags::Magazine"
    )]
    async fn issue(&self, slug: Path<String>) -> IssueResponse {
        match self.service.issue(&slug.0).await {
            Ok(Some(issue)) => IssueResponse::Ok(Json(issue)),
            Ok(None) => IssueResponse::NotFound(not_found()),
            Err(e) => IssueResponse::Internal(failed(&e)),
        }
    }

    /// Delete an issue and its file.
    #[oai(
        path = "/v1/staff/magazines/:id",
        method = "delete",
        operation_id = "deleteMagazine"
    )]
    async fn delete(&self, auth: StaffSession, id: Path<String>) -> DeleteResponse {
        if !auth.has_role(&[Role::Admin]) {
            return DeleteResponse::Forbidden(identity::forbidden());
        }
        match self.service.delete(&id.0).await {
            Ok(()) => DeleteResponse::Deleted,
            Err(MagazineError::NotFound) => DeleteResponse::NotFound(not_found()),
            Err(e) => DeleteResponse::Internal(failed(&e)),
        }
    }
}
