//! Contact messages, stored with the team's email.

use kernel::outbox::Email;
use kernel::Db;

use crate::store::ContactRow;

pub(super) async fn save_contact(
    db: &Db,
    r: &ContactRow,
    email: &Email,
) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    let mut q = db.sql(
        "INSERT INTO contact_messages (id, first_name, last_name, email, subject, \
         inquiry_type, message, created_at) VALUES (",
    );
    q.separated()
        .bind(r.id.clone())
        .bind(r.first_name.clone())
        .bind(r.last_name.clone())
        .bind(r.email.clone())
        .bind(r.subject.clone())
        .bind(r.inquiry_type)
        .bind(r.message.clone())
        .bind(r.created_at);
    q.push(")");
    q.execute(&mut tx).await?;
    kernel::outbox::enqueue(&mut tx, email).await?;
    tx.commit().await
}
