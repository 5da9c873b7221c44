//! Deleting an account with everything kept about its address, in one transaction.

use chrono::{DateTime, Utc};
use kernel::Db;

/// `text` with the characters LIKE reads as patterns (`%`, `_`) and the escape (`!`) escaped.
fn like_escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '%' | '_' | '!') {
            out.push('!');
        }
        out.push(c);
    }
    out
}

pub(super) async fn delete_account(
    db: &Db,
    id: &str,
    email: &str,
    now: DateTime<Utc>,
) -> Result<(), sqlx::Error> {
    let email = email.to_lowercase();
    let email = email.as_str();
    let mut tx = db.begin().await?;
    // The outbox keeps a message's recipients and subject after delivery: every
    // message to the address, and the team's copy of what it sent us (its
    // reply-to), is emptied; one not sent yet is given up (its attachments'
    // files go at the next purge).
    let mut q = db.sql(
        "UPDATE outbox SET recipients = '[]', reply_to = NULL, subject = '', \
         body = '', html = NULL, list_unsubscribe = NULL, \
         last_error = CASE WHEN status = 'sent' THEN NULL \
         ELSE 'the account was deleted' END, \
         status = CASE WHEN status = 'pending' THEN 'failed' ELSE status END, \
         redacted_at = COALESCE(redacted_at, ",
    );
    q.bind(now)
        .push(") WHERE LOWER(recipients) LIKE ")
        .bind(format!("%\"{}\"%", like_escaped(email)))
        .push(" ESCAPE '!' OR LOWER(reply_to) = ")
        .bind(email.to_string());
    q.execute(&mut tx).await?;
    // Documents of its applications still in storage go at the next
    // housekeeping (files cannot be deleted in this transaction).
    let mut q = db.sql("UPDATE application_documents SET delete_after = ");
    q.bind(now)
        .push(" WHERE application_id IN (SELECT id FROM applications WHERE LOWER(email) = ")
        .bind(email.to_string())
        .push(")");
    q.execute(&mut tx).await?;
    // What the address sent us through the forms, and the record of the
    // announcements it was sent.
    for table in [
        "contact_messages",
        "applications",
        "announcement_deliveries",
    ] {
        let mut q = db.sql(&format!("DELETE FROM {table} WHERE LOWER(email) = "));
        q.bind(email.to_string());
        q.execute(&mut tx).await?;
    }
    for table in ["magazine_notifications", "pack_notifications", "list_links"] {
        let mut q = db.sql(&format!("DELETE FROM {table} WHERE email = "));
        q.bind(email.to_string());
        q.execute(&mut tx).await?;
    }
    identity::tokens::forget_reader(&mut tx, id).await?;
    let mut q = db.sql("DELETE FROM digest_deliveries WHERE account_id = ");
    q.bind(id.to_string());
    q.execute(&mut tx).await?;
    let mut q = db.sql("DELETE FROM accounts WHERE id = ");
    q.bind(id.to_string());
    q.execute(&mut tx).await?;
    tx.commit().await
}
