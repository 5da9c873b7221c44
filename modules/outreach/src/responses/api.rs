//! Responses as readers use them: the approved ones under an article, sending one, their own
//! on the account page, deleting and reporting.

use std::sync::Arc;

use identity::ReaderSession;
use kernel::{Common, ErrorBody};
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi, Tags};

use super::dto::{ArticleResponses, MyResponse};
use super::rules::Refusal;
use super::service::{ResponseError, Responses};
use crate::api::limited;
use crate::codes::Code;
use crate::service::{Form, OutreachError, OutreachService};
use poem::Request;

#[derive(Tags)]
pub(super) enum ApiTags {
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
    /// The text holds a control character.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// The text as kept (trimmed, at most one empty line between paragraphs) is under 20 or
    /// over 2,000 characters.
    #[oai(status = 422)]
    Unprocessable(Json<ErrorBody>),
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
pub(super) fn failed<T>(
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

pub(super) fn no_article() -> Json<ErrorBody> {
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
            Err(ResponseError::Length(m)) => {
                SentAnswer::Unprocessable(Json(ErrorBody::new(Code::InvalidResponse, m)))
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

fn done(r: Result<(), ResponseError>) -> DoneAnswer {
    match r {
        Ok(()) => DoneAnswer::Done,
        Err(ResponseError::NotFound) => {
            DoneAnswer::NotFound(Json(ErrorBody::new(Common::NotFound, "No such response.")))
        }
        Err(e) => failed(&e, DoneAnswer::Unavailable, DoneAnswer::Internal),
    }
}
