//! What visitors send.

use kernel::text::{Anything, Asked, EmailAddress, NotBlank, Optional, Required, Text};
use poem_openapi::{Enum, Object};
use serde::{Deserialize, Serialize};

use crate::accounts::{Interest, MAX_PASSWORD_CHARS, MIN_PASSWORD_CHARS};
use crate::service::{MAX_MESSAGE_CHARS, MAX_NAME_CHARS, MAX_SUBJECT_CHARS};

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
/// base64). The fields the product requires are marked so; a form without one is still read,
/// and answered in the product's order and wording ("Please fill in all required fields.").
///
/// Only its schema is used: the form is read part by part as it arrives (see `api.rs`).
#[derive(Debug, poem_openapi::Multipart)]
#[allow(dead_code)]
pub struct ApplicationForm {
    pub full_name: String,
    /// Whole years; at least 14.
    pub age: String,
    pub country: String,
    pub email: String,
    pub time_zone: String,
    /// Hours per week; at least 1.
    pub weekly_availability: String,
    /// One of B2, C1, C2, Native.
    pub english_level: String,
    pub how_did_you_hear: Option<String>,
    pub previous_experience: Option<String>,
    /// Role ids, one part per role (editorial-writer, copy-editor, research-assistant,
    /// educational-pack-developer, communications-outreach-director, communications-assistant,
    /// design-director, graphic-designer).
    #[oai(default)]
    pub roles: Vec<String>,
    /// CV (.pdf, .doc or .docx, at most 10 MB).
    pub cv_file: Option<poem_openapi::types::multipart::Upload>,
    /// Portfolio link (http or https), or a file in `portfolio_file`, not both.
    pub portfolio: Option<String>,
    pub portfolio_file: Option<poem_openapi::types::multipart::Upload>,
    /// Writing samples link, or a file in `writing_samples_file`, not both.
    pub writing_samples: Option<String>,
    pub writing_samples_file: Option<poem_openapi::types::multipart::Upload>,
    /// Research samples link, or a file in `research_samples_file`, not both (optional).
    pub research_samples: Option<String>,
    pub research_samples_file: Option<poem_openapi::types::multipart::Upload>,
    pub why_join: String,
    pub contribution: String,
    pub additional: Option<String>,
    /// Left empty by people; bots fill it in.
    pub website: Option<String>,
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
    pub age: Option<i64>,
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
