//! What visitors send.

use kernel::text::{
    Anything, Asked, EmailAddress, NotBlank, Optional, Required, Rule, Text, Whole, SPACE,
};
use poem_openapi::{Enum, Object};
use serde::{Deserialize, Serialize};

use crate::limits::{
    Interest, ENGLISH_LEVELS, MAX_LINK_CHARS, MAX_LONG_ANSWER, MAX_MESSAGE_CHARS, MAX_NAME_CHARS,
    MAX_PASSWORD_CHARS, MAX_READER_AGE, MAX_SHORT_ANSWER, MAX_SUBJECT_CHARS, MIN_AGE,
    MIN_PASSWORD_CHARS, MIN_READER_AGE, MIN_WEEKLY_HOURS, ROLES,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize, Deserialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum NotifyList {
    Magazine,
    Packs,
}

impl NotifyList {
    pub(crate) fn table(self) -> &'static str {
        match self {
            NotifyList::Magazine => "magazine_notifications",
            NotifyList::Packs => "pack_notifications",
        }
    }

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            NotifyList::Magazine => "magazine",
            NotifyList::Packs => "packs",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<NotifyList> {
        [NotifyList::Magazine, NotifyList::Packs]
            .into_iter()
            .find(|l| l.as_str() == s)
    }

    pub(crate) fn label(self) -> &'static str {
        match self {
            NotifyList::Magazine => "the magazine",
            NotifyList::Packs => "the educational packs",
        }
    }

    /// "is" or "are", agreeing with the label ("the educational packs are live").
    pub(crate) fn verb(self) -> &'static str {
        match self {
            NotifyList::Magazine => "is",
            NotifyList::Packs => "are",
        }
    }
}

#[derive(Debug, Clone, Object, Serialize, Deserialize)]
#[oai(deny_unknown_fields)]
pub struct NotifyInput {
    pub email: Text<EmailAddress>,
    pub list: NotifyList,
    /// Left empty by people; bots fill it in.
    #[serde(default)]
    pub website: Text<Anything>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize, Deserialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum InquiryType {
    General,
    Education,
}

#[derive(Debug, Clone, Object, Serialize, Deserialize)]
#[oai(deny_unknown_fields)]
pub struct ContactInput {
    #[serde(default)]
    pub first_name: Text<Required<MAX_NAME_CHARS>>,
    #[serde(default)]
    pub last_name: Text<Required<MAX_NAME_CHARS>>,
    #[serde(default)]
    pub email: Text<EmailAddress>,
    #[serde(default)]
    pub subject: Text<Required<MAX_SUBJECT_CHARS>>,
    #[serde(default)]
    pub inquiry_type: Asked<InquiryType>,
    #[serde(default)]
    pub message: Text<Required<MAX_MESSAGE_CHARS>>,
    /// Left empty by people; bots fill it in.
    #[serde(default)]
    pub website: Text<Anything>,
}

#[derive(Debug, Clone, Object, Serialize, Deserialize)]
pub struct Accepted {
    pub message: String,
}

/// The contributor application, sent as `multipart/form-data` (files are real file parts, not
/// base64). The contract states each field's rule; a form that breaks one is still read, and
/// answered in the product's order and wording ("Please fill in all required fields.", 400).
/// Rules across fields (a portfolio for a designer, a link or a file) are answered 422, a
/// document of another kind 415. Parts the form does not name are ignored (the site's own
/// no-script form sends its bookkeeping along), but the contract names them all.
///
/// Only its schema is used: the form is read part by part as it arrives (see `api.rs`).
#[derive(Debug, poem_openapi::Multipart)]
#[allow(dead_code)]
pub struct ApplicationForm {
    pub full_name: Text<Required<MAX_SHORT_ANSWER>>,
    /// Whole years; at least 14.
    pub age: Text<Age>,
    pub country: Text<Required<MAX_SHORT_ANSWER>>,
    pub email: Text<EmailAddress>,
    pub time_zone: Text<Required<MAX_SHORT_ANSWER>>,
    /// Hours per week, 1 to 168.
    pub weekly_availability: Text<WeeklyHours>,
    pub english_level: Text<EnglishLevel>,
    pub how_did_you_hear: Text<Optional<MAX_SHORT_ANSWER>>,
    pub previous_experience: Text<Optional<MAX_LONG_ANSWER>>,
    /// Role ids, one part per role.
    #[oai(validator(min_items = 1, max_items = 8))]
    pub roles: Vec<Text<RoleId>>,
    /// CV (.pdf, .doc or .docx, at most 10 MB).
    pub cv_file: Option<poem_openapi::types::multipart::Upload>,
    /// Portfolio link (http or https), or a file in `portfolio_file`, not both.
    pub portfolio: Text<WebLink>,
    pub portfolio_file: Option<poem_openapi::types::multipart::Upload>,
    /// Writing samples link, or a file in `writing_samples_file`, not both.
    pub writing_samples: Text<WebLink>,
    pub writing_samples_file: Option<poem_openapi::types::multipart::Upload>,
    /// Research samples link, or a file in `research_samples_file`, not both (optional).
    pub research_samples: Text<WebLink>,
    pub research_samples_file: Option<poem_openapi::types::multipart::Upload>,
    pub why_join: Text<Required<MAX_LONG_ANSWER>>,
    pub contribution: Text<Required<MAX_LONG_ANSWER>>,
    pub additional: Text<Optional<MAX_LONG_ANSWER>>,
    /// Left empty by people; bots fill it in.
    pub website: Text<Anything>,
}

/// An applicant's age: whole years from [`MIN_AGE`] to 120, white space around allowed.
pub struct Age;

const _: () = assert!(MIN_AGE == 14, "the pattern below spells the minimum age");

impl Rule for Age {
    fn pattern() -> Option<String> {
        Some(format!(
            "^[{SPACE}]*(1[4-9]|[2-9][0-9]|1[01][0-9]|120)[{SPACE}]*$"
        ))
    }
}

/// Hours a week: a whole number from [`MIN_WEEKLY_HOURS`] to 168, white space around allowed.
pub struct WeeklyHours;

const _: () = assert!(
    MIN_WEEKLY_HOURS == 1,
    "the pattern below spells the minimum"
);

impl Rule for WeeklyHours {
    fn pattern() -> Option<String> {
        Some(format!(
            "^[{SPACE}]*([1-9]|[1-9][0-9]|1[0-5][0-9]|16[0-8])[{SPACE}]*$"
        ))
    }
}

/// One of [`ENGLISH_LEVELS`].
pub struct EnglishLevel;

impl Rule for EnglishLevel {
    const CHOICES: &'static [&'static str] = &ENGLISH_LEVELS;
}

/// One of the roles' ids ([`ROLES`]).
pub struct RoleId;

const ROLE_IDS: [&str; ROLES.len()] = {
    let mut ids = [""; ROLES.len()];
    let mut i = 0;
    while i < ROLES.len() {
        ids[i] = ROLES[i].0;
        i += 1;
    }
    ids
};

impl Rule for RoleId {
    const CHOICES: &'static [&'static str] = &ROLE_IDS;
}

/// A web link (`http://` or `https://`, a dot after it, no white space inside), or nothing.
pub struct WebLink;

impl Rule for WebLink {
    const REQUIRED: bool = false;
    const MAX_LENGTH: Option<usize> = Some(MAX_LINK_CHARS);
    fn pattern() -> Option<String> {
        let solid = format!("[^\\u0000{SPACE}]");
        Some(format!(
            "^[{SPACE}]*$|^[{SPACE}]*https?://{solid}+\\.{solid}+[{SPACE}]*$"
        ))
    }
}

#[derive(Debug, Clone, Object, Serialize, Deserialize)]
pub struct ApplicationAccepted {
    pub message: String,
    /// How many files were stored and attached to the team's email.
    pub attachments: u32,
}

#[derive(Debug, Clone, Object, Serialize, Deserialize)]
#[oai(deny_unknown_fields)]
pub struct RegistrationInput {
    #[serde(default)]
    pub first_name: Text<Required<MAX_NAME_CHARS>>,
    #[serde(default)]
    pub last_name: Text<Required<MAX_NAME_CHARS>>,
    #[serde(default)]
    pub email: Text<EmailAddress>,
    #[serde(default)]
    pub password: Text<NotBlank<MIN_PASSWORD_CHARS, MAX_PASSWORD_CHARS>>,
    /// The same password again.
    #[serde(default)]
    pub confirm_password: Text<NotBlank<MIN_PASSWORD_CHARS, MAX_PASSWORD_CHARS>>,
    /// 13-25 when given.
    pub age: Option<Whole<MIN_READER_AGE, MAX_READER_AGE>>,
    #[serde(default)]
    pub country: Text<Optional<MAX_NAME_CHARS>>,
    /// Any of: International Affairs, Youth Activism, Human Rights, Climate Justice,
    /// Culture & Politics, Digital Politics.
    #[oai(default)]
    #[serde(default)]
    pub interests: Vec<Text<Interest>>,
    /// Email me when the magazine launches (applied once the address is confirmed).
    #[oai(default)]
    #[serde(default)]
    pub notify_magazine: bool,
    /// Email me when the educational packs launch (applied once the address is confirmed).
    #[oai(default)]
    #[serde(default)]
    pub notify_packs: bool,
    /// A weekly digest of new articles on my interests (applied once the address is
    /// confirmed).
    #[oai(default)]
    #[serde(default)]
    pub weekly_digest: bool,
    /// Left empty by people; bots fill it in.
    #[serde(default)]
    pub website: Text<Anything>,
}
