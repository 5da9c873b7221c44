//! Reader sessions: started, checked (and marked seen), listed and ended; housekeeping clears
//! them once expired, with the emailed links past keeping.

use chrono::{DateTime, Utc};
use kernel::Db;

use crate::readers::store::SessionRecord;

pub(super) async fn create_session(
    db: &Db,
    token_hash: &str,
    account_id: &str,
    now: DateTime<Utc>,
    expires_at: DateTime<Utc>,
) -> Result<(), sqlx::Error> {
    let mut q = db.sql(
        "INSERT INTO reader_sessions (token_hash, account_id, created_at, \
         last_seen_at, expires_at) VALUES (",
    );
    q.bind_list([token_hash.to_string(), account_id.to_string()])
        .push(", ")
        .bind_list([now, now, expires_at])
        .push(")");
    q.execute(db).await?;
    Ok(())
}

pub(super) async fn session_account(
    db: &Db,
    token_hash: &str,
    now: DateTime<Utc>,
    idle_cutoff: DateTime<Utc>,
) -> Result<Option<String>, sqlx::Error> {
    let mut q = db.sql("UPDATE reader_sessions SET last_seen_at = ");
    q.bind(now)
        .push(" WHERE token_hash = ")
        .bind(token_hash.to_string())
        .push(" AND expires_at > ")
        .bind(now)
        .push(" AND last_seen_at > ")
        .bind(idle_cutoff)
        .push(
            " AND account_id IN (SELECT id FROM accounts WHERE confirmed_at IS NOT NULL) \
             RETURNING account_id",
        );
    q.scalar_optional(db).await
}

pub(super) async fn delete_session(db: &Db, token_hash: &str) -> Result<(), sqlx::Error> {
    let mut q = db.sql("DELETE FROM reader_sessions WHERE token_hash = ");
    q.bind(token_hash.to_string());
    q.execute(db).await?;
    Ok(())
}

pub(super) async fn delete_expired(
    db: &Db,
    now: DateTime<Utc>,
    idle_cutoff: DateTime<Utc>,
    links_before: DateTime<Utc>,
) -> Result<u64, sqlx::Error> {
    let mut q = db.sql("DELETE FROM reader_sessions WHERE expires_at <= ");
    q.bind(now).push(" OR last_seen_at <= ").bind(idle_cutoff);
    let mut deleted = q.execute(db).await?;
    for table in ["account_links", "account_confirmations"] {
        let mut q = db.sql(&format!("DELETE FROM {table} WHERE expires_at < "));
        q.bind(links_before);
        deleted += q.execute(db).await?;
    }
    Ok(deleted)
}

pub(super) async fn delete_sessions_of(
    db: &Db,
    account_id: &str,
    keep: Option<&str>,
) -> Result<(), sqlx::Error> {
    let mut q = db.sql("DELETE FROM reader_sessions WHERE account_id = ");
    q.bind(account_id.to_string());
    if let Some(keep) = keep {
        q.push(" AND token_hash <> ").bind(keep.to_string());
    }
    q.execute(db).await?;
    Ok(())
}

pub(super) async fn sessions_of(
    db: &Db,
    account_id: &str,
) -> Result<Vec<SessionRecord>, sqlx::Error> {
    let mut q = db.sql("SELECT created_at, last_seen_at FROM reader_sessions WHERE account_id = ");
    q.bind(account_id.to_string()).push(" ORDER BY created_at");
    let rows: Vec<(DateTime<Utc>, DateTime<Utc>)> = q.fetch_all(db).await?;
    Ok(rows
        .into_iter()
        .map(|(created_at, last_seen_at)| SessionRecord {
            created_at,
            last_seen_at,
        })
        .collect())
}
