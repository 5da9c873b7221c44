//! Builds the application from `Settings`: database, modules, the OpenAPI service, the
//! server-rendering sidecar and the routes.

use std::collections::HashMap;
use std::sync::Arc;

use std::path::PathBuf;

use async_trait::async_trait;
use content::{AuthorDirectory, ContentApi, ContentService, ContentStaffApi};
use identity::{IdentityApi, IdentityService, IdentitySettings};
use kernel::storage::LocalStorage;
use kernel::Db;
use media::MediaApi;
use poem::listener::TcpAcceptor;
use poem::Server;
use poem_openapi::OpenApiService;
use tokio::sync::watch;

use crate::settings::Settings;
use crate::ssr::{Renderer, Sidecar};
use crate::web;

/// Title and version of the published contract (independent of the site name, so the
/// committed `openapi.json` does not depend on configuration).
const API_TITLE: &str = "The Agora API";

/// Every module's service, built once.
#[derive(Clone)]
pub struct Services {
    pub db: Db,
    pub storage: Arc<LocalStorage>,
    pub identity: Arc<IdentityService>,
    pub content: Arc<ContentService>,
}

/// Content asks identity for author names through this adapter, so neither module reads the
/// other's tables.
struct IdentityAuthors(Arc<IdentityService>);

#[async_trait]
impl AuthorDirectory for IdentityAuthors {
    async fn names(
        &self,
        ids: &[String],
    ) -> Result<HashMap<String, String>, Box<dyn std::error::Error + Send + Sync>> {
        Ok(self.0.names(ids).await?)
    }

    async fn is_active_writer(
        &self,
        id: &str,
    ) -> Result<bool, Box<dyn std::error::Error + Send + Sync>> {
        Ok(self.0.is_active_writer(id).await?)
    }
}

impl Services {
    pub fn new(db: Db, identity_settings: IdentitySettings, uploads: PathBuf) -> Services {
        let identity = Arc::new(IdentityService::new(
            identity::store_for(&db),
            identity_settings,
        ));
        let authors = Arc::new(IdentityAuthors(identity.clone()));
        let content = Arc::new(ContentService::new(content::store_for(&db), authors));
        Services {
            db,
            storage: Arc::new(LocalStorage::new(uploads, "/media")),
            identity,
            content,
        }
    }

    /// Connects and migrates.
    pub async fn connect(settings: &Settings) -> anyhow::Result<Services> {
        let mut settings = settings.clone();
        crate::settings::resolve_key_secret(&mut settings)?;
        let db = Db::connect(&settings.database_url).await?;
        db.migrate().await?;
        Ok(Services::new(
            db,
            settings.identity,
            settings.data_dir.join("uploads"),
        ))
    }
}

pub type Api = OpenApiService<(ContentApi, ContentStaffApi, IdentityApi, MediaApi), ()>;

pub fn build_openapi(services: &Services, trust_proxy: bool) -> Api {
    OpenApiService::new(
        (
            ContentApi::new(services.content.clone()),
            ContentStaffApi::new(services.content.clone(), services.identity.clone()),
            IdentityApi::new(services.identity.clone(), trust_proxy),
            MediaApi::new(services.storage.clone()),
        ),
        API_TITLE,
        env!("CARGO_PKG_VERSION"),
    )
    .description(
        "Public and staff API of The Agora, a youth-run political publication. \
         Errors share one body: `{code, message}`.",
    )
    .server("/api")
}

/// The contract, without touching a database.
pub fn openapi_json() -> String {
    let db = Db::Sqlite(
        sqlx::sqlite::SqlitePoolOptions::new()
            .connect_lazy_with(sqlx::sqlite::SqliteConnectOptions::new().in_memory(true)),
    );
    let services = Services::new(db, IdentitySettings::with_secret("-"), PathBuf::new());
    build_openapi(&services, false).spec()
}

/// A running server: its address and the handle to stop it.
pub struct Application {
    pub services: Services,
    pub sidecar: Arc<Sidecar>,
    listener: tokio::net::TcpListener,
    settings: Settings,
}

impl Application {
    /// Connects, migrates, starts the sidecar and binds the port (0 picks a free one).
    pub async fn build(settings: Settings) -> anyhow::Result<Application> {
        let services = Services::connect(&settings).await?;
        let sidecar = Sidecar::start(&settings.ssr).await?;
        let listener =
            tokio::net::TcpListener::bind((settings.bind.as_str(), settings.port)).await?;
        Ok(Application {
            services,
            sidecar,
            listener,
            settings,
        })
    }

    pub fn port(&self) -> u16 {
        self.listener.local_addr().map(|a| a.port()).unwrap_or(0)
    }

    /// Serves until `shutdown` turns true (or SIGTERM/Ctrl-C), then drains and stops the sidecar.
    pub async fn run(self, mut shutdown: watch::Receiver<bool>) -> anyhow::Result<()> {
        let renderer = Renderer::new(&self.settings, self.sidecar.clone())?;
        let api = build_openapi(&self.services, self.settings.trust_proxy);
        let routes = web::routes(&self.settings, &self.services, api, renderer)?;
        let acceptor = TcpAcceptor::from_tokio(self.listener)?;
        let server = Server::new_with_acceptor(acceptor).run_with_graceful_shutdown(
            routes,
            async move {
                tokio::select! {
                    _ = stopped(&mut shutdown) => {}
                    _ = terminate_signal() => {}
                }
                tracing::info!("shutting down: finishing in-flight requests");
            },
            Some(std::time::Duration::from_secs(15)),
        );
        let result = server.await;
        self.sidecar.stop().await;
        self.services.db.close().await;
        result.map_err(Into::into)
    }
}

/// Resolves once the flag turns true (or its sender is gone).
pub async fn stopped(rx: &mut watch::Receiver<bool>) {
    loop {
        if *rx.borrow_and_update() {
            return;
        }
        if rx.changed().await.is_err() {
            return;
        }
    }
}

async fn terminate_signal() {
    #[cfg(unix)]
    {
        if let Ok(mut term) =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            tokio::select! {
                _ = term.recv() => {}
                _ = tokio::signal::ctrl_c() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}
