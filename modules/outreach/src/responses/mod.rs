//! Readers' responses to articles (issue 35): plain text a signed-in, confirmed reader sends
//! under an article, shown to nobody until a content director or an admin approves it; reported
//! back into the queue by readers; removed with its reader's account.

mod api;
mod desk;
mod desk_api;
mod dto;
mod rows;
pub mod rules;
mod service;
mod store;

pub use api::ResponseApi;
pub use desk_api::ResponseDeskApi;
pub use dto::{
    ArticleResponses, EarlierResponse, MyResponse, QueuedResponse, ResponseStatus, ShownResponse,
};
pub use service::{
    shown_changed, RespondedArticle, ResponseArticles, ResponseError, ResponseSettings, Responses,
};
pub use store::{
    response_store_for, Counts, NewResponse, QueuedRow, Reported, ResponseRow, ResponseStore,
    ShownRow,
};
