//! The reader store in SQL: the same statements on both engines; an email is queued in the
//! transaction of what caused it.

use super::*;

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

/// The store on either engine.
pub(super) struct SqlReaderStore {
    pub(super) db: Db,
}

#[async_trait]
impl ReaderStore for SqlReaderStore {
    #[tracing::instrument(target = "trace_only", name = "ReaderStore.credentials", skip_all)]
    async fn credentials(&self, email: &str) -> Result<Option<Credentials>, sqlx::Error> {
        let mut q = self
            .db
            .sql("SELECT id, password_hash, confirmed_at FROM accounts WHERE email = ");
        q.bind(email.to_string());
        let row: Option<(String, String, Option<DateTime<Utc>>)> =
            q.fetch_optional(&self.db).await?;
        Ok(row.map(|(id, password_hash, confirmed_at)| Credentials {
            id,
            password_hash,
            confirmed: confirmed_at.is_some(),
        }))
    }

    #[tracing::instrument(target = "trace_only", name = "ReaderStore.create_session", skip_all)]
    async fn create_session(
        &self,
        token_hash: &str,
        account_id: &str,
        now: DateTime<Utc>,
        expires_at: DateTime<Utc>,
    ) -> Result<(), sqlx::Error> {
        let mut q = self.db.sql(
            "INSERT INTO reader_sessions (token_hash, account_id, created_at, \
             last_seen_at, expires_at) VALUES (",
        );
        q.bind_list([token_hash.to_string(), account_id.to_string()])
            .push(", ")
            .bind_list([now, now, expires_at])
            .push(")");
        q.execute(&self.db).await?;
        Ok(())
    }

    #[tracing::instrument(target = "trace_only", name = "ReaderStore.session_account", skip_all)]
    async fn session_account(
        &self,
        token_hash: &str,
        now: DateTime<Utc>,
        idle_cutoff: DateTime<Utc>,
    ) -> Result<Option<String>, sqlx::Error> {
        let mut q = self.db.sql("UPDATE reader_sessions SET last_seen_at = ");
        q.bind(now)
            .push(" WHERE token_hash = ")
            .bind(token_hash.to_string())
            .push(" AND expires_at > ")
            .bind(now)
            .push(" AND last_seen_at > ")
            .bind(idle_cutoff)
            .push(
                " AND account_id IN (SELECT id FROM accounts WHERE confirmed_at IS NOT NULL) \
                 RETURNING account_id",
            );
        q.scalar_optional(&self.db).await
    }

    #[tracing::instrument(target = "trace_only", name = "ReaderStore.delete_session", skip_all)]
    async fn delete_session(&self, token_hash: &str) -> Result<(), sqlx::Error> {
        let mut q = self
            .db
            .sql("DELETE FROM reader_sessions WHERE token_hash = ");
        q.bind(token_hash.to_string());
        q.execute(&self.db).await?;
        Ok(())
    }

    #[tracing::instrument(target = "trace_only", name = "ReaderStore.delete_expired", skip_all)]
    async fn delete_expired(
        &self,
        now: DateTime<Utc>,
        idle_cutoff: DateTime<Utc>,
        links_before: DateTime<Utc>,
    ) -> Result<u64, sqlx::Error> {
        let mut q = self
            .db
            .sql("DELETE FROM reader_sessions WHERE expires_at <= ");
        q.bind(now).push(" OR last_seen_at <= ").bind(idle_cutoff);
        let mut deleted = q.execute(&self.db).await?;
        for table in ["account_links", "account_confirmations"] {
            let mut q = self
                .db
                .sql(&format!("DELETE FROM {table} WHERE expires_at < "));
            q.bind(links_before);
            deleted += q.execute(&self.db).await?;
        }
        Ok(deleted)
    }

    #[tracing::instrument(
        target = "trace_only",
        name = "ReaderStore.delete_sessions_of",
        skip_all
    )]
    async fn delete_sessions_of(
        &self,
        account_id: &str,
        keep: Option<&str>,
    ) -> Result<(), sqlx::Error> {
        let mut q = self
            .db
            .sql("DELETE FROM reader_sessions WHERE account_id = ");
        q.bind(account_id.to_string());
        if let Some(keep) = keep {
            q.push(" AND token_hash <> ").bind(keep.to_string());
        }
        q.execute(&self.db).await?;
        Ok(())
    }

    #[tracing::instrument(target = "trace_only", name = "ReaderStore.sessions_of", skip_all)]
    async fn sessions_of(&self, account_id: &str) -> Result<Vec<SessionRecord>, sqlx::Error> {
        let mut q = self
            .db
            .sql("SELECT created_at, last_seen_at FROM reader_sessions WHERE account_id = ");
        q.bind(account_id.to_string()).push(" ORDER BY created_at");
        let rows: Vec<(DateTime<Utc>, DateTime<Utc>)> = q.fetch_all(&self.db).await?;
        Ok(rows
            .into_iter()
            .map(|(created_at, last_seen_at)| SessionRecord {
                created_at,
                last_seen_at,
            })
            .collect())
    }

    #[tracing::instrument(target = "trace_only", name = "ReaderStore.add_link", skip_all)]
    async fn add_link(
        &self,
        account_id: &str,
        purpose: LinkPurpose,
        token_hash: &str,
        expires_at: DateTime<Utc>,
        email: &Email,
    ) -> Result<(), sqlx::Error> {
        let mut tx = self.db.begin().await?;
        // Requests for the same account's links take turns: the account's row is
        // locked first (a no-op write), so the second request's delete sees the
        // first one's link. Without it, two requests at once under PostgreSQL's read
        // committed each deleted what was there before either and both links stayed
        // valid. (SQLite's single writer ordered them already.)
        let mut q = self.db.sql("UPDATE accounts SET id = id WHERE id = ");
        q.bind(account_id.to_string());
        q.execute(&mut tx).await?;
        // A new link voids the account's older ones of the same kind: only the
        // latest email works.
        let mut q = self
            .db
            .sql("DELETE FROM account_links WHERE used_at IS NULL AND account_id = ");
        q.bind(account_id.to_string())
            .push(" AND purpose = ")
            .bind(purpose.as_str());
        q.execute(&mut tx).await?;
        let mut q = self.db.sql(
            "INSERT INTO account_links (token_hash, account_id, purpose, expires_at) \
             VALUES (",
        );
        q.separated()
            .bind(token_hash.to_string())
            .bind(account_id.to_string())
            .bind(purpose.as_str())
            .bind(expires_at);
        q.push(")");
        q.execute(&mut tx).await?;
        kernel::outbox::enqueue(&mut tx, email).await?;
        tx.commit().await
    }

    #[tracing::instrument(target = "trace_only", name = "ReaderStore.use_link", skip_all)]
    async fn use_link(
        &self,
        purpose: LinkPurpose,
        token_hash: &str,
        now: DateTime<Utc>,
    ) -> Result<LinkUse, sqlx::Error> {
        let mut tx = self.db.begin().await?;
        let mut q = self.db.sql("UPDATE account_links SET used_at = ");
        q.bind(now)
            .push(" WHERE used_at IS NULL AND token_hash = ")
            .bind(token_hash.to_string())
            .push(" AND purpose = ")
            .bind(purpose.as_str())
            .push(" AND expires_at > ")
            .bind(now)
            .push(" RETURNING account_id");
        let found: Option<String> = q.scalar_optional(&mut tx).await?;
        let Some(account_id) = found else {
            return Ok(LinkUse::Invalid);
        };
        let mut q = self
            .db
            .sql("UPDATE accounts SET confirmed_at = COALESCE(confirmed_at, ");
        q.bind(now).push(") WHERE id = ").bind(account_id.clone());
        q.execute(&mut tx).await?;
        tx.commit().await?;
        Ok(LinkUse::Used(account_id))
    }

    #[tracing::instrument(target = "trace_only", name = "ReaderStore.account", skip_all)]
    async fn account(&self, id: &str) -> Result<Option<AccountRecord>, sqlx::Error> {
        let mut q = self.db.sql(
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
        let row: Option<Row> = q.fetch_optional(&self.db).await?;
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

    #[tracing::instrument(target = "trace_only", name = "ReaderStore.password_hash", skip_all)]
    async fn password_hash(&self, id: &str) -> Result<Option<String>, sqlx::Error> {
        let mut q = self
            .db
            .sql("SELECT password_hash FROM accounts WHERE id = ");
        q.bind(id.to_string());
        q.scalar_optional(&self.db).await
    }

    #[tracing::instrument(target = "trace_only", name = "ReaderStore.update_profile", skip_all)]
    async fn update_profile(&self, id: &str, p: &Profile) -> Result<(), sqlx::Error> {
        let mut q = self.db.sql("UPDATE accounts SET first_name = ");
        q.bind(p.first_name.clone())
            .push(", last_name = ")
            .bind(p.last_name.clone())
            .push(", country = ")
            .bind(p.country.clone())
            .push(", interests = ")
            .bind(p.interests.clone())
            .push(" WHERE id = ")
            .bind(id.to_string());
        q.execute(&self.db).await?;
        Ok(())
    }

    #[tracing::instrument(target = "trace_only", name = "ReaderStore.set_password", skip_all)]
    async fn set_password(&self, id: &str, password_hash: &str) -> Result<(), sqlx::Error> {
        let mut tx = self.db.begin().await?;
        let mut q = self.db.sql("UPDATE accounts SET password_hash = ");
        q.bind(password_hash.to_string())
            .push(" WHERE id = ")
            .bind(id.to_string());
        q.execute(&mut tx).await?;
        // Links sent before the change are void: whoever read an old email (or
        // holds the old password) cannot use them to set the password again.
        let mut q = self
            .db
            .sql("DELETE FROM account_links WHERE used_at IS NULL AND account_id = ");
        q.bind(id.to_string());
        q.execute(&mut tx).await?;
        tx.commit().await
    }

    #[tracing::instrument(target = "trace_only", name = "ReaderStore.set_list", skip_all)]
    async fn set_list(
        &self,
        list: NotifyList,
        email: &str,
        on: bool,
        unsubscribe_hash: &str,
        now: DateTime<Utc>,
    ) -> Result<(), sqlx::Error> {
        if !on {
            let mut q = self.db.sql(&format!(
                "UPDATE {} SET unsubscribed_at = COALESCE(unsubscribed_at, ",
                list.table()
            ));
            q.bind(now).push(") WHERE email = ").bind(email.to_string());
            q.execute(&self.db).await?;
            return Ok(());
        }
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
        .push(
            ") ON CONFLICT (email) DO UPDATE SET unsubscribed_at = NULL, \
             unsubscribe_hash = excluded.unsubscribe_hash, \
             created_at = excluded.created_at WHERE ",
        )
        .push(list.table())
        .push(".unsubscribed_at IS NOT NULL");
        q.execute(&self.db).await?;
        Ok(())
    }

    #[tracing::instrument(target = "trace_only", name = "ReaderStore.set_digest", skip_all)]
    async fn set_digest(
        &self,
        id: &str,
        on: bool,
        unsubscribe_hash: &str,
        now: DateTime<Utc>,
    ) -> Result<(), sqlx::Error> {
        let mut q = self.db.sql("UPDATE accounts SET ");
        if on {
            q.push("digest_since = ")
                .bind(now)
                .push(", digest_unsubscribe_hash = ")
                .bind(unsubscribe_hash.to_string())
                .push(" WHERE digest_since IS NULL AND id = ");
        } else {
            q.push("digest_since = NULL, digest_unsubscribe_hash = NULL WHERE id = ");
        }
        q.bind(id.to_string());
        q.execute(&self.db).await?;
        Ok(())
    }

    #[tracing::instrument(target = "trace_only", name = "ReaderStore.delete_account", skip_all)]
    async fn delete_account(
        &self,
        id: &str,
        email: &str,
        now: DateTime<Utc>,
    ) -> Result<(), sqlx::Error> {
        let email = email.to_lowercase();
        let email = email.as_str();
        let mut tx = self.db.begin().await?;
        // The outbox keeps a message's recipients and subject after delivery: every
        // message to the address, and the team's copy of what it sent us (its
        // reply-to), is emptied; one not sent yet is given up (its attachments'
        // files go at the next purge).
        let mut q = self.db.sql(
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
        let mut q = self
            .db
            .sql("UPDATE application_documents SET delete_after = ");
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
            let mut q = self
                .db
                .sql(&format!("DELETE FROM {table} WHERE LOWER(email) = "));
            q.bind(email.to_string());
            q.execute(&mut tx).await?;
        }
        for table in ["magazine_notifications", "pack_notifications"] {
            let mut q = self.db.sql(&format!("DELETE FROM {table} WHERE email = "));
            q.bind(email.to_string());
            q.execute(&mut tx).await?;
        }
        for table in [
            "reader_sessions",
            "account_links",
            "account_confirmations",
            "digest_deliveries",
        ] {
            let mut q = self
                .db
                .sql(&format!("DELETE FROM {table} WHERE account_id = "));
            q.bind(id.to_string());
            q.execute(&mut tx).await?;
        }
        let mut q = self.db.sql("DELETE FROM accounts WHERE id = ");
        q.bind(id.to_string());
        q.execute(&mut tx).await?;
        tx.commit().await
    }
}
