//! The staff API over issues (admins only): list, upload (streamed, its size capped as it
//! arrives), rename, delete; the rules are the service's.

mod responses;
mod upload;

use crate::access::MediaAction;
use std::sync::Arc;

use identity::StaffSession;
use kernel::upload::MultipartStream;
use poem::Request;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi, Tags};

use super::service::{MagazineError, MagazineService};
use super::IssuePublication;
use responses::{
    failed, not_found, DeleteResponse, IssueResponse, IssuesResponse, MagazineListResponse,
    Refusal, RenamedResponse, UnpublishedResponse, UploadedResponse,
};
pub(crate) use upload::{read_pdf_upload, PdfUpload, UploadRefusal};

#[derive(Tags)]
enum ApiTags {
    /// Magazine issues (admins only).
    Magazines,
    /// Published magazine issues, for readers.
    Magazine,
}

#[derive(Debug, Object)]
#[oai(deny_unknown_fields)]
pub struct MagazineRename {
    pub title: kernel::text::Text<kernel::text::Required<{ super::MAX_TITLE_CHARS }>>,
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

#[OpenApi(tag = "ApiTags::Magazines")]
impl MagazineApi {
    /// Every issue, newest first.
    #[oai(
        path = "/v1/staff/magazines",
        method = "get",
        operation_id = "listMagazines"
    )]
    async fn list(&self, auth: StaffSession) -> MagazineListResponse {
        if !auth.may(MediaAction::ManageIssues) {
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
        if !auth.may(MediaAction::ManageIssues) {
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
        if !auth.may(MediaAction::ManageIssues) {
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
        if !auth.may(MediaAction::ManageIssues) {
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
        if !auth.may(MediaAction::ManageIssues) {
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
        if !auth.may(MediaAction::ManageIssues) {
            return DeleteResponse::Forbidden(identity::forbidden());
        }
        match self.service.delete(&id.0).await {
            Ok(()) => DeleteResponse::Deleted,
            Err(MagazineError::NotFound) => DeleteResponse::NotFound(not_found()),
            Err(e) => DeleteResponse::Internal(failed(&e)),
        }
    }
}
