//! Who may do what with outreach: the outreach module's own rules.

use identity::{Role, StaffAction};

/// What staff do with readers' messages, applications and the lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutreachAction {
    /// Open an applicant's documents (the team that answers applications).
    ReadApplications,
    /// Preview and send an announcement to a list.
    Announce,
}

impl StaffAction for OutreachAction {
    fn permitted(self, role: Role) -> bool {
        use OutreachAction::*;
        match (self, role) {
            (ReadApplications, Role::Admin | Role::ContentDirector) => true,
            (ReadApplications, Role::Writer | Role::Educator) => false,
            (Announce, Role::Admin) => true,
            (Announce, Role::Writer | Role::Educator | Role::ContentDirector) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn who_may_do_what_with_outreach() {
        use Role::*;
        let table: [(OutreachAction, &[Role]); 2] = [
            (OutreachAction::ReadApplications, &[Admin, ContentDirector]),
            (OutreachAction::Announce, &[Admin]),
        ];
        for (action, allowed) in table {
            for role in Role::ALL {
                assert_eq!(
                    action.permitted(role),
                    allowed.contains(&role),
                    "{action:?} by {role:?}"
                );
            }
        }
    }
}
