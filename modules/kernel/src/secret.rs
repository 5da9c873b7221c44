//! Secrets handed to people — session tokens, confirmation and unsubscribe links — and how
//! they are kept: long random values, shown once, stored only as a hash.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
