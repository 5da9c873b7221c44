//! What the app is made of once built: every module's service, and the OpenAPI service
//! that publishes their contract.

use std::sync::Arc;

use content::{ContentApi, ContentService, ContentStaffApi};
use identity::{IdentityApi, IdentityService};
use kernel::clock::SharedClock;
use kernel::limiter::Limiter;
use kernel::outbox::{outbox_store_for, Mailer, Outbox};
use kernel::storage::Storage;
use kernel::Db;
use media::MediaApi;
use outreach::{OutreachApi, OutreachService, OutreachSettings, ReaderApi, Readers};
use poem_openapi::OpenApiService;

use crate::adapters::{ContentTitles, IdentityAuthors, PublishedIssues, SitePages, WeekArticles};
use crate::settings::Settings;

/// Title and version of the published contract (independent of the site name, so the
/// committed `openapi.json` does not depend on configuration).
const API_TITLE: &str = "The Agora API";

/// Every module's service, built once.
#[derive(Clone)]
pub struct Services {
    pub db: Db,
    pub storage: Arc<Storage>,
    pub outbox: Arc<Outbox>,
    pub outreach: Arc<OutreachService>,
    /// Reader sign-in and accounts.
    pub readers: Arc<Readers>,
    pub identity: Arc<IdentityService>,
    pub content: Arc<ContentService>,
    pub analytics: Arc<dyn analytics::AnalyticsStore>,
    /// Page views, written in batches in the background.
    pub views: Arc<analytics::Recorder>,
    /// Beacons and the admin's figures.
    pub analytics_service: Arc<analytics::AnalyticsService>,
    pub magazines: Arc<media::MagazineService>,
    pub magazine_max_bytes: usize,
    /// The educational packs and their launch.
    pub packs: Arc<media::PackService>,
    /// Launch announcements to the notify lists.
    pub announcements: Arc<outreach::Announcements>,
    /// The weekly digest of new articles.
    pub digest: Arc<outreach::Digest>,
    /// Readers' responses to articles, pre-moderated.
    pub responses: Arc<outreach::responses::Responses>,
    /// What forms posted without JavaScript answered, kept for their pages.
    pub flash: kernel::flash::Flash,
    pub limiter: Limiter,
    /// Which instance runs each period of the background jobs.
    pub leases: kernel::jobs::Leases,
    /// The time the modules and the scheduled jobs read (tests move it forward).
    pub clock: SharedClock,
}

impl Services {
    /// Builds every module from `settings` (whose key secret must already be resolved), with
    /// `clock` as their time.
    pub fn new(db: Db, settings: &Settings, clock: SharedClock) -> anyhow::Result<Services> {
        let limiter = Limiter::new(&db, clock.clone());
        let identity = Arc::new(IdentityService::new(
            &db,
            settings.identity.clone(),
            limiter.clone(),
            clock.clone(),
        ));
        let authors = Arc::new(IdentityAuthors(identity.clone()));
        let content = Arc::new(
            ContentService::new(content::store_for(&db), authors)
                .with_clock(clock.clone())
                .with_newsroom(content::NewsroomSettings {
                    review_required: settings.review_required,
                    site_url: settings.site_url.clone(),
                    site_name: settings.site_name.clone(),
                }),
        );
        // Uploads: public ones under /media, applicants' documents never served publicly
        // (only attached to the team's email).
        let location = match &settings.storage_url {
            Some(url) => kernel::storage::Location::parse(url.expose())
                .map_err(|e| anyhow::anyhow!("STORAGE_URL: {e}"))?,
            None => kernel::storage::Location::Local(settings.data_dir.clone()),
        };
        let within = settings.storage_timeout;
        let storage = Arc::new(Storage::open(&location, "uploads", "/media", within)?);
        let private = Arc::new(Storage::open(&location, "private", "", within)?);
        let mail = &settings.mail;
        let mailer = match &mail.smtp_url {
            Some(url) => Mailer::smtp(url.expose(), &mail.from)?,
            None => Mailer::files(settings.data_dir.join("outbox"), &mail.from)?,
        };
        let outbox = Arc::new(Outbox::new(
            outbox_store_for(&db),
            mailer,
            private.clone(),
            mail.outbox.clone(),
        ));
        let reader_auth = Arc::new(identity::readers::ReaderAuth::new(
            &db,
            identity.sessions().clone(),
            identity::readers::ReaderAuthSettings {
                site_name: settings.site_name.clone(),
                failures_per_address: settings.mail.reader_sign_in_failures,
                failures_per_account: settings.mail.reader_sign_in_failures,
                ..identity::readers::ReaderAuthSettings::for_site(&settings.site_url)
            },
            limiter.clone(),
            clock.clone(),
        ));
        let readers = Arc::new(Readers::new(
            outreach::reader_store_for(&db),
            reader_auth,
            outreach::responses::response_store_for(&db),
            Arc::new(crate::adapters::RespondedArticles(content.clone())),
            clock.clone(),
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
                attach_at_most: mail.attachments_max_bytes,
                documents_ttl: mail.documents_ttl,
                link_key: kernel::secret::Secret::new(
                    settings.identity.key_secret.expose().as_bytes().to_vec(),
                ),
            },
            private,
            limiter.clone(),
            clock.clone(),
        ));
        let magazines = Arc::new(media::MagazineService::new(
            &db,
            storage.clone(),
            content.generation(),
        ));
        let packs = Arc::new(media::PackService::new(
            &db,
            storage.clone(),
            content.generation(),
        ));
        let announcements = Arc::new(outreach::Announcements::new(
            outreach::announcement_store_for(&db),
            Arc::new(PublishedIssues(magazines.clone(), packs.clone())),
            outreach::AnnouncementSettings {
                site_url: settings.site_url.clone(),
                site_name: settings.site_name.clone(),
                per_minute: mail.announcement_rate,
            },
            clock.clone(),
        ));
        let digest = Arc::new(outreach::Digest::new(
            outreach::digest_store_for(&db),
            Arc::new(WeekArticles(content.clone())),
            outreach::DigestSettings {
                site_url: settings.site_url.clone(),
                site_name: settings.site_name.clone(),
                weekday: mail.digest_day,
                hour: mail.digest_hour,
                // A run's claim outlasts an email batch's by a third.
                claim: mail.outbox.claim * 4 / 3,
            },
        ));
        let responses = Arc::new(outreach::responses::Responses::new(
            outreach::responses::response_store_for(&db),
            Arc::new(crate::adapters::RespondedArticles(content.clone())),
            outreach::responses::ResponseSettings {
                open_days: settings.responses_open_days,
            },
            clock.clone(),
        ));
        let analytics = analytics::store_for(&db);
        let views = analytics::Recorder::start(analytics.clone(), settings.views.clone());
        let analytics_service = Arc::new(analytics::AnalyticsService::new(
            analytics.clone(),
            views.clone(),
            Arc::new(ContentTitles(content.clone())),
            Arc::new(SitePages(content.clone(), magazines.clone())),
        ));
        Ok(Services {
            flash: kernel::flash::Flash::new(&db, clock.clone()),
            clock,
            limiter,
            leases: kernel::jobs::Leases::new(&db, kernel::ids::new_id()),
            packs,
            announcements,
            digest,
            responses,
            analytics_service,
            magazines,
            magazine_max_bytes: settings.magazine_max_bytes,
            analytics,
            views,
            db,
            storage,
            outbox,
            outreach,
            readers,
            identity,
            content,
        })
    }

    /// Deletes what nobody can use any more: expired staff and reader sessions, links a
    /// month past their expiry, rate-limit hits past their window, form answers past their
    /// time; and brings the admin's most-viewed window up to today. Returns how many sessions
    /// and links went.
    pub async fn housekeeping(&self) -> anyhow::Result<u64> {
        let gone = self.identity.housekeeping().await?;
        self.limiter.prune().await?;
        self.flash.prune().await?;
        self.analytics_service.refresh_window().await?;
        let documents = self.outreach.delete_expired_documents().await?;
        if documents > 0 {
            tracing::info!(
                applications = documents,
                "housekeeping: expired documents deleted"
            );
        }
        Ok(gone)
    }

    /// Connects and migrates.
    pub async fn connect(settings: &Settings, clock: SharedClock) -> anyhow::Result<Services> {
        let mut settings = settings.clone();
        crate::settings::resolve_key_secret(&mut settings)?;
        let db = Db::connect(settings.database_url.expose()).await?;
        db.migrate().await?;
        let services = Services::new(db, &settings, clock)?;
        let written = services.content.fill_body_text().await?;
        if written > 0 {
            tracing::info!(articles = written, "body text written for search");
        }
        Ok(services)
    }
}

pub type Api = OpenApiService<
    (
        ContentApi,
        ContentStaffApi,
        IdentityApi,
        MediaApi,
        OutreachApi,
        identity::readers::ReaderSignInApi,
        ReaderApi,
        identity::StaffAdminApi,
        identity::profiles::ProfileApi,
        media::MagazineApi,
        analytics::AnalyticsApi,
        outreach::AnnouncementApi,
        media::PackApi,
        outreach::responses::ResponseApi,
        outreach::responses::ResponseDeskApi,
    ),
    (),
>;

pub fn build_openapi(services: &Services, trust_proxy: bool) -> Api {
    // The contract's `ErrorCode` lists every module's codes.
    crate::codes::register();
    OpenApiService::new(
        (
            ContentApi::new(services.content.clone()),
            ContentStaffApi::new(services.content.clone()),
            IdentityApi::new(services.identity.clone(), trust_proxy),
            MediaApi::new(services.storage.clone()),
            OutreachApi::new(services.outreach.clone(), trust_proxy),
            identity::readers::ReaderSignInApi::new(services.readers.auth().clone(), trust_proxy),
            ReaderApi::new(services.readers.clone()),
            identity::StaffAdminApi::new(services.identity.clone()),
            identity::profiles::ProfileApi::new(
                services.identity.clone(),
                services.content.generation(),
            ),
            media::MagazineApi::new(services.magazines.clone(), services.magazine_max_bytes),
            analytics::AnalyticsApi::new(services.analytics_service.clone(), trust_proxy),
            outreach::AnnouncementApi::new(services.announcements.clone()),
            media::PackApi::new(services.packs.clone(), services.magazine_max_bytes),
            outreach::responses::ResponseApi::new(
                services.responses.clone(),
                services.outreach.clone(),
                trust_proxy,
            ),
            outreach::responses::ResponseDeskApi::new(services.responses.clone()),
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
