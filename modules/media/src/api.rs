//! Cover image uploads for the article editor.

use std::sync::Arc;

use identity::{Role, StaffSession};
use kernel::storage::Storage;
use kernel::ErrorBody;
use poem::Request;
use poem_openapi::payload::Json;
use poem_openapi::types::multipart::Upload;
use poem_openapi::{ApiResponse, Multipart, Object, OpenApi, Tags};
use tokio::io::AsyncReadExt;

use crate::covers::{process_cover, CoverError, MAX_COVER_BYTES};

#[derive(Tags)]
enum ApiTags {
    /// Uploaded images and documents.
    Media,
}

#[derive(Debug, Multipart)]
pub struct CoverUpload {
    /// The image (JPG, PNG, GIF or WebP), at most 5 MB.
    pub file: Upload,
}

#[derive(Debug, Object)]
pub struct UploadedCover {
    /// Public URL of the stored image.
    pub url: String,
    pub width: u32,
    pub height: u32,
}

#[derive(ApiResponse)]
pub enum UploadResponse {
    /// No live staff session (signed out, expired, or the user was disabled).
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    #[oai(status = 201)]
    Created(Json<UploadedCover>),
    /// Not an image.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    /// Over 5 MB.
    #[oai(status = 413)]
    TooLarge(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

pub struct MediaApi {
    storage: Arc<dyn Storage>,
}

impl MediaApi {
    pub fn new(storage: Arc<dyn Storage>) -> Self {
        Self { storage }
    }
}

fn too_large() -> UploadResponse {
    UploadResponse::TooLarge(Json(ErrorBody::new(
        "image_too_large",
        CoverError::TooLarge.to_string(),
    )))
}

fn internal(e: &dyn std::fmt::Debug) -> UploadResponse {
    tracing::error!(error = ?e, "cover upload failed");
    UploadResponse::Internal(Json(ErrorBody::new(
        "upload_failed",
        "Failed to upload image. Please try again.",
    )))
}

#[OpenApi(tag = "ApiTags::Media")]
impl MediaApi {
    /// Upload an article cover image; returns its public URL.
    #[oai(
        path = "/v1/staff/covers",
        method = "post",
        operation_id = "uploadCover"
    )]
    async fn upload(&self, auth: StaffSession, req: &Request, body: CoverUpload) -> UploadResponse {
        if !auth.has_role(&[Role::Writer, Role::ContentDirector]) {
            return UploadResponse::Forbidden(identity::forbidden());
        }
        let declared = req
            .headers()
            .get(poem::http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<usize>().ok());
        if declared.is_some_and(|n| n > MAX_COVER_BYTES + 64 * 1024) {
            return too_large();
        }
        // Read one byte past the limit, never more, whatever the body claims.
        let mut bytes = Vec::new();
        let limit = u64::try_from(MAX_COVER_BYTES + 1).unwrap_or(u64::MAX);
        if let Err(e) = body
            .file
            .into_async_read()
            .take(limit)
            .read_to_end(&mut bytes)
            .await
        {
            return internal(&e);
        }
        let processed = match tokio::task::spawn_blocking(move || process_cover(&bytes)).await {
            Ok(Ok(p)) => p,
            Ok(Err(CoverError::TooLarge)) => return too_large(),
            Ok(Err(e @ CoverError::NotAnImage)) => {
                return UploadResponse::BadRequest(Json(ErrorBody::new(
                    "not_an_image",
                    e.to_string(),
                )))
            }
            Ok(Err(e)) => return internal(&e),
            Err(e) => return internal(&e),
        };
        // The stored name is generated; nothing the user sent reaches the file system.
        let name = uuid_name();
        let key = format!("covers/{name}.{}", processed.extension);
        let webp_key = format!("covers/{name}.webp");
        if let Err(e) = self.storage.put(&webp_key, &processed.webp).await {
            return internal(&e);
        }
        if let Err(e) = self.storage.put(&key, &processed.bytes).await {
            return internal(&e);
        }
        tracing::info!(user = %auth.user().id, key, "cover uploaded");
        UploadResponse::Created(Json(UploadedCover {
            url: self.storage.url(&key),
            width: processed.width,
            height: processed.height,
        }))
    }
}

fn uuid_name() -> String {
    kernel::ids::new_id()
}
