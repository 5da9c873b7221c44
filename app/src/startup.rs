//! Builds the application from `Settings`: database, modules, the OpenAPI service, the
//! server-rendering sidecar and the routes.

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use content::{AuthorDirectory, ContentApi, ContentService, ContentStaffApi};
use identity::{IdentityApi, IdentityService, IdentitySettings};
use kernel::outbox::{outbox_store_for, Mailer, Outbox};
use kernel::storage::LocalStorage;
use kernel::Db;
use media::MediaApi;
use outreach::{OutreachApi, OutreachService, OutreachSettings};
use poem_openapi::OpenApiService;
use tokio::sync::watch;
use tokio_cron_scheduler::{Job, JobScheduler};

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
    pub outbox: Arc<Outbox>,
    pub outreach: Arc<OutreachService>,
    pub identity: Arc<IdentityService>,
    pub content: Arc<ContentService>,
    pub analytics: Arc<dyn analytics::AnalyticsStore>,
    /// Page views, written in batches in the background.
    pub views: Arc<analytics::Recorder>,
    pub magazine_max_bytes: usize,
}

/// The admin's top articles get their titles from content through this adapter.
struct ContentTitles(Arc<ContentService>);

#[async_trait::async_trait]
impl analytics::ArticleTitles for ContentTitles {
    async fn titles(&self, slugs: &[String]) -> std::collections::HashMap<String, String> {
        let mut out = std::collections::HashMap::new();
        for slug in slugs {
            if let Ok(article) = self.0.get(slug).await {
                out.insert(slug.clone(), article.card.title);
            }
        }
        out
    }
}

/// Beacons count only pages that exist: the app knows its route table, content its articles
/// (answered from content's memory, not from its tables).
struct SitePages(Arc<ContentService>);

#[async_trait]
impl analytics::KnownPages for SitePages {
    async fn exists(&self, path: &str) -> bool {
        if path == "/" || web::static_page(path).is_some() {
            return true;
        }
        let Some(slug) = path.strip_prefix("/article/") else {
            return false;
        };
        if slug.is_empty() || slug.contains('/') {
            return false;
        }
        self.0.is_published_slug(slug).await.unwrap_or_else(|e| {
            tracing::warn!(error = %e, "cannot tell whether an article exists; view not counted");
            false
        })
    }
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
    /// Builds every module from `settings` (whose key secret must already be resolved).
    pub fn new(db: Db, settings: &Settings) -> anyhow::Result<Services> {
        let identity = Arc::new(IdentityService::new(
            identity::store_for(&db),
            settings.identity.clone(),
        ));
        let authors = Arc::new(IdentityAuthors(identity.clone()));
        let content = Arc::new(ContentService::new(content::store_for(&db), authors));
        let storage = Arc::new(LocalStorage::new(
            settings.data_dir.join("uploads"),
            "/media",
        ));
        let mail = &settings.mail;
        let mailer = match &mail.smtp_url {
            Some(url) => Mailer::smtp(url, &mail.from)?,
            None => Mailer::files(settings.data_dir.join("outbox"), &mail.from)?,
        };
        // Applicants' documents: never served publicly, only attached to the team's email.
        let private = Arc::new(LocalStorage::new(settings.data_dir.join("private"), ""));
        let outbox = Arc::new(Outbox::new(
            outbox_store_for(&db),
            mailer,
            private.clone(),
            mail.outbox.clone(),
        ));
        let outreach = Arc::new(OutreachService::new(
            outreach::store_for(&db),
            OutreachSettings {
                site_url: settings.site_url.clone(),
                site_name: settings.site_name.clone(),
                inbox_general: mail.inbox_general.clone(),
                inbox_education: mail.inbox_education.clone(),
                inbox_applications: mail.inbox_applications.clone(),
                form_limit: settings.forms.limit,
                form_window: settings.forms.window,
                confirmation_ttl: settings.forms.confirmation_ttl,
            },
            private,
        ));
        let analytics = analytics::store_for(&db);
        let views = analytics::Recorder::start(analytics.clone(), settings.views.clone());
        Ok(Services {
            magazine_max_bytes: settings.magazine_max_bytes,
            analytics,
            views,
            db,
            storage,
            outbox,
            outreach,
            identity,
            content,
        })
    }

    /// Connects and migrates.
    pub async fn connect(settings: &Settings) -> anyhow::Result<Services> {
        let mut settings = settings.clone();
        crate::settings::resolve_key_secret(&mut settings)?;
        let db = Db::connect(&settings.database_url).await?;
        db.migrate().await?;
        Services::new(db, &settings)
    }
}

pub type Api = OpenApiService<
    (
        ContentApi,
        ContentStaffApi,
        IdentityApi,
        MediaApi,
        OutreachApi,
        identity::StaffAdminApi,
        media::MagazineApi,
        analytics::AnalyticsApi,
    ),
    (),
>;

pub fn build_openapi(services: &Services, trust_proxy: bool) -> Api {
    OpenApiService::new(
        (
            ContentApi::new(services.content.clone()),
            ContentStaffApi::new(services.content.clone(), services.identity.clone()),
            IdentityApi::new(services.identity.clone(), trust_proxy),
            MediaApi::new(services.storage.clone()),
            OutreachApi::new(services.outreach.clone(), trust_proxy),
            identity::StaffAdminApi::new(services.identity.clone()),
            media::MagazineApi::new(
                &services.db,
                services.storage.clone(),
                services.magazine_max_bytes,
            ),
            analytics::AnalyticsApi::new(
                services.analytics.clone(),
                services.views.clone(),
                Arc::new(ContentTitles(services.content.clone())),
                Arc::new(SitePages(services.content.clone())),
                trust_proxy,
            ),
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
    let mut settings = match Settings::defaults() {
        Ok(s) => s,
        Err(e) => return format!("{{\"error\": \"{e}\"}}"),
    };
    settings.identity = IdentitySettings::with_secret("-");
    // Nothing is sent or written: the mailer is only built.
    settings.mail.smtp_url = Some("smtp://127.0.0.1:25".into());
    let services = match Services::new(db, &settings) {
        Ok(s) => s,
        Err(e) => return format!("{{\"error\": \"{e}\"}}"),
    };
    web::complete_contract(&build_openapi(&services, false).spec())
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
        // Node takes a few hundred milliseconds to load the renderer: it starts while the
        // database is connected and migrated, not after.
        let (services, sidecar) =
            tokio::join!(Services::connect(&settings), Sidecar::start(&settings.ssr));
        let sidecar = sidecar?;
        let bound = match services {
            Ok(services) => tokio::net::TcpListener::bind((settings.bind.as_str(), settings.port))
                .await
                .map(|listener| (services, listener))
                .map_err(anyhow::Error::from),
            Err(e) => Err(e),
        };
        let (services, listener) = match bound {
            Ok(ok) => ok,
            Err(e) => {
                sidecar.stop().await;
                return Err(e);
            }
        };
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
        let (routes, cached_pages) = web::routes(&self.settings, &self.services, api, renderer)?;
        let server = crate::server::serve(
            self.listener,
            routes,
            cached_pages,
            self.settings.server.clone(),
            async move {
                tokio::select! {
                    _ = stopped(&mut shutdown) => {}
                    _ = terminate_signal() => {}
                }
                tracing::info!("shutting down: finishing in-flight requests");
            },
        );
        let scheduler = start_jobs(&self.services, self.settings.mail.poll).await?;
        let (purge_stop, purge_stopped) = watch::channel(false);
        let purge = tokio::spawn(crate::cdn::purge_on_change(
            self.services.content.clone(),
            self.settings.cdn.clone(),
            purge_stopped,
        ));
        let result = server.await;
        let _ = purge_stop.send(true);
        let _ = purge.await;
        // Views still held in memory are written before the process ends.
        self.services.views.shutdown().await;
        let mut scheduler = scheduler;
        if let Err(e) = scheduler.shutdown().await {
            tracing::warn!(error = %e, "background jobs did not stop cleanly");
        }
        self.sidecar.stop().await;
        self.services.db.close().await;
        result.map_err(Into::into)
    }
}

/// Background jobs: outbox delivery every `poll`.
async fn start_jobs(
    services: &Services,
    poll: std::time::Duration,
) -> anyhow::Result<JobScheduler> {
    let scheduler = JobScheduler::new().await?;
    let outbox = services.outbox.clone();
    scheduler
        .add(Job::new_repeated_async(poll, move |_id, _scheduler| {
            let outbox = outbox.clone();
            Box::pin(async move {
                match outbox.deliver_due().await {
                    Ok(r) if r.sent + r.retrying + r.gave_up > 0 => {
                        tracing::info!(
                            sent = r.sent,
                            retrying = r.retrying,
                            gave_up = r.gave_up,
                            "outbox delivery"
                        )
                    }
                    Ok(_) => {}
                    Err(e) => tracing::error!(error = ?e, "outbox delivery failed"),
                }
            })
        })?)
        .await?;
    scheduler.start().await?;
    Ok(scheduler)
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
