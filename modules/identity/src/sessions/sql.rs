//! The statements of [`super::Sessions`]: the same on both engines, over the table of the
//! session's kind.

use chrono::{DateTime, Utc};
use kernel::Db;

use super::SessionRecord;
use crate::principal::Kind;

#[tracing::instrument(target = "trace_only", name = "Sessions.create", skip_all)]
pub(super) async fn create(
    db: &Db,
    kind: Kind,
    token_hash: &str,
    owner: &str,
    now: DateTime<Utc>,
    expires_at: DateTime<Utc>,
) -> Result<(), sqlx::Error> {
    let mut q = db.sql(&format!(
        "INSERT INTO {} (token_hash, {}, created_at, last_seen_at, expires_at) VALUES (",
        kind.sessions_table(),
        kind.owner_column()
    ));
    q.bind_list([token_hash.to_string(), owner.to_string()])
        .push(", ")
        .bind_list([now, now, expires_at])
        .push(")");
    q.execute(db).await?;
    Ok(())
}

#[tracing::instrument(target = "trace_only", name = "Sessions.touch", skip_all)]
pub(super) async fn touch(
    db: &Db,
    kind: Kind,
    token_hash: &str,
    now: DateTime<Utc>,
    idle_cutoff: DateTime<Utc>,
) -> Result<Option<String>, sqlx::Error> {
    let mut q = db.sql(&format!(
        "UPDATE {} SET last_seen_at = ",
        kind.sessions_table()
    ));
    q.bind(now)
        .push(" WHERE token_hash = ")
        .bind(token_hash.to_string())
        .push(" AND expires_at > ")
        .bind(now)
        .push(" AND last_seen_at > ")
        .bind(idle_cutoff)
        .push(&format!(
            " AND {owner} IN ({usable}) RETURNING {owner}",
            owner = kind.owner_column(),
            usable = kind.usable_owners()
        ));
    q.scalar_optional(db).await
}

#[tracing::instrument(target = "trace_only", name = "Sessions.delete", skip_all)]
pub(super) async fn delete(db: &Db, kind: Kind, token_hash: &str) -> Result<(), sqlx::Error> {
    let mut q = db.sql(&format!(
        "DELETE FROM {} WHERE token_hash = ",
        kind.sessions_table()
    ));
    q.bind(token_hash.to_string());
    q.execute(db).await?;
    Ok(())
}

#[tracing::instrument(target = "trace_only", name = "Sessions.delete_of", skip_all)]
pub(super) async fn delete_of(
    db: &Db,
    kind: Kind,
    owner: &str,
    keep: Option<&str>,
) -> Result<(), sqlx::Error> {
    let mut q = db.sql(&format!(
        "DELETE FROM {} WHERE {} = ",
        kind.sessions_table(),
        kind.owner_column()
    ));
    q.bind(owner.to_string());
    if let Some(keep) = keep {
        q.push(" AND token_hash <> ").bind(keep.to_string());
    }
    q.execute(db).await?;
    Ok(())
}

#[tracing::instrument(target = "trace_only", name = "Sessions.of", skip_all)]
pub(super) async fn of(
    db: &Db,
    kind: Kind,
    owner: &str,
) -> Result<Vec<SessionRecord>, sqlx::Error> {
    let mut q = db.sql(&format!(
        "SELECT created_at, last_seen_at FROM {} WHERE {} = ",
        kind.sessions_table(),
        kind.owner_column()
    ));
    q.bind(owner.to_string()).push(" ORDER BY created_at");
    let rows: Vec<(DateTime<Utc>, DateTime<Utc>)> = q.fetch_all(db).await?;
    Ok(rows
        .into_iter()
        .map(|(created_at, last_seen_at)| SessionRecord {
            created_at,
            last_seen_at,
        })
        .collect())
}

#[tracing::instrument(target = "trace_only", name = "Sessions.delete_expired", skip_all)]
pub(super) async fn delete_expired(
    db: &Db,
    kind: Kind,
    now: DateTime<Utc>,
    idle_cutoff: DateTime<Utc>,
) -> Result<u64, sqlx::Error> {
    let mut q = db.sql(&format!(
        "DELETE FROM {} WHERE expires_at <= ",
        kind.sessions_table()
    ));
    q.bind(now).push(" OR last_seen_at <= ").bind(idle_cutoff);
    q.execute(db).await
}
