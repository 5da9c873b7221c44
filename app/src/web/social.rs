//! The social cards' addresses: `/social/site.jpg`, `/social/article/{slug}.jpg` and
//! `/social/magazine/{slug}.jpg`, made from the page's cover by the media module.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use content::{ContentService, Lookup};
use media::{MagazineService, SocialCards};
use poem::http::{header, StatusCode};
use poem::web::{Data, Path};
use poem::{handler, IntoResponse, Response};

pub struct Social {
    pub content: Arc<ContentService>,
    pub magazines: Arc<MagazineService>,
    pub cards: Arc<SocialCards>,
}

/// The card of a page with `cover`: its own address (which changes with the cover, so
/// networks that keep pictures fetch the new one), or none for the site's card.
pub fn card_path(kind: &str, slug: &str, cover: Option<&str>) -> Option<String> {
    let cover = cover?;
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    cover.hash(&mut hasher);
    Some(format!(
        "/social/{kind}/{slug}.jpg?v={:08x}",
        hasher.finish() & 0xffff_ffff
    ))
}

fn picture(bytes: bytes::Bytes) -> Response {
    if bytes.is_empty() {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    }
    Response::builder()
        .content_type(media::CARD_CONTENT_TYPE)
        .header(header::CACHE_CONTROL, "public, max-age=86400")
        .header("x-content-type-options", "nosniff")
        .body(bytes)
}

#[handler]
pub async fn site_card(social: Data<&Arc<Social>>) -> Response {
    picture(social.cards.card(None).await)
}

#[handler]
pub async fn article_card(Path(file): Path<String>, social: Data<&Arc<Social>>) -> Response {
    let Some(slug) = file.strip_suffix(".jpg") else {
        return StatusCode::NOT_FOUND.into_response();
    };
    match social.content.lookup(slug).await.as_deref() {
        Ok(Lookup::Found(article)) => {
            picture(social.cards.card(article.card.cover_image.as_deref()).await)
        }
        Ok(_) => StatusCode::NOT_FOUND.into_response(),
        Err(e) => {
            tracing::error!(error = ?e, "social card lookup failed");
            StatusCode::SERVICE_UNAVAILABLE.into_response()
        }
    }
}

#[handler]
pub async fn magazine_card(Path(file): Path<String>, social: Data<&Arc<Social>>) -> Response {
    let Some(slug) = file.strip_suffix(".jpg") else {
        return StatusCode::NOT_FOUND.into_response();
    };
    match social.magazines.issue(slug).await {
        Ok(Some(issue)) => picture(social.cards.card(Some(&issue.cover_url)).await),
        Ok(None) => StatusCode::NOT_FOUND.into_response(),
        Err(e) => {
            tracing::error!(error = ?e, "social card lookup failed");
            StatusCode::SERVICE_UNAVAILABLE.into_response()
        }
    }
}
