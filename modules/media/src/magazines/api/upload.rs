//! Reading an uploaded PDF: the `file` part of a multipart body, spooled to a temporary file
//! with its size capped as it arrives (issues and packs alike).

use kernel::upload::{spool, MultipartStream, PartError};
use kernel::Common;
use kernel::ErrorBody;
use poem::Request;
use poem_openapi::payload::Json;
use poem_openapi::types::multipart::Upload;
use poem_openapi::Multipart;

use super::responses::{failed, UploadedResponse};

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

fn too_large(max_bytes: usize) -> UploadRefusal {
    UploadRefusal::TooLarge(Json(ErrorBody::new(
        Common::FileTooLarge,
        format!(
            "The PDF is too large: it can be at most {} MB.",
            max_bytes / (1024 * 1024)
        ),
    )))
}

fn refused(e: PartError) -> UploadRefusal {
    match e {
        PartError::Nul => UploadRefusal::BadRequest(Json(ErrorBody::new(
            kernel::Common::InvalidCharacters,
            kernel::upload::NUL_MESSAGE,
        ))),
        e @ PartError::Malformed(_) => {
            UploadRefusal::BadRequest(Json(ErrorBody::new(Common::InvalidRequest, e.to_string())))
        }
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

impl From<UploadRefusal> for UploadedResponse {
    fn from(r: UploadRefusal) -> Self {
        match r {
            UploadRefusal::BadRequest(b) => UploadedResponse::BadRequest(b),
            UploadRefusal::TooLarge(b) => UploadedResponse::TooLarge(b),
            UploadRefusal::Internal(b) => UploadedResponse::Internal(b),
        }
    }
}
