//! What a reader sees after following a link from one of our emails: a heading, a line, a way
//! on, and whether it worked. The site shows it as a page of its own (header, footer, styled,
//! server-rendered) at the addresses the emails link to; the API's older link addresses show
//! the same words on a plain page, so links in emails already sent keep working.

use serde::Serialize;

use crate::service::OutreachService;
use crate::store::Confirmation;

/// The page a confirmation email links to (`?token=…`).
pub const CONFIRM_PAGE: &str = "/email/confirm";
/// The page every notify email links to for unsubscribing (`?token=…`).
pub const UNSUBSCRIBE_PAGE: &str = "/email/unsubscribe";

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Landing {
    pub heading: &'static str,
    pub text: &'static str,
    /// Where the reader may go next, and its label.
    pub link_href: &'static str,
    pub link_label: &'static str,
    /// The HTTP status of the page: 200 when the link worked.
    pub status: u16,
}

const HOME: (&str, &str) = ("/", "Back to Home");
const LOGIN: (&str, &str) = ("/login", "Go to login");

fn landing(
    heading: &'static str,
    text: &'static str,
    link: (&'static str, &'static str),
    status: u16,
) -> Landing {
    Landing {
        heading,
        text,
        link_href: link.0,
        link_label: link.1,
        status,
    }
}

fn went_wrong() -> Landing {
    landing(
        "Something went wrong",
        "Please try the link again in a moment.",
        HOME,
        503,
    )
}

impl OutreachService {
    /// Confirms the account of the link's token (once), and says how it went.
    pub async fn confirm_landing(&self, token: &str) -> Landing {
        match self.confirm_account(token).await {
            Ok(Confirmation::Confirmed) => landing(
                "Your email is confirmed",
                "Thank you! Your account is now active.",
                LOGIN,
                200,
            ),
            Ok(Confirmation::AlreadyUsed) => landing(
                "Already confirmed",
                "This link has already been used, and your account is active.",
                LOGIN,
                200,
            ),
            Ok(Confirmation::Expired) => landing(
                "This link has expired",
                "Confirmation links work for a limited time. Register again with the same email address and we'll send you a new link.",
                ("/signup", "Register again"),
                400,
            ),
            Ok(Confirmation::Unknown) => landing(
                "Link not recognised",
                "This confirmation link is not valid. It may have been copied incompletely.",
                HOME,
                400,
            ),
            Err(e) => {
                tracing::error!(error = ?e, "account confirmation failed");
                went_wrong()
            }
        }
    }

    /// Takes the link's address off its list (any number of times), and says how it went.
    pub async fn unsubscribe_landing(&self, token: &str) -> Landing {
        match self.unsubscribe(token).await {
            Ok(true) => landing(
                "You're unsubscribed",
                "You won't get these emails any more.",
                HOME,
                200,
            ),
            Ok(false) => landing(
                "Link not recognised",
                "This unsubscribe link is not valid. It may have been copied incompletely.",
                HOME,
                404,
            ),
            Err(e) => {
                tracing::error!(error = ?e, "unsubscribe failed");
                went_wrong()
            }
        }
    }
}
