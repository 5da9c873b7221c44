//! Who may do what with the media: the media module's own rules.

use identity::{Role, StaffAction};

/// What staff do with magazines, packs and images.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MediaAction {
    /// Upload, rename, publish, take back and delete magazine issues.
    ManageIssues,
    /// Upload the packs' files, launch them and see their downloads.
    ManagePacks,
    /// Download a pack (teachers, and the admin who checks them).
    DownloadPacks,
    /// Upload a cover image: an article's (writers, content directors) or an issue's (admin).
    UploadCovers,
}

impl StaffAction for MediaAction {
    fn permitted(self, role: Role) -> bool {
        use MediaAction::*;
        match (self, role) {
            (ManageIssues | ManagePacks, Role::Admin) => true,
            (ManageIssues | ManagePacks, Role::Writer | Role::Educator | Role::ContentDirector) => {
                false
            }
            (DownloadPacks, Role::Educator | Role::Admin) => true,
            (DownloadPacks, Role::Writer | Role::ContentDirector) => false,
            (UploadCovers, Role::Writer | Role::ContentDirector | Role::Admin) => true,
            (UploadCovers, Role::Educator) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn who_may() {
        use Role::*;
        assert_eq!(MediaAction::ManageIssues.roles(), [Admin]);
        assert_eq!(MediaAction::ManagePacks.roles(), [Admin]);
        assert_eq!(MediaAction::DownloadPacks.roles(), [Admin, Educator]);
        assert_eq!(
            MediaAction::UploadCovers.roles(),
            [Admin, Writer, ContentDirector]
        );
    }
}
