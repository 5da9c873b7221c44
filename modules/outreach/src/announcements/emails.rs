//! The announcement emails: each one composed once with the recipient's places (`{greeting}`,
//! `{unsubscribe}`) left in it, then filled in for every recipient as they are queued.

use kernel::outbox::Email;
use kernel::secret::{hash_token, new_token};

use super::store::{AnnouncementRow, Delivery, Recipient};
use super::{AnnouncedIssue, Announcements};
use crate::email_html::{self, greeting, greeting_html, Item, Letter, Picture, Site};
use crate::links::UNSUBSCRIBE_PAGE;

/// Where each recipient's own unsubscribe link goes in a body.
pub(super) const UNSUBSCRIBE: &str = "{unsubscribe}";
/// Where each recipient's greeting ("Hi Maya!", or "Hi!" when we do not know their name) goes.
pub(super) const GREETING: &str = "{greeting}";
/// The site's own picture (1200×630 JPEG), for an announcement without a cover.
const SITE_CARD: &str = "/social/site.jpg";

/// An email before its recipient is known: `{greeting}` and `{unsubscribe}` still in it.
pub(super) struct Composed {
    pub(super) subject: String,
    pub(super) body: String,
    pub(super) html: String,
}

impl Announcements {
    fn site(&self) -> Site<'_> {
        Site {
            name: &self.settings.site_name,
            url: &self.settings.site_url,
        }
    }

    /// The HTML part of an announcement of `item`, with the recipient's places left in it.
    fn html(&self, preheader: &str, intro: &str, item: Item, why: &str) -> String {
        email_html::render(&Letter {
            site: self.site(),
            preheader,
            greeting: GREETING,
            intro,
            items: &[item],
            why,
            unsubscribe: UNSUBSCRIBE,
            manage: None,
        })
    }

    pub(super) fn magazine_email(&self, issue: &AnnouncedIssue) -> Composed {
        let s = &self.settings;
        let href = format!("{}/magazine/{}", s.site_url, issue.slug);
        let why = "You're getting this because you asked to hear when the magazine is published.";
        let item = Item {
            picture: Some(Picture {
                src: self.site().absolute(&issue.cover_url),
                width: 280,
                height: 373,
                alt: format!("Cover of {}", issue.title),
            }),
            eyebrow: Some("New issue".to_string()),
            title: issue.title.clone(),
            description: issue.description.clone(),
            button: "Read the issue".to_string(),
            href: href.clone(),
        };
        let intro = format!(
            "A new issue of the magazine from {} is out, free to read online or as a PDF.",
            s.site_name
        );
        Composed {
            subject: format!("New from {}: {}", s.site_name, issue.title),
            body: format!(
                "{GREETING}\n\nA new issue of the magazine from {name} is out: {title}.\n\n{description}\n\n\
                 Read it (free, online or as a PDF):\n{href}\n\n\
                 {why} Unsubscribe with one click:\n{UNSUBSCRIBE}\n",
                name = s.site_name,
                title = issue.title,
                description = issue.description,
            ),
            html: self.html(&issue.description, &intro, item, why),
        }
    }

    pub(super) fn packs_email(&self) -> Composed {
        let s = &self.settings;
        let href = format!("{}/educational-packs", s.site_url);
        let what = "Classroom-ready resources on democracy, climate policy and human rights for \
                    students aged 13-18, in English and Spanish, with a teacher's guide.";
        let why = "You're getting this because you asked to hear when the packs launch.";
        let item = Item {
            picture: Some(Picture {
                src: format!("{}{SITE_CARD}", s.site_url),
                width: 552,
                height: 290,
                alt: String::new(),
            }),
            eyebrow: Some("Now available".to_string()),
            title: "The educational packs".to_string(),
            description: what.to_string(),
            button: "Download the packs".to_string(),
            href: href.clone(),
        };
        let intro = format!("The educational packs from {} are here.", s.site_name);
        Composed {
            subject: format!("The educational packs from {} are here", s.site_name),
            body: format!(
                "{GREETING}\n\nThe educational packs from {name} are now available: classroom-ready \
                 resources on democracy, climate policy and human rights for students aged \
                 13-18, in English and Spanish, with a teacher's guide.\n\n\
                 Download them here:\n{href}\n\n\
                 {why} Unsubscribe with one click:\n{UNSUBSCRIBE}\n",
                name = s.site_name,
            ),
            html: self.html(what, &intro, item, why),
        }
    }

    pub(super) fn delivery(&self, row: &AnnouncementRow, recipient: Recipient) -> Delivery {
        let token = new_token();
        let s = &self.settings;
        let link = format!("{}{UNSUBSCRIBE_PAGE}?token={token}", s.site_url);
        let name = recipient.first_name.as_deref();
        Delivery {
            unsubscribe_hash: hash_token(&token),
            message: Email {
                to: vec![recipient.email.clone()],
                reply_to: None,
                subject: row.subject.clone(),
                body: row
                    .body
                    .replace(GREETING, &greeting(name))
                    .replace(UNSUBSCRIBE, &link),
                html: row.html.as_ref().map(|html| {
                    html.replace(GREETING, &greeting_html(name))
                        .replace(UNSUBSCRIBE, &link)
                }),
                attachments: vec![],
                list_unsubscribe: Some(format!(
                    "{}/api/v1/notify/unsubscribe?token={token}",
                    s.site_url
                )),
            },
            email: recipient.email,
        }
    }
}
