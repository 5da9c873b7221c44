//! What reader sign-in reads and writes of the account row (the address, the password hash,
//! whether the address is confirmed), and the emailed links, each stored with the email that
//! carries it and used once. The same statements on both engines.

use chrono::{DateTime, Utc};
use kernel::outbox::Email;
use kernel::Db;

use crate::tokens::{self, Purpose};

/// What a sign-in checks an account against.
#[derive(Debug, Clone)]
pub(super) struct Credentials {
    pub id: String,
    pub password_hash: String,
    pub confirmed: bool,
}

/// What an emailed link a reader may ask for is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkPurpose {
    SignIn,
    Reset,
}

impl LinkPurpose {
    /// The purpose of the token the link carries.
    pub fn token(self) -> Purpose {
        match self {
            LinkPurpose::SignIn => Purpose::SignIn,
            LinkPurpose::Reset => Purpose::Reset,
        }
    }
}

#[tracing::instrument(target = "trace_only", name = "ReaderAuth.credentials", skip_all)]
pub(super) async fn credentials(db: &Db, email: &str) -> Result<Option<Credentials>, sqlx::Error> {
    let mut q = db.sql("SELECT id, password_hash, confirmed_at FROM accounts WHERE email = ");
    q.bind(email.to_string());
    let row: Option<(String, String, Option<DateTime<Utc>>)> = q.fetch_optional(db).await?;
    Ok(row.map(|(id, password_hash, confirmed_at)| Credentials {
        id,
        password_hash,
        confirmed: confirmed_at.is_some(),
    }))
}

#[tracing::instrument(target = "trace_only", name = "ReaderAuth.first_name", skip_all)]
pub(super) async fn first_name(db: &Db, id: &str) -> Result<Option<String>, sqlx::Error> {
    let mut q = db.sql("SELECT first_name FROM accounts WHERE id = ");
    q.bind(id.to_string());
    q.scalar_optional(db).await
}

#[tracing::instrument(target = "trace_only", name = "ReaderAuth.password_hash", skip_all)]
pub(super) async fn password_hash(db: &Db, id: &str) -> Result<Option<String>, sqlx::Error> {
    let mut q = db.sql("SELECT password_hash FROM accounts WHERE id = ");
    q.bind(id.to_string());
    q.scalar_optional(db).await
}

/// Sets the password and voids every unused sign-in and reset link of the account.
#[tracing::instrument(target = "trace_only", name = "ReaderAuth.set_password", skip_all)]
pub(super) async fn set_password(
    db: &Db,
    id: &str,
    password_hash: &str,
) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    let mut q = db.sql("UPDATE accounts SET password_hash = ");
    q.bind(password_hash.to_string())
        .push(" WHERE id = ")
        .bind(id.to_string());
    q.execute(&mut tx).await?;
    // Links sent before the change are void: whoever read an old email (or
    // holds the old password) cannot use them to set the password again.
    tokens::void_unused(&mut tx, id, &[Purpose::SignIn, Purpose::Reset]).await?;
    tx.commit().await
}

/// Stores a link and queues the email that carries it, in one transaction; the account's
/// unused links of the same purpose are void from then on.
#[tracing::instrument(target = "trace_only", name = "ReaderAuth.add_link", skip_all)]
pub(super) async fn add_link(
    db: &Db,
    account_id: &str,
    purpose: LinkPurpose,
    token_hash: &str,
    expires_at: DateTime<Utc>,
    email: &Email,
) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    // Requests for the same account's links take turns: the account's row is
    // locked first (a no-op write), so the second request's delete sees the
    // first one's link. Without it, two requests at once under PostgreSQL's read
    // committed each deleted what was there before either and both links stayed
    // valid. (SQLite's single writer ordered them already.)
    let mut q = db.sql("UPDATE accounts SET id = id WHERE id = ");
    q.bind(account_id.to_string());
    q.execute(&mut tx).await?;
    // A new link voids the account's older ones of the same kind: only the
    // latest email works.
    tokens::void_unused(&mut tx, account_id, &[purpose.token()]).await?;
    tokens::issue(&mut tx, account_id, purpose.token(), token_hash, expires_at).await?;
    kernel::outbox::enqueue(&mut tx, email).await?;
    tx.commit().await
}

/// Uses a link once; confirms its account (the link proved the address). `None`: unknown,
/// used before, or expired, all the same to whoever holds it.
#[tracing::instrument(target = "trace_only", name = "ReaderAuth.use_link", skip_all)]
pub(super) async fn use_link(
    db: &Db,
    purpose: LinkPurpose,
    token_hash: &str,
    now: DateTime<Utc>,
) -> Result<Option<String>, sqlx::Error> {
    let mut tx = db.begin().await?;
    let found = tokens::redeem(&mut tx, purpose.token(), token_hash, now).await?;
    let Some(account_id) = found else {
        return Ok(None);
    };
    let mut q = db.sql("UPDATE accounts SET confirmed_at = COALESCE(confirmed_at, ");
    q.bind(now).push(") WHERE id = ").bind(account_id.clone());
    q.execute(&mut tx).await?;
    tx.commit().await?;
    Ok(Some(account_id))
}
