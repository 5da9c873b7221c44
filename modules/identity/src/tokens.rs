//! Single-use, expiring tokens emailed to readers: to confirm an address, to sign in without
//! a password, to reset it. One table for every purpose; only hashes of the tokens are kept.
//!
//! The statements take the caller's transaction: a token is stored in the same transaction
//! as the email that carries it (and the account it belongs to), and using one commits with
//! what it does.

use chrono::{DateTime, Utc};
use kernel::sql::Tx;
use kernel::Db;

/// What a token is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Confirm,
    SignIn,
    Reset,
}

impl Purpose {
    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::Confirm => "confirm",
            Purpose::SignIn => "sign-in",
            Purpose::Reset => "reset",
        }
    }
}

/// Why a token was not used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    Unknown,
    AlreadyUsed,
    Expired,
}

/// How long an expired token is kept, so that opening it says it expired.
pub const EXPIRED_KEPT_DAYS: i64 = 30;

/// Stores a token for `account`.
pub async fn issue(
    tx: &mut Tx,
    account: &str,
    purpose: Purpose,
    token_hash: &str,
    expires_at: DateTime<Utc>,
) -> Result<(), sqlx::Error> {
    let mut q =
        tx.sql("INSERT INTO account_tokens (token_hash, account_id, purpose, expires_at) VALUES (");
    q.separated()
        .bind(token_hash.to_string())
        .bind(account.to_string())
        .bind(purpose.as_str())
        .bind(expires_at);
    q.push(")");
    q.execute(tx).await?;
    Ok(())
}

/// Voids the account's unused tokens of these purposes (a newer email, or a new password,
/// makes the older links worthless).
pub async fn void_unused(
    tx: &mut Tx,
    account: &str,
    purposes: &[Purpose],
) -> Result<(), sqlx::Error> {
    let mut q = tx.sql("DELETE FROM account_tokens WHERE used_at IS NULL AND account_id = ");
    q.bind(account.to_string())
        .push(" AND purpose IN (")
        .bind_list(purposes.iter().map(|p| p.as_str()))
        .push(")");
    q.execute(tx).await?;
    Ok(())
}

/// Uses a live token once (a conditional update: two uses at the same moment cannot both
/// win); returns its account.
pub async fn redeem(
    tx: &mut Tx,
    purpose: Purpose,
    token_hash: &str,
    now: DateTime<Utc>,
) -> Result<Option<String>, sqlx::Error> {
    let mut q = tx.sql("UPDATE account_tokens SET used_at = ");
    q.bind(now)
        .push(" WHERE used_at IS NULL AND token_hash = ")
        .bind(token_hash.to_string())
        .push(" AND purpose = ")
        .bind(purpose.as_str())
        .push(" AND expires_at > ")
        .bind(now)
        .push(" RETURNING account_id");
    q.scalar_optional(tx).await
}

/// Why [`redeem`] found nothing for this token.
pub async fn refusal(db: &Db, purpose: Purpose, token_hash: &str) -> Result<Refusal, sqlx::Error> {
    let mut q = db.sql("SELECT used_at IS NOT NULL FROM account_tokens WHERE token_hash = ");
    q.bind(token_hash.to_string())
        .push(" AND purpose = ")
        .bind(purpose.as_str());
    let used: Option<bool> = q.scalar_optional(db).await?;
    Ok(match used {
        None => Refusal::Unknown,
        Some(true) => Refusal::AlreadyUsed,
        Some(false) => Refusal::Expired,
    })
}

/// Deletes the account's sessions and tokens (the account itself is going).
pub async fn forget_reader(tx: &mut Tx, account: &str) -> Result<(), sqlx::Error> {
    for table in [
        crate::principal::Kind::Reader.sessions_table(),
        "account_tokens",
    ] {
        let mut q = tx.sql(&format!("DELETE FROM {table} WHERE account_id = "));
        q.bind(account.to_string());
        q.execute(&mut *tx).await?;
    }
    Ok(())
}

/// Deletes tokens that expired before `before`; returns how many.
pub async fn delete_expired(db: &Db, before: DateTime<Utc>) -> Result<u64, sqlx::Error> {
    let mut q = db.sql("DELETE FROM account_tokens WHERE expires_at < ");
    q.bind(before);
    q.execute(db).await
}
