//! Contributors' public profiles (issue 35): the address of a contributor's page, the name it
//! shows and their bio. A page shows the first name and the last name's initial unless the
//! contributor chooses their full name: most contributors are minors. The address is made
//! once, from that shorter name, so it never holds a last name and never changes.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use poem_openapi::Object;

use crate::model::Role;

mod api;
mod store;

pub use api::ProfileApi;

pub use store::{profile_store_for, ProfileRow, ProfileStore, Shown};

/// The longest bio, in characters.
pub const MAX_BIO_CHARS: usize = 600;

/// Tries at most this many addresses (`maya-o`, `maya-o-2`, …) before giving up.
const SLUG_TRIES: usize = 100;

/// A contributor's profile as their page shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    pub user_id: String,
    /// `/author/{slug}`.
    pub slug: String,
    /// The name as the page shows it.
    pub shown_name: String,
    pub full_name_shown: bool,
    pub bio: String,
    pub photo: Option<String>,
    pub updated_at: DateTime<Utc>,
}

/// The name a page shows: the full name when the contributor chose it, else the first name
/// and the initial of the last ("Maya Okafor" → "Maya O."). A one-word name stays as it is.
pub fn shown_name(name: &str, full_name_shown: bool) -> String {
    let words: Vec<&str> = name.split_whitespace().collect();
    if full_name_shown || words.len() < 2 {
        return words.join(" ");
    }
    let first = words.first().copied().unwrap_or_default();
    let initial: String = words
        .last()
        .and_then(|w| w.chars().next())
        .map(|c| c.to_uppercase().collect())
        .unwrap_or_default();
    format!("{first} {initial}.")
}

/// The address a profile is first offered: the shorter name, folded to ASCII.
pub fn base_slug(name: &str) -> String {
    let slug = slug::slugify(shown_name(name, false));
    let slug: String = slug.chars().take(60).collect();
    let slug = slug.trim_end_matches('-');
    if slug.is_empty() {
        "contributor".to_string()
    } else {
        slug.to_string()
    }
}

/// How a byline names a member, and where their page is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Byline {
    /// The name as their page shows it.
    pub name: String,
    /// `/author/{slug}`; `None` in the rare case no address could be made.
    pub slug: Option<String>,
}

/// A contributor's public page: whose it is and what it says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contributor {
    pub user_id: String,
    pub slug: String,
    pub name: String,
    pub bio: String,
    pub photo: Option<String>,
    pub role: Role,
}

/// A member's profile as their dashboard edits it.
#[derive(Debug, Clone, PartialEq, Eq, Object)]
pub struct ProfileSettings {
    /// The page's address: `/author/{slug}`.
    pub slug: String,
    /// The member's full name, as the team knows it.
    pub full_name: String,
    /// The name the page and bylines show.
    pub shown_name: String,
    /// The first name and the last name's initial: what is shown unless the full name is
    /// chosen.
    pub short_name: String,
    /// Show the full name instead of the first name and the last name's initial.
    pub full_name_shown: bool,
    pub bio: String,
    /// Their photo: the address of an uploaded picture (`POST /v1/staff/covers`).
    #[oai(skip_serializing_if_is_none)]
    pub photo: Option<String>,
}

/// What a member changes on their profile.
#[derive(Debug, Clone, Object)]
#[oai(deny_unknown_fields)]
pub struct ProfileChange {
    /// Show the full name instead of the first name and the last name's initial.
    pub full_name_shown: bool,
    /// A short bio (up to 600 characters, line breaks and tabs kept, no other control
    /// character; empty for none). Required, so that a change sent without it never clears it.
    #[oai(validator(
        max_length = 600,
        pattern = "^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*$"
    ))]
    pub bio: String,
    /// Their photo: an address `POST /v1/staff/covers` answered for a JPEG or PNG; absent,
    /// `null` or empty for none.
    #[oai(validator(pattern = "^(/media/covers/[A-Za-z0-9_-]{1,100}\\.(jpg|png))?$"))]
    pub photo: Option<String>,
}

/// A photo's address as kept: one this site stores an uploaded picture at, or none. No other
/// address is taken: a reader's browser is never sent elsewhere from a contributor's page.
pub fn checked_photo(photo: Option<&str>) -> Result<Option<String>, &'static str> {
    let Some(photo) = photo.filter(|p| !p.is_empty()) else {
        return Ok(None);
    };
    let name = photo
        .strip_prefix("/media/covers/")
        .and_then(|n| n.strip_suffix(".jpg").or_else(|| n.strip_suffix(".png")));
    match name {
        Some(n)
            if !n.is_empty()
                && n.len() <= 100
                && n.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') =>
        {
            Ok(Some(photo.to_string()))
        }
        _ => Err("A photo must be a picture uploaded here."),
    }
}

/// Why a bio was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BioFault {
    TooLong,
    /// A control character other than a line break or a tab.
    ControlCharacter,
}

impl BioFault {
    /// What the member is told.
    pub fn message(&self) -> &'static str {
        match self {
            BioFault::TooLong => "A bio is at most 600 characters.",
            BioFault::ControlCharacter => "A bio cannot contain control characters.",
        }
    }
}

/// A bio as kept: trimmed, with its line breaks, no other control characters; at most
/// [`MAX_BIO_CHARS`] as sent (as the contract states it).
pub fn checked_bio(sent: &str) -> Result<String, BioFault> {
    if sent.chars().count() > MAX_BIO_CHARS {
        return Err(BioFault::TooLong);
    }
    let bio = sent.trim().replace("\r\n", "\n").replace('\r', "\n");
    if bio
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return Err(BioFault::ControlCharacter);
    }
    Ok(bio)
}

/// Profiles, over their store.
pub struct Profiles {
    store: Arc<dyn ProfileStore>,
}

impl Profiles {
    pub fn new(store: Arc<dyn ProfileStore>) -> Self {
        Self { store }
    }

    /// The profile of the member `user_id` named `name`, made on first use with the first free
    /// address. `None` when every address tried is taken.
    pub async fn ensure(
        &self,
        user_id: &str,
        name: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<Profile>, sqlx::Error> {
        if let Some(row) = self.store.profile(user_id).await? {
            return Ok(Some(row.shown(name)));
        }
        let base = base_slug(name);
        for n in 1..=SLUG_TRIES {
            let slug = if n == 1 {
                base.clone()
            } else {
                format!("{base}-{n}")
            };
            if self.store.create(user_id, &slug, now).await? {
                break;
            }
            // Made meanwhile by another request: that one stands.
            if let Some(row) = self.store.profile(user_id).await? {
                return Ok(Some(row.shown(name)));
            }
        }
        Ok(self
            .store
            .profile(user_id)
            .await?
            .map(|row| row.shown(name)))
    }

    /// The profiles the members `user_ids` have, by member.
    pub async fn many(
        &self,
        user_ids: &[String],
    ) -> Result<std::collections::HashMap<String, ProfileRow>, sqlx::Error> {
        Ok(self
            .store
            .profiles(user_ids)
            .await?
            .into_iter()
            .map(|row| (row.user_id.clone(), row))
            .collect())
    }

    /// The profile at `/author/{slug}`, with its member's id.
    pub async fn by_slug(&self, slug: &str) -> Result<Option<ProfileRow>, sqlx::Error> {
        self.store.profile_by_slug(slug).await
    }

    /// Changes what a profile shows; false when the member has no profile yet.
    pub async fn update(
        &self,
        user_id: &str,
        shown: &Shown,
        now: DateTime<Utc>,
    ) -> Result<bool, sqlx::Error> {
        self.store.update(user_id, shown, now).await
    }
}

impl ProfileRow {
    /// The profile as shown, for the member named `name`.
    pub fn shown(self, name: &str) -> Profile {
        Profile {
            shown_name: shown_name(name, self.full_name_shown),
            user_id: self.user_id,
            slug: self.slug,
            full_name_shown: self.full_name_shown,
            bio: self.bio,
            photo: self.photo,
            updated_at: self.updated_at,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_show_a_first_name_and_initial_unless_the_full_name_is_chosen() {
        assert_eq!(shown_name("Maya Okafor", false), "Maya O.");
        assert_eq!(shown_name("Maya Okafor", true), "Maya Okafor");
        assert_eq!(shown_name("  Ana  de la Cruz ", false), "Ana C.");
        assert_eq!(shown_name("Ana de la Cruz", true), "Ana de la Cruz");
        assert_eq!(shown_name("Zoë", false), "Zoë");
        assert_eq!(shown_name("léa émond", false), "léa É.");
        assert_eq!(shown_name("", false), "");
    }

    #[test]
    fn an_address_never_holds_a_last_name() {
        assert_eq!(base_slug("Maya Okafor"), "maya-o");
        assert_eq!(base_slug("Zoë Ng"), "zoe-n");
        assert_eq!(base_slug("!!!"), "contributor");
        assert_eq!(base_slug(&"Long".repeat(40)).len(), 60);
    }

    #[test]
    fn a_photo_is_a_picture_stored_here_or_none() {
        assert_eq!(checked_photo(None), Ok(None));
        assert_eq!(checked_photo(Some("")), Ok(None));
        assert!(
            checked_photo(Some(" /media/covers/a.jpg")).is_err(),
            "as the contract says"
        );
        assert_eq!(
            checked_photo(Some("/media/covers/01a2-b_c.jpg")),
            Ok(Some("/media/covers/01a2-b_c.jpg".into()))
        );
        for refused in [
            "https://tracker.example/me.jpg",
            "//tracker.example/me.jpg",
            "javascript:alert(1)",
            "/media/covers/../../etc/passwd.png",
            "/media/covers/a b.jpg",
            "/media/covers/.jpg",
            "/media/covers/a.svg",
            "/media/magazines/a.pdf",
            "/media/covers/a.jpg?x=\"onerror",
        ] {
            assert!(checked_photo(Some(refused)).is_err(), "{refused}");
        }
    }

    #[test]
    fn a_bio_keeps_its_lines_and_refuses_control_characters_and_length() {
        assert_eq!(
            checked_bio("  I write.\r\nA lot.  "),
            Ok("I write.\nA lot.".into())
        );
        assert_eq!(checked_bio("bell\u{7}"), Err(BioFault::ControlCharacter));
        assert_eq!(
            checked_bio(&"a".repeat(MAX_BIO_CHARS)).map(|b| b.len()),
            Ok(600)
        );
        assert_eq!(
            checked_bio(&"a".repeat(MAX_BIO_CHARS + 1)),
            Err(BioFault::TooLong)
        );
        // Counted as sent: white space that trimming would take off still counts.
        assert_eq!(
            checked_bio(&format!(" {}", "a".repeat(MAX_BIO_CHARS))),
            Err(BioFault::TooLong)
        );
    }
}
