//! Settings with defaults that make `make run` work, read from the environment and an optional
//! file (see `raw.rs`). Everything here derives `Debug`, so logging the settings cannot forget
//! a field; secrets are held in types whose `Debug` hides them.

mod limits;
mod raw;

pub use limits::ServerLimits;

use std::path::PathBuf;
use std::time::Duration;

use kernel::secret::{Secret, SecretUrl};
use raw::Raw;

#[derive(Clone, Debug)]
pub struct Settings {
    pub port: u16,
    pub bind: String,
    pub database_url: SecretUrl,
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
    /// Writers submit pieces for review instead of publishing or scheduling them.
    pub review_required: bool,
    /// Where uploads live: `DATA_DIR/uploads` and `DATA_DIR/private` by default, or an
    /// S3-compatible bucket (`STORAGE_URL=s3://bucket/prefix`, with the standard `AWS_*`
    /// variables; `AWS_ENDPOINT_URL` for a store other than AWS).
    pub storage_url: Option<SecretUrl>,
    /// How long one request to S3 may take before the upload or read it serves gives up.
    pub storage_timeout: Duration,
    /// The bearer token `/metrics` asks for; unset, `/metrics` is not served.
    pub metrics_token: Option<Secret<String>>,
    pub mail: MailSettings,
    pub forms: FormSettings,
    pub views: analytics::RecorderSettings,
    /// Days after an article is first published that it takes readers' responses
    /// (`RESPONSES_OPEN_DAYS`).
    pub responses_open_days: i64,
    /// Largest magazine PDF accepted.
    pub magazine_max_bytes: usize,
    /// Timeouts and connection cap of the HTTP server.
    pub server: ServerLimits,
}

/// A CDN in front of the site (optional).
#[derive(Clone, Debug)]
pub struct CdnSettings {
    /// `s-maxage` of public pages: how long a shared cache may serve one without asking.
    pub max_age_seconds: u64,
    /// Called with `POST {"purge_everything":true}` after content changes (Cloudflare's purge
    /// API as is; Fastly's `purge_all` and Bunny's `purgeCache` ignore the body).
    pub purge_url: Option<String>,
    /// One header sent with the purge call, `Name: value` (e.g. `Authorization: Bearer …`).
    pub purge_header: Option<(String, Secret<String>)>,
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

#[derive(Clone, Debug)]
pub struct MailSettings {
    pub from: String,
    /// `smtp://…` / `smtps://…`; unset means files under `DATA_DIR/outbox/`.
    pub smtp_url: Option<SecretUrl>,
    pub inbox_general: String,
    pub inbox_education: String,
    pub inbox_applications: String,
    /// Documents of one application attached up to this many bytes in all, linked above it
    /// (`MAIL_ATTACHMENTS_MAX_MB`).
    pub attachments_max_bytes: u64,
    /// How long linked documents can be downloaded (`APPLICATION_DOCUMENTS_DAYS`).
    pub documents_ttl: Duration,
    pub poll: Duration,
    pub outbox: kernel::outbox::OutboxSettings,
    /// Recipients of announcements queued per minute (`ANNOUNCEMENT_RATE_PER_MINUTE`).
    pub announcement_rate: u32,
    /// Failed reader sign-ins (and emailed-link requests) allowed per client address, and
    /// failed sign-ins per account, within 15 minutes (`READER_SIGN_IN_FAILURES`).
    pub reader_sign_in_failures: i64,
    /// When the weekly digest goes out, in UTC (`DIGEST_DAY`, `DIGEST_HOUR`).
    pub digest_day: chrono::Weekday,
    pub digest_hour: u32,
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

#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    /// A value of the wrong type, an unknown key in the settings file, an unreadable file.
    #[error("invalid settings: {0}")]
    Invalid(String),
    #[error("invalid setting {name}={value:?}: {reason}")]
    Value {
        name: &'static str,
        value: String,
        reason: &'static str,
    },
}

impl Settings {
    /// Settings from the environment (and the file `AGORA_CONFIG` names, if any).
    pub fn from_env() -> Result<Settings, SettingsError> {
        Settings::load(&|name| std::env::var(name).ok())
    }

    /// The defaults, ignoring the environment.
    pub fn defaults() -> Result<Settings, SettingsError> {
        Settings::load(&|_| None)
    }

    /// Settings read through `get` instead of the environment.
    pub fn load(get: &dyn Fn(&str) -> Option<String>) -> Result<Settings, SettingsError> {
        Settings::from_raw(raw::read(get)?)
    }

    fn from_raw(r: Raw) -> Result<Settings, SettingsError> {
        let site_url = r
            .site_url
            .unwrap_or_else(|| format!("http://{}:{}", r.bind, r.port))
            .trim_end_matches('/')
            .to_string();
        if !(site_url.starts_with("http://") || site_url.starts_with("https://")) {
            return Err(SettingsError::Value {
                name: "SITE_URL",
                value: site_url,
                reason: "expected an absolute http(s) URL",
            });
        }
        let digest_day: chrono::Weekday =
            r.digest_day
                .trim()
                .parse()
                .map_err(|_| SettingsError::Value {
                    name: "DIGEST_DAY",
                    value: r.digest_day.clone(),
                    reason: "expected a day of the week (monday … sunday)",
                })?;
        if !(1..=3650).contains(&r.responses_open_days) {
            return Err(SettingsError::Value {
                name: "RESPONSES_OPEN_DAYS",
                value: r.responses_open_days.to_string(),
                reason: "expected a number of days from 1 to 3650",
            });
        }
        if r.digest_hour > 23 {
            return Err(SettingsError::Value {
                name: "DIGEST_HOUR",
                value: r.digest_hour.to_string(),
                reason: "expected an hour from 0 to 23 (UTC)",
            });
        }
        let purge_header = match r.cdn_purge_header {
            None => None,
            Some(h) => Some(
                h.split_once(':')
                    .map(|(n, v)| (n.trim().to_string(), Secret::new(v.trim().to_string())))
                    .filter(|(n, v)| !n.is_empty() && !v.expose().is_empty())
                    .ok_or_else(|| SettingsError::Value {
                        name: "CDN_PURGE_HEADER",
                        value: "[redacted]".into(),
                        reason: "expected Name: value",
                    })?,
            ),
        };
        let secure_cookie = site_url.starts_with("https://");
        let secs = |s: u64| Duration::from_secs(s.max(1));
        let server = ServerLimits::default();
        Ok(Settings {
            port: r.port,
            bind: r.bind,
            database_url: r
                .database_url
                .unwrap_or_else(|| format!("sqlite://{}/agora.db", r.data_dir.display()))
                .into(),
            data_dir: r.data_dir,
            site_url,
            site_name: r.site_name,
            web_dist: r.web_dist,
            ssr: SsrSettings {
                url: r.ssr_url.map(|u| u.trim_end_matches('/').to_string()),
                node: r.node_bin,
                script: r.ssr_script,
                port: r.ssr_port,
                deadline: Duration::from_millis(r.ssr_deadline_ms),
            },
            page_cache: r.page_cache,
            cdn: CdnSettings {
                max_age_seconds: r.cdn_max_age_seconds,
                purge_url: r.cdn_purge_url,
                purge_header,
            },
            identity: identity::IdentitySettings {
                key_secret: Secret::new(r.key_secret.unwrap_or_default()),
                staff_sessions: identity::Lifetime {
                    idle: Duration::from_secs(60 * r.session_idle_minutes),
                    max: Duration::from_secs(3600 * r.session_max_hours),
                },
                reader_sessions: identity::READER_SESSIONS,
                secure_cookie,
                failures_per_address: r.login_failures_per_minute,
                failures_global: r.login_failures_global_per_minute,
                failure_window: Duration::from_secs(60),
            },
            trust_proxy: r.trust_proxy,
            review_required: r.review_required,
            storage_url: r.storage_url.map(SecretUrl::from),
            storage_timeout: Duration::from_secs(r.storage_timeout_seconds.max(1)),
            metrics_token: r.metrics_token.map(Secret::new),
            mail: MailSettings {
                from: r.mail_from,
                smtp_url: r.smtp_url.map(SecretUrl::from),
                inbox_general: r.mail_inbox_general,
                inbox_education: r.mail_inbox_education,
                inbox_applications: r.mail_inbox_applications,
                attachments_max_bytes: r.mail_attachments_max_mb.saturating_mul(1024 * 1024),
                documents_ttl: Duration::from_secs(r.application_documents_days.max(1) * 86_400),
                poll: secs(r.outbox_poll_seconds),
                outbox: kernel::outbox::OutboxSettings {
                    max_attempts: r.outbox_max_attempts.max(1),
                    base_backoff: Duration::from_secs(r.outbox_backoff_seconds),
                    max_backoff: Duration::from_secs(3600),
                    failed_retention: Duration::from_secs(
                        24 * 3600 * r.outbox_failed_retention_days,
                    ),
                    claim: Duration::from_secs(r.job_claim_seconds.max(3)),
                },
                announcement_rate: r.announcement_rate_per_minute.max(1),
                digest_day,
                digest_hour: r.digest_hour,
                reader_sign_in_failures: r.reader_sign_in_failures.max(1),
            },
            magazine_max_bytes: 1024 * 1024 * r.magazine_max_mb.max(1),
            responses_open_days: r.responses_open_days,
            views: analytics::RecorderSettings {
                reload_window: Duration::from_secs(r.view_reload_window_seconds),
                beacons_per_minute: r.view_beacons_per_minute.max(1),
                ..analytics::RecorderSettings::default()
            },
            server: ServerLimits {
                header_read_timeout: secs(r.header_read_timeout_seconds),
                idle_timeout: secs(r.idle_timeout_seconds),
                body_grace: secs(r.body_grace_seconds),
                body_min_rate: r.body_min_bytes_per_second.max(1),
                max_connections: r.max_connections.max(1),
                shutdown_grace: server.shutdown_grace,
            },
            forms: FormSettings {
                limit: r.form_limit_per_address.max(1),
                window: secs(r.form_limit_window_seconds),
                confirmation_ttl: Duration::from_secs(3600 * r.confirm_link_hours.max(1)),
            },
        })
    }
}

/// The secret of the keyed key hash: `KEY_SECRET`, else `DATA_DIR/key-secret` (created once,
/// readable by the owner only). Every instance must share it.
pub fn resolve_key_secret(settings: &mut Settings) -> std::io::Result<()> {
    if !settings.identity.key_secret.expose().is_empty() {
        return Ok(());
    }
    let path = settings.data_dir.join("key-secret");
    if let Ok(secret) = std::fs::read_to_string(&path) {
        if !secret.trim().is_empty() {
            settings.identity.key_secret = Secret::new(secret.trim().to_string());
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
    settings.identity.key_secret = Secret::new(secret);
    Ok(())
}

#[cfg(test)]
mod tests;
