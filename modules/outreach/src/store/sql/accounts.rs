//! Reader registration: the account with its confirmation links and their emails, and
//! confirming (which starts the subscriptions asked for at signup).

use chrono::{DateTime, Utc};
use identity::tokens::{self, Purpose, Refusal};
use kernel::outbox::Email;
use kernel::Db;

use crate::model::NotifyList;
use crate::store::{AccountRow, Confirmation, ExistingAccount, SignupHashes};

pub(super) async fn account_by_email(
    db: &Db,
    email: &str,
) -> Result<Option<ExistingAccount>, sqlx::Error> {
    let mut q = db.sql("SELECT id, confirmed_at FROM accounts WHERE email = ");
    q.bind(email.to_string());
    let row: Option<(String, Option<DateTime<Utc>>)> = q.fetch_optional(db).await?;
    Ok(row.map(|(id, confirmed_at)| ExistingAccount {
        id,
        confirmed: confirmed_at.is_some(),
    }))
}

pub(super) async fn create_account(
    db: &Db,
    r: &AccountRow,
    token_hash: &str,
    expires_at: DateTime<Utc>,
    email: &Email,
) -> Result<bool, sqlx::Error> {
    let mut tx = db.begin().await?;
    let mut q = db.sql(
        "INSERT INTO accounts (id, first_name, last_name, email, password_hash, age, \
         country, interests, created_at, signup_lists) VALUES (",
    );
    q.separated()
        .bind(r.id.clone())
        .bind(r.first_name.clone())
        .bind(r.last_name.clone())
        .bind(r.email.clone())
        .bind(r.password_hash.clone())
        .bind(r.age)
        .bind(r.country.clone())
        .bind(r.interests.clone())
        .bind(r.created_at)
        .bind(r.signup_lists.clone());
    q.push(") ON CONFLICT (email) DO NOTHING");
    if q.execute(&mut tx).await? == 0 {
        tx.rollback().await?;
        return Ok(false);
    }
    tokens::issue(&mut tx, &r.id, Purpose::Confirm, token_hash, expires_at).await?;
    kernel::outbox::enqueue(&mut tx, email).await?;
    tx.commit().await?;
    Ok(true)
}

pub(super) async fn add_confirmation(
    db: &Db,
    account_id: &str,
    token_hash: &str,
    expires_at: DateTime<Utc>,
    email: &Email,
    signup_lists: Option<&str>,
) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    if let Some(lists) = signup_lists {
        let mut q = db.sql("UPDATE accounts SET signup_lists = ");
        q.bind(lists.to_string())
            .push(" WHERE confirmed_at IS NULL AND id = ")
            .bind(account_id.to_string());
        q.execute(&mut tx).await?;
    }
    tokens::issue(
        &mut tx,
        account_id,
        Purpose::Confirm,
        token_hash,
        expires_at,
    )
    .await?;
    kernel::outbox::enqueue(&mut tx, email).await?;
    tx.commit().await
}

pub(super) async fn enqueue(db: &Db, email: &Email) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    kernel::outbox::enqueue(&mut tx, email).await?;
    tx.commit().await
}

pub(super) async fn confirm(
    db: &Db,
    token_hash: &str,
    now: DateTime<Utc>,
    hashes: &SignupHashes,
) -> Result<Confirmation, sqlx::Error> {
    // The transaction starts with its write (an upgrade from a read could fail at
    // once on SQLite while another connection writes).
    let mut tx = db.begin().await?;
    let used = tokens::redeem(&mut tx, Purpose::Confirm, token_hash, now).await?;
    let Some(account_id) = used else {
        tx.rollback().await?;
        return Ok(
            match tokens::refusal(db, Purpose::Confirm, token_hash).await? {
                Refusal::Unknown => Confirmation::Unknown,
                Refusal::AlreadyUsed => Confirmation::AlreadyUsed,
                Refusal::Expired => Confirmation::Expired,
            },
        );
    };
    // What the reader asked to hear about, asked for once: cleared as it starts.
    let mut q = db.sql("SELECT email, signup_lists FROM accounts WHERE id = ");
    q.bind(account_id.clone());
    let (email, lists): (String, String) = q.fetch_one(&mut tx).await?;
    let lists: Vec<String> = serde_json::from_str(&lists).unwrap_or_default();
    let mut q = db.sql("UPDATE accounts SET confirmed_at = COALESCE(confirmed_at, ");
    q.bind(now).push("), signup_lists = '[]'");
    if lists.iter().any(|l| l == "digest") {
        q.push(", digest_since = COALESCE(digest_since, ")
            .bind(now)
            .push("), digest_unsubscribe_hash = COALESCE(digest_unsubscribe_hash, ")
            .bind(hashes.digest.clone())
            .push(")");
    }
    q.push(" WHERE id = ").bind(account_id);
    q.execute(&mut tx).await?;
    for (list, hash) in [
        (NotifyList::Magazine, &hashes.magazine),
        (NotifyList::Packs, &hashes.packs),
    ] {
        if !lists.iter().any(|l| l == list.as_str()) {
            continue;
        }
        super::join_list(&mut tx, list, &email, hash, now).await?;
    }
    tx.commit().await?;
    Ok(Confirmation::Confirmed)
}
