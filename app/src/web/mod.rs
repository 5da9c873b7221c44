//! The HTTP surface: API, docs, health, assets, media and server-rendered pages.

mod assets;
mod body_limit;
mod csrf;
mod errors;
mod health;
mod pages;
mod routes_meta;
mod seo;
mod telemetry;

use std::sync::Arc;

use poem::middleware::{CatchPanic, Compression};
use poem::{get, EndpointExt, IntoEndpoint, Route};

use crate::settings::Settings;
use crate::ssr::Renderer;
use crate::startup::{Api, Services};

pub use assets::Assets;
pub(crate) use routes_meta::static_page;

pub fn routes(
    settings: &Settings,
    services: &Services,
    api: Api,
    renderer: Renderer,
) -> anyhow::Result<poem::endpoint::BoxEndpoint<'static>> {
    let assets = Arc::new(Assets::load(&settings.web_dist.join("client"))?);
    let renderer = Arc::new(renderer);
    let pages = pages::PageEndpoint::new(
        services.content.clone(),
        renderer.clone(),
        assets.clone(),
        settings.page_cache,
        services.views.clone(),
        settings.trust_proxy,
    );
    let magazine_bytes = settings.magazine_max_bytes as u64;
    let api_routes = Arc::new(telemetry::ApiRoutes::from_spec(&api.spec()));
    let spec = api.spec_endpoint();
    let docs = api.swagger_ui();
    let media = media::MediaEndpoint::new(services.storage.clone());
    let health = health::Health {
        db: services.db.clone(),
        sidecar: renderer.sidecar(),
    };
    let seo = seo::Seo {
        content: services.content.clone(),
        site_url: settings.site_url.clone(),
    };
    let route = Route::new()
        .at("/api/openapi.json", spec)
        .nest("/api/docs", docs)
        .nest(
            "/api",
            api.into_endpoint()
                .around(csrf::same_origin_only)
                .around(move |ep, req| body_limit::limit_body(ep, req, magazine_bytes))
                .data(services.identity.clone())
                .data(csrf::SiteOrigin(settings.site_url.clone()))
                .catch_all_error(errors::api_error),
        )
        .at("/healthz", get(health::healthz))
        .at("/readyz", get(health::readyz).data(health))
        .at("/robots.txt", get(seo::robots).data(seo.clone()))
        .at("/sitemap.xml", get(seo::sitemap).data(seo))
        .nest("/assets", assets::AssetEndpoint(assets))
        .nest("/media", media)
        .at("/", pages.clone().with(Compression::new()))
        .at("/*path", pages.with(Compression::new()));
    Ok(route
        .with(CatchPanic::new())
        .around(move |ep, req| telemetry::trace_request(ep, req, api_routes.clone()))
        .into_endpoint()
        .boxed())
}
