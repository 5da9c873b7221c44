//! The account row: the credentials a sign-in checks, the account as its owner sees it, the
//! profile and the password.

use chrono::{DateTime, Utc};
use identity::tokens::{self, Purpose};
use kernel::Db;

use crate::readers::store::{AccountRecord, Credentials, Profile};

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

pub(super) async fn account(db: &Db, id: &str) -> Result<Option<AccountRecord>, sqlx::Error> {
    let mut q = db.sql(
        "SELECT a.id, a.first_name, a.last_name, a.email, a.age, a.country, \
         a.interests, a.created_at, a.confirmed_at, a.digest_since, \
         (SELECT created_at FROM magazine_notifications m \
          WHERE m.email = a.email AND m.unsubscribed_at IS NULL), \
         (SELECT created_at FROM pack_notifications p \
          WHERE p.email = a.email AND p.unsubscribed_at IS NULL) \
         FROM accounts a WHERE a.id = ",
    );
    q.bind(id.to_string());
    type Row = (
        String,
        String,
        String,
        String,
        Option<i64>,
        Option<String>,
        String,
        DateTime<Utc>,
        Option<DateTime<Utc>>,
        Option<DateTime<Utc>>,
        Option<DateTime<Utc>>,
        Option<DateTime<Utc>>,
    );
    let row: Option<Row> = q.fetch_optional(db).await?;
    Ok(row.map(|r| AccountRecord {
        id: r.0,
        first_name: r.1,
        last_name: r.2,
        email: r.3,
        age: r.4,
        country: r.5,
        interests: r.6,
        created_at: r.7,
        confirmed_at: r.8,
        digest_since: r.9,
        magazine_since: r.10,
        packs_since: r.11,
    }))
}

pub(super) async fn password_hash(db: &Db, id: &str) -> Result<Option<String>, sqlx::Error> {
    let mut q = db.sql("SELECT password_hash FROM accounts WHERE id = ");
    q.bind(id.to_string());
    q.scalar_optional(db).await
}

pub(super) async fn update_profile(db: &Db, id: &str, p: &Profile) -> Result<(), sqlx::Error> {
    let mut q = db.sql("UPDATE accounts SET first_name = ");
    q.bind(p.first_name.clone())
        .push(", last_name = ")
        .bind(p.last_name.clone())
        .push(", country = ")
        .bind(p.country.clone())
        .push(", interests = ")
        .bind(p.interests.clone())
        .push(" WHERE id = ")
        .bind(id.to_string());
    q.execute(db).await?;
    Ok(())
}

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
