//! The two kinds of principal that sign in: staff (with an access key; the `users` table) and
//! readers (with an email and a password or an emailed link; the `accounts` table). Each kind
//! has its own cookie and its own sessions table, so a session of one kind never opens the
//! other kind's doors, whatever cookie it is sent in.

/// Who a session belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Staff,
    Reader,
}

impl Kind {
    pub const ALL: [Kind; 2] = [Kind::Staff, Kind::Reader];

    /// The cookie that carries this kind's session token.
    pub fn cookie_name(self) -> &'static str {
        match self {
            Kind::Staff => "agora_session",
            Kind::Reader => "agora_reader",
        }
    }

    pub(crate) fn sessions_table(self) -> &'static str {
        match self {
            Kind::Staff => "sessions",
            Kind::Reader => "reader_sessions",
        }
    }

    pub(crate) fn owner_column(self) -> &'static str {
        match self {
            Kind::Staff => "user_id",
            Kind::Reader => "account_id",
        }
    }

    /// The principals whose sessions open anything: active staff, readers who confirmed
    /// their address.
    pub(crate) fn usable_owners(self) -> &'static str {
        match self {
            Kind::Staff => "SELECT id FROM users WHERE active = TRUE",
            Kind::Reader => "SELECT id FROM accounts WHERE confirmed_at IS NOT NULL",
        }
    }
}

/// A signed-in reader: their account, and the session's token (a password change keeps this
/// session and ends the others).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reader {
    pub account: String,
    pub token: String,
}
