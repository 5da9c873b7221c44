//! Reader registration (`/signup`): argon2 password hashes and single-use, expiring email
//! confirmation links. The answer never reveals whether an address already has an account;
//! the owner of the address is emailed instead.

use crate::codes::Code;
use kernel::outbox::Email;
use kernel::Common;

use crate::limits::*;
use crate::model::RegistrationInput;
use kernel::secret::{hash_token, new_token};

use crate::service::{invalid, too_long, OutreachError, OutreachService};
use crate::store::{AccountRow, Confirmation, SignupHashes};
use kernel::email::is_email;
use kernel::ErrorCode;

use crate::links::CONFIRM_PAGE;

/// What registering answers, whatever happened to the address.
pub const REGISTERED: &str = "Please check your email and follow the link to confirm your account.";

fn failed(code: impl Into<ErrorCode>, message: &'static str) -> OutreachError {
    invalid(code, "Registration Failed", message)
}

/// The product's checks, then the server's own (age range, interests, lengths). Returns the
/// interests to keep: each ticked one once, in the order given.
pub fn validate(input: &RegistrationInput) -> Result<Vec<String>, OutreachError> {
    let required: [&str; 5] = [
        &input.first_name,
        &input.last_name,
        &input.email,
        &input.password,
        &input.confirm_password,
    ];
    if required.iter().any(|v| v.trim().is_empty()) {
        return Err(invalid(
            Common::MissingInformation,
            "Missing Information",
            "Please fill in all required fields.",
        ));
    }
    if !is_email(input.email.trim()) {
        return Err(invalid(
            Common::InvalidEmail,
            "Invalid Email",
            kernel::email::INVALID_EMAIL,
        ));
    }
    if let Some((code, message)) =
        identity::readers::new_password_problem(&input.password, &input.confirm_password)
    {
        return Err(failed(code, message));
    }
    if input
        .age
        .is_some_and(|a| !(MIN_READER_AGE..=MAX_READER_AGE).contains(&a.0))
    {
        return Err(invalid(
            Code::InvalidAge,
            "Invalid Age",
            "Age must be between 13 and 25.",
        ));
    }
    let Some(interests) = chosen_interests(input.interests.iter().map(|i| i.as_str())) else {
        return Err(invalid(
            Code::UnknownInterest,
            "Unknown Interest",
            "Please choose interests from the list.",
        ));
    };
    // Counted as sent, as the contract states them.
    too_long("first name", &input.first_name, 100)?;
    too_long("last name", &input.last_name, 100)?;
    too_long("email", &input.email, kernel::text::MAX_EMAIL_CHARS)?;
    too_long("country", input.country.as_str(), 100)?;
    Ok(interests)
}

/// What the reader ticked on the signup form, as stored until they confirm (JSON).
fn signup_lists(input: &RegistrationInput) -> String {
    let wanted: Vec<&str> = [
        (input.notify_magazine, "magazine"),
        (input.notify_packs, "packs"),
        (input.weekly_digest, "digest"),
    ]
    .into_iter()
    .filter_map(|(on, list)| on.then_some(list))
    .collect();
    serde_json::to_string(&wanted).unwrap_or_else(|_| "[]".into())
}

impl OutreachService {
    /// Registers a reader account (or, when the address is taken, emails its owner) and
    /// queues the confirmation email. Answers the same either way.
    #[tracing::instrument(skip(self, input))]
    pub async fn register(&self, input: RegistrationInput) -> Result<(), OutreachError> {
        let interests = validate(&input)?;
        // A bot (the honeypot filled in) is checked like anyone, then told it worked.
        if !input.website.is_empty() {
            tracing::info!("registration honeypot filled; ignored");
            return Ok(());
        }
        let email = input.email.trim().to_lowercase();
        // Hash first, whatever the address, so the answer takes as long either way.
        let password_hash = identity::readers::hash_password(input.password.to_string())
            .await
            .map_err(|e| OutreachError::Hashing(e.to_string()))?;
        let s = &self.settings;
        let first_name = input.first_name.trim().to_string();
        let (token, expires_at, confirmation) = self.confirmation_email(&email, &first_name);
        let signup_lists = signup_lists(&input);
        match self.store.account_by_email(&email).await? {
            None => {
                let row = AccountRow {
                    id: kernel::ids::new_id(),
                    first_name,
                    last_name: input.last_name.trim().to_string(),
                    email: email.clone(),
                    password_hash,
                    age: input.age.map(|a| a.0),
                    country: Some(input.country.trim())
                        .filter(|c| !c.is_empty())
                        .map(str::to_string),
                    interests: serde_json::to_string(&interests).unwrap_or_else(|_| "[]".into()),
                    created_at: self.clock.now(),
                    signup_lists,
                };
                let created = self
                    .store
                    .create_account(&row, &hash_token(&token), expires_at, &confirmation)
                    .await?;
                tracing::info!(created, "registration");
            }
            Some(existing) if !existing.confirmed => {
                // Never confirmed: send a fresh link (the earlier ones keep working until
                // they expire).
                self.store
                    .add_confirmation(
                        &existing.id,
                        &hash_token(&token),
                        expires_at,
                        &confirmation,
                        Some(&signup_lists),
                    )
                    .await?;
                tracing::info!("registration for an unconfirmed address: link sent again");
            }
            Some(_) => {
                let notice = Email {
                    html: None,
                    to: vec![email.clone()],
                    reply_to: None,
                    subject: format!("You already have an account at {}", s.site_name),
                    body: format!(
                        "Hi,\n\nSomeone (hopefully you) just tried to register at {} with this \
                         email address, which already has a confirmed account. Nothing has \
                         changed. You can log in at {}/login.\n\n\
                         If this wasn't you, you can ignore this email.\n",
                        s.site_name, s.site_url
                    ),
                    attachments: vec![],
                    list_unsubscribe: None,
                };
                self.store.enqueue(&notice).await?;
                tracing::info!("registration for an existing account: owner notified");
            }
        }
        Ok(())
    }

    /// A new confirmation link for `email`: its token, expiry, and the email carrying it.
    fn confirmation_email(
        &self,
        email: &str,
        first_name: &str,
    ) -> (String, chrono::DateTime<chrono::Utc>, Email) {
        let s = &self.settings;
        let token = new_token();
        let expires_at = self.clock.now()
            + chrono::Duration::from_std(s.confirmation_ttl).unwrap_or(chrono::Duration::days(2));
        let link = format!("{}{CONFIRM_PAGE}?token={token}", s.site_url);
        let hours = s.confirmation_ttl.as_secs() / 3600;
        let email = Email {
            html: None,
            to: vec![email.to_string()],
            reply_to: None,
            subject: format!("Confirm your email for {}", s.site_name),
            body: format!(
                "Hi {first_name},\n\nWelcome to {}! Please confirm your email address by \
                 opening this link (it works once and expires in {hours} hours):\n{link}\n\n\
                 If you did not sign up, ignore this email and no account will be activated.\n",
                s.site_name
            ),
            attachments: vec![],
            list_unsubscribe: None,
        };
        (token, expires_at, email)
    }

    /// Sends a new confirmation link to `email` if it has an account that is not confirmed
    /// yet; nothing otherwise. Callers answer the same either way.
    pub async fn resend_confirmation(&self, email: &str) -> Result<(), OutreachError> {
        let email = email.trim().to_lowercase();
        match self.store.account_by_email(&email).await? {
            Some(existing) if !existing.confirmed => {
                let (token, expires_at, mail) = self.confirmation_email(&email, "there");
                self.store
                    .add_confirmation(&existing.id, &hash_token(&token), expires_at, &mail, None)
                    .await?;
                tracing::info!("confirmation link sent again on request");
            }
            _ => tracing::info!("new confirmation link asked for an address that needs none"),
        }
        Ok(())
    }

    /// Uses a confirmation link.
    pub async fn confirm_account(&self, token: &str) -> Result<Confirmation, OutreachError> {
        if token.is_empty() || token.len() > 200 {
            return Ok(Confirmation::Unknown);
        }
        let hashes = SignupHashes {
            magazine: hash_token(&new_token()),
            packs: hash_token(&new_token()),
            digest: hash_token(&new_token()),
        };
        Ok(self
            .store
            .confirm(&hash_token(token), self.clock.now(), &hashes)
            .await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input() -> RegistrationInput {
        RegistrationInput {
            first_name: "Sam".into(),
            last_name: "Lee".into(),
            email: "sam@example.org".into(),
            password: "secret1".into(),
            confirm_password: "secret1".into(),
            age: None,
            country: "".into(),
            interests: vec!["Digital Politics".into()],
            notify_magazine: false,
            notify_packs: false,
            weekly_digest: false,
            website: "".into(),
        }
    }

    fn message(i: &RegistrationInput) -> String {
        match validate(i) {
            Ok(_) => "ok".into(),
            Err(OutreachError::Invalid { message, .. }) => message,
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn the_products_registration_rules() {
        assert_eq!(message(&input()), "ok");
        let mut i = input();
        i.last_name = " ".into();
        assert_eq!(message(&i), "Please fill in all required fields.");
        let mut i = input();
        i.confirm_password = "secret2".into();
        assert_eq!(message(&i), "Passwords do not match.");
        let mut i = input();
        i.password = "abc12".into();
        i.confirm_password = "abc12".into();
        assert_eq!(message(&i), "Password must be at least 6 characters long.");
        let mut i = input();
        i.age = Some(kernel::text::Whole(12));
        assert_eq!(message(&i), "Age must be between 13 and 25.");
        i.age = Some(kernel::text::Whole(25));
        assert_eq!(message(&i), "ok");
        let mut i = input();
        i.interests = vec!["Digital Democracy".into()];
        assert_eq!(message(&i), "Please choose interests from the list.");
        // More ticks than interests, one of them sent many times: accepted, kept once.
        let mut i = input();
        i.interests = ["Youth Activism", "Human Rights", "Youth Activism"]
            .iter()
            .cycle()
            .take(17)
            .map(|&n| n.into())
            .collect();
        assert_eq!(message(&i), "ok");
        assert_eq!(
            validate(&i).ok(),
            Some(vec![
                "Youth Activism".to_string(),
                "Human Rights".to_string()
            ])
        );
    }
}
