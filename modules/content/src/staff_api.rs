//! The editorial API: every call needs a live staff session; roles are checked in the service.

use std::sync::Arc;

use identity::StaffSession;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{OpenApi, Tags};

use crate::dto::{ArticleInput, Preview, PreviewInput};
use crate::service::ContentService;
use crate::staff_answers::{
    answer, CreateAnswer, DeleteAnswer, GetAnswer, ListAnswer, PreviewAnswer, SaveAnswer,
};

#[derive(Tags)]
enum ApiTags {
    /// Writing and publishing articles (writer, content director).
    Editorial,
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
    async fn list(&self, auth: StaffSession) -> ListAnswer {
        answer(self.service.staff_list(auth.user()).await, |v| {
            ListAnswer::Ok(Json(v))
        })
    }

    /// Create an article (status `draft` or `published`).
    #[oai(
        path = "/v1/staff/articles",
        method = "post",
        operation_id = "createArticle"
    )]
    async fn create(&self, auth: StaffSession, body: Json<ArticleInput>) -> CreateAnswer {
        answer(self.service.save(auth.user(), None, body.0).await, |a| {
            CreateAnswer::Created(Json(a))
        })
    }

    /// One article, any status.
    #[oai(
        path = "/v1/staff/articles/:id",
        method = "get",
        operation_id = "getStaffArticle"
    )]
    async fn get(&self, auth: StaffSession, id: Path<String>) -> GetAnswer {
        answer(self.service.staff_get(auth.user(), &id.0).await, |a| {
            GetAnswer::Ok(Json(a))
        })
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
    ) -> SaveAnswer {
        answer(
            self.service.save(auth.user(), Some(&id.0), body.0).await,
            |a| SaveAnswer::Ok(Json(a)),
        )
    }

    /// Publish a draft: only its status and update time change.
    #[oai(
        path = "/v1/staff/articles/:id/publish",
        method = "post",
        operation_id = "publishArticle"
    )]
    async fn publish(&self, auth: StaffSession, id: Path<String>) -> SaveAnswer {
        answer(self.service.publish(auth.user(), &id.0).await, |a| {
            SaveAnswer::Ok(Json(a))
        })
    }

    /// Delete an article.
    #[oai(
        path = "/v1/staff/articles/:id",
        method = "delete",
        operation_id = "deleteArticle"
    )]
    async fn delete(&self, auth: StaffSession, id: Path<String>) -> DeleteAnswer {
        answer(self.service.delete(auth.user(), &id.0).await, |()| {
            DeleteAnswer::Deleted
        })
    }

    /// Render markdown exactly as the article page will.
    #[oai(
        path = "/v1/staff/preview",
        method = "post",
        operation_id = "previewArticle"
    )]
    async fn preview(&self, auth: StaffSession, body: Json<PreviewInput>) -> PreviewAnswer {
        answer(self.service.preview(auth.user(), &body.0.content), |html| {
            PreviewAnswer::Ok(Json(Preview { html }))
        })
    }
}
