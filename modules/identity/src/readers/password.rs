//! Reader passwords: the rules a new one meets, and argon2id hashes, checked off the async
//! threads. A sign-in for an unknown address checks against a fixed hash all the same, so the
//! answer takes as long either way.

use std::sync::OnceLock;

use argon2::password_hash::{rand_core::OsRng, SaltString};
use argon2::{Argon2, PasswordHash, PasswordHasher, PasswordVerifier};
use kernel::ErrorCode;

use super::error::invalid;
use super::ReaderError;
use crate::codes::Code;

/// The rules of a new password (registration's).
pub fn new_password_problem(password: &str, confirm: &str) -> Option<(ErrorCode, &'static str)> {
    let chars = password.chars().count();
    if password != confirm {
        Some((Code::PasswordMismatch.into(), "Passwords do not match."))
    } else if chars < super::MIN_PASSWORD_CHARS {
        Some((
            Code::PasswordTooShort.into(),
            "Password must be at least 6 characters long.",
        ))
    } else if chars > super::MAX_PASSWORD_CHARS {
        Some((
            Code::PasswordTooLong.into(),
            "Password must be at most 128 characters long.",
        ))
    } else {
        None
    }
}

pub fn check_new_password(password: &str, confirm: &str) -> Result<(), ReaderError> {
    match new_password_problem(password, confirm) {
        Some((code, message)) => Err(invalid(code, message)),
        None => Ok(()),
    }
}

fn hash_now(password: &str) -> Result<String, ReaderError> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| ReaderError::Hashing(e.to_string()))
}

/// Hashes a new password.
pub async fn hash(password: String) -> Result<String, ReaderError> {
    tokio::task::spawn_blocking(move || hash_now(&password))
        .await
        .map_err(|e| ReaderError::Hashing(e.to_string()))?
}

/// A hash no password matches in practice, to check unknown addresses against.
fn decoy() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| hash_now(&kernel::secret::new_token()).unwrap_or_default())
}

/// Whether `password` matches `stored` (`None`: no account, checked against the decoy).
pub async fn verify(password: String, stored: Option<String>) -> bool {
    tokio::task::spawn_blocking(move || {
        let checked = check(&password, stored.as_deref(), decoy());
        checked.known && checked.matched
    })
    .await
    .unwrap_or(false)
}

/// What checking a password found: whether there was an account's hash, and whether the
/// password matched the hash it was checked against (the account's, or the decoy).
#[derive(Debug, PartialEq, Eq)]
struct Checked {
    known: bool,
    matched: bool,
}

/// Checks `password` with argon2 against `stored`, or against `decoy` when there is no
/// account: the same work either way, so the answer takes as long.
fn check(password: &str, stored: Option<&str>, decoy: &str) -> Checked {
    let matched = PasswordHash::new(stored.unwrap_or(decoy))
        .map(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false);
    Checked {
        known: stored.is_some(),
        matched,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn passwords_are_stored_as_argon2_hashes_and_checked() {
        let stored = hash("secret1".into()).await.unwrap_or_default();
        assert!(stored.starts_with("$argon2id$"), "{stored}");
        assert!(!stored.contains("secret1"));
        assert!(verify("secret1".into(), Some(stored.clone())).await);
        assert!(!verify("secret2".into(), Some(stored)).await);
        assert!(!verify("secret1".into(), None).await);
    }

    #[test]
    fn an_unknown_address_is_checked_against_the_decoy_with_argon2() {
        // Without a clock: a decoy that this password matches is found matching, which only
        // a full argon2 verification can tell; skipping the work for an unknown address
        // would answer faster, and would not match.
        let decoy = hash_now("guess").unwrap_or_default();
        assert_eq!(
            check("guess", None, &decoy),
            Checked {
                known: false,
                matched: true
            }
        );
        assert_eq!(
            check("other", None, &decoy),
            Checked {
                known: false,
                matched: false
            }
        );
        let stored = hash_now("mine").unwrap_or_default();
        assert_eq!(
            check("mine", Some(&stored), &decoy),
            Checked {
                known: true,
                matched: true
            }
        );
    }

    #[test]
    fn the_decoy_costs_what_a_real_hash_costs() {
        // An unknown address is checked against the decoy, so it must be as slow to check as
        // any reader's hash: same algorithm, version and cost parameters.
        let real = hash_now("a reader's password").unwrap_or_default();
        let (real, decoy) = (PasswordHash::new(&real), PasswordHash::new(decoy()));
        let (Ok(real), Ok(decoy)) = (real, decoy) else {
            panic!("both must parse as PHC strings");
        };
        assert_eq!(decoy.algorithm, real.algorithm);
        assert_eq!(decoy.version, real.version);
        assert_eq!(decoy.params, real.params);
        assert_eq!(real.algorithm.as_str(), "argon2id");
    }
}
