//! What the magazine endpoints answer: the response of each operation, and the service's
//! failures (and an upload's refusals) mapped to the statuses each one declares.

use crate::codes::Code;
use kernel::Common;
use kernel::ErrorBody;
use poem_openapi::payload::Json;
use poem_openapi::ApiResponse;

use crate::magazines::service::MagazineError;
use crate::magazines::{Magazine, MagazineIssue};

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
pub(super) enum Refusal {
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
            e @ MagazineError::Duplicate { .. } => {
                Refusal::Duplicate(Json(ErrorBody::new(Code::DuplicateUpload, e.to_string())))
            }
            MagazineError::Storage(e) => {
                tracing::error!(error = ?e, "magazine request: the file store failed");
                Refusal::Unavailable(Json(ErrorBody::new(
                    Common::ServiceUnavailable,
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

pub(super) fn not_found() -> Json<ErrorBody> {
    Json(ErrorBody::new(Common::NotFound, "No such magazine issue."))
}

pub(super) fn failed(e: &dyn std::fmt::Debug) -> Json<ErrorBody> {
    tracing::error!(error = ?e, "magazine request failed");
    Json(ErrorBody::new(
        Code::UploadFailed,
        "Failed to upload magazine.",
    ))
}
