//! The outreach store in SQL: the same statements on both engines; an email is queued in the
//! transaction of what caused it.

use super::*;

/// The statement that adds a confirmation link for `account_id`.
fn insert_confirmation(
    db: &Db,
    account_id: &str,
    token_hash: &str,
    expires_at: DateTime<Utc>,
) -> kernel::sql::Sql {
    let mut q =
        db.sql("INSERT INTO account_confirmations (token_hash, account_id, expires_at) VALUES (");
    q.bind_list([token_hash.to_string(), account_id.to_string()])
        .push(", ")
        .bind(expires_at)
        .push(")");
    q
}

/// The store on either engine.
pub(super) struct SqlOutreachStore {
    pub(super) db: Db,
}

#[async_trait]
impl OutreachStore for SqlOutreachStore {
    #[tracing::instrument(target = "trace_only", name = "OutreachStore.subscribe", skip_all)]
    async fn subscribe(
        &self,
        list: NotifyList,
        email: &str,
        unsubscribe_hash: &str,
        now: DateTime<Utc>,
        confirmation: &Email,
    ) -> Result<bool, sqlx::Error> {
        let mut tx = self.db.begin().await?;
        let mut q = self.db.sql(&format!(
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
        .push(") ON CONFLICT (email) DO NOTHING");
        let mut added = q.execute(&mut tx).await? == 1;
        if !added {
            let mut q = self.db.sql(&format!(
                "UPDATE {} SET unsubscribed_at = NULL, unsubscribe_hash = ",
                list.table()
            ));
            q.bind(unsubscribe_hash.to_string())
                .push(" WHERE unsubscribed_at IS NOT NULL AND email = ")
                .bind(email.to_string());
            added = q.execute(&mut tx).await? == 1;
        }
        if added {
            kernel::outbox::enqueue(&mut tx, confirmation).await?;
        }
        tx.commit().await?;
        Ok(added)
    }

    #[tracing::instrument(target = "trace_only", name = "OutreachStore.unsubscribe", skip_all)]
    async fn unsubscribe(
        &self,
        unsubscribe_hash: &str,
        now: DateTime<Utc>,
    ) -> Result<bool, sqlx::Error> {
        let mut found = false;
        for list in [NotifyList::Magazine, NotifyList::Packs] {
            let mut q = self.db.sql(&format!(
                "UPDATE {} SET unsubscribed_at = COALESCE(unsubscribed_at, ",
                list.table()
            ));
            q.bind(now)
                .push(") WHERE unsubscribe_hash = ")
                .bind(unsubscribe_hash.to_string());
            found |= q.execute(&self.db).await? > 0;
        }
        if found {
            return Ok(true);
        }
        // The link of an announcement: each recipient has their own token.
        let mut q = self.db.sql(
            "SELECT a.list, d.email FROM announcement_deliveries d \
             JOIN announcements a ON a.id = d.announcement_id \
             WHERE d.unsubscribe_hash = ",
        );
        q.bind(unsubscribe_hash.to_string());
        let delivery: Option<(String, String)> = q.fetch_optional(&self.db).await?;
        let Some((list, email)) = delivery else {
            // The link of a weekly digest: the reader stops getting it.
            let mut q = self.db.sql(
                "UPDATE accounts SET digest_since = NULL, digest_unsubscribe_hash = NULL \
                 WHERE id IN (SELECT account_id FROM digest_deliveries \
                 WHERE unsubscribe_hash = ",
            );
            q.bind(unsubscribe_hash.to_string()).push(")");
            q.execute(&self.db).await?;
            let mut q = self
                .db
                .sql("SELECT COUNT(*) FROM digest_deliveries WHERE unsubscribe_hash = ");
            q.bind(unsubscribe_hash.to_string());
            let known: i64 = q.scalar(&self.db).await?;
            return Ok(known > 0);
        };
        let Some(list) = NotifyList::parse(&list) else {
            return Ok(false);
        };
        let mut q = self.db.sql(&format!(
            "UPDATE {} SET unsubscribed_at = COALESCE(unsubscribed_at, ",
            list.table()
        ));
        q.bind(now).push(") WHERE email = ").bind(email);
        q.execute(&self.db).await?;
        Ok(true)
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "OutreachStore.unsubscribe_target",
        skip_all
    )]
    async fn unsubscribe_target(
        &self,
        unsubscribe_hash: &str,
    ) -> Result<Option<(String, bool)>, sqlx::Error> {
        for list in [NotifyList::Magazine, NotifyList::Packs] {
            let mut q = self.db.sql(&format!(
                "SELECT COUNT(*) FILTER (WHERE unsubscribed_at IS NULL), COUNT(*) FROM {} \
                 WHERE unsubscribe_hash = ",
                list.table()
            ));
            q.bind(unsubscribe_hash.to_string());
            let (on, found): (i64, i64) = q.fetch_one(&self.db).await?;
            if found > 0 {
                return Ok(Some((list.as_str().to_string(), on > 0)));
            }
        }
        let mut q = self.db.sql(
            "SELECT a.list, d.email FROM announcement_deliveries d \
             JOIN announcements a ON a.id = d.announcement_id \
             WHERE d.unsubscribe_hash = ",
        );
        q.bind(unsubscribe_hash.to_string());
        let delivery: Option<(String, String)> = q.fetch_optional(&self.db).await?;
        if let Some((list, email)) = delivery {
            let Some(list) = NotifyList::parse(&list) else {
                return Ok(None);
            };
            let on = self.is_subscribed(list, &email).await?;
            return Ok(Some((list.as_str().to_string(), on)));
        }
        let mut q = self.db.sql(
            "SELECT COUNT(*) FILTER (WHERE a.digest_since IS NOT NULL), COUNT(*) \
             FROM digest_deliveries d JOIN accounts a ON a.id = d.account_id \
             WHERE d.unsubscribe_hash = ",
        );
        q.bind(unsubscribe_hash.to_string());
        let (on, found): (i64, i64) = q.fetch_one(&self.db).await?;
        Ok((found > 0).then(|| ("digest".to_string(), on > 0)))
    }

    #[tracing::instrument(target = "trace_only", name = "OutreachStore.resubscribe", skip_all)]
    async fn resubscribe(
        &self,
        unsubscribe_hash: &str,
        now: DateTime<Utc>,
        digest_hash: &str,
    ) -> Result<bool, sqlx::Error> {
        let Some((list, _)) = self.unsubscribe_target(unsubscribe_hash).await? else {
            return Ok(false);
        };
        if list == "digest" {
            let mut q = self.db.sql("UPDATE accounts SET digest_since = ");
            q.bind(now)
                .push(", digest_unsubscribe_hash = ")
                .bind(digest_hash.to_string())
                .push(
                    " WHERE digest_since IS NULL AND id IN (SELECT account_id \
                     FROM digest_deliveries WHERE unsubscribe_hash = ",
                )
                .bind(unsubscribe_hash.to_string())
                .push(")");
            q.execute(&self.db).await?;
            return Ok(true);
        }
        let Some(list) = NotifyList::parse(&list) else {
            return Ok(false);
        };
        // The signup's own link, or an announcement's (which names the address).
        let mut q = self.db.sql(&format!(
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
        q.execute(&self.db).await?;
        Ok(true)
    }

    #[tracing::instrument(target = "trace_only", name = "OutreachStore.is_subscribed", skip_all)]
    async fn is_subscribed(&self, list: NotifyList, email: &str) -> Result<bool, sqlx::Error> {
        let mut q = self.db.sql(&format!(
            "SELECT COUNT(*) FROM {} WHERE unsubscribed_at IS NULL AND email = ",
            list.table()
        ));
        q.bind(email.to_string());
        let n: i64 = q.scalar(&self.db).await?;
        Ok(n > 0)
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "OutreachStore.save_application",
        skip_all
    )]
    async fn save_application(
        &self,
        r: &ApplicationRow,
        emails: &[Email],
        linked: &[String],
    ) -> Result<(), sqlx::Error> {
        let mut tx = self.db.begin().await?;
        let mut q = self.db.sql(
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
                let mut q = self.db.sql(
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

    #[tracing::instrument(
        target = "trace_only",
        name = "OutreachStore.linked_documents",
        skip_all
    )]
    async fn linked_documents(&self, id: &str) -> Result<Option<LinkedDocuments>, sqlx::Error> {
        let mut q = self
            .db
            .sql("SELECT files, documents_until FROM applications WHERE id = ");
        q.bind(id.to_string());
        let row: Option<(String, Option<DateTime<Utc>>)> = q.fetch_optional(&self.db).await?;
        Ok(row.map(|(files, documents_until)| LinkedDocuments {
            files,
            documents_until,
        }))
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "OutreachStore.record_download",
        skip_all
    )]
    async fn record_download(
        &self,
        id: &str,
        field: &str,
        user: &str,
        at: DateTime<Utc>,
    ) -> Result<i64, sqlx::Error> {
        let mut tx = self.db.begin().await?;
        let mut q = self.db.sql(
            "INSERT INTO application_downloads \
             (application_id, field, user_id, downloaded_at) VALUES (",
        );
        q.bind_list([id.to_string(), field.to_string(), user.to_string()])
            .push(", ")
            .bind(at)
            .push(")");
        q.execute(&mut tx).await?;
        let mut q = self
            .db
            .sql("SELECT COUNT(*) FROM application_downloads WHERE application_id = ");
        q.bind(id.to_string())
            .push(" AND field = ")
            .bind(field.to_string());
        let n: i64 = q.scalar(&mut tx).await?;
        tx.commit().await?;
        Ok(n)
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "OutreachStore.expired_documents",
        skip_all
    )]
    async fn expired_documents(&self, now: DateTime<Utc>) -> Result<Vec<String>, sqlx::Error> {
        let mut q = self
            .db
            .sql("SELECT storage_key FROM application_documents WHERE delete_after < ");
        q.bind(now);
        q.scalars(&self.db).await
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "OutreachStore.forget_document",
        skip_all
    )]
    async fn forget_document(&self, key: &str) -> Result<(), sqlx::Error> {
        let mut q = self
            .db
            .sql("DELETE FROM application_documents WHERE storage_key = ");
        q.bind(key.to_string());
        q.execute(&self.db).await?;
        Ok(())
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "OutreachStore.account_by_email",
        skip_all
    )]
    async fn account_by_email(&self, email: &str) -> Result<Option<ExistingAccount>, sqlx::Error> {
        let mut q = self
            .db
            .sql("SELECT id, confirmed_at FROM accounts WHERE email = ");
        q.bind(email.to_string());
        let row: Option<(String, Option<DateTime<Utc>>)> = q.fetch_optional(&self.db).await?;
        Ok(row.map(|(id, confirmed_at)| ExistingAccount {
            id,
            confirmed: confirmed_at.is_some(),
        }))
    }

    #[tracing::instrument(target = "trace_only", name = "OutreachStore.create_account", skip_all)]
    async fn create_account(
        &self,
        r: &AccountRow,
        token_hash: &str,
        expires_at: DateTime<Utc>,
        email: &Email,
    ) -> Result<bool, sqlx::Error> {
        let mut tx = self.db.begin().await?;
        let mut q = self.db.sql(
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
        insert_confirmation(&self.db, &r.id, token_hash, expires_at)
            .execute(&mut tx)
            .await?;
        kernel::outbox::enqueue(&mut tx, email).await?;
        tx.commit().await?;
        Ok(true)
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "OutreachStore.add_confirmation",
        skip_all
    )]
    async fn add_confirmation(
        &self,
        account_id: &str,
        token_hash: &str,
        expires_at: DateTime<Utc>,
        email: &Email,
        signup_lists: Option<&str>,
    ) -> Result<(), sqlx::Error> {
        let mut tx = self.db.begin().await?;
        if let Some(lists) = signup_lists {
            let mut q = self.db.sql("UPDATE accounts SET signup_lists = ");
            q.bind(lists.to_string())
                .push(" WHERE confirmed_at IS NULL AND id = ")
                .bind(account_id.to_string());
            q.execute(&mut tx).await?;
        }
        insert_confirmation(&self.db, account_id, token_hash, expires_at)
            .execute(&mut tx)
            .await?;
        kernel::outbox::enqueue(&mut tx, email).await?;
        tx.commit().await
    }

    #[tracing::instrument(target = "trace_only", name = "OutreachStore.enqueue", skip_all)]
    async fn enqueue(&self, email: &Email) -> Result<(), sqlx::Error> {
        let mut tx = self.db.begin().await?;
        kernel::outbox::enqueue(&mut tx, email).await?;
        tx.commit().await
    }

    #[tracing::instrument(target = "trace_only", name = "OutreachStore.confirm", skip_all)]
    async fn confirm(
        &self,
        token_hash: &str,
        now: DateTime<Utc>,
        hashes: &SignupHashes,
    ) -> Result<Confirmation, sqlx::Error> {
        // The transaction starts with its write (an upgrade from a read could fail at
        // once on SQLite while another connection writes).
        let mut tx = self.db.begin().await?;
        let mut q = self.db.sql("UPDATE account_confirmations SET used_at = ");
        q.bind(now)
            .push(" WHERE used_at IS NULL AND token_hash = ")
            .bind(token_hash.to_string())
            .push(" AND expires_at >= ")
            .bind(now)
            .push(" RETURNING account_id");
        let used: Option<String> = q.scalar_optional(&mut tx).await?;
        let Some(account_id) = used else {
            tx.rollback().await?;
            // Why not: unknown, used before, or expired.
            let mut q = self
                .db
                .sql("SELECT used_at IS NOT NULL FROM account_confirmations WHERE token_hash = ");
            q.bind(token_hash.to_string());
            let used_before: Option<bool> = q.scalar_optional(&self.db).await?;
            return Ok(match used_before {
                None => Confirmation::Unknown,
                Some(true) => Confirmation::AlreadyUsed,
                Some(false) => Confirmation::Expired,
            });
        };
        // What the reader asked to hear about, asked for once: cleared as it starts.
        let mut q = self
            .db
            .sql("SELECT email, signup_lists FROM accounts WHERE id = ");
        q.bind(account_id.clone());
        let (email, lists): (String, String) = q.fetch_one(&mut tx).await?;
        let lists: Vec<String> = serde_json::from_str(&lists).unwrap_or_default();
        let mut q = self
            .db
            .sql("UPDATE accounts SET confirmed_at = COALESCE(confirmed_at, ");
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
            let mut q = self.db.sql(&format!(
                "INSERT INTO {} (id, email, unsubscribe_hash, created_at) VALUES (",
                list.table()
            ));
            q.bind_list([kernel::ids::new_id(), email.clone(), hash.clone()])
                .push(", ")
                .bind(now)
                .push(
                    ") ON CONFLICT (email) DO UPDATE SET unsubscribed_at = NULL, \
                     unsubscribe_hash = excluded.unsubscribe_hash, \
                     created_at = excluded.created_at WHERE ",
                )
                .push(list.table())
                .push(".unsubscribed_at IS NOT NULL");
            q.execute(&mut tx).await?;
        }
        tx.commit().await?;
        Ok(Confirmation::Confirmed)
    }

    #[tracing::instrument(target = "trace_only", name = "OutreachStore.save_contact", skip_all)]
    async fn save_contact(&self, r: &ContactRow, email: &Email) -> Result<(), sqlx::Error> {
        let mut tx = self.db.begin().await?;
        let mut q = self.db.sql(
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
}
