//! The editorial API: every call needs a live staff session; roles are checked in the service.

use std::sync::Arc;

use identity::StaffSession;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{OpenApi, Tags};

use crate::dto::{ArticleInput, Preview, PreviewInput};
use crate::newsroom_dto::{
    ApproveInput, ChangesInput, NewsroomRules, PendingDecision, RestoreInput, ScheduleInput,
};
use crate::service::ContentService;
use crate::staff_answers::{
    answer, CreateAnswer, DeleteAnswer, DiffAnswer, EventsAnswer, GetAnswer, ListAnswer,
    PreviewAnswer, RevisionAnswer, RevisionsAnswer, RulesAnswer, SaveAnswer,
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
            ok,
        )
    }

    /// Publish now: a draft (with review required, only a reviewer), or a piece in review or
    /// scheduled (by a reviewer). Its stage, status and update time change; its text does not.
    #[oai(
        path = "/v1/staff/articles/:id/publish",
        method = "post",
        operation_id = "publishArticle"
    )]
    async fn publish(&self, auth: StaffSession, id: Path<String>) -> SaveAnswer {
        answer(self.service.publish(auth.user(), &id.0).await, ok)
    }

    /// Ask for review: a draft goes in review, where only a reviewer changes it.
    #[oai(
        path = "/v1/staff/articles/:id/submit",
        method = "post",
        operation_id = "submitArticle"
    )]
    async fn submit(&self, auth: StaffSession, id: Path<String>) -> SaveAnswer {
        answer(self.service.submit(auth.user(), &id.0).await, ok)
    }

    /// Take a piece out of review, back to draft.
    #[oai(
        path = "/v1/staff/articles/:id/withdraw",
        method = "post",
        operation_id = "withdrawArticle"
    )]
    async fn withdraw(&self, auth: StaffSession, id: Path<String>) -> SaveAnswer {
        answer(self.service.withdraw(auth.user(), &id.0).await, ok)
    }

    /// Send a piece in review back to its writer with a note (reviewers: content director,
    /// admin). The writer sees the note on their dashboard and in the editor, and by email.
    #[oai(
        path = "/v1/staff/articles/:id/request-changes",
        method = "post",
        operation_id = "requestChanges"
    )]
    async fn request_changes(
        &self,
        auth: StaffSession,
        id: Path<String>,
        body: Json<ChangesInput>,
    ) -> SaveAnswer {
        answer(
            self.service
                .request_changes(auth.user(), &id.0, body.0.note)
                .await,
            ok,
        )
    }

    /// Approve a piece in review (reviewers): published now, or scheduled at `publish_at`.
    #[oai(
        path = "/v1/staff/articles/:id/approve",
        method = "post",
        operation_id = "approveArticle"
    )]
    async fn approve(
        &self,
        auth: StaffSession,
        id: Path<String>,
        body: Json<ApproveInput>,
    ) -> SaveAnswer {
        answer(
            self.service
                .approve(auth.user(), &id.0, body.0.publish_at)
                .await,
            ok,
        )
    }

    /// Make a writer's pending change to a live piece live (reviewers): it becomes the next
    /// revision at once; the piece stays published (or scheduled, at its time).
    #[oai(
        path = "/v1/staff/articles/:id/pending-change/approve",
        method = "post",
        operation_id = "approvePendingChange"
    )]
    async fn approve_change(
        &self,
        auth: StaffSession,
        id: Path<String>,
        body: Json<PendingDecision>,
    ) -> SaveAnswer {
        answer(
            self.service
                .approve_change(auth.user(), &id.0, body.0.proposed_at)
                .await,
            ok,
        )
    }

    /// Drop a pending change to a live piece: a reviewer declining it (with an optional note
    /// for the writer), or its writer taking it back. The live version stays as it is.
    #[oai(
        path = "/v1/staff/articles/:id/pending-change/decline",
        method = "post",
        operation_id = "declinePendingChange"
    )]
    async fn decline_change(
        &self,
        auth: StaffSession,
        id: Path<String>,
        body: Json<PendingDecision>,
    ) -> SaveAnswer {
        answer(
            self.service
                .decline_change(auth.user(), &id.0, body.0.proposed_at, body.0.note)
                .await,
            ok,
        )
    }

    /// Schedule a piece, or move its time. It goes public within seconds of `publish_at`
    /// (or as soon as the server is back, dated by that time).
    #[oai(
        path = "/v1/staff/articles/:id/schedule",
        method = "put",
        operation_id = "scheduleArticle"
    )]
    async fn schedule(
        &self,
        auth: StaffSession,
        id: Path<String>,
        body: Json<ScheduleInput>,
    ) -> SaveAnswer {
        answer(
            self.service
                .schedule(auth.user(), &id.0, body.0.publish_at)
                .await,
            ok,
        )
    }

    /// Pull a scheduled piece back to draft.
    #[oai(
        path = "/v1/staff/articles/:id/schedule",
        method = "delete",
        operation_id = "unscheduleArticle"
    )]
    async fn unschedule(&self, auth: StaffSession, id: Path<String>) -> SaveAnswer {
        answer(self.service.unschedule(auth.user(), &id.0).await, ok)
    }

    /// Take a published piece back to draft.
    #[oai(
        path = "/v1/staff/articles/:id/unpublish",
        method = "post",
        operation_id = "unpublishArticle"
    )]
    async fn unpublish(&self, auth: StaffSession, id: Path<String>) -> SaveAnswer {
        answer(self.service.unpublish(auth.user(), &id.0).await, ok)
    }

    /// How the newsroom runs here: whether writers submit for review instead of publishing.
    #[oai(
        path = "/v1/staff/newsroom",
        method = "get",
        operation_id = "newsroomRules"
    )]
    async fn rules(&self, _auth: StaffSession) -> RulesAnswer {
        RulesAnswer::Ok(Json(NewsroomRules {
            review_required: self.service.review_required(),
        }))
    }

    /// Pieces waiting for review, the longest waiting first (reviewers).
    #[oai(
        path = "/v1/staff/review-queue",
        method = "get",
        operation_id = "reviewQueue"
    )]
    async fn review_queue(&self, auth: StaffSession) -> ListAnswer {
        answer(self.service.review_queue(auth.user()).await, |v| {
            ListAnswer::Ok(Json(v))
        })
    }

    /// An article's audit log: who moved it from which stage to which, and when (reviewers).
    #[oai(
        path = "/v1/staff/articles/:id/events",
        method = "get",
        operation_id = "articleEvents"
    )]
    async fn events(&self, auth: StaffSession, id: Path<String>) -> EventsAnswer {
        answer(self.service.events(auth.user(), &id.0).await, |v| {
            EventsAnswer::Ok(Json(v))
        })
    }

    /// An article's saved revisions, newest first.
    #[oai(
        path = "/v1/staff/articles/:id/revisions",
        method = "get",
        operation_id = "articleRevisions"
    )]
    async fn revisions(&self, auth: StaffSession, id: Path<String>) -> RevisionsAnswer {
        answer(self.service.revisions(auth.user(), &id.0).await, |v| {
            RevisionsAnswer::Ok(Json(v))
        })
    }

    /// One revision, whole.
    #[oai(
        path = "/v1/staff/articles/:id/revisions/:number",
        method = "get",
        operation_id = "articleRevision"
    )]
    async fn revision(
        &self,
        auth: StaffSession,
        id: Path<String>,
        number: Path<i64>,
    ) -> RevisionAnswer {
        answer(
            self.service.revision(auth.user(), &id.0, number.0).await,
            |v| RevisionAnswer::Ok(Json(v)),
        )
    }

    /// What changed from a revision to the current text: the fields that differ and the body
    /// line by line.
    #[oai(
        path = "/v1/staff/articles/:id/revisions/:number/diff",
        method = "get",
        operation_id = "articleRevisionDiff"
    )]
    async fn revision_diff(
        &self,
        auth: StaffSession,
        id: Path<String>,
        number: Path<i64>,
    ) -> DiffAnswer {
        answer(
            self.service
                .revision_diff(auth.user(), &id.0, number.0)
                .await,
            |v| DiffAnswer::Ok(Json(v)),
        )
    }

    /// Restore a revision: its text becomes the article's newest revision.
    #[oai(
        path = "/v1/staff/articles/:id/revisions/:number/restore",
        method = "post",
        operation_id = "restoreRevision"
    )]
    async fn restore(
        &self,
        auth: StaffSession,
        id: Path<String>,
        number: Path<i64>,
        body: Json<RestoreInput>,
    ) -> SaveAnswer {
        answer(
            self.service
                .restore(auth.user(), &id.0, number.0, body.0.base_version)
                .await,
            ok,
        )
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

fn ok(a: crate::dto::StaffArticle) -> SaveAnswer {
    SaveAnswer::Ok(Json(a))
}
