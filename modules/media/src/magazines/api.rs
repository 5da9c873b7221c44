//! The staff API over issues (admins only): list, upload (streamed, checked by content),
//! rename, delete.

use std::sync::Arc;

use identity::{Role, StaffSession};
use kernel::storage::Storage;
use kernel::upload::{spool, MultipartStream, PartError};
use kernel::{Db, ErrorBody};
use poem::Request;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::types::multipart::Upload;
use poem_openapi::{ApiResponse, Multipart, Object, OpenApi, Tags};

use super::store::{store_for, MagazineRow, MagazineStore};
use super::{title_from_file_name, Magazine, MAX_TITLE_CHARS};

#[derive(Tags)]
enum ApiTags {
    /// Magazine issues (admins only).
    Magazines,
}

/// The form the contract shows; it is read part by part (see [`MagazineApi::upload`]).
#[derive(Debug, Multipart)]
#[allow(dead_code)]
pub struct MagazineUpload {
    /// The issue as a PDF.
    pub file: Upload,
}

#[derive(Debug, Object)]
pub struct MagazineRename {
    pub title: String,
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
pub enum MagazineResponse {
    #[oai(status = 200)]
    Ok(Json<Magazine>),
    #[oai(status = 201)]
    Created(Json<Magazine>),
    /// Not a PDF, or a bad title.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// No live staff session.
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    /// Over the size limit.
    #[oai(status = 413)]
    TooLarge(Json<ErrorBody>),
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
    store: Arc<dyn MagazineStore>,
    storage: Arc<dyn Storage>,
    max_bytes: usize,
}

impl MagazineApi {
    pub fn new(db: &Db, storage: Arc<dyn Storage>, max_bytes: usize) -> Self {
        Self {
            store: store_for(db),
            storage,
            max_bytes,
        }
    }

    fn too_large(&self) -> MagazineResponse {
        MagazineResponse::TooLarge(Json(ErrorBody::new(
            "file_too_large",
            format!(
                "The PDF is too large: issues can be at most {} MB.",
                self.max_bytes / (1024 * 1024)
            ),
        )))
    }
}

fn part_error(e: PartError) -> MagazineResponse {
    match e {
        PartError::Nul => MagazineResponse::BadRequest(Json(ErrorBody::new(
            kernel::upload::NUL_CODE,
            kernel::upload::NUL_MESSAGE,
        ))),
        e @ PartError::Malformed(_) => {
            MagazineResponse::BadRequest(Json(ErrorBody::new("invalid_request", e.to_string())))
        }
        PartError::Io(e) => MagazineResponse::Internal(failed(&e)),
    }
}

fn not_found() -> Json<ErrorBody> {
    Json(ErrorBody::new("not_found", "No such magazine issue."))
}

fn failed(e: &dyn std::fmt::Debug) -> Json<ErrorBody> {
    tracing::error!(error = ?e, "magazine request failed");
    Json(ErrorBody::new(
        "upload_failed",
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
        match self.store.list().await {
            Ok(rows) => MagazineListResponse::Ok(Json(rows.into_iter().map(Into::into).collect())),
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
        mut body: MultipartStream<MagazineUpload>,
    ) -> MagazineResponse {
        if !auth.has_role(&[Role::Admin]) {
            return MagazineResponse::Forbidden(identity::forbidden());
        }
        let declared = req
            .headers()
            .get(poem::http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<usize>().ok());
        if declared.is_some_and(|n| n > self.max_bytes + 64 * 1024) {
            return self.too_large();
        }
        // The PDF is written to a temporary file as it arrives, its size counted on the way:
        // past the limit nothing more of it is kept.
        let mut file = None;
        loop {
            let field = match body.next_field().await {
                Ok(Some(field)) => field,
                Ok(None) => break,
                Err(e) => return part_error(e),
            };
            if field.name() != Some("file") {
                continue;
            }
            if file.is_some() {
                return part_error(PartError::form(
                    "failed to parse field `file`: repeated field",
                ));
            }
            match spool(field, self.max_bytes as u64).await {
                Ok(spooled) => file = Some(spooled),
                Err(e) => return part_error(e),
            }
        }
        let Some(file) = file else {
            return part_error(PartError::form("field `file` is required"));
        };
        if file.over_limit() {
            return self.too_large();
        }
        if !kernel::upload::is_pdf(file.head()) {
            return MagazineResponse::BadRequest(Json(ErrorBody::new(
                "not_a_pdf",
                "Please upload a PDF file.",
            )));
        }
        let name = file.file_name().unwrap_or_default().to_string();
        let Some(path) = file.path() else {
            return self.too_large();
        };
        let now = kernel::ids::now();
        let id = kernel::ids::new_id();
        // A generated name, prefixed with the upload time: nothing the user sent reaches the
        // file system.
        let key = format!(
            "magazines/{}-{}.pdf",
            now.timestamp_millis(),
            &id[id.len().saturating_sub(12)..]
        );
        if let Err(e) = self.storage.put_file(&key, path).await {
            return MagazineResponse::Internal(failed(&e));
        }
        let row = MagazineRow {
            id,
            title: title_from_file_name(&name),
            file_url: self.storage.url(&key),
            file_key: key,
            size_bytes: i64::try_from(file.size()).unwrap_or(i64::MAX),
            uploaded_at: now,
        };
        if let Err(e) = self.store.insert(&row).await {
            let _ = self.storage.delete(&row.file_key).await;
            return MagazineResponse::Internal(failed(&e));
        }
        tracing::info!(by = %auth.user().id, id = %row.id, bytes = row.size_bytes, "magazine uploaded");
        MagazineResponse::Created(Json(row.into()))
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
    ) -> MagazineResponse {
        if !auth.has_role(&[Role::Admin]) {
            return MagazineResponse::Forbidden(identity::forbidden());
        }
        let title = body.0.title.trim().to_string();
        if title.is_empty() {
            return MagazineResponse::BadRequest(Json(ErrorBody::new(
                "title_required",
                "A title is required.",
            )));
        }
        if title.chars().count() > MAX_TITLE_CHARS {
            return MagazineResponse::BadRequest(Json(ErrorBody::new(
                "title_too_long",
                format!("The title must be at most {MAX_TITLE_CHARS} characters."),
            )));
        }
        match self.store.rename(&id.0, &title).await {
            Ok(Some(row)) => MagazineResponse::Ok(Json(row.into())),
            Ok(None) => MagazineResponse::NotFound(not_found()),
            Err(e) => MagazineResponse::Internal(failed(&e)),
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
        match self.store.delete(&id.0).await {
            Ok(Some(row)) => {
                if let Err(e) = self.storage.delete(&row.file_key).await {
                    tracing::warn!(error = %e, key = row.file_key, "magazine file not removed");
                }
                DeleteResponse::Deleted
            }
            Ok(None) => DeleteResponse::NotFound(not_found()),
            Err(e) => DeleteResponse::Internal(failed(&e)),
        }
    }
}
