//! Responses as readers use them: the approved ones under an article, sending one, their own
//! on the account page, deleting and reporting.

use std::sync::Arc;

use identity::{ReaderSession, StaffSession};
use kernel::{Common, ErrorBody};
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi, Tags};

use super::rules::Refusal;
use super::service::{ArticleResponses, MyResponse, QueuedResponse, ResponseError, Responses};
use crate::access::OutreachAction;
use crate::api::limited;
use crate::codes::Code;
use crate::service::{Form, OutreachError, OutreachService};
use poem::Request;

#[derive(Tags)]
enum ApiTags {
    /// Readers' responses to articles, shown once the desk approves them.
    Responses,
}

/// A response a reader sends.
#[derive(Debug, Object)]
#[oai(deny_unknown_fields)]
pub struct ResponseInput {
    /// Plain text, 20 to 2,000 characters; an empty line starts a paragraph. Links are shown
    /// as text.
    #[oai(validator(
        max_length = 4000,
        pattern = "^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*$"
    ))]
    pub body: String,
}

#[derive(ApiResponse)]
pub enum ShownAnswer {
    #[oai(status = 200)]
    Ok(Json<ArticleResponses>),
    /// No published article has this address.
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

#[derive(ApiResponse)]
pub enum SentAnswer {
    /// Kept, waiting for the desk: nobody else sees it until it is approved.
    #[oai(status = 201)]
    Created(Json<MyResponse>),
    /// The text breaks its rules.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// No live reader session.
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    /// The address is not confirmed, or the desk stopped this reader from responding.
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    /// The article takes no more responses.
    #[oai(status = 409)]
    Closed(Json<ErrorBody>),
    /// Five responses are waiting, or twenty were sent in the last day; or this address sent
    /// too many forms in a short while (then `Retry-After` says when to try again).
    #[oai(status = 429)]
    TooMany(Json<ErrorBody>, #[oai(header = "Retry-After")] Option<u64>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

#[derive(ApiResponse)]
pub enum MineAnswer {
    #[oai(status = 200)]
    Ok(Json<Vec<MyResponse>>),
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

#[derive(ApiResponse)]
pub enum DoneAnswer {
    #[oai(status = 204)]
    Done,
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    /// No such response of theirs (to delete), or no approved one (to report).
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

/// An unexpected failure, answered with `unavailable` (a 503) when the database is out of
/// reach, else with `internal` (a 500).
fn failed<T>(
    e: &ResponseError,
    unavailable: impl FnOnce(Json<ErrorBody>) -> T,
    internal: impl FnOnce(Json<ErrorBody>) -> T,
) -> T {
    tracing::error!(error = ?e, "response request failed");
    let out_of_reach = match e {
        ResponseError::Unexpected(inner) => inner
            .downcast_ref::<sqlx::Error>()
            .is_some_and(kernel::db::is_unavailable),
        _ => false,
    };
    if out_of_reach {
        unavailable(Json(ErrorBody::unavailable()))
    } else {
        internal(Json(ErrorBody::internal()))
    }
}

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

fn no_article() -> Json<ErrorBody> {
    Json(ErrorBody::new(
        Common::NotFound,
        "No published article has this address.",
    ))
}

pub struct ResponseApi {
    responses: Arc<Responses>,
    /// The public forms' budget per address, which a response counts against too.
    outreach: Arc<OutreachService>,
    trust_proxy: bool,
}

impl ResponseApi {
    pub fn new(
        responses: Arc<Responses>,
        outreach: Arc<OutreachService>,
        trust_proxy: bool,
    ) -> Self {
        Self {
            responses,
            outreach,
            trust_proxy,
        }
    }
}

#[OpenApi(tag = "ApiTags::Responses")]
impl ResponseApi {
    /// An article's approved responses, oldest first, and whether it takes more.
    #[oai(
        path = "/v1/articles/:slug/responses",
        method = "get",
        operation_id = "listResponses"
    )]
    async fn shown(&self, slug: Path<String>) -> ShownAnswer {
        match self.responses.shown(&slug.0).await {
            Ok(r) => ShownAnswer::Ok(Json(r)),
            Err(ResponseError::NoArticle) => ShownAnswer::NotFound(no_article()),
            Err(e) => failed(&e, ShownAnswer::Unavailable, ShownAnswer::Internal),
        }
    }

    /// Send a response to an article (a signed-in reader with a confirmed address). It waits
    /// for the desk: nobody else sees it until a content director or an admin approves it.
    #[oai(
        path = "/v1/articles/:slug/responses",
        method = "post",
        operation_id = "sendResponse"
    )]
    async fn send(
        &self,
        req: &Request,
        auth: ReaderSession,
        slug: Path<String>,
        body: Json<ResponseInput>,
    ) -> SentAnswer {
        let client = kernel::http::client_address(req, self.trust_proxy);
        match self.outreach.admit(Form::Response, &client).await {
            Ok(()) => {}
            Err(OutreachError::RateLimited { retry_after }) => {
                let (body, after) = limited(retry_after);
                return SentAnswer::TooMany(body, Some(after));
            }
            Err(e) => {
                tracing::error!(error = ?e, "counting a response against its address failed");
                return SentAnswer::Internal(Json(ErrorBody::internal()));
            }
        }
        match self
            .responses
            .send(&auth.0.account, &slug.0, &body.0.body)
            .await
        {
            Ok(r) => SentAnswer::Created(Json(r)),
            Err(ResponseError::Invalid(m)) => {
                SentAnswer::BadRequest(Json(ErrorBody::new(Code::InvalidResponse, m)))
            }
            Err(ResponseError::NoArticle) => SentAnswer::NotFound(no_article()),
            Err(ResponseError::Refused(r)) => {
                let m = r.message();
                match r {
                    Refusal::Unconfirmed => {
                        SentAnswer::Forbidden(Json(ErrorBody::new(Code::ResponseUnconfirmed, m)))
                    }
                    Refusal::Blocked => {
                        SentAnswer::Forbidden(Json(ErrorBody::new(Code::RespondingBlocked, m)))
                    }
                    Refusal::Closed => {
                        SentAnswer::Closed(Json(ErrorBody::new(Code::ResponsesClosed, m)))
                    }
                    Refusal::TooManyPending | Refusal::TooManyToday => {
                        SentAnswer::TooMany(Json(ErrorBody::new(Code::ResponseLimit, m)), None)
                    }
                }
            }
            Err(e) => failed(&e, SentAnswer::Unavailable, SentAnswer::Internal),
        }
    }

    /// The signed-in reader's responses, newest first: waiting, approved or rejected (with
    /// the desk's reason).
    #[oai(
        path = "/v1/reader/responses",
        method = "get",
        operation_id = "myResponses"
    )]
    async fn mine(&self, auth: ReaderSession) -> MineAnswer {
        match self.responses.mine(&auth.0.account).await {
            Ok(r) => MineAnswer::Ok(Json(r)),
            Err(e) => failed(&e, MineAnswer::Unavailable, MineAnswer::Internal),
        }
    }

    /// Delete one of the signed-in reader's own responses.
    #[oai(
        path = "/v1/reader/responses/:id",
        method = "delete",
        operation_id = "deleteMyResponse"
    )]
    async fn delete(&self, auth: ReaderSession, id: Path<String>) -> DoneAnswer {
        done(self.responses.delete_mine(&auth.0.account, &id.0).await)
    }

    /// Report an approved response (a signed-in reader, once each): three reports put it back
    /// in the desk's queue, off the article until it is looked at again.
    #[oai(
        path = "/v1/responses/:id/report",
        method = "post",
        operation_id = "reportResponse"
    )]
    async fn report(&self, auth: ReaderSession, id: Path<String>) -> DoneAnswer {
        done(
            self.responses
                .report(&auth.0.account, &id.0)
                .await
                .map(|_| ()),
        )
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

fn done(r: Result<(), ResponseError>) -> DoneAnswer {
    match r {
        Ok(()) => DoneAnswer::Done,
        Err(ResponseError::NotFound) => {
            DoneAnswer::NotFound(Json(ErrorBody::new(Common::NotFound, "No such response.")))
        }
        Err(e) => failed(&e, DoneAnswer::Unavailable, DoneAnswer::Internal),
    }
}
