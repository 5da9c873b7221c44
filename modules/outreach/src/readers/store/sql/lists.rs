//! The account's subscriptions: the launch lists (by address) and the weekly digest.

use chrono::{DateTime, Utc};
use kernel::Db;

use crate::model::NotifyList;

pub(super) async fn set_list(
    db: &Db,
    list: NotifyList,
    email: &str,
    on: bool,
    unsubscribe_hash: &str,
    now: DateTime<Utc>,
) -> Result<(), sqlx::Error> {
    if !on {
        return crate::store::set_unsubscribed(db, list, email, Some(now)).await;
    }
    let mut tx = db.begin().await?;
    crate::store::join_list(&mut tx, list, email, unsubscribe_hash, now).await?;
    tx.commit().await?;
    Ok(())
}

pub(super) async fn set_digest(
    db: &Db,
    id: &str,
    on: bool,
    unsubscribe_hash: &str,
    now: DateTime<Utc>,
) -> Result<(), sqlx::Error> {
    let mut q = db.sql("UPDATE accounts SET ");
    if on {
        q.push("digest_since = ")
            .bind(now)
            .push(", digest_unsubscribe_hash = ")
            .bind(unsubscribe_hash.to_string())
            .push(" WHERE digest_since IS NULL AND id = ");
    } else {
        q.push("digest_since = NULL, digest_unsubscribe_hash = NULL WHERE id = ");
    }
    q.bind(id.to_string());
    q.execute(db).await?;
    Ok(())
}
