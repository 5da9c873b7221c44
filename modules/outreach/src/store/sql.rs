//! The outreach store in SQL: the same statements on both engines; each engine's outbox
//! enqueue is passed in, so an email is written in the transaction of what caused it.

use super::*;

macro_rules! insert_confirmation {
    ($db:ty, $exec:expr, $account:expr, $hash:expr, $expires:expr) => {{
        let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
            "INSERT INTO account_confirmations (token_hash, account_id, expires_at) VALUES (",
        );
        let mut sep = qb.separated(", ");
        sep.push_bind($hash.to_string())
            .push_bind($account.to_string())
            .push_bind($expires);
        qb.push(")");
        qb.build().execute($exec).await?;
    }};
}

macro_rules! sql_outreach_store {
    ($name:ident, $db:ty, $pool:ty, $enqueue:path) => {
        pub struct $name {
            pub(crate) pool: $pool,
        }

        #[async_trait]
        impl OutreachStore for $name {
            async fn subscribe(
                &self,
                list: NotifyList,
                email: &str,
                unsubscribe_hash: &str,
                now: DateTime<Utc>,
                confirmation: &Email,
            ) -> Result<bool, sqlx::Error> {
                let mut tx = self.pool.begin().await?;
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                    "INSERT INTO {} (id, email, unsubscribe_hash, created_at) VALUES (",
                    list.table()
                ));
                let mut sep = qb.separated(", ");
                sep.push_bind(kernel::ids::new_id())
                    .push_bind(email.to_string())
                    .push_bind(unsubscribe_hash.to_string())
                    .push_bind(now);
                qb.push(") ON CONFLICT (email) DO NOTHING");
                let mut added = qb.build().execute(&mut *tx).await?.rows_affected() == 1;
                if !added {
                    let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                        "UPDATE {} SET unsubscribed_at = NULL, unsubscribe_hash = ",
                        list.table()
                    ));
                    qb.push_bind(unsubscribe_hash.to_string());
                    qb.push(" WHERE unsubscribed_at IS NOT NULL AND email = ");
                    qb.push_bind(email.to_string());
                    added = qb.build().execute(&mut *tx).await?.rows_affected() == 1;
                }
                if added {
                    $enqueue(&mut *tx, confirmation).await?;
                }
                tx.commit().await?;
                Ok(added)
            }

            async fn unsubscribe(
                &self,
                unsubscribe_hash: &str,
                now: DateTime<Utc>,
            ) -> Result<bool, sqlx::Error> {
                let mut found = false;
                for list in [NotifyList::Magazine, NotifyList::Packs] {
                    let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                        "UPDATE {} SET unsubscribed_at = COALESCE(unsubscribed_at, ",
                        list.table()
                    ));
                    qb.push_bind(now);
                    qb.push(") WHERE unsubscribe_hash = ");
                    qb.push_bind(unsubscribe_hash.to_string());
                    found |= qb.build().execute(&self.pool).await?.rows_affected() > 0;
                }
                if found {
                    return Ok(true);
                }
                // The link of an announcement: each recipient has their own token.
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "SELECT a.list, d.email FROM announcement_deliveries d \
                     JOIN announcements a ON a.id = d.announcement_id \
                     WHERE d.unsubscribe_hash = ",
                );
                qb.push_bind(unsubscribe_hash.to_string());
                let delivery: Option<(String, String)> =
                    qb.build_query_as().fetch_optional(&self.pool).await?;
                let Some((list, email)) = delivery else {
                    // The link of a weekly digest: the reader stops getting it.
                    let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                        "UPDATE accounts SET digest_since = NULL, digest_unsubscribe_hash = NULL \
                         WHERE id IN (SELECT account_id FROM digest_deliveries \
                         WHERE unsubscribe_hash = ",
                    );
                    qb.push_bind(unsubscribe_hash.to_string());
                    qb.push(")");
                    qb.build().execute(&self.pool).await?;
                    let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                        "SELECT COUNT(*) FROM digest_deliveries WHERE unsubscribe_hash = ",
                    );
                    qb.push_bind(unsubscribe_hash.to_string());
                    let known: i64 = qb.build_query_scalar().fetch_one(&self.pool).await?;
                    return Ok(known > 0);
                };
                let Some(list) = NotifyList::parse(&list) else {
                    return Ok(false);
                };
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                    "UPDATE {} SET unsubscribed_at = COALESCE(unsubscribed_at, ",
                    list.table()
                ));
                qb.push_bind(now);
                qb.push(") WHERE email = ");
                qb.push_bind(email);
                qb.build().execute(&self.pool).await?;
                Ok(true)
            }

            async fn unsubscribe_target(
                &self,
                unsubscribe_hash: &str,
            ) -> Result<Option<(String, bool)>, sqlx::Error> {
                for list in [NotifyList::Magazine, NotifyList::Packs] {
                    let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                        "SELECT COUNT(*) FILTER (WHERE unsubscribed_at IS NULL), COUNT(*) FROM {} \
                         WHERE unsubscribe_hash = ",
                        list.table()
                    ));
                    qb.push_bind(unsubscribe_hash.to_string());
                    let (on, found): (i64, i64) = qb.build_query_as().fetch_one(&self.pool).await?;
                    if found > 0 {
                        return Ok(Some((list.as_str().to_string(), on > 0)));
                    }
                }
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "SELECT a.list, d.email FROM announcement_deliveries d \
                     JOIN announcements a ON a.id = d.announcement_id \
                     WHERE d.unsubscribe_hash = ",
                );
                qb.push_bind(unsubscribe_hash.to_string());
                let delivery: Option<(String, String)> =
                    qb.build_query_as().fetch_optional(&self.pool).await?;
                if let Some((list, email)) = delivery {
                    let Some(list) = NotifyList::parse(&list) else {
                        return Ok(None);
                    };
                    let on = self.is_subscribed(list, &email).await?;
                    return Ok(Some((list.as_str().to_string(), on)));
                }
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "SELECT COUNT(*) FILTER (WHERE a.digest_since IS NOT NULL), COUNT(*) \
                     FROM digest_deliveries d JOIN accounts a ON a.id = d.account_id \
                     WHERE d.unsubscribe_hash = ",
                );
                qb.push_bind(unsubscribe_hash.to_string());
                let (on, found): (i64, i64) = qb.build_query_as().fetch_one(&self.pool).await?;
                Ok((found > 0).then(|| ("digest".to_string(), on > 0)))
            }

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
                    let mut qb: sqlx::QueryBuilder<$db> =
                        sqlx::QueryBuilder::new("UPDATE accounts SET digest_since = ");
                    qb.push_bind(now);
                    qb.push(", digest_unsubscribe_hash = ");
                    qb.push_bind(digest_hash.to_string());
                    qb.push(
                        " WHERE digest_since IS NULL AND id IN (SELECT account_id \
                         FROM digest_deliveries WHERE unsubscribe_hash = ",
                    );
                    qb.push_bind(unsubscribe_hash.to_string());
                    qb.push(")");
                    qb.build().execute(&self.pool).await?;
                    return Ok(true);
                }
                let Some(list) = NotifyList::parse(&list) else {
                    return Ok(false);
                };
                // The signup's own link, or an announcement's (which names the address).
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                    "UPDATE {} SET unsubscribed_at = NULL WHERE unsubscribe_hash = ",
                    list.table()
                ));
                qb.push_bind(unsubscribe_hash.to_string());
                qb.push(" OR email IN (SELECT d.email FROM announcement_deliveries d \
                         WHERE d.unsubscribe_hash = ");
                qb.push_bind(unsubscribe_hash.to_string());
                qb.push(")");
                qb.build().execute(&self.pool).await?;
                Ok(true)
            }

            async fn is_subscribed(
                &self,
                list: NotifyList,
                email: &str,
            ) -> Result<bool, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                    "SELECT COUNT(*) FROM {} WHERE unsubscribed_at IS NULL AND email = ",
                    list.table()
                ));
                qb.push_bind(email.to_string());
                let n: i64 = qb.build_query_scalar().fetch_one(&self.pool).await?;
                Ok(n > 0)
            }

            async fn save_application(
                &self,
                r: &ApplicationRow,
                emails: &[Email],
                linked: &[String],
            ) -> Result<(), sqlx::Error> {
                let mut tx = self.pool.begin().await?;
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "INSERT INTO applications (id, full_name, age, country, email, time_zone, \
                     weekly_availability, english_level, how_did_you_hear, previous_experience, \
                     roles, portfolio_url, writing_samples_url, research_samples_url, why_join, \
                     contribution, additional, files, created_at, documents_until) VALUES (",
                );
                let mut sep = qb.separated(", ");
                sep.push_bind(r.id.clone())
                    .push_bind(r.full_name.clone())
                    .push_bind(r.age)
                    .push_bind(r.country.clone())
                    .push_bind(r.email.clone())
                    .push_bind(r.time_zone.clone())
                    .push_bind(r.weekly_availability)
                    .push_bind(r.english_level.clone())
                    .push_bind(r.how_did_you_hear.clone())
                    .push_bind(r.previous_experience.clone())
                    .push_bind(r.roles.clone())
                    .push_bind(r.portfolio_url.clone())
                    .push_bind(r.writing_samples_url.clone())
                    .push_bind(r.research_samples_url.clone())
                    .push_bind(r.why_join.clone())
                    .push_bind(r.contribution.clone())
                    .push_bind(r.additional.clone())
                    .push_bind(r.files.clone())
                    .push_bind(r.created_at)
                    .push_bind(r.documents_until);
                qb.push(")");
                qb.build().execute(&mut *tx).await?;
                if let Some(until) = r.documents_until {
                    for key in linked {
                        sqlx::query(
                            "INSERT INTO application_documents \
                             (storage_key, application_id, delete_after) VALUES ($1, $2, $3)",
                        )
                        .bind(key)
                        .bind(&r.id)
                        .bind(until)
                        .execute(&mut *tx)
                        .await?;
                    }
                }
                for email in emails {
                    $enqueue(&mut *tx, email).await?;
                }
                tx.commit().await
            }

            async fn linked_documents(
                &self,
                id: &str,
            ) -> Result<Option<LinkedDocuments>, sqlx::Error> {
                let row: Option<(String, Option<DateTime<Utc>>)> = sqlx::query_as(
                    "SELECT files, documents_until FROM applications WHERE id = $1",
                )
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
                Ok(row.map(|(files, documents_until)| LinkedDocuments {
                    files,
                    documents_until,
                }))
            }

            async fn record_download(
                &self,
                id: &str,
                field: &str,
                user: &str,
                at: DateTime<Utc>,
            ) -> Result<i64, sqlx::Error> {
                let mut tx = self.pool.begin().await?;
                sqlx::query(
                    "INSERT INTO application_downloads \
                     (application_id, field, user_id, downloaded_at) VALUES ($1, $2, $3, $4)",
                )
                .bind(id)
                .bind(field)
                .bind(user)
                .bind(at)
                .execute(&mut *tx)
                .await?;
                let n: i64 = sqlx::query_scalar(
                    "SELECT COUNT(*) FROM application_downloads \
                     WHERE application_id = $1 AND field = $2",
                )
                .bind(id)
                .bind(field)
                .fetch_one(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok(n)
            }

            async fn expired_documents(
                &self,
                now: DateTime<Utc>,
            ) -> Result<Vec<String>, sqlx::Error> {
                sqlx::query_scalar(
                    "SELECT storage_key FROM application_documents WHERE delete_after < $1",
                )
                .bind(now)
                .fetch_all(&self.pool)
                .await
            }

            async fn forget_document(&self, key: &str) -> Result<(), sqlx::Error> {
                sqlx::query("DELETE FROM application_documents WHERE storage_key = $1")
                    .bind(key)
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }

            async fn account_by_email(
                &self,
                email: &str,
            ) -> Result<Option<ExistingAccount>, sqlx::Error> {
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("SELECT id, confirmed_at FROM accounts WHERE email = ");
                qb.push_bind(email.to_string());
                let row: Option<(String, Option<DateTime<Utc>>)> =
                    qb.build_query_as().fetch_optional(&self.pool).await?;
                Ok(row.map(|(id, confirmed_at)| ExistingAccount {
                    id,
                    confirmed: confirmed_at.is_some(),
                }))
            }

            async fn create_account(
                &self,
                r: &AccountRow,
                token_hash: &str,
                expires_at: DateTime<Utc>,
                email: &Email,
            ) -> Result<bool, sqlx::Error> {
                let mut tx = self.pool.begin().await?;
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "INSERT INTO accounts (id, first_name, last_name, email, password_hash, age, \
                     country, interests, created_at, signup_lists) VALUES (",
                );
                let mut sep = qb.separated(", ");
                sep.push_bind(r.id.clone())
                    .push_bind(r.first_name.clone())
                    .push_bind(r.last_name.clone())
                    .push_bind(r.email.clone())
                    .push_bind(r.password_hash.clone())
                    .push_bind(r.age)
                    .push_bind(r.country.clone())
                    .push_bind(r.interests.clone())
                    .push_bind(r.created_at)
                    .push_bind(r.signup_lists.clone());
                qb.push(") ON CONFLICT (email) DO NOTHING");
                if qb.build().execute(&mut *tx).await?.rows_affected() == 0 {
                    tx.rollback().await?;
                    return Ok(false);
                }
                insert_confirmation!($db, &mut *tx, &r.id, token_hash, expires_at);
                $enqueue(&mut *tx, email).await?;
                tx.commit().await?;
                Ok(true)
            }

            async fn add_confirmation(
                &self,
                account_id: &str,
                token_hash: &str,
                expires_at: DateTime<Utc>,
                email: &Email,
                signup_lists: Option<&str>,
            ) -> Result<(), sqlx::Error> {
                let mut tx = self.pool.begin().await?;
                if let Some(lists) = signup_lists {
                    let mut qb: sqlx::QueryBuilder<$db> =
                        sqlx::QueryBuilder::new("UPDATE accounts SET signup_lists = ");
                    qb.push_bind(lists.to_string());
                    qb.push(" WHERE confirmed_at IS NULL AND id = ");
                    qb.push_bind(account_id.to_string());
                    qb.build().execute(&mut *tx).await?;
                }
                insert_confirmation!($db, &mut *tx, account_id, token_hash, expires_at);
                $enqueue(&mut *tx, email).await?;
                tx.commit().await
            }

            async fn enqueue(&self, email: &Email) -> Result<(), sqlx::Error> {
                let mut tx = self.pool.begin().await?;
                $enqueue(&mut *tx, email).await?;
                tx.commit().await
            }

            async fn confirm(
                &self,
                token_hash: &str,
                now: DateTime<Utc>,
                hashes: &crate::store::SignupHashes,
            ) -> Result<Confirmation, sqlx::Error> {
                // The transaction starts with its write (an upgrade from a read could fail at
                // once on SQLite while another connection writes).
                let mut tx = self.pool.begin().await?;
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("UPDATE account_confirmations SET used_at = ");
                qb.push_bind(now);
                qb.push(" WHERE used_at IS NULL AND token_hash = ");
                qb.push_bind(token_hash.to_string());
                qb.push(" AND expires_at >= ");
                qb.push_bind(now);
                qb.push(" RETURNING account_id");
                let used: Option<String> = qb.build_query_scalar().fetch_optional(&mut *tx).await?;
                let Some(account_id) = used else {
                    tx.rollback().await?;
                    // Why not: unknown, used before, or expired.
                    let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                        "SELECT used_at IS NOT NULL FROM account_confirmations WHERE token_hash = ",
                    );
                    qb.push_bind(token_hash.to_string());
                    let used_before: Option<bool> =
                        qb.build_query_scalar().fetch_optional(&self.pool).await?;
                    return Ok(match used_before {
                        None => Confirmation::Unknown,
                        Some(true) => Confirmation::AlreadyUsed,
                        Some(false) => Confirmation::Expired,
                    });
                };
                // What the reader asked to hear about, asked for once: cleared as it starts.
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("SELECT email, signup_lists FROM accounts WHERE id = ");
                qb.push_bind(account_id.clone());
                let (email, lists): (String, String) =
                    qb.build_query_as().fetch_one(&mut *tx).await?;
                let lists: Vec<String> = serde_json::from_str(&lists).unwrap_or_default();
                let mut qb: sqlx::QueryBuilder<$db> =
                    sqlx::QueryBuilder::new("UPDATE accounts SET confirmed_at = COALESCE(confirmed_at, ");
                qb.push_bind(now);
                qb.push("), signup_lists = '[]'");
                if lists.iter().any(|l| l == "digest") {
                    qb.push(", digest_since = COALESCE(digest_since, ");
                    qb.push_bind(now);
                    qb.push("), digest_unsubscribe_hash = COALESCE(digest_unsubscribe_hash, ");
                    qb.push_bind(hashes.digest.clone());
                    qb.push(")");
                }
                qb.push(" WHERE id = ");
                qb.push_bind(account_id);
                qb.build().execute(&mut *tx).await?;
                for (list, hash) in [
                    (crate::model::NotifyList::Magazine, &hashes.magazine),
                    (crate::model::NotifyList::Packs, &hashes.packs),
                ] {
                    if !lists.iter().any(|l| l == list.as_str()) {
                        continue;
                    }
                    let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(format!(
                        "INSERT INTO {} (id, email, unsubscribe_hash, created_at) VALUES (",
                        list.table()
                    ));
                    let mut sep = qb.separated(", ");
                    sep.push_bind(kernel::ids::new_id())
                        .push_bind(email.clone())
                        .push_bind(hash.clone())
                        .push_bind(now);
                    qb.push(
                        ") ON CONFLICT (email) DO UPDATE SET unsubscribed_at = NULL, \
                         unsubscribe_hash = excluded.unsubscribe_hash, \
                         created_at = excluded.created_at WHERE ",
                    );
                    qb.push(list.table());
                    qb.push(".unsubscribed_at IS NOT NULL");
                    qb.build().execute(&mut *tx).await?;
                }
                tx.commit().await?;
                Ok(Confirmation::Confirmed)
            }

            async fn save_contact(&self, r: &ContactRow, email: &Email) -> Result<(), sqlx::Error> {
                let mut tx = self.pool.begin().await?;
                let mut qb: sqlx::QueryBuilder<$db> = sqlx::QueryBuilder::new(
                    "INSERT INTO contact_messages (id, first_name, last_name, email, subject, \
                     inquiry_type, message, created_at) VALUES (",
                );
                let mut sep = qb.separated(", ");
                sep.push_bind(r.id.clone())
                    .push_bind(r.first_name.clone())
                    .push_bind(r.last_name.clone())
                    .push_bind(r.email.clone())
                    .push_bind(r.subject.clone())
                    .push_bind(r.inquiry_type)
                    .push_bind(r.message.clone())
                    .push_bind(r.created_at);
                qb.push(")");
                qb.build().execute(&mut *tx).await?;
                $enqueue(&mut *tx, email).await?;
                tx.commit().await
            }
        }
    };
}

pub(super) mod sqlite {
    use super::*;
    sql_outreach_store!(
        SqliteOutreachStore,
        sqlx::Sqlite,
        sqlx::SqlitePool,
        kernel::outbox::enqueue
    );
}

pub(super) mod postgres {
    use super::*;
    sql_outreach_store!(
        PgOutreachStore,
        sqlx::Postgres,
        sqlx::PgPool,
        kernel::outbox::enqueue
    );
}
