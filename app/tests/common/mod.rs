//! Test harness: a fresh database per test (SQLite always, PostgreSQL when
//! `TEST_DATABASE_URL` is set) and the real app on a free port.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

pub mod mail;
pub mod pages;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use agora::settings::{Settings, SsrSettings};
use agora::{Application, Services};
use kernel::Db;
use tokio::sync::watch;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Sqlite,
    Postgres,
}

/// The engines this run can test: SQLite always, PostgreSQL when configured. With
/// `REQUIRE_POSTGRES` set (CI sets it), a run without PostgreSQL fails instead of skipping
/// its PostgreSQL cases.
pub fn engines() -> Vec<Engine> {
    let mut e = vec![Engine::Sqlite];
    if std::env::var("TEST_DATABASE_URL").is_ok_and(|v| !v.is_empty()) {
        e.push(Engine::Postgres);
    } else {
        assert!(
            std::env::var("REQUIRE_POSTGRES").is_err(),
            "REQUIRE_POSTGRES is set but no PostgreSQL is configured (TEST_DATABASE_URL)"
        );
    }
    e
}

/// Whether `engine` can be tested in this run; when PostgreSQL cannot, says so on stderr
/// (`scripts/with-postgres.sh` provides it, and CI requires it).
pub fn available(engine: Engine) -> bool {
    let ok = engines().contains(&engine);
    if !ok {
        eprintln!("note: {engine:?} is not configured (TEST_DATABASE_URL): this case is skipped");
    }
    ok
}

/// Declares one test per engine, so a failure on one engine never hides the other:
/// `on_both_engines! { async fn name(engine: Engine) { ... } }` makes `name::sqlite` and
/// `name::postgres`.
#[macro_export]
macro_rules! on_both_engines {
    ($(#[$meta:meta])* async fn $name:ident($engine:ident: Engine $(,)?) $body:block) => {
        $(#[$meta])*
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            async fn case($engine: $crate::common::Engine) $body

            #[tokio::test]
            async fn sqlite() {
                case($crate::common::Engine::Sqlite).await;
            }

            #[tokio::test]
            async fn postgres() {
                if $crate::common::available($crate::common::Engine::Postgres) {
                    case($crate::common::Engine::Postgres).await;
                }
            }
        }
    };
}

/// Where uploads go in a test: the app's data directory, or an S3-compatible bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Local,
    S3,
}

/// A fresh prefix in the test bucket (`s3://agora-test/<id>`), when a local S3-compatible
/// server runs (`scripts/with-s3.sh`); `None` otherwise, saying so (and failing when
/// `REQUIRE_S3` is set: CI tests both backends).
pub fn s3_url() -> Option<String> {
    if std::env::var("TEST_S3_ENDPOINT").is_ok_and(|v| !v.is_empty()) {
        return Some(format!("s3://agora-test/{}", uuid::Uuid::now_v7().simple()));
    }
    assert!(
        std::env::var("REQUIRE_S3").is_err(),
        "REQUIRE_S3 is set but no S3 server is configured (TEST_S3_ENDPOINT)"
    );
    eprintln!("note: no S3-compatible server (TEST_S3_ENDPOINT): the S3 case is skipped");
    None
}

/// Declares one test per storage backend: `on_both_backends! { async fn name(backend:
/// Backend) { ... } }` makes `name::local` and `name::s3`.
#[macro_export]
macro_rules! on_both_backends {
    ($(#[$meta:meta])* async fn $name:ident($backend:ident: Backend $(,)?) $body:block) => {
        $(#[$meta])*
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            async fn case($backend: $crate::common::Backend) $body

            #[tokio::test]
            async fn local() {
                case($crate::common::Backend::Local).await;
            }

            #[tokio::test]
            async fn s3() {
                if $crate::common::s3_url().is_some() {
                    case($crate::common::Backend::S3).await;
                }
            }
        }
    };
}

pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new() -> TempDir {
        let dir = std::env::temp_dir().join(format!("agora-test-{}", uuid::Uuid::now_v7()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A URL for a brand-new database of `engine`: an empty SQLite file, or on PostgreSQL a copy
/// of a database migrated once per test process (migrating each took a third of a second,
/// which every PostgreSQL case paid). Migrating either again is a no-op.
pub async fn fresh_database_url(engine: Engine, dir: &TempDir) -> String {
    match engine {
        Engine::Sqlite => format!("sqlite://{}/agora.db", dir.0.display()),
        Engine::Postgres => {
            let base = std::env::var("TEST_DATABASE_URL").unwrap();
            let template = migrated_template(&base).await;
            let name = create_database(&base, Some(template)).await;
            let (prefix, _) = base.rsplit_once('/').unwrap();
            format!("{prefix}/{name}")
        }
    }
}

/// Creates a database on the server of `base`, a copy of `template` or empty; its name.
async fn create_database(base: &str, template: Option<&str>) -> String {
    let name = format!("agora_test_{}", uuid::Uuid::now_v7().simple());
    let copy = template
        .map(|t| format!(" TEMPLATE {t}"))
        .unwrap_or_default();
    let admin = sqlx::PgPool::connect(base).await.unwrap();
    sqlx::query(&format!("CREATE DATABASE {name}{copy}"))
        .execute(&admin)
        .await
        .unwrap();
    admin.close().await;
    name
}

/// The PostgreSQL database this process copies for each case: created and migrated by the
/// first case that asks, then left without connections (a template being copied must have none).
async fn migrated_template(base: &str) -> &'static str {
    static TEMPLATE: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();
    TEMPLATE
        .get_or_init(|| async {
            let name = create_database(base, None).await;
            let (prefix, _) = base.rsplit_once('/').unwrap();
            let db = Db::connect(&format!("{prefix}/{name}")).await.unwrap();
            db.migrate().await.unwrap();
            db.close().await;
            name
        })
        .await
}

pub async fn fresh_db(engine: Engine, dir: &TempDir) -> Db {
    let url = fresh_database_url(engine, dir).await;
    let db = Db::connect(&url).await.unwrap();
    db.migrate().await.unwrap();
    db
}

pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

pub struct TestApp {
    pub address: String,
    /// The app's database, to open it again after a shutdown.
    pub database_url: String,
    pub services: Services,
    pub client: reqwest::Client,
    pub sidecar: Arc<agora::ssr::Sidecar>,
    stop: watch::Sender<bool>,
    task: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
    pub dir: TempDir,
}

pub struct Options {
    /// Start the real rendering sidecar (otherwise pages fall back to the shell).
    pub ssr: bool,
    pub page_cache: bool,
    pub deadline: Duration,
    pub identity: identity::IdentitySettings,
    pub trust_proxy: bool,
    pub smtp_url: Option<String>,
    /// Submissions of one public form per address and window.
    pub form_limit: i64,
    pub confirmation_ttl: Duration,
    pub magazine_max_bytes: usize,
    /// How often buffered page views are written.
    pub views_flush: Duration,
    /// Page-view beacons taken per address a minute.
    pub beacons_per_minute: u32,
    /// Timeouts and connection cap of the HTTP server.
    pub server: agora::server::ServerLimits,
    /// CDN cache lifetime and purge hook.
    pub cdn: Option<agora::settings::CdnSettings>,
    /// An external rendering sidecar (a test double) instead of the real one.
    pub ssr_url: Option<String>,
    /// A sidecar script (a test double) the app starts and supervises instead of the real one.
    pub ssr_script: Option<PathBuf>,
    /// A clock the test moves forward (sessions, links and rate windows expire without
    /// sleeping); the system clock otherwise.
    pub clock: Option<Arc<kernel::clock::ManualClock>>,
    /// How often the outbox delivers queued email.
    pub mail_poll: Duration,
    /// Writers submit for review instead of publishing (`REVIEW_REQUIRED`).
    pub review_required: bool,
    /// Run on this database (another instance's, or one used before) instead of a fresh one.
    pub database_url: Option<String>,
    /// `STORAGE_URL`: uploads in a bucket instead of the data directory.
    pub storage_url: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            ssr: false,
            page_cache: true,
            deadline: Duration::from_millis(2000),
            identity: identity::IdentitySettings::with_secret("test-secret"),
            trust_proxy: false,
            smtp_url: None,
            form_limit: 1000,
            confirmation_ttl: Duration::from_secs(3600),
            magazine_max_bytes: 50 * 1024 * 1024,
            views_flush: Duration::from_secs(2),
            beacons_per_minute: analytics::BEACONS_PER_MINUTE,
            server: agora::server::ServerLimits::default(),
            cdn: None,
            ssr_url: None,
            ssr_script: None,
            clock: None,
            mail_poll: Duration::from_secs(1),
            review_required: false,
            database_url: None,
            storage_url: None,
        }
    }
}

pub async fn spawn_app(engine: Engine) -> TestApp {
    spawn_app_with(engine, Options::default()).await
}

pub async fn spawn_app_with(engine: Engine, options: Options) -> TestApp {
    let dir = TempDir::new();
    let database_url = match options.database_url {
        Some(url) => url,
        None => fresh_database_url(engine, &dir).await,
    };
    let root = repo_root();
    let web_dist = root.join("web-client/dist");
    assert!(
        web_dist.join("client/index.html").exists(),
        "the web client is not built: run `make build-web` first"
    );
    let mut settings = Settings::defaults().unwrap();
    settings.port = 0;
    settings.bind = "127.0.0.1".into();
    settings.database_url = database_url.clone().into();
    settings.data_dir = dir.0.join("data");
    settings.site_url = "https://agora.test".into();
    settings.web_dist = web_dist;
    settings.ssr = SsrSettings {
        // A closed port: renders fail at once and the shell is served.
        url: match options.ssr_url {
            Some(url) => Some(url),
            None => (!options.ssr && options.ssr_script.is_none())
                .then(|| "http://127.0.0.1:9".to_string()),
        },
        node: "node".into(),
        script: options
            .ssr_script
            .unwrap_or_else(|| root.join("ssr-renderer/dist/server.js")),
        port: 0,
        deadline: options.deadline,
    };
    settings.page_cache = options.page_cache;
    settings.identity = options.identity;
    settings.trust_proxy = options.trust_proxy;
    settings.review_required = options.review_required;
    if let Some(smtp) = options.smtp_url {
        settings.mail.smtp_url = Some(smtp.into());
    }
    settings.forms.limit = options.form_limit;
    settings.magazine_max_bytes = options.magazine_max_bytes;
    settings.views.flush_every = options.views_flush;
    settings.views.beacons_per_minute = options.beacons_per_minute;
    settings.forms.confirmation_ttl = options.confirmation_ttl;
    settings.server = options.server;
    if let Some(cdn) = options.cdn {
        settings.cdn = cdn;
    }
    settings.mail.poll = options.mail_poll;
    settings.storage_url = options.storage_url.map(Into::into);
    settings.mail.outbox.base_backoff = Duration::from_millis(200);
    settings.mail.outbox.max_backoff = Duration::from_secs(1);
    let clock: kernel::clock::SharedClock = match options.clock {
        Some(clock) => clock,
        None => kernel::clock::system(),
    };
    let app = Application::build_with_clock(settings, clock)
        .await
        .unwrap();
    let address = format!("http://127.0.0.1:{}", app.port());
    let services = app.services.clone();
    let sidecar = app.sidecar.clone();
    let (stop, stopped) = watch::channel(false);
    let task = tokio::spawn(app.run(stopped));
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    TestApp {
        address,
        database_url,
        services,
        client,
        sidecar,
        stop,
        task: Some(task),
        dir,
    }
}

impl TestApp {
    /// The app's DATA_DIR.
    pub fn data_dir(&self) -> PathBuf {
        self.dir.0.join("data")
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{}", self.address, path))
            .send()
            .await
            .unwrap()
    }

    pub async fn json(&self, path: &str) -> (u16, serde_json::Value) {
        let r = self.get(path).await;
        let status = r.status().as_u16();
        (status, r.json().await.unwrap())
    }

    /// Signs in with `key` and returns the session cookie (`agora_session=…`).
    pub async fn login(&self, key: &str) -> String {
        let r = self
            .client
            .post(format!("{}/api/v1/session", self.address))
            .json(&serde_json::json!({ "access_key": key }))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 200, "sign-in with a valid key");
        let cookie = r.headers()["set-cookie"].to_str().unwrap();
        cookie.split(';').next().unwrap().to_string()
    }

    /// A request with an optional session cookie.
    pub fn request(
        &self,
        method: reqwest::Method,
        path: &str,
        cookie: Option<&str>,
    ) -> reqwest::RequestBuilder {
        let mut r = self
            .client
            .request(method, format!("{}{}", self.address, path));
        if let Some(c) = cookie {
            r = r.header("cookie", c);
        }
        r
    }

    pub async fn shutdown(self) {
        self.stop_keeping_data().await;
    }

    /// Stops the app and hands back its folder (its SQLite database, its data), so that
    /// another instance can start on them.
    pub async fn stop_keeping_data(mut self) -> TempDir {
        let _ = self.stop.send(true);
        if let Some(task) = self.task.take() {
            task.await.unwrap().unwrap();
        }
        self.dir
    }
}

/// Waits until `check` holds, polling every 20 ms; fails the test, naming `what`, after
/// `within`.
pub async fn eventually<F, Fut>(what: &str, within: Duration, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = std::time::Instant::now() + within;
    while !check().await {
        assert!(
            std::time::Instant::now() < deadline,
            "{what}: not within {within:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A published article with a title and a one-line body, for tests that need content to change.
pub fn published(title: &str) -> content::NewArticle {
    content::NewArticle {
        title: title.into(),
        subtitle: None,
        content: "A new piece.".into(),
        category: content::Category::HumanRights,
        cover_image: None,
        featured: false,
        status: content::Status::Published,
        author_id: None,
        created_at: None,
    }
}
