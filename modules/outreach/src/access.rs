//! Who may do what with outreach: the outreach module's own rules.

use identity::{Role, StaffAction};

/// What staff do with readers' messages, applications and the lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutreachAction {
    /// Open an applicant's documents (the team that answers applications).
    ReadApplications,
    /// Preview and send an announcement to a list.
    Announce,
    /// Approve, reject and block readers' responses; close an article's responses.
    Moderate,
}

impl StaffAction for OutreachAction {
    fn permitted(self, role: Role) -> bool {
        use OutreachAction::*;
        match (self, role) {
            (ReadApplications, Role::Admin | Role::ContentDirector) => true,
            (ReadApplications, Role::Writer | Role::Educator) => false,
            (Announce, Role::Admin) => true,
            (Announce, Role::Writer | Role::Educator | Role::ContentDirector) => false,
            (Moderate, Role::Admin | Role::ContentDirector) => true,
            (Moderate, Role::Writer | Role::Educator) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn who_may() {
        use Role::*;
        assert_eq!(
            OutreachAction::ReadApplications.roles(),
            [Admin, ContentDirector]
        );
        assert_eq!(OutreachAction::Announce.roles(), [Admin]);
        assert_eq!(OutreachAction::Moderate.roles(), [Admin, ContentDirector]);
    }
}
