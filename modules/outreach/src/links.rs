//! Where the links in our emails lead.

/// The page a confirmation email links to (`?token=…`).
pub const CONFIRM_PAGE: &str = "/email/confirm";
/// The page every notify email links to for unsubscribing (`?token=…`).
pub const UNSUBSCRIBE_PAGE: &str = "/email/unsubscribe";
