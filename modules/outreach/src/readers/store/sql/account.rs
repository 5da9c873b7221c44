//! The account row: the account as its owner sees it, and the profile.

use chrono::{DateTime, Utc};
use kernel::Db;

use crate::readers::store::{AccountRecord, Profile};

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
