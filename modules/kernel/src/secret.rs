//! Secrets handed to people — session tokens, confirmation and unsubscribe links — and how
//! they are kept: long random values, shown once, stored only as a hash. Secrets of the
//! configuration are held in [`Secret`] and [`SecretUrl`], whose `Debug` never shows them.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, Mac};
use rand::rngs::OsRng;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// Bytes of randomness in a token (256 bits).
pub const TOKEN_BYTES: usize = 32;

/// A new random token, URL-safe (base64url without padding).
pub fn new_token() -> String {
    URL_SAFE_NO_PAD.encode(random_bytes())
}

/// A new random value as hex (for secrets kept in configuration).
pub fn new_hex_secret() -> String {
    hex::encode(random_bytes())
}

fn random_bytes() -> [u8; TOKEN_BYTES] {
    let mut bytes = [0u8; TOKEN_BYTES];
    OsRng.fill_bytes(&mut bytes);
    bytes
}

/// How a token is stored: tokens are long random values, so a plain SHA-256 (hex) is enough
/// to keep them out of the database — a copy of it opens nothing.
pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The signature (HMAC-SHA256, hex) of `message` under `key`: for links whose content must
/// not be changed (what they open, until when) without keeping a token for each.
pub fn sign(key: &[u8], message: &str) -> String {
    mac(key, message)
        .map(|m| hex::encode(m.finalize().into_bytes()))
        .unwrap_or_default()
}

/// Whether `signature` (hex) is `message`'s under `key`, compared in constant time.
pub fn signed(key: &[u8], message: &str, signature: &str) -> bool {
    match (hex::decode(signature), mac(key, message)) {
        (Ok(bytes), Some(m)) => m.verify_slice(&bytes).is_ok(),
        _ => false,
    }
}

/// HMAC accepts keys of any length, so this is never `None` (and nothing would verify).
fn mac(key: &[u8], message: &str) -> Option<Hmac<Sha256>> {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key).ok()?;
    mac.update(message.as_bytes());
    Some(mac)
}

/// A value that must never reach a log: `Debug` shows `[redacted]`; read it with `expose`.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Secret<T>(T);

impl<T> Secret<T> {
    pub fn new(value: T) -> Self {
        Secret(value)
    }

    pub fn expose(&self) -> &T {
        &self.0
    }
}

impl<T> From<T> for Secret<T> {
    fn from(value: T) -> Self {
        Secret(value)
    }
}

impl<T> std::fmt::Debug for Secret<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("[redacted]")
    }
}

/// A URL that may carry a password (`postgres://user:pass@host/db`, `smtp://…`): `Debug` shows
/// it with the credentials hidden, so where it points can still be logged.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct SecretUrl(String);

impl SecretUrl {
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// The URL with anything between `://` and the last `@` replaced by `***`.
    pub fn redacted(&self) -> String {
        let url = &self.0;
        match (url.find("://"), url.rfind('@')) {
            (Some(s), Some(at)) if at > s => format!("{}://***{}", &url[..s], &url[at..]),
            _ => url.clone(),
        }
    }
}

impl<S: Into<String>> From<S> for SecretUrl {
    fn from(url: S) -> Self {
        SecretUrl(url.into())
    }
}

impl std::fmt::Debug for SecretUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.redacted())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_holds_only_for_its_message_and_key() {
        let sig = sign(b"key", "application/1/cv/1700000000");
        assert_eq!(sig.len(), 64);
        assert!(signed(b"key", "application/1/cv/1700000000", &sig));
        assert!(!signed(b"key", "application/1/cv/1700000001", &sig));
        assert!(!signed(b"other", "application/1/cv/1700000000", &sig));
        assert!(!signed(b"key", "application/1/cv/1700000000", &sig[..62]));
        assert!(!signed(b"key", "application/1/cv/1700000000", "not hex"));
    }

    #[test]
    fn tokens_are_long_random_and_url_safe() {
        let (a, b) = (new_token(), new_token());
        assert_ne!(a, b);
        assert_eq!(a.len(), 43);
        assert!(a
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_'));
        assert_eq!(new_hex_secret().len(), 64);
    }

    #[test]
    fn a_token_is_stored_as_its_sha256() {
        assert_eq!(
            hash_token("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_ne!(hash_token("abc"), hash_token("abd"));
    }

    #[test]
    fn secrets_never_show_in_debug() {
        let key = Secret::new("hunter2".to_string());
        assert_eq!(format!("{key:?}"), "[redacted]");
        assert_eq!(key.expose(), "hunter2");
        let db = SecretUrl::from("postgres://agora:s3cret@db:5432/agora");
        assert_eq!(format!("{db:?}"), "\"postgres://***@db:5432/agora\"");
        assert_eq!(db.expose(), "postgres://agora:s3cret@db:5432/agora");
        let plain = SecretUrl::from("sqlite://data/agora.db");
        assert_eq!(format!("{plain:?}"), "\"sqlite://data/agora.db\"");
    }
}
