//! The HTTP surface: API, docs, health, assets, media and server-rendered pages.

mod assets;
mod body_limit;
mod body_types;
mod contract;
mod control_chars;
mod csrf;
mod errors;
pub(crate) mod feed;
pub(crate) mod forms;
mod headers;
mod health;
mod negotiate;
mod page_cache;
mod page_resolve;
mod pages;
mod represent;
mod seo;
mod social;
mod structured;
mod telemetry;

use std::sync::Arc;

use poem::middleware::CatchPanic;
use poem::{get, EndpointExt, IntoEndpoint, Route};

use crate::settings::Settings;
use crate::ssr::Renderer;
use crate::state::{Api, Services};

pub use assets::Assets;
pub use contract::complete as complete_contract;
pub use page_cache::CachedPages;
pub use represent::Answer;
pub use telemetry::route_of;

pub fn routes(
    settings: &Settings,
    services: &Services,
    api: Api,
    renderer: Renderer,
) -> anyhow::Result<(poem::endpoint::BoxEndpoint<'static>, Option<CachedPages>)> {
    let assets = Arc::new(Assets::load(&settings.web_dist.join("client"))?);
    let renderer = Arc::new(renderer);
    let magazine_bytes = settings.magazine_max_bytes as u64;
    let contract = contract::complete(&api.spec());
    let api_routes = Arc::new(telemetry::ApiRoutes::from_spec(&contract));
    let allow_routes = api_routes.clone();
    let body_routes = api_routes.clone();
    let shapes = Arc::new(body_types::BodyShapes::from_contract(&contract));
    let form_shapes = shapes.clone();
    let docs = api.swagger_ui().around(headers::docs);
    let outage_db = services.db.clone();
    let api_stack: Arc<dyn poem::endpoint::DynEndpoint<Output = poem::Response>> =
        Arc::new(poem::endpoint::ToDynEndpoint(
            api.into_endpoint()
                .around(move |ep, req| {
                    body_types::typed_json(ep, req, body_routes.clone(), shapes.clone())
                })
                .around(control_chars::clean_body)
                .around(csrf::same_origin_only)
                .around(move |ep, req| body_limit::limit_body(ep, req, magazine_bytes))
                .data(services.identity.clone())
                .data(csrf::SiteOrigin(settings.site_url.clone()))
                .catch_all_error(errors::api_error)
                .around(move |ep, req| errors::database_outage(ep, req, outage_db.clone()))
                .around(move |ep, req| telemetry::allow_header(ep, req, allow_routes.clone()))
                .around(headers::api)
                .map_to_response(),
        ));
    let forms = forms::Forms::new(
        api_stack.clone(),
        form_shapes,
        services.flash.clone(),
        settings.site_url.starts_with("https://"),
    );
    let pages = pages::PageEndpoint::new(
        services,
        renderer.clone(),
        assets.clone(),
        forms,
        pages::PagePolicy {
            cache: settings.page_cache,
            shared_seconds: settings.cdn.max_age_seconds,
            https: settings.site_url.starts_with("https://"),
        },
    );
    let cached = pages.cached();
    let spec = get(poem::endpoint::make_sync(move |_| {
        poem::Response::builder()
            .content_type("application/json; charset=utf-8")
            .header("x-content-type-options", "nosniff")
            .body(contract.clone())
    }));
    let https = settings.site_url.starts_with("https://");
    let media = media::MediaEndpoint::new(services.storage.clone());
    let health = health::Health {
        db: services.db.clone(),
        sidecar: renderer.sidecar(),
        storage: Arc::new(health::StorageProbe::new(services.storage.clone())),
    };
    let social = Arc::new(social::Social {
        content: services.content.clone(),
        magazines: services.magazines.clone(),
        cards: Arc::new(media::SocialCards::new(services.storage.clone())),
    });
    let seo = Arc::new(seo::Seo::new(
        services.content.clone(),
        services.identity.clone(),
        services.magazines.clone(),
        settings.site_url.clone(),
        settings.site_name.clone(),
        represent::public_cache_control(settings.cdn.max_age_seconds),
    ));
    let route = Route::new()
        .at("/api/openapi.json", spec)
        .nest("/api/docs", docs)
        .nest("/api", api_stack)
        .at("/healthz", get(health::healthz))
        .at("/readyz", get(health::readyz).data(health))
        .at(
            "/metrics",
            get(health::metrics).data(health::MetricsAccess {
                token: settings.metrics_token.clone(),
                outbox: services.outbox.clone(),
            }),
        )
        .at("/robots.txt", get(seo::robots).data(seo.clone()))
        .at("/sitemap.xml", get(seo::sitemap).data(seo.clone()))
        .at(
            "/:file<sitemap-[0-9]+\\.xml>",
            get(seo::sitemap_part_of).data(seo.clone()),
        )
        .at(feed::FEED_PATH, get(seo::feed).data(seo.clone()))
        .at("/feed/:file", get(seo::category_feed).data(seo.clone()))
        .at("/feed/author/:file", get(seo::author_feed).data(seo))
        .at(
            "/social/site.jpg",
            get(social::site_card).data(social.clone()),
        )
        .at(
            "/social/article/:file",
            get(social::article_card).data(social.clone()),
        )
        .at(
            "/social/magazine/:file",
            get(social::magazine_card).data(social),
        )
        .nest("/assets", assets::AssetEndpoint(assets))
        .nest("/media", media)
        .at("/", pages.clone())
        .at("/*path", pages);
    let endpoint = route
        .around(control_chars::clean_address)
        .around(move |ep, req| headers::site(ep, req, https))
        .with(CatchPanic::new())
        .around(move |ep, req| telemetry::trace_request(ep, req, api_routes.clone()))
        .into_endpoint()
        .boxed();
    Ok((endpoint, cached))
}
