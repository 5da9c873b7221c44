//! What a reader sees after following a link from one of our emails: a heading, a line, a way
//! on, and whether it worked. The site shows it as a page of its own (header, footer, styled,
//! server-rendered) at the addresses the emails link to; the API's older link addresses show
//! the same words on a plain page, so links in emails already sent keep working.

use serde::Serialize;

use crate::service::OutreachService;
use crate::store::Confirmation;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Landing {
    pub heading: String,
    pub text: String,
    /// Where the reader may go next, and its label.
    pub link_href: &'static str,
    pub link_label: &'static str,
    /// The HTTP status of the page: 200 when the link worked.
    pub status: u16,
    /// A button that acts on the link, posted as a form (opening a link never acts by
    /// itself: mail scanners open links).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<LandingAction>,
}

/// A form on a landing page: its `intent`, its button's label and the link's token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LandingAction {
    pub intent: &'static str,
    pub label: &'static str,
    pub token: String,
}

/// What an unsubscribe link is for, in words: "emails about the magazine's launch".
fn list_words(list: &str) -> &'static str {
    match list {
        "magazine" => "emails about the magazine's launch and new issues",
        "packs" => "emails about the educational packs' launch",
        _ => "the weekly digest",
    }
}

const HOME: (&str, &str) = ("/", "Back to Home");
const LOGIN: (&str, &str) = ("/login", "Go to login");

fn landing(
    heading: impl Into<String>,
    text: impl Into<String>,
    link: (&'static str, &'static str),
    status: u16,
) -> Landing {
    Landing {
        heading: heading.into(),
        text: text.into(),
        link_href: link.0,
        link_label: link.1,
        status,
        action: None,
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
                410,
            ),
            Ok(Confirmation::Unknown) => landing(
                "Link not recognised",
                "This confirmation link is not valid. It may have been copied incompletely.",
                HOME,
                404,
            ),
            Err(e) => {
                tracing::error!(error = ?e, "account confirmation failed");
                went_wrong()
            }
        }
    }

    /// What an unsubscribe link leads to: the list it is for and one press to leave it (or,
    /// once left, to come back). Opening the link changes nothing.
    pub async fn unsubscribe_landing(&self, token: &str) -> Landing {
        let target = match self.unsubscribe_target(token).await {
            Ok(target) => target,
            Err(e) => {
                tracing::error!(error = ?e, "unsubscribe link lookup failed");
                return went_wrong();
            }
        };
        let Some((list, subscribed)) = target else {
            return not_recognised();
        };
        let words = list_words(&list);
        let (page, action) = if subscribed {
            (
                landing(
                    "Unsubscribe?",
                    format!("You get {words}. Press Unsubscribe to stop them."),
                    HOME,
                    200,
                ),
                LandingAction {
                    intent: "unsubscribe",
                    label: "Unsubscribe",
                    token: token.to_string(),
                },
            )
        } else {
            (
                landing(
                    "You're unsubscribed",
                    format!("You won't get {words} any more. Changed your mind?"),
                    HOME,
                    200,
                ),
                LandingAction {
                    intent: "resubscribe",
                    label: "Resubscribe",
                    token: token.to_string(),
                },
            )
        };
        Landing {
            action: Some(action),
            ..page
        }
    }

    async fn unsubscribe_target(
        &self,
        token: &str,
    ) -> Result<Option<(String, bool)>, crate::service::OutreachError> {
        if token.is_empty() || token.len() > 200 {
            return Ok(None);
        }
        Ok(self
            .store
            .unsubscribe_target(&kernel::secret::hash_token(token))
            .await?)
    }

    /// Takes the link's reader off its list (pressed on the page, or a mail client's
    /// one-click POST): what they left, in words, or `None` for an unknown link.
    pub async fn unsubscribe_words(
        &self,
        token: &str,
    ) -> Result<Option<&'static str>, crate::service::OutreachError> {
        let Some((list, _)) = self.unsubscribe_target(token).await? else {
            return Ok(None);
        };
        self.unsubscribe(token).await?;
        Ok(Some(list_words(&list)))
    }

    /// Puts the link's reader back on its list: what they rejoined, in words.
    pub async fn resubscribe_words(
        &self,
        token: &str,
    ) -> Result<Option<&'static str>, crate::service::OutreachError> {
        let Some((list, _)) = self.unsubscribe_target(token).await? else {
            return Ok(None);
        };
        let digest_hash = kernel::secret::hash_token(&kernel::secret::new_token());
        self.store
            .resubscribe(
                &kernel::secret::hash_token(token),
                self.clock.now(),
                &digest_hash,
            )
            .await?;
        Ok(Some(list_words(&list)))
    }

    /// What a mail client's one-click unsubscribe (RFC 8058) answers, on a plain page.
    pub async fn one_click_landing(&self, token: &str) -> Landing {
        match self.unsubscribe_words(token).await {
            Ok(Some(words)) => landing(
                "You're unsubscribed",
                format!("You won't get {words} any more."),
                HOME,
                200,
            ),
            Ok(None) => not_recognised(),
            Err(e) => {
                tracing::error!(error = ?e, "unsubscribe failed");
                went_wrong()
            }
        }
    }
}

fn not_recognised() -> Landing {
    landing(
        "Link not recognised",
        "This unsubscribe link is not valid. It may have been copied incompletely.",
        HOME,
        404,
    )
}
