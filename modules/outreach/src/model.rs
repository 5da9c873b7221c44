//! What visitors send.

use poem_openapi::{Enum, Object};
use serde::{Deserialize, Serialize};

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

    pub(crate) fn label(self) -> &'static str {
        match self {
            NotifyList::Magazine => "the magazine",
            NotifyList::Packs => "the educational packs",
        }
    }
}

#[derive(Debug, Clone, Object, Serialize, Deserialize)]
pub struct NotifyInput {
    pub email: String,
    pub list: NotifyList,
    /// Left empty by people; bots fill it in.
    #[oai(default)]
    #[serde(default)]
    pub website: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize, Deserialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum InquiryType {
    General,
    Education,
}

#[derive(Debug, Clone, Object, Serialize, Deserialize)]
pub struct ContactInput {
    #[oai(default)]
    pub first_name: String,
    #[oai(default)]
    pub last_name: String,
    #[oai(default)]
    pub email: String,
    #[oai(default)]
    pub subject: String,
    pub inquiry_type: Option<InquiryType>,
    #[oai(default)]
    pub message: String,
    /// Left empty by people; bots fill it in.
    #[oai(default)]
    #[serde(default)]
    pub website: String,
}

#[derive(Debug, Clone, Object, Serialize, Deserialize)]
pub struct Accepted {
    pub message: String,
}
