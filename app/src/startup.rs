//! Builds the application from `Settings` (the services, the server-rendering sidecar, the
//! routes), runs it with its background jobs, and stops it in order.

use std::sync::Arc;
use std::time::Duration;

use identity::IdentitySettings;
use kernel::Db;
use tokio::sync::watch;
use tokio_cron_scheduler::{Job, JobScheduler};

use crate::settings::Settings;
use crate::shutdown::{stopped, terminate_signal};
use crate::ssr::{Renderer, Sidecar};
use crate::state::{build_openapi, Services};
use crate::web;

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
    let services = match Services::new(db, &settings, kernel::clock::system()) {
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
    routes: poem::endpoint::BoxEndpoint<'static>,
    cached_pages: Option<web::CachedPages>,
    settings: Settings,
}

impl Application {
    /// Connects, migrates, starts the sidecar, builds the routes and binds the port (0 picks
    /// a free one).
    pub async fn build(settings: Settings) -> anyhow::Result<Application> {
        Self::build_with_clock(settings, kernel::clock::system()).await
    }

    /// `build`, with the modules reading the time from `clock` (tests move it forward).
    pub async fn build_with_clock(
        settings: Settings,
        clock: kernel::clock::SharedClock,
    ) -> anyhow::Result<Application> {
        // Node takes a few hundred milliseconds to load the renderer: it starts first, and the
        // database is connected and migrated, the routes built and the port bound meanwhile.
        let sidecar = Sidecar::spawn(&settings.ssr).await?;
        let built = match Services::connect(&settings, clock).await {
            Ok(services) => Self::routes(&settings, &services, &sidecar)
                .map(|(routes, cached_pages)| (services, routes, cached_pages)),
            Err(e) => Err(e),
        };
        let bound = match built {
            Ok(built) => tokio::net::TcpListener::bind((settings.bind.as_str(), settings.port))
                .await
                .map(|listener| (built, listener))
                .map_err(anyhow::Error::from),
            Err(e) => Err(e),
        };
        let ((services, routes, cached_pages), listener) = match bound {
            Ok(ok) => ok,
            Err(e) => {
                sidecar.stop().await;
                return Err(e);
            }
        };
        sidecar.wait_started(&settings.ssr).await;
        Ok(Application {
            services,
            sidecar,
            listener,
            routes,
            cached_pages,
            settings,
        })
    }

    /// The HTTP routes: the contract's API, the pages (rendered by `sidecar`) and the assets.
    fn routes(
        settings: &Settings,
        services: &Services,
        sidecar: &Arc<Sidecar>,
    ) -> anyhow::Result<(
        poem::endpoint::BoxEndpoint<'static>,
        Option<web::CachedPages>,
    )> {
        let renderer = Renderer::new(settings, sidecar.clone())?;
        let api = build_openapi(services, settings.trust_proxy);
        web::routes(settings, services, api, renderer)
    }

    pub fn port(&self) -> u16 {
        self.listener.local_addr().map(|a| a.port()).unwrap_or(0)
    }

    /// Serves until `shutdown` turns true (or SIGTERM/Ctrl-C), then drains and stops the sidecar.
    pub async fn run(self, mut shutdown: watch::Receiver<bool>) -> anyhow::Result<()> {
        let server = crate::server::serve(
            self.listener,
            self.routes,
            self.cached_pages,
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
        // Several instances on PostgreSQL: a change made on any of them reaches every cache.
        let coherence = match &self.services.db {
            kernel::Db::Postgres(pool) => Some(tokio::spawn(kernel::generation::share(
                pool.clone(),
                self.services.content.generation(),
                self.services.leases.instance().to_string(),
                purge_stop.subscribe(),
            ))),
            kernel::Db::Sqlite(_) => None,
        };
        let result = server.await;
        let _ = purge_stop.send(true);
        let _ = purge.await;
        if let Some(coherence) = coherence {
            let _ = coherence.await;
        }
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

/// Housekeeping (expired sessions, links, limiter rows) runs this often.
const HOUSEKEEPING_EVERY: Duration = Duration::from_secs(600);

/// Background jobs: outbox delivery every `poll`; announcements queue their next batch every
/// second (at `ANNOUNCEMENT_RATE_PER_MINUTE`); the weekly digest is checked every 15 s;
/// scheduled pieces and the database's upkeep every second; housekeeping every ten minutes. With several instances on
/// one database, each period of each job runs on one of them (see [`kernel::jobs`]).
async fn start_jobs(services: &Services, poll: Duration) -> anyhow::Result<JobScheduler> {
    let scheduler = JobScheduler::new().await?;
    let outbox = services.outbox.clone();
    every(&scheduler, services, "outbox", poll, move || {
        let outbox = outbox.clone();
        async move {
            let r = outbox.deliver_due().await?;
            if r.sent + r.retrying + r.gave_up > 0 {
                tracing::info!(
                    sent = r.sent,
                    retrying = r.retrying,
                    gave_up = r.gave_up,
                    "outbox delivery"
                );
            }
            Ok(())
        }
    })
    .await?;
    let announcements = services.announcements.clone();
    every(&scheduler, services, "announcements", SECOND, move || {
        let announcements = announcements.clone();
        async move {
            let budget = announcements.per_second();
            let n = announcements.queue_due(budget).await?;
            if n > 0 {
                tracing::debug!(queued = n, "announcement recipients queued");
            }
            Ok(())
        }
    })
    .await?;
    let digest = services.digest.clone();
    let clock = services.clock.clone();
    every(
        &scheduler,
        services,
        "digest",
        services.digest.check_every(),
        move || {
            let digest = digest.clone();
            let now = clock.now();
            async move {
                digest.run_due(now).await?;
                Ok(())
            }
        },
    )
    .await?;
    // Scheduled publishing: a piece goes out once (the database decides), and after a stop as
    // soon as the server is back.
    let content = services.content.clone();
    every(
        &scheduler,
        services,
        "scheduled_publishing",
        SECOND,
        move || {
            let content = content.clone();
            async move {
                content.publish_due(content.now()).await?;
                Ok(())
            }
        },
    )
    .await?;
    // Index and log upkeep off the saves' path (SQLite: FTS5 segment merges, WAL checkpoints).
    let upkeep = services.clone();
    every(&scheduler, services, "upkeep", SECOND, move || {
        let services = upkeep.clone();
        async move {
            services.content.upkeep().await?;
            services.db.upkeep().await?;
            Ok(())
        }
    })
    .await?;
    let housekeeping = services.clone();
    every(
        &scheduler,
        services,
        "housekeeping",
        HOUSEKEEPING_EVERY,
        move || {
            let services = housekeeping.clone();
            async move {
                let n = services.housekeeping().await?;
                if n > 0 {
                    tracing::info!(
                        deleted = n,
                        "housekeeping: expired sessions and links deleted"
                    );
                }
                Ok(())
            }
        },
    )
    .await?;
    scheduler.start().await?;
    Ok(scheduler)
}

const SECOND: Duration = Duration::from_secs(1);

/// Adds `job` to run every `period`, on this instance when it takes the period's lease.
async fn every<F, Fut>(
    scheduler: &JobScheduler,
    services: &Services,
    name: &'static str,
    period: Duration,
    job: F,
) -> anyhow::Result<()>
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = anyhow::Result<()>> + Send + 'static,
{
    let leases = services.leases.clone();
    let job = Arc::new(job);
    scheduler
        .add(Job::new_repeated_async(period, move |_id, _scheduler| {
            let leases = leases.clone();
            let job = job.clone();
            Box::pin(async move {
                match leases.take(name, period, kernel::ids::now()).await {
                    Ok(true) => {}
                    Ok(false) => return,
                    Err(e) => {
                        tracing::warn!(job = name, error = %e, "background job: lease not taken");
                        return;
                    }
                }
                crate::metrics::job_ran(name);
                if let Err(e) = job().await {
                    tracing::error!(job = name, error = ?e, "background job failed");
                }
            })
        })?)
        .await?;
    Ok(())
}
