//! Readers' responses to articles (issue 35): plain text a signed-in, confirmed reader sends
//! under an article, shown to nobody until a content director or an admin approves it; reported
//! back into the queue by readers; removed with its reader's account.

mod api;
pub mod rules;
mod service;
mod store;

pub use api::{ResponseApi, ResponseDeskApi};
pub use service::{
    ArticleResponses, EarlierResponse, MyResponse, QueuedResponse, RespondedArticle,
    ResponseArticles, ResponseError, ResponseSettings, ResponseStatus, Responses, ShownResponse,
};
pub use store::{
    response_store_for, Counts, NewResponse, QueuedRow, Reported, ResponseRow, ResponseStore,
    ShownRow,
};
