//! Staff roles.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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

    pub fn parse(s: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == s)
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
