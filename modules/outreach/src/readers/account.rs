//! The account page: the profile and interests, the subscriptions, the data download and
//! deletion (the password is identity's).

use crate::codes::Code;
use chrono::{DateTime, Utc};
use kernel::secret::{hash_token, new_token};
use kernel::Common;

use super::model::{Account, ProfileInput, Subscriptions};
use super::store::Profile;
use super::Readers;
use crate::limits::chosen_interests;
use crate::model::NotifyList;
use crate::responses::rules::public_name;
use crate::responses::shown_changed;
use identity::readers::{invalid, ReaderError};

impl Readers {
    pub async fn account(&self, id: &str) -> Result<Account, ReaderError> {
        let a = self.store.account(id).await?.ok_or(ReaderError::Gone)?;
        Ok(Account {
            first_name: a.first_name,
            last_name: a.last_name,
            email: a.email,
            age: a.age,
            country: a.country,
            interests: serde_json::from_str(&a.interests).unwrap_or_default(),
            created_at: a.created_at,
            subscriptions: Subscriptions {
                magazine: a.magazine_since.is_some(),
                packs: a.packs_since.is_some(),
                digest: a.digest_since.is_some(),
            },
        })
    }

    pub async fn update_profile(
        &self,
        id: &str,
        input: ProfileInput,
    ) -> Result<Account, ReaderError> {
        let first = input.first_name.trim().to_string();
        let last = input.last_name.trim().to_string();
        if first.is_empty() || last.is_empty() {
            return Err(invalid(
                Common::MissingInformation,
                "Please fill in your first and last name.",
            ));
        }
        let country = Some(input.country.trim())
            .filter(|c| !c.is_empty())
            .map(str::to_string);
        // Counted as sent, as the contract states them.
        for (field, value) in [
            ("first name", input.first_name.as_str()),
            ("last name", input.last_name.as_str()),
            ("country", input.country.as_str()),
        ] {
            if value.chars().count() > 100 {
                return Err(invalid(
                    Common::TooLong,
                    format!("The {field} must be at most 100 characters."),
                ));
            }
        }
        let interests =
            chosen_interests(input.interests.iter().map(|i| i.as_str())).ok_or_else(|| {
                invalid(
                    Code::UnknownInterest,
                    "Please choose interests from the list.",
                )
            })?;
        // Their approved responses show the name under articles: a new one is shown at once,
        // and the old one nowhere from then on.
        let before = self.store.account(id).await?.ok_or(ReaderError::Gone)?;
        let renamed =
            public_name(&before.first_name, &before.last_name) != public_name(&first, &last);
        let shown_under = if renamed {
            self.shown_under(id).await?
        } else {
            Vec::new()
        };
        self.store
            .update_profile(
                id,
                &Profile {
                    first_name: first,
                    last_name: last,
                    country,
                    interests: serde_json::to_string(&interests).unwrap_or_else(|_| "[]".into()),
                },
            )
            .await?;
        shown_changed(self.articles.as_ref(), &shown_under, true).await;
        self.account(id).await
    }

    pub async fn set_subscriptions(
        &self,
        id: &str,
        wanted: Subscriptions,
    ) -> Result<Account, ReaderError> {
        let account = self.account(id).await?;
        let now = self.clock.now();
        for (list, on) in [
            (NotifyList::Magazine, wanted.magazine),
            (NotifyList::Packs, wanted.packs),
        ] {
            self.store
                .set_list(list, &account.email, on, &hash_token(&new_token()), now)
                .await?;
        }
        self.store
            .set_digest(id, wanted.digest, &hash_token(&new_token()), now)
            .await?;
        self.account(id).await
    }

    /// Everything kept about the account, as its owner may download it.
    pub async fn export(&self, id: &str) -> Result<serde_json::Value, ReaderError> {
        let a = self.store.account(id).await?.ok_or(ReaderError::Gone)?;
        let sessions = self.auth.sessions().of(identity::Kind::Reader, id).await?;
        let responses = self.responses.of_reader(id).await?;
        let interests: Vec<String> = serde_json::from_str(&a.interests).unwrap_or_default();
        let iso = |d: Option<DateTime<Utc>>| d.map(|d| d.to_rfc3339());
        Ok(serde_json::json!({
            "site": self.auth.settings().site_url,
            "exported_at": self.clock.now().to_rfc3339(),
            "account": {
                "first_name": a.first_name,
                "last_name": a.last_name,
                "email": a.email,
                "age": a.age,
                "country": a.country,
                "interests": interests,
                "registered_at": a.created_at.to_rfc3339(),
                "confirmed_at": iso(a.confirmed_at),
            },
            "subscriptions": {
                "magazine_launch_since": iso(a.magazine_since),
                "packs_launch_since": iso(a.packs_since),
                "weekly_digest_since": iso(a.digest_since),
            },
            "sessions": sessions.iter().map(|s| serde_json::json!({
                "signed_in_at": s.created_at.to_rfc3339(),
                "last_seen_at": s.last_seen_at.to_rfc3339(),
            })).collect::<Vec<_>>(),
            "responses": responses.iter().map(|r| serde_json::json!({
                "article_id": r.article_id,
                "text": r.body,
                "status": r.status,
                "reason": r.reason,
                "sent_at": r.created_at.to_rfc3339(),
                "decided_at": iso(r.decided_at),
            })).collect::<Vec<_>>(),
            "note": "The password is kept only as a one-way hash and is not included.",
        }))
    }

    /// Deletes the account (its password asked again) with its sessions, links, list
    /// entries and responses, at once: the pages that showed its responses are never sent
    /// again as they were.
    pub async fn delete(&self, id: &str, password: &str) -> Result<(), ReaderError> {
        self.auth.check_password(id, password).await?;
        let a = self.store.account(id).await?.ok_or(ReaderError::Gone)?;
        let shown_under = self.shown_under(id).await?;
        self.store
            .delete_account(id, &a.email, self.clock.now())
            .await?;
        shown_changed(self.articles.as_ref(), &shown_under, true).await;
        tracing::info!(account = %id, "reader account deleted");
        Ok(())
    }
}
