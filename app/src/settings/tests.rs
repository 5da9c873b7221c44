use std::collections::HashMap;

use super::*;

fn load(vars: &[(&str, &str)]) -> Result<Settings, SettingsError> {
    let vars: HashMap<String, String> = vars
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Settings::load(&move |name| vars.get(name).cloned())
}

fn file(text: &str) -> (std::path::PathBuf, String) {
    let path = std::env::temp_dir().join(format!(
        "agora-settings-{}.toml",
        uuid::Uuid::now_v7().simple()
    ));
    std::fs::write(&path, text).unwrap();
    let name = path.display().to_string();
    (path, name)
}

#[test]
fn defaults_make_make_run_work() {
    let s = Settings::defaults().unwrap();
    assert_eq!(s.port, 8080);
    assert_eq!(s.site_url, "http://127.0.0.1:8080");
    assert_eq!(s.database_url.expose(), "sqlite://data/agora.db");
    assert_eq!(s.mail.poll, Duration::from_secs(5));
    assert!(s.page_cache && !s.identity.secure_cookie);
}

#[test]
fn the_environment_sets_typed_values_and_empty_means_unset() {
    let s = load(&[
        ("PORT", "9000"),
        ("PAGE_CACHE", "false"),
        ("SITE_URL", "https://agora.example/"),
        ("SITE_NAME", "2026"),
        ("DATA_DIR", "/srv/agora"),
        ("SMTP_URL", ""),
        ("MAGAZINE_MAX_MB", " 10 "),
    ])
    .unwrap();
    assert_eq!(s.port, 9000);
    assert!(!s.page_cache);
    assert_eq!(s.site_url, "https://agora.example");
    assert!(s.identity.secure_cookie);
    assert_eq!(s.site_name, "2026", "a number-like name stays text");
    assert_eq!(s.database_url.expose(), "sqlite:///srv/agora/agora.db");
    assert!(s.mail.smtp_url.is_none());
    assert_eq!(s.magazine_max_bytes, 10 * 1024 * 1024);
}

#[test]
fn bad_values_are_refused_with_the_key_named() {
    let e = load(&[("PORT", "eighty")]).unwrap_err().to_string();
    assert!(e.contains("port"), "{e}");
    let e = load(&[("SITE_URL", "agora.example")])
        .unwrap_err()
        .to_string();
    assert!(e.contains("SITE_URL"), "{e}");
    let e = load(&[("CDN_PURGE_HEADER", "no colon")])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("CDN_PURGE_HEADER") && !e.contains("no colon"),
        "{e}"
    );
}

#[test]
fn a_file_sets_keys_the_environment_overrides_and_unknown_keys_are_refused() {
    let (path, name) =
        file("port = 7000\nsite_name = \"Agora Weekly\"\nform_limit_per_address = 40\n");
    let s = load(&[("AGORA_CONFIG", &name), ("PORT", "7001")]).unwrap();
    assert_eq!(s.port, 7001, "the environment wins");
    assert_eq!(s.site_name, "Agora Weekly");
    assert_eq!(s.forms.limit, 40);
    std::fs::remove_file(path).unwrap();

    let (path, name) = file("port = 7000\nsmtp_ulr = \"smtp://x\"\n");
    let e = load(&[("AGORA_CONFIG", &name)]).unwrap_err().to_string();
    assert!(e.contains("smtp_ulr"), "{e}");
    std::fs::remove_file(path).unwrap();

    let e = load(&[("AGORA_CONFIG", "/no/such/agora.toml")])
        .unwrap_err()
        .to_string();
    assert!(e.contains("agora.toml"), "{e}");
}

#[test]
fn secrets_never_reach_the_log() {
    let s = load(&[
        ("DATABASE_URL", "postgres://agora:db-pass@db/agora"),
        ("SMTP_URL", "smtp://mailer:mail-pass@smtp.example:587"),
        ("KEY_SECRET", "key-secret-value"),
        ("CDN_PURGE_HEADER", "Authorization: Bearer cdn-token"),
    ])
    .unwrap();
    let shown = format!("{s:?}");
    for secret in ["db-pass", "mail-pass", "key-secret-value", "cdn-token"] {
        assert!(!shown.contains(secret), "{secret} in {shown}");
    }
    assert!(shown.contains("postgres://***@db/agora"), "{shown}");
    assert!(shown.contains("form"), "every field is shown: {shown}");
    assert_eq!(s.identity.key_secret.expose(), "key-secret-value");
}
