//! Who may manage the staff: the identity module's own rules.

use crate::guard::StaffAction;
use crate::model::Role;

/// What staff do with the staff list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StaffListAction {
    /// Add, disable, enable or re-key staff members, and see them all.
    Manage,
    /// See the active writers (to write on behalf of one).
    ListWriters,
}

impl StaffAction for StaffListAction {
    fn permitted(self, role: Role) -> bool {
        match (self, role) {
            (StaffListAction::Manage, Role::Admin) => true,
            (StaffListAction::ListWriters, Role::ContentDirector) => true,
            (_, Role::Admin | Role::Writer | Role::Educator | Role::ContentDirector) => false,
        }
    }
}

/// What staff do with contributors' profiles (their public pages).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProfileAction {
    /// Read and change one's own: anyone who writes (educators have no page).
    EditOwn,
    /// Read and change anyone's: those who run the site and its content.
    EditAnyone,
}

impl StaffAction for ProfileAction {
    fn permitted(self, role: Role) -> bool {
        match (self, role) {
            (ProfileAction::EditOwn, Role::Admin | Role::Writer | Role::ContentDirector) => true,
            (ProfileAction::EditAnyone, Role::Admin | Role::ContentDirector) => true,
            (ProfileAction::EditOwn, Role::Educator)
            | (ProfileAction::EditAnyone, Role::Writer | Role::Educator) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn who_may() {
        use Role::*;
        assert_eq!(StaffListAction::Manage.roles(), [Admin]);
        assert_eq!(StaffListAction::ListWriters.roles(), [ContentDirector]);
        assert_eq!(
            ProfileAction::EditOwn.roles(),
            [Admin, Writer, ContentDirector]
        );
        assert_eq!(ProfileAction::EditAnyone.roles(), [Admin, ContentDirector]);
    }
}
