//! Emailed sign-in and reset links: stored with the email that carries them, used once.

use chrono::{DateTime, Utc};
use identity::tokens;
use kernel::outbox::Email;
use kernel::Db;

use crate::readers::store::{LinkPurpose, LinkUse};

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

pub(super) async fn use_link(
    db: &Db,
    purpose: LinkPurpose,
    token_hash: &str,
    now: DateTime<Utc>,
) -> Result<LinkUse, sqlx::Error> {
    let mut tx = db.begin().await?;
    let found = tokens::redeem(&mut tx, purpose.token(), token_hash, now).await?;
    let Some(account_id) = found else {
        return Ok(LinkUse::Invalid);
    };
    let mut q = db.sql("UPDATE accounts SET confirmed_at = COALESCE(confirmed_at, ");
    q.bind(now).push(") WHERE id = ").bind(account_id.clone());
    q.execute(&mut tx).await?;
    tx.commit().await?;
    Ok(LinkUse::Used(account_id))
}
