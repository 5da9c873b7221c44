//! The public, read-only content API.

use crate::codes::Code;
use std::sync::Arc;

use kernel::http::CachedJson;
use kernel::ErrorBody;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, OpenApi, Tags};

use crate::dto::{Article, ArticleList, AuthorPage, Related};
use crate::error::ContentError;
use crate::model::{Category, ListQuery, Sort};
use crate::service::ContentService;

#[derive(Tags)]
enum ApiTags {
    /// Published articles.
    Articles,
}

#[derive(ApiResponse)]
pub enum ListResponse {
    /// A page of published articles.
    #[oai(status = 200)]
    Ok(CachedJson<ArticleList>),
    /// A parameter is invalid.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

#[derive(ApiResponse)]
#[allow(clippy::large_enum_variant)] // built once per request and moved straight out
pub enum GetResponse {
    /// The article.
    #[oai(status = 200)]
    Ok(Json<Article>),
    /// No published article has this slug or id.
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

#[derive(ApiResponse)]
pub enum RelatedResponse {
    /// What to read next, and the author.
    #[oai(status = 200)]
    Ok(Json<Related>),
    /// No published article has this slug or id.
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

#[derive(ApiResponse)]
#[allow(clippy::large_enum_variant)] // built once per request and moved straight out
pub enum AuthorResponse {
    /// The contributor and their newest pieces.
    #[oai(status = 200)]
    Ok(Json<AuthorPage>),
    /// A parameter is invalid.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// No contributor has a page at this address (none has it, or nothing of theirs is
    /// published).
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
}

pub struct ContentApi {
    service: Arc<ContentService>,
}

impl ContentApi {
    pub fn new(service: Arc<ContentService>) -> Self {
        Self { service }
    }
}

fn internal(e: &ContentError) -> Json<ErrorBody> {
    e.note();
    tracing::error!(error = ?e, "content request failed");
    Json(ErrorBody::internal())
}

#[OpenApi(tag = "ApiTags::Articles")]
impl ContentApi {
    /// List published articles, newest first (or featured first with `sort=featured`), or
    /// search them: with `q`, best match first (or newest first with `sort=newest`), each
    /// with a highlight of its text around the matched words.
    #[oai(path = "/v1/articles", method = "get", operation_id = "listArticles")]
    async fn list(
        &self,
        /// Words to search for in titles, subtitles and texts, read as web search reads them:
        /// every word must match, in any order and any form ("voting" finds "vote"), ignoring
        /// case and accents; `"a phrase"` matches as written, `or` between two words matches
        /// either, `-word` leaves out articles holding it, and the last word also matches
        /// longer words it starts ("clim" finds "climate").
        q: Query<Option<String>>,
        /// Categories to include (repeatable; an article matches any of them).
        #[oai(default)]
        category: Query<Vec<Category>>,
        /// Page size, 1 to 50 (default 6).
        #[oai(validator(minimum(value = "1"), maximum(value = "50")))]
        limit: Query<Option<i64>>,
        /// How many matches to skip (default 0).
        #[oai(validator(minimum(value = "0")))]
        offset: Query<Option<i64>>,
        /// `newest` (the default without `q`), `featured` (featured first, then newest) or
        /// `relevance` (best match first: the default with `q`).
        sort: Query<Option<Sort>>,
    ) -> ListResponse {
        let query = match ListQuery::from_params(q.0, category.0, limit.0, offset.0, sort.0) {
            Ok(query) => query,
            Err(ContentError::Invalid { code, message }) => {
                return ListResponse::BadRequest(Json(ErrorBody::new(code, message)))
            }
            Err(e) => return ListResponse::Internal(internal(&e)),
        };
        match self.service.list_json(&query).await {
            Ok(body) => ListResponse::Ok(CachedJson::new(body)),
            Err(e) => ListResponse::Internal(internal(&e)),
        }
    }

    /// A contributor's page: the name they show, their role and bio, and their newest
    /// published pieces.
    #[oai(path = "/v1/authors/:slug", method = "get", operation_id = "getAuthor")]
    async fn author(
        &self,
        slug: Path<String>,
        /// How many pieces, 1 to 50 (default 6).
        #[oai(validator(minimum(value = "1"), maximum(value = "50")))]
        limit: Query<Option<i64>>,
    ) -> AuthorResponse {
        let limit = match ListQuery::from_params(None, Vec::new(), limit.0, None, None) {
            Ok(q) => q.limit,
            Err(ContentError::Invalid { code, message }) => {
                return AuthorResponse::BadRequest(Json(ErrorBody::new(code, message)))
            }
            Err(e) => return AuthorResponse::Internal(internal(&e)),
        };
        let (id, author) = match self.service.author(&slug.0).await {
            Ok(Some(found)) => found,
            Ok(None) => {
                return AuthorResponse::NotFound(Json(ErrorBody::new(
                    Code::AuthorNotFound,
                    "No contributor has a page here.",
                )))
            }
            Err(e) => return AuthorResponse::Internal(internal(&e)),
        };
        match self.service.list(&ListQuery::by_author(&id, limit)).await {
            Ok(articles) => AuthorResponse::Ok(Json(AuthorPage { author, articles })),
            Err(e) => AuthorResponse::Internal(internal(&e)),
        }
    }

    /// One published article, by slug or id.
    #[oai(
        path = "/v1/articles/:slug_or_id",
        method = "get",
        operation_id = "getArticle"
    )]
    async fn get(&self, slug_or_id: Path<String>) -> GetResponse {
        match self.service.get(&slug_or_id.0).await {
            Ok(article) => GetResponse::Ok(Json(article)),
            Err(ContentError::NotFound) => GetResponse::NotFound(Json(ErrorBody::new(
                Code::ArticleNotFound,
                "Article not found",
            ))),
            Err(e) => GetResponse::Internal(internal(&e)),
        }
    }

    /// What follows an article: three articles to read next (the same category's first) and
    /// its author with their other articles.
    #[oai(
        path = "/v1/articles/:slug_or_id/related",
        method = "get",
        operation_id = "getRelated"
    )]
    async fn related(&self, slug_or_id: Path<String>) -> RelatedResponse {
        let article = match self.service.get(&slug_or_id.0).await {
            Ok(article) => article,
            Err(ContentError::NotFound) => {
                return RelatedResponse::NotFound(Json(ErrorBody::new(
                    Code::ArticleNotFound,
                    "Article not found",
                )))
            }
            Err(e) => return RelatedResponse::Internal(internal(&e)),
        };
        match self.service.related(&article).await {
            Ok(related) => RelatedResponse::Ok(Json(Related::clone(&related))),
            Err(e) => RelatedResponse::Internal(internal(&e)),
        }
    }
}
