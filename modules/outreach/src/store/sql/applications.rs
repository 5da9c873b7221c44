//! Contributor applications and their documents: stored with their emails, downloads
//! recorded, linked documents kept until they are due for deletion.

use chrono::{DateTime, Utc};
use kernel::outbox::Email;
use kernel::Db;

use crate::store::{ApplicationRow, LinkedDocuments};

pub(super) async fn save_application(
    db: &Db,
    r: &ApplicationRow,
    emails: &[Email],
    linked: &[String],
) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    let mut q = db.sql(
        "INSERT INTO applications (id, full_name, age, country, email, time_zone, \
         weekly_availability, english_level, how_did_you_hear, previous_experience, \
         roles, portfolio_url, writing_samples_url, research_samples_url, why_join, \
         contribution, additional, files, created_at, documents_until) VALUES (",
    );
    q.separated()
        .bind(r.id.clone())
        .bind(r.full_name.clone())
        .bind(r.age)
        .bind(r.country.clone())
        .bind(r.email.clone())
        .bind(r.time_zone.clone())
        .bind(r.weekly_availability)
        .bind(r.english_level.clone())
        .bind(r.how_did_you_hear.clone())
        .bind(r.previous_experience.clone())
        .bind(r.roles.clone())
        .bind(r.portfolio_url.clone())
        .bind(r.writing_samples_url.clone())
        .bind(r.research_samples_url.clone())
        .bind(r.why_join.clone())
        .bind(r.contribution.clone())
        .bind(r.additional.clone())
        .bind(r.files.clone())
        .bind(r.created_at)
        .bind(r.documents_until);
    q.push(")");
    q.execute(&mut tx).await?;
    if let Some(until) = r.documents_until {
        for key in linked {
            let mut q = db.sql(
                "INSERT INTO application_documents \
                 (storage_key, application_id, delete_after) VALUES (",
            );
            q.bind_list([key.clone(), r.id.clone()])
                .push(", ")
                .bind(until)
                .push(")");
            q.execute(&mut tx).await?;
        }
    }
    for email in emails {
        kernel::outbox::enqueue(&mut tx, email).await?;
    }
    tx.commit().await
}

pub(super) async fn linked_documents(
    db: &Db,
    id: &str,
) -> Result<Option<LinkedDocuments>, sqlx::Error> {
    let mut q = db.sql("SELECT files, documents_until FROM applications WHERE id = ");
    q.bind(id.to_string());
    let row: Option<(String, Option<DateTime<Utc>>)> = q.fetch_optional(db).await?;
    Ok(row.map(|(files, documents_until)| LinkedDocuments {
        files,
        documents_until,
    }))
}

pub(super) async fn record_download(
    db: &Db,
    id: &str,
    field: &str,
    user: &str,
    at: DateTime<Utc>,
) -> Result<i64, sqlx::Error> {
    let mut tx = db.begin().await?;
    let mut q = db.sql(
        "INSERT INTO application_downloads \
         (application_id, field, user_id, downloaded_at) VALUES (",
    );
    q.bind_list([id.to_string(), field.to_string(), user.to_string()])
        .push(", ")
        .bind(at)
        .push(")");
    q.execute(&mut tx).await?;
    let mut q = db.sql("SELECT COUNT(*) FROM application_downloads WHERE application_id = ");
    q.bind(id.to_string())
        .push(" AND field = ")
        .bind(field.to_string());
    let n: i64 = q.scalar(&mut tx).await?;
    tx.commit().await?;
    Ok(n)
}

pub(super) async fn expired_documents(
    db: &Db,
    now: DateTime<Utc>,
) -> Result<Vec<String>, sqlx::Error> {
    let mut q = db.sql("SELECT storage_key FROM application_documents WHERE delete_after < ");
    q.bind(now);
    q.scalars(db).await
}

pub(super) async fn forget_document(db: &Db, key: &str) -> Result<(), sqlx::Error> {
    let mut q = db.sql("DELETE FROM application_documents WHERE storage_key = ");
    q.bind(key.to_string());
    q.execute(db).await?;
    Ok(())
}
