//! Cover image uploads for the article editor.

use crate::access::MediaAction;
use crate::codes::Code;
use kernel::Common;
use std::sync::Arc;

use identity::StaffSession;
use kernel::storage::Storage;
use kernel::upload::{read_capped, MultipartStream, PartError};
use kernel::ErrorBody;
use poem::Request;
use poem_openapi::payload::Json;
use poem_openapi::types::multipart::Upload;
use poem_openapi::{ApiResponse, Multipart, Object, OpenApi, Tags};
use tokio::sync::Semaphore;

/// The refusal of a part other than `file` in an upload (see [`crate::SINGLE_FILE_FORMS`]).
pub(crate) const ONLY_FILE: &str = "this form takes one part, `file`";

use crate::covers::{process_cover, width_key, CoverError, MAX_COVER_BYTES};

#[derive(Tags)]
enum ApiTags {
    /// Uploaded images and documents.
    Media,
}

/// The form the contract shows; it is read part by part (see [`MediaApi::upload`]).
#[derive(Debug, Multipart)]
#[allow(dead_code)]
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
    /// A form the server cannot read.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// Not a picture the server reads (PNG, JPEG, GIF or WebP): `not_an_image`.
    #[oai(status = 415)]
    Unsupported(Json<ErrorBody>),
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    /// Over 5 MB, or over 40 megapixels.
    #[oai(status = 413)]
    TooLarge(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
    /// The file store did not take the image (unreachable, or not answering), or too many
    /// images are being processed: try again after `Retry-After` seconds.
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>, #[oai(header = "Retry-After")] u64),
}

/// Memory all cover decodes may hold at once, in MiB, whatever the number of cores: a picture
/// near the 40-megapixel limit takes about 220 MiB from its decoding to its last copy (see
/// `covers::decode_cost_mib`), so one of those is processed at a time, smaller ones several at
/// once.
pub const DECODE_BUDGET_MIB: u32 = 256;
/// How long an upload waits for its share of the budget before it is told to try again.
const DECODE_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

pub struct MediaApi {
    storage: Arc<Storage>,
    /// [`DECODE_BUDGET_MIB`], shared by every upload: each takes what its picture will cost
    /// (read from its header) before decoding.
    budget: Arc<Semaphore>,
}

impl MediaApi {
    pub fn new(storage: Arc<Storage>) -> Self {
        Self {
            storage,
            budget: Arc::new(Semaphore::new(DECODE_BUDGET_MIB as usize)),
        }
    }
}

/// Every share of the decoding budget stayed taken while the upload waited.
fn busy() -> UploadResponse {
    UploadResponse::Unavailable(
        Json(ErrorBody::new(
            Common::ServiceUnavailable,
            "Too many images are being processed right now. Please try again in a moment.",
        )),
        kernel::http::RETRY_AFTER_SECONDS,
    )
}

fn too_large() -> UploadResponse {
    UploadResponse::TooLarge(Json(ErrorBody::new(
        Code::ImageTooLarge,
        CoverError::TooLarge.to_string(),
    )))
}

fn part_error(e: PartError) -> UploadResponse {
    match e {
        PartError::Nul => UploadResponse::BadRequest(Json(ErrorBody::new(
            kernel::Common::InvalidCharacters,
            kernel::upload::NUL_MESSAGE,
        ))),
        e @ PartError::Malformed(_) => {
            UploadResponse::BadRequest(Json(ErrorBody::new(Common::InvalidRequest, e.to_string())))
        }
        PartError::Io(e) => internal(&e),
    }
}

/// The file store failed to take the image: nothing was kept, and trying again later may work.
fn store_failed(e: &std::io::Error) -> UploadResponse {
    tracing::error!(error = ?e, "cover upload: the file store failed");
    UploadResponse::Unavailable(
        Json(ErrorBody::new(
            Common::ServiceUnavailable,
            "The file store is unavailable for a moment. Please try again.",
        )),
        kernel::http::RETRY_AFTER_SECONDS,
    )
}

fn internal(e: &dyn std::fmt::Debug) -> UploadResponse {
    tracing::error!(error = ?e, "cover upload failed");
    UploadResponse::Internal(Json(ErrorBody::new(
        Code::UploadFailed,
        "Failed to upload image. Please try again.",
    )))
}

#[OpenApi(tag = "ApiTags::Media")]
impl MediaApi {
    /// Upload a cover image (of an article or a magazine issue); returns its public URL.
    #[oai(
        path = "/v1/staff/covers",
        method = "post",
        operation_id = "uploadCover"
    )]
    async fn upload(
        &self,
        auth: StaffSession,
        req: &Request,
        mut body: MultipartStream<CoverUpload>,
    ) -> UploadResponse {
        // Article covers (writers, content directors) and magazine issue covers (admins).
        if !auth.may(MediaAction::UploadCovers) {
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
        // The image part, never more than 5 MB of it kept, whatever the body claims.
        let mut file = None;
        loop {
            let field = match body.next_field().await {
                Ok(Some(field)) => field,
                Ok(None) => break,
                Err(e) => return part_error(e),
            };
            if field.name() != Some("file") {
                return part_error(PartError::form(ONLY_FILE));
            }
            if file.is_some() {
                return part_error(PartError::form(
                    "failed to parse field `file`: repeated field",
                ));
            }
            match read_capped(field, MAX_COVER_BYTES).await {
                Ok(Some(bytes)) => file = Some(bytes),
                Ok(None) => return too_large(),
                Err(e) => return part_error(e),
            }
        }
        let Some(bytes) = file else {
            return part_error(PartError::form("field `file` is required"));
        };
        // Decoded off the async runtime, within the memory budget.
        let cost = crate::covers::decode_cost_mib(&bytes).min(DECODE_BUDGET_MIB);
        let permit =
            match tokio::time::timeout(DECODE_WAIT, self.budget.clone().acquire_many_owned(cost))
                .await
            {
                Ok(Ok(permit)) => permit,
                Ok(Err(e)) => return internal(&e),
                Err(_) => return busy(),
            };
        let decoded = tokio::task::spawn_blocking(move || {
            let processed = process_cover(&bytes);
            // The copies made on the way are freed: hand their pages back before the next
            // cover takes its share of the budget.
            kernel::memory::release_free_memory();
            drop(permit);
            processed
        })
        .await;
        let processed = match decoded {
            Ok(Ok(p)) => p,
            Ok(Err(CoverError::TooLarge)) => return too_large(),
            Ok(Err(e @ CoverError::NotAnImage)) => {
                return UploadResponse::Unsupported(Json(ErrorBody::new(
                    Code::NotAnImage,
                    e.to_string(),
                )))
            }
            Ok(Err(e @ CoverError::TooManyPixels)) => {
                return UploadResponse::TooLarge(Json(ErrorBody::new(
                    Code::ImageTooManyPixels,
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
        // The copies first: a stored original means its copies are there.
        for (width, bytes) in &processed.widths {
            if let Err(e) = self.storage.put(&width_key(&key, *width), bytes).await {
                return store_failed(&e);
            }
        }
        if let Err(e) = self.storage.put(&webp_key, &processed.webp).await {
            return store_failed(&e);
        }
        if let Err(e) = self.storage.put(&key, &processed.bytes).await {
            return store_failed(&e);
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
