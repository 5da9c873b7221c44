//! The editorial API: every call needs a live staff session; roles are checked in the service.

use std::sync::Arc;

use identity::StaffSession;
use kernel::ErrorBody;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, OpenApi, Tags};

use crate::dto::{ArticleInput, Preview, PreviewInput, StaffArticle};
use crate::error::ContentError;
use crate::service::ContentService;

#[derive(Tags)]
enum ApiTags {
    /// Writing and publishing articles (writer, content director).
    Editorial,
}

#[derive(ApiResponse)]
pub enum StaffResponse<T: poem_openapi::types::ToJSON + Send + Sync> {
    /// No live staff session (signed out, expired, or the user was disabled).
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    #[oai(status = 200)]
    Ok(Json<T>),
    #[oai(status = 201)]
    Created(Json<T>),
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// The signed-in role may not do this.
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    /// No such article among those this staff member may manage.
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

#[derive(ApiResponse)]
pub enum DeleteResponse {
    /// No live staff session (signed out, expired, or the user was disabled).
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    #[oai(status = 204)]
    Deleted,
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

fn failure<T: poem_openapi::types::ToJSON + Send + Sync>(e: ContentError) -> StaffResponse<T> {
    match e {
        ContentError::Invalid { code, message } => {
            StaffResponse::BadRequest(Json(ErrorBody::new(code, message)))
        }
        ContentError::Forbidden => StaffResponse::Forbidden(identity::forbidden()),
        ContentError::NotFound => StaffResponse::NotFound(not_found()),
        e => {
            tracing::error!(error = ?e, "editorial request failed");
            StaffResponse::Internal(Json(ErrorBody::internal()))
        }
    }
}

fn not_found() -> Json<ErrorBody> {
    Json(ErrorBody::new("article_not_found", "Article not found"))
}

fn answer<T: poem_openapi::types::ToJSON + Send + Sync>(
    r: Result<T, ContentError>,
) -> StaffResponse<T> {
    r.map(|v| StaffResponse::Ok(Json(v)))
        .unwrap_or_else(failure)
}

pub struct ContentStaffApi {
    service: Arc<ContentService>,
}

impl ContentStaffApi {
    pub fn new(service: Arc<ContentService>) -> Self {
        Self { service }
    }
}

#[OpenApi(tag = "ApiTags::Editorial")]
impl ContentStaffApi {
    /// Articles this staff member manages: a writer's own, or all for the content director.
    #[oai(
        path = "/v1/staff/articles",
        method = "get",
        operation_id = "listStaffArticles"
    )]
    async fn list(&self, auth: StaffSession) -> StaffResponse<Vec<StaffArticle>> {
        answer(self.service.staff_list(auth.user()).await)
    }

    /// Create an article (status `draft` or `published`).
    #[oai(
        path = "/v1/staff/articles",
        method = "post",
        operation_id = "createArticle"
    )]
    async fn create(
        &self,
        auth: StaffSession,
        body: Json<ArticleInput>,
    ) -> StaffResponse<StaffArticle> {
        match self.service.save(auth.user(), None, body.0).await {
            Ok(a) => StaffResponse::Created(Json(a)),
            Err(e) => failure(e),
        }
    }

    /// One article, any status.
    #[oai(
        path = "/v1/staff/articles/:id",
        method = "get",
        operation_id = "getStaffArticle"
    )]
    async fn get(&self, auth: StaffSession, id: Path<String>) -> StaffResponse<StaffArticle> {
        answer(self.service.staff_get(auth.user(), &id.0).await)
    }

    /// Update an article; the chosen status is saved (a published article may go back to draft).
    #[oai(
        path = "/v1/staff/articles/:id",
        method = "put",
        operation_id = "updateArticle"
    )]
    async fn update(
        &self,
        auth: StaffSession,
        id: Path<String>,
        body: Json<ArticleInput>,
    ) -> StaffResponse<StaffArticle> {
        answer(self.service.save(auth.user(), Some(&id.0), body.0).await)
    }

    /// Publish a draft: only its status and update time change.
    #[oai(
        path = "/v1/staff/articles/:id/publish",
        method = "post",
        operation_id = "publishArticle"
    )]
    async fn publish(&self, auth: StaffSession, id: Path<String>) -> StaffResponse<StaffArticle> {
        answer(self.service.publish(auth.user(), &id.0).await)
    }

    /// Delete an article.
    #[oai(
        path = "/v1/staff/articles/:id",
        method = "delete",
        operation_id = "deleteArticle"
    )]
    async fn delete(&self, auth: StaffSession, id: Path<String>) -> DeleteResponse {
        match self.service.delete(auth.user(), &id.0).await {
            Ok(()) => DeleteResponse::Deleted,
            Err(ContentError::Forbidden) => DeleteResponse::Forbidden(identity::forbidden()),
            Err(ContentError::NotFound) => DeleteResponse::NotFound(not_found()),
            Err(e) => {
                tracing::error!(error = ?e, "delete failed");
                DeleteResponse::Internal(Json(ErrorBody::internal()))
            }
        }
    }

    /// Render markdown exactly as the article page will.
    #[oai(
        path = "/v1/staff/preview",
        method = "post",
        operation_id = "previewArticle"
    )]
    async fn preview(
        &self,
        auth: StaffSession,
        body: Json<PreviewInput>,
    ) -> StaffResponse<Preview> {
        answer(
            self.service
                .preview(auth.user(), &body.0.content)
                .map(|html| Preview { html }),
        )
    }
}
