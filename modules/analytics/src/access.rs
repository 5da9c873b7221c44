//! Who may see the figures: the analytics module's own rule.

use identity::{Role, StaffAction};

/// What staff do with the page-view figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatsAction {
    /// See the admin dashboard's figures.
    View,
}

impl StaffAction for StatsAction {
    fn permitted(self, role: Role) -> bool {
        match (self, role) {
            (StatsAction::View, Role::Admin) => true,
            (StatsAction::View, Role::Writer | Role::Educator | Role::ContentDirector) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn who_may() {
        use Role::*;
        assert_eq!(StatsAction::View.roles(), [Admin]);
    }
}
