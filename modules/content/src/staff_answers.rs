//! What each editorial operation answers: exactly the statuses it can give, so the contract
//! (and the client generated from it) lists no status an operation never returns.
// An answer is built once per request and moved straight out: its size does not matter.
#![allow(clippy::large_enum_variant)]

use crate::codes::Code;
use kernel::ErrorBody;
use poem_openapi::payload::Json;
use poem_openapi::ApiResponse;

use crate::dto::{Preview, StaffArticle};
use crate::error::ContentError;
use crate::newsroom_dto::{
    ArticleEvent, ConflictBody, NewsroomRules, Revision, RevisionDiff, RevisionSummary,
};

/// Why an editorial call failed, before each operation answers with the statuses it declares.
pub(crate) enum Failure {
    BadRequest(Json<ErrorBody>),
    Forbidden(Json<ErrorBody>),
    NotFound(Json<ErrorBody>),
    Conflict(Json<ConflictBody>),
    Internal(Json<ErrorBody>),
}

impl From<ContentError> for Failure {
    fn from(e: ContentError) -> Self {
        match e {
            ContentError::Invalid { code, message } => {
                Failure::BadRequest(Json(ErrorBody::new(code, message)))
            }
            ContentError::Forbidden => Failure::Forbidden(identity::forbidden()),
            ContentError::NotFoundWith { code, message } => {
                Failure::NotFound(Json(ErrorBody::new(code, message)))
            }
            ContentError::Refused { code, message } => {
                Failure::Forbidden(Json(ErrorBody::new(code, message)))
            }
            ContentError::Conflict { code, message } => Failure::Conflict(Json(ConflictBody {
                code,
                message,
                current_version: None,
                changed_by: None,
                changed_at: None,
            })),
            ContentError::Stale(body) => Failure::Conflict(Json(*body)),
            ContentError::NotFound => Failure::NotFound(Json(ErrorBody::new(
                Code::ArticleNotFound,
                "Article not found",
            ))),
            e => {
                e.note();
                tracing::error!(error = ?e, "editorial request failed");
                Failure::Internal(Json(ErrorBody::internal()))
            }
        }
    }
}

impl Failure {
    /// A failure the operation cannot give (a 404 where nothing is looked up, say) is a bug:
    /// logged, and answered as one.
    fn undeclared(self) -> Json<ErrorBody> {
        match &self {
            Failure::BadRequest(b) | Failure::NotFound(b) | Failure::Forbidden(b) => {
                tracing::error!(code = %b.0.code, "undeclared editorial failure")
            }
            Failure::Conflict(b) => {
                tracing::error!(code = %b.0.code, "undeclared editorial failure")
            }
            Failure::Internal(_) => {}
        }
        Json(ErrorBody::internal())
    }
}

/// `From<Failure>` for an operation's answer: each failure it declares goes to its variant of
/// the same name; any other would be a bug, answered as an internal error.
macro_rules! declares {
    ($answer:ident: $($variant:ident),+) => {
        impl From<Failure> for $answer {
            fn from(f: Failure) -> Self {
                match f {
                    $(Failure::$variant(b) => $answer::$variant(b),)+
                    #[allow(unreachable_patterns)] // an answer may declare every failure
                    other => $answer::Internal(other.undeclared()),
                }
            }
        }
    };
}

/// `GET /v1/staff/articles`.
#[derive(ApiResponse)]
pub enum ListAnswer {
    #[oai(status = 200)]
    Ok(Json<Vec<StaffArticle>>),
    /// No live staff session (signed out, expired, or the user was disabled).
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    /// The signed-in role may not do this.
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

/// `POST /v1/staff/articles`.
#[derive(ApiResponse)]
pub enum CreateAnswer {
    #[oai(status = 201)]
    Created(Json<StaffArticle>),
    /// A rule of the article was broken (missing title, unknown writer…).
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// No live staff session (signed out, expired, or the user was disabled).
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    /// The signed-in role may not do this.
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

/// `GET /v1/staff/articles/{id}`.
#[derive(ApiResponse)]
pub enum GetAnswer {
    #[oai(status = 200)]
    Ok(Json<StaffArticle>),
    /// No live staff session (signed out, expired, or the user was disabled).
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    /// The signed-in role may not do this.
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    /// No such article among those this staff member may manage.
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

/// `PUT /v1/staff/articles/{id}` and `POST /v1/staff/articles/{id}/publish`.
#[derive(ApiResponse)]
pub enum SaveAnswer {
    #[oai(status = 200)]
    Ok(Json<StaffArticle>),
    /// A rule of the article was broken (missing title, unknown writer…).
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// No live staff session (signed out, expired, or the user was disabled).
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    /// The signed-in role may not do this.
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    /// No such article among those this staff member may manage.
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    /// The piece's stage does not allow this now, or it was saved by someone else since the
    /// version the edit was based on (nothing was overwritten).
    #[oai(status = 409)]
    Conflict(Json<ConflictBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

/// `DELETE /v1/staff/articles/{id}`.
#[derive(ApiResponse)]
pub enum DeleteAnswer {
    #[oai(status = 204)]
    Deleted,
    /// No live staff session (signed out, expired, or the user was disabled).
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    /// The signed-in role may not do this.
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    /// No such article among those this staff member may manage.
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

/// `POST /v1/staff/preview`.
#[derive(ApiResponse)]
pub enum PreviewAnswer {
    #[oai(status = 200)]
    Ok(Json<Preview>),
    /// The text is longer than an article may be.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// No live staff session (signed out, expired, or the user was disabled).
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
    /// The signed-in role may not do this.
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

declares!(ListAnswer: Forbidden, Internal);
declares!(CreateAnswer: BadRequest, Forbidden, Internal);
declares!(GetAnswer: Forbidden, NotFound, Internal);
declares!(SaveAnswer: BadRequest, Forbidden, NotFound, Conflict, Internal);
declares!(DeleteAnswer: Forbidden, NotFound, Internal);
declares!(PreviewAnswer: BadRequest, Forbidden, Internal);

/// An article's audit log, revisions or one revision, or a difference.
macro_rules! read_answer {
    ($name:ident, $doc:literal, $body:ty) => {
        #[doc = $doc]
        #[derive(ApiResponse)]
        pub enum $name {
            #[oai(status = 200)]
            Ok(Json<$body>),
            /// No live staff session (signed out, expired, or the user was disabled).
            #[oai(status = 401)]
            NotSignedIn(Json<ErrorBody>),
            /// The signed-in role may not do this.
            #[oai(status = 403)]
            Forbidden(Json<ErrorBody>),
            /// No such article (or revision) among those this staff member may manage.
            #[oai(status = 404)]
            NotFound(Json<ErrorBody>),
            #[oai(status = 500)]
            Internal(Json<ErrorBody>),
        }
        declares!($name: Forbidden, NotFound, Internal);
    };
}

/// `GET /v1/staff/newsroom`.
#[derive(ApiResponse)]
pub enum RulesAnswer {
    #[oai(status = 200)]
    Ok(Json<NewsroomRules>),
    /// No live staff session (signed out, expired, or the user was disabled).
    #[oai(status = 401)]
    NotSignedIn(Json<ErrorBody>),
}

read_answer!(
    EventsAnswer,
    "`GET /v1/staff/articles/{id}/events`.",
    Vec<ArticleEvent>
);
read_answer!(
    RevisionsAnswer,
    "`GET /v1/staff/articles/{id}/revisions`.",
    Vec<RevisionSummary>
);
read_answer!(
    RevisionAnswer,
    "`GET /v1/staff/articles/{id}/revisions/{number}`.",
    Revision
);
read_answer!(
    DiffAnswer,
    "`GET /v1/staff/articles/{id}/revisions/{number}/diff`.",
    RevisionDiff
);

/// The operation's answer: `ok` on success, else the failure as the operation declares it.
pub(crate) fn answer<T, A: From<Failure>>(
    r: Result<T, ContentError>,
    ok: impl FnOnce(T) -> A,
) -> A {
    match r {
        Ok(v) => ok(v),
        Err(e) => A::from(Failure::from(e)),
    }
}
