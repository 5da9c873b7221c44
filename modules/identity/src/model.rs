//! Staff roles and the signed-in staff member as the API shows it.

use std::fmt;

use poem_openapi::{Enum, Object};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Enum, Serialize, Deserialize)]
#[oai(rename_all = "kebab-case")]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    Admin,
    Writer,
    Educator,
    ContentDirector,
}

impl Role {
    pub const ALL: [Role; 4] = [
        Role::Admin,
        Role::Writer,
        Role::Educator,
        Role::ContentDirector,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Writer => "writer",
            Role::Educator => "educator",
            Role::ContentDirector => "content-director",
        }
    }

    /// How the role is named to readers.
    pub fn label(self) -> &'static str {
        match self {
            Role::Admin => "Editor",
            Role::Writer => "Writer",
            Role::Educator => "Educator",
            Role::ContentDirector => "Content Director",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == s)
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A staff member as the browser may know them: never the key.
#[derive(Debug, Clone, PartialEq, Eq, Object, Serialize, Deserialize)]
pub struct StaffUser {
    pub id: String,
    pub name: String,
    pub role: Role,
}

/// A staff member as the admin tools see them.
#[derive(Debug, Clone, PartialEq, Eq, Object, Serialize, Deserialize)]
pub struct StaffRecord {
    pub id: String,
    pub name: String,
    pub role: Role,
    pub active: bool,
    pub created_at: chrono::DateTime<chrono::Utc>,
    /// When they last signed in; null until they first do.
    #[oai(nullable)]
    pub last_login_at: Option<chrono::DateTime<chrono::Utc>>,
}

/// An author the content director may write on behalf of.
#[derive(Debug, Clone, PartialEq, Eq, Object, Serialize, Deserialize)]
pub struct Writer {
    pub id: String,
    pub name: String,
}

/// Where a staff member gets newsroom notices (changes requested on their piece, their piece
/// published), and whether they want them.
#[derive(Debug, Clone, PartialEq, Eq, Object, Serialize, Deserialize)]
#[oai(deny_unknown_fields)]
pub struct StaffNotices {
    /// Their email address; absent, `null` or empty: no email.
    #[oai(nullable)]
    pub email: Option<kernel::text::Text<kernel::text::EmailOrNothing>>,
    /// Whether to send them (on by default, once an address is given).
    pub notify: bool,
}
