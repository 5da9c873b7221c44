//! Responses as the desk uses them: the queue, approving, rejecting, blocking a reader and
//! closing an article's responses (the content director and admins).

use std::sync::Arc;

use identity::StaffSession;
use kernel::{Common, ErrorBody};
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi};

use super::api::{failed, no_article, ApiTags};
use super::dto::QueuedResponse;
use super::service::{ResponseError, Responses};
use crate::access::OutreachAction;

/// Why the desk rejects a response.
#[derive(Debug, Object)]
#[oai(deny_unknown_fields)]
pub struct Rejection {
    /// What the reader is told on their account page (one line, at most 500 characters, no
    /// control character); absent for none.
    #[oai(validator(max_length = 500, pattern = "^[^\\u0000-\\u001F\\u007F-\\u009F]*$"))]
    pub reason: Option<String>,
}

/// Whether an article takes responses.
#[derive(Debug, Object)]
#[oai(deny_unknown_fields)]
pub struct ResponsesOpen {
    pub open: bool,
}

#[derive(ApiResponse)]
pub enum QueueAnswer {
    /// Oldest first.
    #[oai(status = 200)]
    Ok(Json<Vec<QueuedResponse>>),
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    /// Only the content director and admins moderate.
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

#[derive(ApiResponse)]
pub enum DecidedAnswer {
    #[oai(status = 204)]
    Done,
    /// A reason breaks its rules.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    /// No such response waiting (decided meanwhile, or deleted), or no such article.
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

fn decided(r: Result<(), ResponseError>) -> DecidedAnswer {
    match r {
        Ok(()) => DecidedAnswer::Done,
        Err(ResponseError::Invalid(m)) => {
            DecidedAnswer::BadRequest(Json(ErrorBody::new(Common::InvalidRequest, m)))
        }
        Err(ResponseError::NotFound) => DecidedAnswer::NotFound(Json(ErrorBody::new(
            Common::NotFound,
            "No such response is waiting.",
        ))),
        Err(ResponseError::NoArticle) => DecidedAnswer::NotFound(no_article()),
        Err(e) => failed(&e, DecidedAnswer::Unavailable, DecidedAnswer::Internal),
    }
}

/// The desk's side: the queue and its decisions.
#[OpenApi(tag = "ApiTags::Responses")]
impl ResponseDeskApi {
    /// Responses waiting for the desk, oldest first, each with its article and the reader's
    /// other responses (content director and admins).
    #[oai(
        path = "/v1/staff/responses",
        method = "get",
        operation_id = "responseQueue"
    )]
    async fn queue(&self, auth: StaffSession) -> QueueAnswer {
        if !auth.may(OutreachAction::Moderate) {
            return QueueAnswer::Forbidden(identity::forbidden());
        }
        match self.responses.queue().await {
            Ok(q) => QueueAnswer::Ok(Json(q)),
            Err(e) => failed(&e, QueueAnswer::Unavailable, QueueAnswer::Internal),
        }
    }

    /// Approve a waiting response: it shows under its article.
    #[oai(
        path = "/v1/staff/responses/:id/approve",
        method = "post",
        operation_id = "approveResponse"
    )]
    async fn approve(&self, auth: StaffSession, id: Path<String>) -> DecidedAnswer {
        if !auth.may(OutreachAction::Moderate) {
            return DecidedAnswer::Forbidden(identity::forbidden());
        }
        decided(self.responses.approve(&auth.user().id, &id.0).await)
    }

    /// Reject a waiting response, with a reason its reader sees on their account page.
    #[oai(
        path = "/v1/staff/responses/:id/reject",
        method = "post",
        operation_id = "rejectResponse"
    )]
    async fn reject(
        &self,
        auth: StaffSession,
        id: Path<String>,
        body: Json<Rejection>,
    ) -> DecidedAnswer {
        if !auth.may(OutreachAction::Moderate) {
            return DecidedAnswer::Forbidden(identity::forbidden());
        }
        decided(
            self.responses
                .reject(&auth.user().id, &id.0, body.0.reason.as_deref())
                .await,
        )
    }

    /// Reject a waiting response and stop its reader from responding again.
    #[oai(
        path = "/v1/staff/responses/:id/block",
        method = "post",
        operation_id = "blockResponder"
    )]
    async fn block(&self, auth: StaffSession, id: Path<String>) -> DecidedAnswer {
        if !auth.may(OutreachAction::Moderate) {
            return DecidedAnswer::Forbidden(identity::forbidden());
        }
        decided(self.responses.block(&auth.user().id, &id.0).await)
    }

    /// Close an article's responses, or open them again (within its window).
    #[oai(
        path = "/v1/staff/articles/:id/responses",
        method = "put",
        operation_id = "setResponsesOpen"
    )]
    async fn set_open(
        &self,
        auth: StaffSession,
        id: Path<String>,
        body: Json<ResponsesOpen>,
    ) -> DecidedAnswer {
        if !auth.may(OutreachAction::Moderate) {
            return DecidedAnswer::Forbidden(identity::forbidden());
        }
        decided(
            self.responses
                .set_closed(&auth.user().id, &id.0, !body.0.open)
                .await,
        )
    }
}

/// The desk's endpoints for responses.
pub struct ResponseDeskApi {
    responses: Arc<Responses>,
}

impl ResponseDeskApi {
    pub fn new(responses: Arc<Responses>) -> Self {
        Self { responses }
    }
}
