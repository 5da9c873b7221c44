//! What an operator can set and where it is read from: the environment (each key's name in
//! capitals, `PORT`) over an optional TOML file named by `AGORA_CONFIG` (the same keys in
//! lower case, `port = 8080`) over the defaults. A key the file does not know is refused, so a
//! typo cannot silently leave a default in place; an empty variable counts as unset.

use std::collections::HashMap;
use std::path::PathBuf;

use config::{Config, Environment, File, FileFormat};
use serde::{Deserialize, Serialize};

use super::SettingsError;

/// Every key with its default. Secrets are plain here and wrapped as the settings are built;
/// this struct has no `Debug` so it cannot be logged.
#[derive(Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub(super) struct Raw {
    pub port: u16,
    pub bind: String,
    pub data_dir: PathBuf,
    pub database_url: Option<String>,
    pub site_url: Option<String>,
    pub site_name: String,
    pub web_dist: PathBuf,
    pub ssr_url: Option<String>,
    pub node_bin: String,
    pub ssr_script: PathBuf,
    pub ssr_port: u16,
    pub ssr_deadline_ms: u64,
    pub page_cache: bool,
    pub cdn_max_age_seconds: u64,
    pub cdn_purge_url: Option<String>,
    pub cdn_purge_header: Option<String>,
    pub key_secret: Option<String>,
    pub session_idle_minutes: u64,
    pub session_max_hours: u64,
    pub login_failures_per_minute: i64,
    pub login_failures_global_per_minute: i64,
    pub trust_proxy: bool,
    pub review_required: bool,
    pub storage_url: Option<String>,
    pub metrics_token: Option<String>,
    pub mail_from: String,
    pub smtp_url: Option<String>,
    pub mail_inbox_general: String,
    pub mail_inbox_education: String,
    pub mail_inbox_applications: String,
    pub mail_attachments_max_mb: u64,
    pub application_documents_days: u64,
    pub outbox_poll_seconds: u64,
    pub outbox_max_attempts: i32,
    pub outbox_backoff_seconds: u64,
    pub outbox_failed_retention_days: u64,
    pub job_claim_seconds: u64,
    pub storage_timeout_seconds: u64,
    pub announcement_rate_per_minute: u32,
    pub digest_day: String,
    pub reader_sign_in_failures: i64,
    pub digest_hour: u32,
    pub form_limit_per_address: i64,
    pub form_limit_window_seconds: u64,
    pub confirm_link_hours: u64,
    pub magazine_max_mb: usize,
    pub responses_open_days: i64,
    pub view_reload_window_seconds: u64,
    pub view_beacons_per_minute: u32,
    pub header_read_timeout_seconds: u64,
    pub idle_timeout_seconds: u64,
    pub body_grace_seconds: u64,
    pub body_min_bytes_per_second: u64,
    pub max_connections: usize,
}

impl Default for Raw {
    fn default() -> Self {
        let server = super::ServerLimits::default();
        Raw {
            port: 8080,
            bind: "127.0.0.1".into(),
            data_dir: "data".into(),
            database_url: None,
            site_url: None,
            site_name: "The Agora".into(),
            web_dist: "web-client/dist".into(),
            ssr_url: None,
            node_bin: "node".into(),
            ssr_script: "ssr-renderer/dist/server.js".into(),
            ssr_port: 0,
            ssr_deadline_ms: 300,
            page_cache: true,
            cdn_max_age_seconds: 60,
            cdn_purge_url: None,
            cdn_purge_header: None,
            key_secret: None,
            session_idle_minutes: 480,
            session_max_hours: 168,
            login_failures_per_minute: 5,
            login_failures_global_per_minute: 100,
            trust_proxy: false,
            review_required: false,
            storage_url: None,
            metrics_token: None,
            mail_from: "The Agora <no-reply@agora.invalid>".into(),
            smtp_url: None,
            mail_inbox_general: "hello@agora.invalid".into(),
            mail_inbox_education: "education@agora.invalid".into(),
            mail_inbox_applications: "applications@agora.invalid".into(),
            mail_attachments_max_mb: outreach::DEFAULT_ATTACH_AT_MOST / (1024 * 1024),
            application_documents_days: outreach::DEFAULT_DOCUMENTS_TTL.as_secs() / 86_400,
            outbox_poll_seconds: 5,
            outbox_max_attempts: 8,
            outbox_backoff_seconds: 30,
            outbox_failed_retention_days: 7,
            job_claim_seconds: kernel::outbox::DEFAULT_CLAIM.as_secs(),
            storage_timeout_seconds: kernel::storage::REQUEST_WITHIN.as_secs(),
            announcement_rate_per_minute: 600,
            digest_day: "monday".into(),
            reader_sign_in_failures: 10,
            digest_hour: 7,
            form_limit_per_address: 10,
            form_limit_window_seconds: 600,
            confirm_link_hours: 48,
            magazine_max_mb: 50,
            responses_open_days: outreach::responses::rules::DEFAULT_OPEN_DAYS,
            view_reload_window_seconds: 1800,
            view_beacons_per_minute: analytics::BEACONS_PER_MINUTE,
            header_read_timeout_seconds: server.header_read_timeout.as_secs(),
            idle_timeout_seconds: server.idle_timeout.as_secs(),
            body_grace_seconds: server.body_grace.as_secs(),
            body_min_bytes_per_second: server.body_min_rate,
            max_connections: server.max_connections,
        }
    }
}

/// The environment variable naming the optional settings file.
pub(super) const CONFIG_FILE_VARIABLE: &str = "AGORA_CONFIG";

/// The keys an operator can set, as the struct names them (lower case).
fn keys() -> Vec<String> {
    match serde_json::to_value(Raw::default()) {
        Ok(serde_json::Value::Object(map)) => map.into_iter().map(|(k, _)| k).collect(),
        _ => Vec::new(),
    }
}

/// Reads the settings through `get` (the environment, or a stand-in in tests).
pub(super) fn read(get: &dyn Fn(&str) -> Option<String>) -> Result<Raw, SettingsError> {
    let set = |name: &str| get(name).filter(|v| !v.trim().is_empty());
    let vars: HashMap<String, String> = keys()
        .into_iter()
        .filter_map(|key| {
            set(&key.to_ascii_uppercase()).map(|value| (key, value.trim().to_string()))
        })
        .collect();
    let mut builder = Config::builder();
    if let Some(path) = set(CONFIG_FILE_VARIABLE) {
        builder = builder.add_source(File::new(path.trim(), FileFormat::Toml).required(true));
    }
    builder
        .add_source(Environment::default().source(Some(vars)))
        .build()
        .and_then(Config::try_deserialize::<Raw>)
        .map_err(|e| SettingsError::Invalid(e.to_string()))
}
