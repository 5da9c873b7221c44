//! Access keys and session tokens: random, shown once, stored only as hashes.

use hmac::{Hmac, Mac};
use kernel::secret::{hash_token, new_token};
use sha2::Sha256;

/// Keys carry a recognisable prefix so they can be spotted in logs or chat and revoked.
pub const KEY_PREFIX: &str = "agora_";

pub fn new_access_key() -> String {
    format!("{KEY_PREFIX}{}", new_token())
}

/// Hashes access keys with a server-side secret (HMAC-SHA-256), so a copy of the database
/// alone cannot be used to test guesses.
#[derive(Clone)]
pub struct KeyHasher {
    secret: Vec<u8>,
}

impl std::fmt::Debug for KeyHasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KeyHasher(***)")
    }
}

impl KeyHasher {
    pub fn new(secret: impl Into<Vec<u8>>) -> Self {
        Self {
            secret: secret.into(),
        }
    }

    pub fn hash_key(&self, key: &str) -> String {
        // HMAC accepts keys of any length, so this cannot fail.
        let mut mac = match <Hmac<Sha256> as Mac>::new_from_slice(&self.secret) {
            Ok(mac) => mac,
            Err(_) => return hash_token(key),
        };
        mac.update(key.trim().as_bytes());
        hex::encode(mac.finalize().into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_long_random_and_prefixed() {
        let a = new_access_key();
        let b = new_access_key();
        assert_ne!(a, b);
        assert!(a.starts_with(KEY_PREFIX));
        assert!(a.len() >= KEY_PREFIX.len() + 43, "at least 256 bits");
    }

    #[test]
    fn key_hashes_depend_on_the_secret() {
        let key = new_access_key();
        let one = KeyHasher::new("secret-one");
        let two = KeyHasher::new("secret-two");
        assert_eq!(one.hash_key(&key), one.hash_key(&key));
        assert_ne!(one.hash_key(&key), two.hash_key(&key));
        assert!(!one.hash_key(&key).contains(&key));
    }
}
