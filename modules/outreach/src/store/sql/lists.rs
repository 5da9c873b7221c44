//! The notify lists: signing up, unsubscribing (with any signup's, an announcement's or a
//! digest's link), what a link is for, and signing up again.

use chrono::{DateTime, Utc};
use kernel::outbox::Email;
use kernel::sql::Tx;
use kernel::Db;

use super::SqlOutreachStore;
use crate::model::NotifyList;
use crate::store::OutreachStore;

/// Puts `email` on `list`, or back on it when it had unsubscribed (with the new link's hash,
/// as signed up `now`; the link before stays valid in `list_links`); an address on the list
/// already is left as it is. Whether it was put on. The one way onto a list for the signup
/// form, a reader's account and a confirmed account's first choices.
pub(crate) async fn join_list(
    tx: &mut Tx,
    list: NotifyList,
    email: &str,
    unsubscribe_hash: &str,
    now: DateTime<Utc>,
) -> Result<bool, sqlx::Error> {
    let mut q = tx.sql(&format!(
        "INSERT INTO list_links (unsubscribe_hash, list, email, created_at) \
         SELECT unsubscribe_hash, '{}', email, created_at FROM {} \
         WHERE unsubscribed_at IS NOT NULL AND email = ",
        list.as_str(),
        list.table()
    ));
    q.bind(email.to_string())
        .push(" ON CONFLICT (unsubscribe_hash) DO NOTHING");
    q.execute(&mut *tx).await?;
    let mut q = tx.sql(&format!(
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
    Ok(q.execute(&mut *tx).await? == 1)
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

/// Whom an unsubscribe link is for.
enum Link {
    /// A list's reader: the link of a signup (the latest or an earlier one) or of an
    /// announcement.
    List(NotifyList, String),
    /// A weekly digest's reader, and whether they still get it.
    Digest { on: bool },
}

/// Whom the link with `unsubscribe_hash` is for, `None` for a link we never sent.
async fn link(db: &Db, unsubscribe_hash: &str) -> Result<Option<Link>, sqlx::Error> {
    let mut q = db.sql("");
    for list in [NotifyList::Magazine, NotifyList::Packs] {
        q.push(&format!(
            "SELECT '{}', email FROM {} WHERE unsubscribe_hash = ",
            list.as_str(),
            list.table()
        ))
        .bind(unsubscribe_hash.to_string())
        .push(" UNION ALL ");
    }
    q.push("SELECT list, email FROM list_links WHERE unsubscribe_hash = ")
        .bind(unsubscribe_hash.to_string())
        .push(
            " UNION ALL SELECT a.list, d.email FROM announcement_deliveries d \
             JOIN announcements a ON a.id = d.announcement_id WHERE d.unsubscribe_hash = ",
        )
        .bind(unsubscribe_hash.to_string())
        .push(" LIMIT 1");
    let found: Option<(String, String)> = q.fetch_optional(db).await?;
    if let Some((list, email)) = found {
        return Ok(NotifyList::parse(&list).map(|list| Link::List(list, email)));
    }
    // Every digest sent with the link, and how many went to an account that still gets it.
    let mut q = db.sql(
        "SELECT COUNT(*), COUNT(a.digest_since) FROM digest_deliveries d \
         LEFT JOIN accounts a ON a.id = d.account_id WHERE d.unsubscribe_hash = ",
    );
    q.bind(unsubscribe_hash.to_string());
    let (digests, on): (i64, i64) = q.fetch_one(db).await?;
    Ok((digests > 0).then_some(Link::Digest { on: on > 0 }))
}

/// Marks `email` off `list` (`Some(now)`) or back on it (`None`).
pub(crate) async fn set_unsubscribed(
    db: &Db,
    list: NotifyList,
    email: &str,
    at: Option<DateTime<Utc>>,
) -> Result<(), sqlx::Error> {
    let mut q = db.sql(&format!("UPDATE {} SET unsubscribed_at = ", list.table()));
    match at {
        Some(now) => q.push("COALESCE(unsubscribed_at, ").bind(now).push(")"),
        None => q.push("NULL"),
    };
    q.push(" WHERE email = ").bind(email.to_string());
    q.execute(db).await?;
    Ok(())
}

pub(super) async fn unsubscribe(
    db: &Db,
    unsubscribe_hash: &str,
    now: DateTime<Utc>,
) -> Result<bool, sqlx::Error> {
    match link(db, unsubscribe_hash).await? {
        Some(Link::List(list, email)) => set_unsubscribed(db, list, &email, Some(now)).await?,
        // The reader stops getting the digest.
        Some(Link::Digest { .. }) => {
            let mut q = db.sql(
                "UPDATE accounts SET digest_since = NULL, digest_unsubscribe_hash = NULL \
                 WHERE id IN (SELECT account_id FROM digest_deliveries \
                 WHERE unsubscribe_hash = ",
            );
            q.bind(unsubscribe_hash.to_string()).push(")");
            q.execute(db).await?;
        }
        None => return Ok(false),
    }
    Ok(true)
}

/// Takes the store, not its `Db`: whether the address is subscribed is asked through the
/// trait (its own span).
pub(super) async fn unsubscribe_target(
    store: &SqlOutreachStore,
    unsubscribe_hash: &str,
) -> Result<Option<(String, bool)>, sqlx::Error> {
    match link(&store.db, unsubscribe_hash).await? {
        Some(Link::List(list, email)) => {
            let on = store.is_subscribed(list, &email).await?;
            Ok(Some((list.as_str().to_string(), on)))
        }
        Some(Link::Digest { on }) => Ok(Some(("digest".to_string(), on))),
        None => Ok(None),
    }
}

pub(super) async fn resubscribe(
    db: &Db,
    unsubscribe_hash: &str,
    now: DateTime<Utc>,
    digest_hash: &str,
) -> Result<bool, sqlx::Error> {
    match link(db, unsubscribe_hash).await? {
        Some(Link::List(list, email)) => set_unsubscribed(db, list, &email, None).await?,
        Some(Link::Digest { .. }) => {
            let mut q = db.sql("UPDATE accounts SET digest_since = ");
            q.bind(now)
                .push(", digest_unsubscribe_hash = ")
                .bind(digest_hash.to_string())
                .push(
                    " WHERE digest_since IS NULL AND id IN (SELECT account_id \
                     FROM digest_deliveries WHERE unsubscribe_hash = ",
                )
                .bind(unsubscribe_hash.to_string())
                .push(")");
            q.execute(db).await?;
        }
        None => return Ok(false),
    }
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
