//! Settings, read from the environment with defaults that make `make run` work.

use std::path::PathBuf;
use std::time::Duration;

#[derive(Clone)]
pub struct Settings {
    pub port: u16,
    pub bind: String,
    pub database_url: String,
    pub data_dir: PathBuf,
    /// Absolute base URL for canonical and social links, without a trailing slash.
    pub site_url: String,
    pub site_name: String,
    /// The built web client (`client/index.html`, `client/assets/…`).
    pub web_dist: PathBuf,
    pub ssr: SsrSettings,
    /// Serve rendered pages from the cache (turned off only to measure uncached renders).
    pub page_cache: bool,
    /// How public pages may be held by a CDN, and how to tell it that content changed.
    pub cdn: CdnSettings,
    /// Sessions and sign-in limits; `key_secret` empty means "read or create DATA_DIR/key-secret".
    pub identity: identity::IdentitySettings,
    /// Take the client address from `X-Forwarded-For` (only behind a trusted proxy).
    pub trust_proxy: bool,
    pub mail: MailSettings,
    pub forms: FormSettings,
    pub views: analytics::RecorderSettings,
    /// Largest magazine PDF accepted.
    pub magazine_max_bytes: usize,
    /// Timeouts and connection cap of the HTTP server.
    pub server: crate::server::ServerLimits,
}

/// A CDN in front of the site (optional).
#[derive(Clone)]
pub struct CdnSettings {
    /// `s-maxage` of public pages: how long a shared cache may serve one without asking.
    pub max_age_seconds: u64,
    /// Called with `POST {"purge_everything":true}` after content changes (Cloudflare's purge
    /// API as is; Fastly's `purge_all` and Bunny's `purgeCache` ignore the body).
    pub purge_url: Option<String>,
    /// One header sent with the purge call, `Name: value` (e.g. `Authorization: Bearer …`).
    pub purge_header: Option<(String, String)>,
}

impl std::fmt::Debug for CdnSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CdnSettings")
            .field("max_age_seconds", &self.max_age_seconds)
            .field("purge_url", &self.purge_url)
            .field(
                "purge_header",
                &self
                    .purge_header
                    .as_ref()
                    .map(|(name, _)| format!("{name}: [redacted]")),
            )
            .finish()
    }
}

/// Abuse limits of the public forms.
#[derive(Clone, Debug)]
pub struct FormSettings {
    /// Submissions of one form accepted per client address and window.
    pub limit: i64,
    pub window: Duration,
    /// How long a registration confirmation link works.
    pub confirmation_ttl: Duration,
}

#[derive(Clone)]
pub struct MailSettings {
    pub from: String,
    /// `smtp://…` / `smtps://…`; unset means files under `DATA_DIR/outbox/`.
    pub smtp_url: Option<String>,
    pub inbox_general: String,
    pub inbox_education: String,
    pub inbox_applications: String,
    pub poll: Duration,
    pub outbox: kernel::outbox::OutboxSettings,
}

impl std::fmt::Debug for MailSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MailSettings")
            .field("from", &self.from)
            .field("smtp_url", &self.smtp_url.as_deref().map(redact))
            .field("inbox_general", &self.inbox_general)
            .field("inbox_education", &self.inbox_education)
            .field("inbox_applications", &self.inbox_applications)
            .field("poll", &self.poll)
            .field("outbox", &self.outbox)
            .finish()
    }
}

#[derive(Clone, Debug)]
pub struct SsrSettings {
    /// An already running sidecar; when unset the app starts and supervises its own.
    pub url: Option<String>,
    pub node: String,
    pub script: PathBuf,
    /// Port for the supervised sidecar; 0 picks a free one.
    pub port: u16,
    /// How long a render may take before the reader gets the client-rendered shell.
    pub deadline: Duration,
}

impl std::fmt::Debug for Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Settings")
            .field("port", &self.port)
            .field("bind", &self.bind)
            .field("database_url", &redact(&self.database_url))
            .field("data_dir", &self.data_dir)
            .field("site_url", &self.site_url)
            .field("site_name", &self.site_name)
            .field("web_dist", &self.web_dist)
            .field("ssr", &self.ssr)
            .field("page_cache", &self.page_cache)
            .field("cdn", &self.cdn)
            .field("identity", &self.identity)
            .field("trust_proxy", &self.trust_proxy)
            .field("mail", &self.mail)
            .field("server", &self.server)
            .finish()
    }
}

/// Hides a password in a database URL.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => format!("{}://***{}", &url[..s], &url[at..]),
        _ => url.to_string(),
    }
}

#[derive(Debug, thiserror::Error)]
#[error("invalid setting {name}={value:?}: {reason}")]
pub struct SettingsError {
    name: &'static str,
    value: String,
    reason: &'static str,
}

type Lookup<'a> = &'a dyn Fn(&str) -> Option<String>;

fn var(get: Lookup<'_>, name: &str) -> Option<String> {
    get(name).filter(|v| !v.trim().is_empty())
}

fn parsed<T: std::str::FromStr>(
    get: Lookup<'_>,
    name: &'static str,
    default: T,
    reason: &'static str,
) -> Result<T, SettingsError> {
    match var(get, name) {
        None => Ok(default),
        Some(value) => value.trim().parse().map_err(|_| SettingsError {
            name,
            value,
            reason,
        }),
    }
}

impl Settings {
    /// Settings from the environment.
    pub fn from_env() -> Result<Settings, SettingsError> {
        Settings::load(&|name| std::env::var(name).ok())
    }

    /// The defaults, ignoring the environment.
    pub fn defaults() -> Result<Settings, SettingsError> {
        Settings::load(&|_| None)
    }

    fn load(get: Lookup<'_>) -> Result<Settings, SettingsError> {
        let port = parsed(get, "PORT", 8080u16, "expected a port number")?;
        let bind = var(get, "BIND").unwrap_or_else(|| "127.0.0.1".to_string());
        let data_dir = PathBuf::from(var(get, "DATA_DIR").unwrap_or_else(|| "data".to_string()));
        let database_url = var(get, "DATABASE_URL")
            .unwrap_or_else(|| format!("sqlite://{}/agora.db", data_dir.display()));
        let site_url = var(get, "SITE_URL")
            .unwrap_or_else(|| format!("http://{bind}:{port}"))
            .trim_end_matches('/')
            .to_string();
        if !(site_url.starts_with("http://") || site_url.starts_with("https://")) {
            return Err(SettingsError {
                name: "SITE_URL",
                value: site_url,
                reason: "expected an absolute http(s) URL",
            });
        }
        let site_url_for_cookie = site_url.clone();
        let deadline_ms = parsed(get, "SSR_DEADLINE_MS", 300u64, "expected milliseconds")?;
        Ok(Settings {
            port,
            bind,
            database_url,
            data_dir,
            site_url,
            site_name: var(get, "SITE_NAME").unwrap_or_else(|| "The Agora".to_string()),
            web_dist: PathBuf::from(
                var(get, "WEB_DIST").unwrap_or_else(|| "web-client/dist".into()),
            ),
            ssr: SsrSettings {
                url: var(get, "SSR_URL").map(|u| u.trim_end_matches('/').to_string()),
                node: var(get, "NODE_BIN").unwrap_or_else(|| "node".to_string()),
                script: PathBuf::from(
                    var(get, "SSR_SCRIPT").unwrap_or_else(|| "ssr-renderer/dist/server.js".into()),
                ),
                port: parsed(get, "SSR_PORT", 0u16, "expected a port number")?,
                deadline: Duration::from_millis(deadline_ms),
            },
            page_cache: parsed(get, "PAGE_CACHE", true, "expected true or false")?,
            cdn: CdnSettings {
                max_age_seconds: parsed(get, "CDN_MAX_AGE_SECONDS", 60u64, "expected seconds")?,
                purge_url: var(get, "CDN_PURGE_URL"),
                purge_header: match var(get, "CDN_PURGE_HEADER") {
                    None => None,
                    Some(h) => Some(
                        h.split_once(':')
                            .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
                            .filter(|(n, v)| !n.is_empty() && !v.is_empty())
                            .ok_or_else(|| SettingsError {
                                name: "CDN_PURGE_HEADER",
                                value: "[redacted]".into(),
                                reason: "expected Name: value",
                            })?,
                    ),
                },
            },
            identity: identity::IdentitySettings {
                key_secret: var(get, "KEY_SECRET").unwrap_or_default(),
                session_idle: Duration::from_secs(
                    60 * parsed(get, "SESSION_IDLE_MINUTES", 480u64, "expected minutes")?,
                ),
                session_max: Duration::from_secs(
                    3600 * parsed(get, "SESSION_MAX_HOURS", 168u64, "expected hours")?,
                ),
                secure_cookie: site_url_for_cookie.starts_with("https://"),
                failures_per_address: parsed(
                    get,
                    "LOGIN_FAILURES_PER_MINUTE",
                    5i64,
                    "expected a number",
                )?,
                failures_global: parsed(
                    get,
                    "LOGIN_FAILURES_GLOBAL_PER_MINUTE",
                    100i64,
                    "expected a number",
                )?,
                failure_window: Duration::from_secs(60),
            },
            trust_proxy: parsed(get, "TRUST_PROXY", false, "expected true or false")?,
            mail: MailSettings {
                from: var(get, "MAIL_FROM")
                    .unwrap_or_else(|| "The Agora <no-reply@agora.invalid>".into()),
                smtp_url: var(get, "SMTP_URL"),
                inbox_general: var(get, "MAIL_INBOX_GENERAL")
                    .unwrap_or_else(|| "hello@agora.invalid".into()),
                inbox_education: var(get, "MAIL_INBOX_EDUCATION")
                    .unwrap_or_else(|| "education@agora.invalid".into()),
                inbox_applications: var(get, "MAIL_INBOX_APPLICATIONS")
                    .unwrap_or_else(|| "applications@agora.invalid".into()),
                poll: Duration::from_secs(
                    parsed(get, "OUTBOX_POLL_SECONDS", 5u64, "expected seconds")?.max(1),
                ),
                outbox: kernel::outbox::OutboxSettings {
                    max_attempts: parsed(get, "OUTBOX_MAX_ATTEMPTS", 8i32, "expected a number")?
                        .max(1),
                    base_backoff: Duration::from_secs(parsed(
                        get,
                        "OUTBOX_BACKOFF_SECONDS",
                        30u64,
                        "expected seconds",
                    )?),
                    max_backoff: Duration::from_secs(3600),
                    failed_retention: Duration::from_secs(
                        24 * 3600
                            * parsed(get, "OUTBOX_FAILED_RETENTION_DAYS", 7u64, "expected days")?,
                    ),
                },
            },
            magazine_max_bytes: 1024
                * 1024
                * parsed(get, "MAGAZINE_MAX_MB", 50usize, "expected megabytes")?.max(1),
            views: analytics::RecorderSettings {
                reload_window: Duration::from_secs(parsed(
                    get,
                    "VIEW_RELOAD_WINDOW_SECONDS",
                    1800u64,
                    "expected seconds",
                )?),
                beacons_per_minute: parsed(
                    get,
                    "VIEW_BEACONS_PER_MINUTE",
                    analytics::BEACONS_PER_MINUTE,
                    "expected a number",
                )?
                .max(1),
                ..analytics::RecorderSettings::default()
            },
            server: server_limits(get)?,
            forms: FormSettings {
                limit: parsed(get, "FORM_LIMIT_PER_ADDRESS", 10i64, "expected a number")?.max(1),
                window: Duration::from_secs(
                    parsed(get, "FORM_LIMIT_WINDOW_SECONDS", 600u64, "expected seconds")?.max(1),
                ),
                confirmation_ttl: Duration::from_secs(
                    3600 * parsed(get, "CONFIRM_LINK_HOURS", 48u64, "expected hours")?.max(1),
                ),
            },
        })
    }
}

fn server_limits(get: Lookup<'_>) -> Result<crate::server::ServerLimits, SettingsError> {
    let d = crate::server::ServerLimits::default();
    let secs = |name: &'static str, default: Duration| {
        parsed(get, name, default.as_secs(), "expected seconds")
            .map(|s| Duration::from_secs(s.max(1)))
    };
    Ok(crate::server::ServerLimits {
        header_read_timeout: secs("HEADER_READ_TIMEOUT_SECONDS", d.header_read_timeout)?,
        idle_timeout: secs("IDLE_TIMEOUT_SECONDS", d.idle_timeout)?,
        body_grace: secs("BODY_GRACE_SECONDS", d.body_grace)?,
        body_min_rate: parsed(
            get,
            "BODY_MIN_BYTES_PER_SECOND",
            d.body_min_rate,
            "expected bytes per second",
        )?
        .max(1),
        max_connections: parsed(
            get,
            "MAX_CONNECTIONS",
            d.max_connections,
            "expected a number",
        )?
        .max(1),
        shutdown_grace: d.shutdown_grace,
    })
}

/// The secret of the keyed key hash: `KEY_SECRET`, else `DATA_DIR/key-secret` (created once,
/// readable by the owner only). Every instance must share it.
pub fn resolve_key_secret(settings: &mut Settings) -> std::io::Result<()> {
    if !settings.identity.key_secret.is_empty() {
        return Ok(());
    }
    let path = settings.data_dir.join("key-secret");
    if let Ok(secret) = std::fs::read_to_string(&path) {
        if !secret.trim().is_empty() {
            settings.identity.key_secret = secret.trim().to_string();
            return Ok(());
        }
    }
    std::fs::create_dir_all(&settings.data_dir)?;
    let secret = kernel::secret::new_hex_secret();
    std::fs::write(&path, &secret)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
    }
    settings.identity.key_secret = secret;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn database_passwords_are_redacted() {
        assert_eq!(
            redact("postgres://agora:secret@db:5432/agora"),
            "postgres://***@db:5432/agora"
        );
        assert_eq!(redact("sqlite://data/agora.db"), "sqlite://data/agora.db");
    }
}
