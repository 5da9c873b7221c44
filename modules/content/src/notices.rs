//! The notices writers get by email when their piece goes live or a reviewer decides on it.

use kernel::outbox::Email;

use crate::service::ContentService;

impl ContentService {
    /// Tells writer `author` that their piece is live (when they get notices).
    pub(crate) async fn tell_published(&self, author: &str, title: &str, slug: &str) {
        if let Some(email) = self
            .notice(author, |site, name| {
                published_email(site, name, title, slug)
            })
            .await
        {
            if let Err(e) = self.store().queue_email(&email).await {
                tracing::warn!(error = %e, "queueing a published notice failed");
            }
        }
    }

    /// Tells writer `author` how a change they proposed to a live piece went: live (no note)
    /// or declined by `reviewer` (with their note, if any).
    pub(crate) async fn tell_change_decided(
        &self,
        author: &str,
        reviewer: &str,
        title: &str,
        slug: &str,
        declined: Option<Option<&str>>,
    ) {
        let email = self
            .notice(author, |site, name| match declined {
                None => (
                    format!("Your change is live: {title}"),
                    format!(
                        "Hi {name},\n\n{reviewer} approved your change to \"{title}\"; it is \
                         live now:\n{}/article/{slug}",
                        site.url
                    ),
                ),
                Some(note) => (
                    format!("Your change was not taken: {title}"),
                    format!(
                        "Hi {name},\n\n{reviewer} declined your change to \"{title}\"; the \
                         article stays as it was.{}\n\nYour dashboard: {}/dashboard/writer",
                        note.map(|n| format!("\n\nTheir note:\n\n{n}"))
                            .unwrap_or_default(),
                        site.url
                    ),
                ),
            })
            .await;
        if let Some(email) = email {
            if let Err(e) = self.store().queue_email(&email).await {
                tracing::warn!(error = %e, "queueing a change notice failed");
            }
        }
    }

    /// Tells the author of the published article `article_id` that the desk approved a
    /// response to it from `reader` (as the article names them). Plain text only: what the
    /// reader wrote is quoted as text, never as markup.
    pub async fn tell_response_approved(&self, article_id: &str, reader: &str, body: &str) {
        let cards = match self.published_cards(&[article_id.to_string()]).await {
            Ok(cards) => cards,
            Err(e) => {
                tracing::warn!(error = %e, "cannot find the article a response answers");
                return;
            }
        };
        let Some(card) = cards.first() else { return };
        let Some(author) = card.author_id.as_deref() else {
            return;
        };
        let quoted: String = body.lines().map(|l| format!("> {l}\n")).collect();
        let (title, slug) = (&card.title, &card.slug);
        if let Some(email) = self
            .notice(author, |site, name| {
                (
                    format!("A reader responded to \"{title}\""),
                    format!(
                        "Hi {name},\n\n{reader} responded to \"{title}\", and the desk approved \
                         it; it shows under your article now:\n{}/article/{slug}#responses\n\n\
                         {quoted}",
                        site.url
                    ),
                )
            })
            .await
        {
            if let Err(e) = self.store().queue_email(&email).await {
                tracing::warn!(error = %e, "queueing a response notice failed");
            }
        }
    }

    /// A notice for staff member `id`, when they get them (a failure to tell is logged: the
    /// change itself goes on).
    pub(crate) async fn notice(
        &self,
        id: &str,
        build: impl FnOnce(&Site<'_>, &str) -> (String, String),
    ) -> Option<Email> {
        let address = match self.authors().notice_address(id).await {
            Ok(Some(address)) => address,
            Ok(None) => return None,
            Err(e) => {
                tracing::warn!(error = %e, "cannot find where to send a newsroom notice");
                return None;
            }
        };
        let name = self
            .author_names(std::iter::once(&Some(id.to_string())))
            .await
            .ok()
            .and_then(|names| names.get(id).cloned())
            .unwrap_or_default();
        let settings = self.newsroom();
        let site = Site {
            url: &settings.site_url,
            name: &settings.site_name,
        };
        let (subject, body) = build(&site, &name);
        Some(Email {
            html: None,
            to: vec![address],
            reply_to: None,
            subject,
            body: format!(
                "{body}\n\nYou get these emails because you write for {}. To stop them, untick \
                 \"Email me newsroom notices\" on your dashboard: {}/dashboard/writer\n",
                site.name, site.url
            ),
            attachments: vec![],
            list_unsubscribe: None,
        })
    }
}

/// The site's address and name, for notices.
pub(crate) struct Site<'a> {
    pub url: &'a str,
    pub name: &'a str,
}

pub(crate) fn changes_requested_email(
    site: &Site<'_>,
    name: &str,
    reviewer: &str,
    title: &str,
    note: &str,
) -> (String, String) {
    (
        format!("Changes requested: {title}"),
        format!(
            "Hi {name},\n\n{reviewer} read \"{title}\" and asked for changes:\n\n{note}\n\n\
             Open it in your notebook, make the changes and submit it again: {}/dashboard/writer",
            site.url
        ),
    )
}

pub(crate) fn published_email(
    site: &Site<'_>,
    name: &str,
    title: &str,
    slug: &str,
) -> (String, String) {
    (
        format!("Published: {title}"),
        format!(
            "Hi {name},\n\n\"{title}\" is live on {}:\n{}/article/{slug}",
            site.name, site.url
        ),
    )
}
