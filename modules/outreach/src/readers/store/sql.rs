//! The reader store in SQL: the same statements on both engines; each engine's outbox enqueue
//! is passed in, so an email is written in the transaction of what caused it.

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

macro_rules! sql_reader_store {
    ($name:ident, $db:ty, $pool:ty, $enqueue:path) => {
        pub struct $name {
            pub(crate) pool: $pool,
        }

        #[async_trait]
        impl ReaderStore for $name {
            async fn credentials(&self, email: &str) -> Result<Option<Credentials>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "SELECT id, password_hash, confirmed_at FROM accounts WHERE email = ",
                );
                qb.push_bind(email.to_string());
                let row: Option<(String, String, Option<DateTime<Utc>>)> =
                    qb.build_query_as().fetch_optional(&self.pool).await?;
                Ok(row.map(|(id, password_hash, confirmed_at)| Credentials {
                    id,
                    password_hash,
                    confirmed: confirmed_at.is_some(),
                }))
            }

            async fn create_session(
                &self,
                token_hash: &str,
                account_id: &str,
                now: DateTime<Utc>,
                expires_at: DateTime<Utc>,
            ) -> Result<(), sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "INSERT INTO reader_sessions (token_hash, account_id, created_at, \
                     last_seen_at, expires_at) VALUES (",
                );
                let mut sep = qb.separated(", ");
                sep.push_bind(token_hash.to_string())
                    .push_bind(account_id.to_string())
                    .push_bind(now)
                    .push_bind(now)
                    .push_bind(expires_at);
                qb.push(")");
                qb.build().execute(&self.pool).await?;
                Ok(())
            }

            async fn session_account(
                &self,
                token_hash: &str,
                now: DateTime<Utc>,
                idle_cutoff: DateTime<Utc>,
            ) -> Result<Option<String>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("UPDATE reader_sessions SET last_seen_at = ");
                qb.push_bind(now);
                qb.push(" WHERE token_hash = ");
                qb.push_bind(token_hash.to_string());
                qb.push(" AND expires_at > ");
                qb.push_bind(now);
                qb.push(" AND last_seen_at > ");
                qb.push_bind(idle_cutoff);
                qb.push(
                    " AND account_id IN (SELECT id FROM accounts WHERE confirmed_at IS NOT NULL) \
                     RETURNING account_id",
                );
                qb.build_query_scalar().fetch_optional(&self.pool).await
            }

            async fn delete_session(&self, token_hash: &str) -> Result<(), sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("DELETE FROM reader_sessions WHERE token_hash = ");
                qb.push_bind(token_hash.to_string());
                qb.build().execute(&self.pool).await?;
                Ok(())
            }

            async fn delete_expired(
                &self,
                now: DateTime<Utc>,
                idle_cutoff: DateTime<Utc>,
                links_before: DateTime<Utc>,
            ) -> Result<u64, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("DELETE FROM reader_sessions WHERE expires_at <= ");
                qb.push_bind(now);
                qb.push(" OR last_seen_at <= ");
                qb.push_bind(idle_cutoff);
                let mut deleted = qb.build().execute(&self.pool).await?.rows_affected();
                for table in ["account_links", "account_confirmations"] {
                    let mut qb: sqlx::QueryBuilder<$db> =
                        sqlx::QueryBuilder::new(format!("DELETE FROM {table} WHERE expires_at < "));
                    qb.push_bind(links_before);
                    deleted += qb.build().execute(&self.pool).await?.rows_affected();
                }
                Ok(deleted)
            }

            async fn delete_sessions_of(
                &self,
                account_id: &str,
                keep: Option<&str>,
            ) -> Result<(), sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("DELETE FROM reader_sessions WHERE account_id = ");
                qb.push_bind(account_id.to_string());
                if let Some(keep) = keep {
                    qb.push(" AND token_hash <> ");
                    qb.push_bind(keep.to_string());
                }
                qb.build().execute(&self.pool).await?;
                Ok(())
            }

            async fn sessions_of(
                &self,
                account_id: &str,
            ) -> Result<Vec<SessionRecord>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "SELECT created_at, last_seen_at FROM reader_sessions WHERE account_id = ",
                );
                qb.push_bind(account_id.to_string());
                qb.push(" ORDER BY created_at");
                let rows: Vec<(DateTime<Utc>, DateTime<Utc>)> =
                    qb.build_query_as().fetch_all(&self.pool).await?;
                Ok(rows
                    .into_iter()
                    .map(|(created_at, last_seen_at)| SessionRecord {
                        created_at,
                        last_seen_at,
                    })
                    .collect())
            }

            async fn add_link(
                &self,
                account_id: &str,
                purpose: LinkPurpose,
                token_hash: &str,
                expires_at: DateTime<Utc>,
                email: &Email,
            ) -> Result<(), sqlx::Error> {
                let mut tx = self.pool.begin().await?;
                // Requests for the same account's links take turns: the account's row is
                // locked first (a no-op write), so the second request's delete sees the
                // first one's link. Without it, two requests at once under PostgreSQL's read
                // committed each deleted what was there before either and both links stayed
                // valid. (SQLite's single writer ordered them already.)
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("UPDATE accounts SET id = id WHERE id = ");
                qb.push_bind(account_id.to_string());
                qb.build().execute(&mut *tx).await?;
                // A new link voids the account's older ones of the same kind: only the
                // latest email works.
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "DELETE FROM account_links WHERE used_at IS NULL AND account_id = ",
                );
                qb.push_bind(account_id.to_string());
                qb.push(" AND purpose = ").push_bind(purpose.as_str());
                qb.build().execute(&mut *tx).await?;
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "INSERT INTO account_links (token_hash, account_id, purpose, expires_at) \
                     VALUES (",
                );
                let mut sep = qb.separated(", ");
                sep.push_bind(token_hash.to_string())
                    .push_bind(account_id.to_string())
                    .push_bind(purpose.as_str())
                    .push_bind(expires_at);
                qb.push(")");
                qb.build().execute(&mut *tx).await?;
                $enqueue(&mut *tx, email).await?;
                tx.commit().await
            }

            async fn use_link(
                &self,
                purpose: LinkPurpose,
                token_hash: &str,
                now: DateTime<Utc>,
            ) -> Result<LinkUse, sqlx::Error> {
                let mut tx = self.pool.begin().await?;
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("UPDATE account_links SET used_at = ");
                qb.push_bind(now);
                qb.push(" WHERE used_at IS NULL AND token_hash = ");
                qb.push_bind(token_hash.to_string());
                qb.push(" AND purpose = ");
                qb.push_bind(purpose.as_str());
                qb.push(" AND expires_at > ");
                qb.push_bind(now);
                qb.push(" RETURNING account_id");
                let found: Option<String> =
                    qb.build_query_scalar().fetch_optional(&mut *tx).await?;
                let Some(account_id) = found else {
                    return Ok(LinkUse::Invalid);
                };
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "UPDATE accounts SET confirmed_at = COALESCE(confirmed_at, ",
                );
                qb.push_bind(now);
                qb.push(") WHERE id = ");
                qb.push_bind(account_id.clone());
                qb.build().execute(&mut *tx).await?;
                tx.commit().await?;
                Ok(LinkUse::Used(account_id))
            }

            async fn account(&self, id: &str) -> Result<Option<AccountRecord>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "SELECT a.id, a.first_name, a.last_name, a.email, a.age, a.country, \
                     a.interests, a.created_at, a.confirmed_at, a.digest_since, \
                     (SELECT created_at FROM magazine_notifications m \
                      WHERE m.email = a.email AND m.unsubscribed_at IS NULL), \
                     (SELECT created_at FROM pack_notifications p \
                      WHERE p.email = a.email AND p.unsubscribed_at IS NULL) \
                     FROM accounts a WHERE a.id = ",
                );
                qb.push_bind(id.to_string());
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
                let row: Option<Row> = qb.build_query_as().fetch_optional(&self.pool).await?;
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

            async fn password_hash(&self, id: &str) -> Result<Option<String>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("SELECT password_hash FROM accounts WHERE id = ");
                qb.push_bind(id.to_string());
                qb.build_query_scalar().fetch_optional(&self.pool).await
            }

            async fn update_profile(&self, id: &str, p: &Profile) -> Result<(), sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("UPDATE accounts SET first_name = ");
                qb.push_bind(p.first_name.clone());
                qb.push(", last_name = ");
                qb.push_bind(p.last_name.clone());
                qb.push(", country = ");
                qb.push_bind(p.country.clone());
                qb.push(", interests = ");
                qb.push_bind(p.interests.clone());
                qb.push(" WHERE id = ");
                qb.push_bind(id.to_string());
                qb.build().execute(&self.pool).await?;
                Ok(())
            }

            async fn set_password(&self, id: &str, password_hash: &str) -> Result<(), sqlx::Error> {
                let mut tx = self.pool.begin().await?;
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("UPDATE accounts SET password_hash = ");
                qb.push_bind(password_hash.to_string());
                qb.push(" WHERE id = ");
                qb.push_bind(id.to_string());
                qb.build().execute(&mut *tx).await?;
                // Links sent before the change are void: whoever read an old email (or
                // holds the old password) cannot use them to set the password again.
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "DELETE FROM account_links WHERE used_at IS NULL AND account_id = ",
                );
                qb.push_bind(id.to_string());
                qb.build().execute(&mut *tx).await?;
                tx.commit().await
            }

            async fn set_list(
                &self,
                list: NotifyList,
                email: &str,
                on: bool,
                unsubscribe_hash: &str,
                now: DateTime<Utc>,
            ) -> Result<(), sqlx::Error> {
                if !on {
                    let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                        "UPDATE {} SET unsubscribed_at = COALESCE(unsubscribed_at, ",
                        list.table()
                    ));
                    qb.push_bind(now);
                    qb.push(") WHERE email = ");
                    qb.push_bind(email.to_string());
                    qb.build().execute(&self.pool).await?;
                    return Ok(());
                }
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                    "INSERT INTO {} (id, email, unsubscribe_hash, created_at) VALUES (",
                    list.table()
                ));
                let mut sep = qb.separated(", ");
                sep.push_bind(kernel::ids::new_id())
                    .push_bind(email.to_string())
                    .push_bind(unsubscribe_hash.to_string())
                    .push_bind(now);
                qb.push(
                    ") ON CONFLICT (email) DO UPDATE SET unsubscribed_at = NULL, \
                     unsubscribe_hash = excluded.unsubscribe_hash, \
                     created_at = excluded.created_at WHERE ",
                );
                qb.push(list.table());
                qb.push(".unsubscribed_at IS NOT NULL");
                qb.build().execute(&self.pool).await?;
                Ok(())
            }

            async fn set_digest(
                &self,
                id: &str,
                on: bool,
                unsubscribe_hash: &str,
                now: DateTime<Utc>,
            ) -> Result<(), sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("UPDATE accounts SET ");
                if on {
                    qb.push("digest_since = ");
                    qb.push_bind(now);
                    qb.push(", digest_unsubscribe_hash = ");
                    qb.push_bind(unsubscribe_hash.to_string());
                    qb.push(" WHERE digest_since IS NULL AND id = ");
                } else {
                    qb.push("digest_since = NULL, digest_unsubscribe_hash = NULL WHERE id = ");
                }
                qb.push_bind(id.to_string());
                qb.build().execute(&self.pool).await?;
                Ok(())
            }

            async fn delete_account(
                &self,
                id: &str,
                email: &str,
                now: DateTime<Utc>,
            ) -> Result<(), sqlx::Error> {
                let email = email.to_lowercase();
                let email = email.as_str();
                let mut tx = self.pool.begin().await?;
                // The outbox keeps a message's recipients and subject after delivery: every
                // message to the address, and the team's copy of what it sent us (its
                // reply-to), is emptied; one not sent yet is given up (its attachments'
                // files go at the next purge).
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "UPDATE outbox SET recipients = '[]', reply_to = NULL, subject = '', \
                     body = '', html = NULL, list_unsubscribe = NULL, \
                     last_error = CASE WHEN status = 'sent' THEN NULL \
                     ELSE 'the account was deleted' END, \
                     status = CASE WHEN status = 'pending' THEN 'failed' ELSE status END, \
                     redacted_at = COALESCE(redacted_at, ",
                );
                qb.push_bind(now);
                qb.push(") WHERE LOWER(recipients) LIKE ");
                qb.push_bind(format!("%\"{}\"%", like_escaped(email)));
                qb.push(" ESCAPE '!' OR LOWER(reply_to) = ");
                qb.push_bind(email.to_string());
                qb.build().execute(&mut *tx).await?;
                // Documents of its applications still in storage go at the next
                // housekeeping (files cannot be deleted in this transaction).
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("UPDATE application_documents SET delete_after = ");
                qb.push_bind(now);
                qb.push(
                    " WHERE application_id IN (SELECT id FROM applications WHERE LOWER(email) = ",
                );
                qb.push_bind(email.to_string());
                qb.push(")");
                qb.build().execute(&mut *tx).await?;
                // What the address sent us through the forms, and the record of the
                // announcements it was sent.
                for table in [
                    "contact_messages",
                    "applications",
                    "announcement_deliveries",
                ] {
                    let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                        "DELETE FROM {table} WHERE LOWER(email) = "
                    ));
                    qb.push_bind(email.to_string());
                    qb.build().execute(&mut *tx).await?;
                }
                for table in ["magazine_notifications", "pack_notifications"] {
                    let mut qb: sqlx::QueryBuilder<$db> =
                        sqlx::QueryBuilder::new(format!("DELETE FROM {table} WHERE email = "));
                    qb.push_bind(email.to_string());
                    qb.build().execute(&mut *tx).await?;
                }
                for table in [
                    "reader_sessions",
                    "account_links",
                    "account_confirmations",
                    "digest_deliveries",
                ] {
                    let mut qb: sqlx::QueryBuilder<$db> =
                        sqlx::QueryBuilder::new(format!("DELETE FROM {table} WHERE account_id = "));
                    qb.push_bind(id.to_string());
                    qb.build().execute(&mut *tx).await?;
                }
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("DELETE FROM accounts WHERE id = ");
                qb.push_bind(id.to_string());
                qb.build().execute(&mut *tx).await?;
                tx.commit().await
            }
        }
    };
}

pub(super) mod sqlite {
    use super::*;
    sql_reader_store!(
        SqliteReaderStore,
        sqlx::Sqlite,
        sqlx::SqlitePool,
        kernel::outbox::enqueue
    );
}

pub(super) mod postgres {
    use super::*;
    sql_reader_store!(
        PgReaderStore,
        sqlx::Postgres,
        sqlx::PgPool,
        kernel::outbox::enqueue
    );
}
