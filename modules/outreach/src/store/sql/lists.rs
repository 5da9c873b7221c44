//! The notify lists: signing up, unsubscribing (with a signup's, an announcement's or a
//! digest's link), what a link is for, and signing up again.

use chrono::{DateTime, Utc};
use kernel::outbox::Email;
use kernel::sql::On;
use kernel::Db;

use super::SqlOutreachStore;
use crate::model::NotifyList;
use crate::store::OutreachStore;

/// Puts `email` on `list`, or back on it when it had unsubscribed (with the new link's hash,
/// as signed up `now`); an address on the list already is left as it is. Whether it was put
/// on. The one statement for the signup form, a reader's account and a confirmed account's
/// first choices.
pub(crate) async fn join_list<'a>(
    on: impl Into<On<'a>>,
    list: NotifyList,
    email: &str,
    unsubscribe_hash: &str,
    now: DateTime<Utc>,
) -> Result<bool, sqlx::Error> {
    let on = on.into();
    let mut q = on.sql(&format!(
        "INSERT INTO {} (id, email, unsubscribe_hash, created_at) VALUES (",
        list.table()
    ));
    q.bind_list([
        kernel::ids::new_id(),
        email.to_string(),
        unsubscribe_hash.to_string(),
    ])
    .push(", ")
    .bind(now)
    .push(
        ") ON CONFLICT (email) DO UPDATE SET unsubscribed_at = NULL, \
         unsubscribe_hash = excluded.unsubscribe_hash, \
         created_at = excluded.created_at WHERE ",
    )
    .push(list.table())
    .push(".unsubscribed_at IS NOT NULL");
    Ok(q.execute(on).await? == 1)
}

pub(super) async fn subscribe(
    db: &Db,
    list: NotifyList,
    email: &str,
    unsubscribe_hash: &str,
    now: DateTime<Utc>,
    confirmation: &Email,
) -> Result<bool, sqlx::Error> {
    let mut tx = db.begin().await?;
    let added = join_list(&mut tx, list, email, unsubscribe_hash, now).await?;
    if added {
        kernel::outbox::enqueue(&mut tx, confirmation).await?;
    }
    tx.commit().await?;
    Ok(added)
}

pub(super) async fn unsubscribe(
    db: &Db,
    unsubscribe_hash: &str,
    now: DateTime<Utc>,
) -> Result<bool, sqlx::Error> {
    let mut found = false;
    for list in [NotifyList::Magazine, NotifyList::Packs] {
        let mut q = db.sql(&format!(
            "UPDATE {} SET unsubscribed_at = COALESCE(unsubscribed_at, ",
            list.table()
        ));
        q.bind(now)
            .push(") WHERE unsubscribe_hash = ")
            .bind(unsubscribe_hash.to_string());
        found |= q.execute(db).await? > 0;
    }
    if found {
        return Ok(true);
    }
    // The link of an announcement: each recipient has their own token.
    let mut q = db.sql(
        "SELECT a.list, d.email FROM announcement_deliveries d \
         JOIN announcements a ON a.id = d.announcement_id \
         WHERE d.unsubscribe_hash = ",
    );
    q.bind(unsubscribe_hash.to_string());
    let delivery: Option<(String, String)> = q.fetch_optional(db).await?;
    let Some((list, email)) = delivery else {
        // The link of a weekly digest: the reader stops getting it.
        let mut q = db.sql(
            "UPDATE accounts SET digest_since = NULL, digest_unsubscribe_hash = NULL \
             WHERE id IN (SELECT account_id FROM digest_deliveries \
             WHERE unsubscribe_hash = ",
        );
        q.bind(unsubscribe_hash.to_string()).push(")");
        q.execute(db).await?;
        let mut q = db.sql("SELECT COUNT(*) FROM digest_deliveries WHERE unsubscribe_hash = ");
        q.bind(unsubscribe_hash.to_string());
        let known: i64 = q.scalar(db).await?;
        return Ok(known > 0);
    };
    let Some(list) = NotifyList::parse(&list) else {
        return Ok(false);
    };
    let mut q = db.sql(&format!(
        "UPDATE {} SET unsubscribed_at = COALESCE(unsubscribed_at, ",
        list.table()
    ));
    q.bind(now).push(") WHERE email = ").bind(email);
    q.execute(db).await?;
    Ok(true)
}

/// Takes the store, not its `Db`: whether the address is subscribed is asked through the
/// trait (its own span).
pub(super) async fn unsubscribe_target(
    store: &SqlOutreachStore,
    unsubscribe_hash: &str,
) -> Result<Option<(String, bool)>, sqlx::Error> {
    for list in [NotifyList::Magazine, NotifyList::Packs] {
        let mut q = store.db.sql(&format!(
            "SELECT COUNT(*) FILTER (WHERE unsubscribed_at IS NULL), COUNT(*) FROM {} \
             WHERE unsubscribe_hash = ",
            list.table()
        ));
        q.bind(unsubscribe_hash.to_string());
        let (on, found): (i64, i64) = q.fetch_one(&store.db).await?;
        if found > 0 {
            return Ok(Some((list.as_str().to_string(), on > 0)));
        }
    }
    let mut q = store.db.sql(
        "SELECT a.list, d.email FROM announcement_deliveries d \
         JOIN announcements a ON a.id = d.announcement_id \
         WHERE d.unsubscribe_hash = ",
    );
    q.bind(unsubscribe_hash.to_string());
    let delivery: Option<(String, String)> = q.fetch_optional(&store.db).await?;
    if let Some((list, email)) = delivery {
        let Some(list) = NotifyList::parse(&list) else {
            return Ok(None);
        };
        let on = store.is_subscribed(list, &email).await?;
        return Ok(Some((list.as_str().to_string(), on)));
    }
    let mut q = store.db.sql(
        "SELECT COUNT(*) FILTER (WHERE a.digest_since IS NOT NULL), COUNT(*) \
         FROM digest_deliveries d JOIN accounts a ON a.id = d.account_id \
         WHERE d.unsubscribe_hash = ",
    );
    q.bind(unsubscribe_hash.to_string());
    let (on, found): (i64, i64) = q.fetch_one(&store.db).await?;
    Ok((found > 0).then(|| ("digest".to_string(), on > 0)))
}

/// Takes the store, not its `Db`: what the link is for is asked through the trait (its own
/// span).
pub(super) async fn resubscribe(
    store: &SqlOutreachStore,
    unsubscribe_hash: &str,
    now: DateTime<Utc>,
    digest_hash: &str,
) -> Result<bool, sqlx::Error> {
    let Some((list, _)) = store.unsubscribe_target(unsubscribe_hash).await? else {
        return Ok(false);
    };
    if list == "digest" {
        let mut q = store.db.sql("UPDATE accounts SET digest_since = ");
        q.bind(now)
            .push(", digest_unsubscribe_hash = ")
            .bind(digest_hash.to_string())
            .push(
                " WHERE digest_since IS NULL AND id IN (SELECT account_id \
                 FROM digest_deliveries WHERE unsubscribe_hash = ",
            )
            .bind(unsubscribe_hash.to_string())
            .push(")");
        q.execute(&store.db).await?;
        return Ok(true);
    }
    let Some(list) = NotifyList::parse(&list) else {
        return Ok(false);
    };
    // The signup's own link, or an announcement's (which names the address).
    let mut q = store.db.sql(&format!(
        "UPDATE {} SET unsubscribed_at = NULL WHERE unsubscribe_hash = ",
        list.table()
    ));
    q.bind(unsubscribe_hash.to_string())
        .push(
            " OR email IN (SELECT d.email FROM announcement_deliveries d \
             WHERE d.unsubscribe_hash = ",
        )
        .bind(unsubscribe_hash.to_string())
        .push(")");
    q.execute(&store.db).await?;
    Ok(true)
}

pub(super) async fn is_subscribed(
    db: &Db,
    list: NotifyList,
    email: &str,
) -> Result<bool, sqlx::Error> {
    let mut q = db.sql(&format!(
        "SELECT COUNT(*) FROM {} WHERE unsubscribed_at IS NULL AND email = ",
        list.table()
    ));
    q.bind(email.to_string());
    let n: i64 = q.scalar(db).await?;
    Ok(n > 0)
}
