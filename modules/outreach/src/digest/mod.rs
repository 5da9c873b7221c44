//! The weekly digest: on the configured day and hour (UTC), each reader subscribed to it gets
//! the articles first published in the week before, in their interests; a reader with
//! nothing new gets nothing. The run of a week is claimed in the database, so it happens once
//! however many app instances run the job (and a run left unfinished by a stopped instance
//! is taken over); each reader gets one digest per week (a primary key).

mod store;

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Datelike, Duration, TimeZone, Utc, Weekday};
use kernel::outbox::Email;
use kernel::secret::{hash_token, new_token};

pub use store::{digest_store_for, DigestStore};

use crate::email_html::{self, greeting, greeting_html, Item, Letter, Picture, Site};
use crate::links::UNSUBSCRIBE_PAGE;
use store::{Delivery, DigestReader};

/// A published article, as the digest lists it.
#[derive(Debug, Clone)]
pub struct DigestArticle {
    pub title: String,
    pub slug: String,
    /// The article's category, as the site names it ("Digital Democracy").
    pub category: String,
    /// Its subtitle, or its excerpt.
    pub description: String,
}

/// Where the digest finds the week's articles (the content module, through the app).
#[async_trait]
pub trait ArticleDirectory: Send + Sync {
    /// Articles first published in `[from, to)`, newest first.
    async fn published_between(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> Result<Vec<DigestArticle>, Box<dyn std::error::Error + Send + Sync>>;
}

#[derive(Debug, Clone)]
pub struct DigestSettings {
    pub site_url: String,
    pub site_name: String,
    /// The day and hour (UTC) the digest goes out (`DIGEST_DAY`, `DIGEST_HOUR`).
    pub weekday: Weekday,
    pub hour: u32,
    /// How long a run may go without word from its instance before another instance takes
    /// it over ([`DEFAULT_CLAIM`]).
    pub claim: std::time::Duration,
}

/// Default of [`DigestSettings::claim`].
pub const DEFAULT_CLAIM: std::time::Duration = std::time::Duration::from_secs(40);

#[derive(Debug, thiserror::Error)]
pub enum DigestError {
    #[error("the week's articles could not be read: {0}")]
    Articles(Box<dyn std::error::Error + Send + Sync>),
    #[error(transparent)]
    Unexpected(sqlx::Error),
}

impl From<sqlx::Error> for DigestError {
    fn from(e: sqlx::Error) -> Self {
        kernel::http::note_database_error(&e);
        DigestError::Unexpected(e)
    }
}

/// What a run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DigestReport {
    /// The week, e.g. "2026-W49".
    pub period: String,
    pub queued: usize,
    /// Readers with nothing new in their interests.
    pub skipped: usize,
}

/// The category an interest stands for ("Digital Politics" is what readers choose, "Digital
/// Democracy" what articles are filed under).
fn category_of(interest: &str) -> &str {
    match interest {
        "Digital Politics" => "Digital Democracy",
        other => other,
    }
}

pub struct Digest {
    store: Arc<dyn DigestStore>,
    articles: Arc<dyn ArticleDirectory>,
    settings: DigestSettings,
}

impl Digest {
    pub fn new(
        store: Arc<dyn DigestStore>,
        articles: Arc<dyn ArticleDirectory>,
        settings: DigestSettings,
    ) -> Self {
        Digest {
            store,
            articles,
            settings,
        }
    }

    /// How often an instance looks whether the week's run is due (or left behind), and how
    /// often a going run says so: well within the claim, so that a run not heard from for the
    /// whole claim has stopped (its instance died) and is taken over at the next look. Taking
    /// over queues nothing twice: each reader's digest is queued once per week.
    pub fn check_every(&self) -> std::time::Duration {
        (self.settings.claim * 3 / 8).max(std::time::Duration::from_millis(100))
    }

    /// When the digest of the ISO week of `now` goes out.
    pub fn slot(&self, now: DateTime<Utc>) -> DateTime<Utc> {
        let week = now.iso_week();
        let day =
            chrono::NaiveDate::from_isoywd_opt(week.year(), week.week(), self.settings.weekday)
                .unwrap_or_else(|| now.date_naive());
        let at = day
            .and_hms_opt(self.settings.hour.min(23), 0, 0)
            .unwrap_or_else(|| now.naive_utc());
        Utc.from_utc_datetime(&at)
    }

    /// Sends this week's digest if its time has come and no instance has sent it; `None`
    /// when there was nothing to do.
    pub async fn run_due(&self, now: DateTime<Utc>) -> Result<Option<DigestReport>, DigestError> {
        let slot = self.slot(now);
        if now < slot {
            return Ok(None);
        }
        let week = slot.iso_week();
        let period = format!("{}-W{:02}", week.year(), week.week());
        let stale_after = Duration::from_std(self.settings.claim).unwrap_or(Duration::seconds(40));
        if !self.store.claim(&period, now, now - stale_after).await? {
            return Ok(None);
        }
        let articles = self
            .articles
            .published_between(slot - Duration::days(7), slot)
            .await
            .map_err(DigestError::Articles)?;
        let mut report = DigestReport {
            period: period.clone(),
            queued: 0,
            skipped: 0,
        };
        // The run's own clock: `now` (when it was started) moved on by the time it took.
        let started = std::time::Instant::now();
        let at = || now + Duration::from_std(started.elapsed()).unwrap_or(Duration::zero());
        let mut touched = std::time::Instant::now();
        for reader in self.store.readers(&period).await? {
            if touched.elapsed() >= self.check_every() {
                self.store.touch(&period, at()).await?;
                touched = std::time::Instant::now();
            }
            let interests: Vec<String> =
                serde_json::from_str(&reader.interests).unwrap_or_default();
            let wanted: Vec<&DigestArticle> = articles
                .iter()
                .filter(|a| interests.iter().any(|i| category_of(i) == a.category))
                .collect();
            if wanted.is_empty() {
                report.skipped += 1;
                continue;
            }
            let delivery = self.delivery(&reader, &wanted);
            if self
                .store
                .queue(&period, &reader.account_id, &delivery, now)
                .await?
            {
                report.queued += 1;
            }
        }
        self.store.finish(&period, at()).await?;
        tracing::info!(
            period,
            queued = report.queued,
            skipped = report.skipped,
            "weekly digest"
        );
        Ok(Some(report))
    }

    fn delivery(&self, reader: &DigestReader, articles: &[&DigestArticle]) -> Delivery {
        let s = &self.settings;
        let token = new_token();
        let unsubscribe = format!("{}{UNSUBSCRIBE_PAGE}?token={token}", s.site_url);
        let manage = format!("{}/account", s.site_url);
        let href = |a: &DigestArticle| format!("{}/article/{}", s.site_url, a.slug);
        let list: String = articles
            .iter()
            .map(|a| format!("- {} ({})\n  {}\n", a.title, a.category, href(a)))
            .collect();
        let (count, noun) = match articles.len() {
            1 => ("One new article".to_string(), "it"),
            n => (format!("{n} new articles"), "them"),
        };
        let intro = format!("{count} this week on {} in your interests.", s.site_name);
        let items: Vec<Item> = articles
            .iter()
            .map(|a| Item {
                // The article's social card: a JPEG every mail program shows.
                picture: Some(Picture {
                    src: format!("{}/social/article/{}.jpg", s.site_url, a.slug),
                    width: 552,
                    height: 290,
                    alt: String::new(),
                }),
                eyebrow: Some(a.category.clone()),
                title: a.title.clone(),
                description: a.description.clone(),
                button: "Read it".to_string(),
                href: href(a),
            })
            .collect();
        let first_name = Some(reader.first_name.as_str());
        let html = email_html::render(&Letter {
            site: Site {
                name: &s.site_name,
                url: &s.site_url,
            },
            preheader: &intro,
            greeting: &greeting_html(first_name),
            intro: &intro,
            items: &items,
            why: "You're getting this because you chose the weekly digest.",
            unsubscribe: &unsubscribe,
            manage: Some(&manage),
        });
        Delivery {
            unsubscribe_hash: hash_token(&token),
            message: Email {
                to: vec![reader.email.clone()],
                reply_to: None,
                subject: format!("{count} this week on {}", s.site_name),
                body: format!(
                    "{greeting}\n\n{count} this week on {site} in your interests; here is \
                     where to read {noun}:\n\n{list}\n\
                     Choose your interests and emails: {manage}\n\
                     Stop the weekly digest with one click:\n{unsubscribe}\n",
                    greeting = greeting(first_name),
                    site = s.site_name,
                ),
                html: Some(html),
                attachments: vec![],
                list_unsubscribe: Some(format!(
                    "{}/api/v1/notify/unsubscribe?token={token}",
                    s.site_url
                )),
            },
            email: reader.email.clone(),
        }
    }
}
