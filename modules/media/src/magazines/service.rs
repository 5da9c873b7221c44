//! The magazine service: the rules of issues (a PDF by content, a title), where their files
//! go, and the rows that list them.

use crate::codes::Code;
use kernel::Common;
use std::sync::Arc;

use kernel::storage::Storage;
use kernel::upload::Spooled;
use kernel::Db;

use super::store::{store_for, MagazineRow, MagazineStore, Publication};
use super::{
    title_from_file_name, IssuePublication, Magazine, MagazineIssue, MAX_COVER_URL_CHARS,
    MAX_DESCRIPTION_CHARS, MAX_TITLE_CHARS,
};
use kernel::ErrorCode;

#[derive(Debug, thiserror::Error)]
pub enum MagazineError {
    /// A fault in what the admin sent, with the message to show.
    #[error("{message}")]
    Invalid { code: ErrorCode, message: String },
    #[error("no such magazine issue")]
    NotFound,
    /// The same file (by content) is already an issue: the admin is told which.
    #[error("This PDF has already been uploaded as \u{201c}{title}\u{201d}.")]
    Duplicate { title: String },
    #[error("storage failed: {0}")]
    Storage(#[from] std::io::Error),
    #[error(transparent)]
    Unexpected(sqlx::Error),
}

impl From<sqlx::Error> for MagazineError {
    fn from(e: sqlx::Error) -> Self {
        kernel::http::note_database_error(&e);
        MagazineError::Unexpected(e)
    }
}

fn invalid(code: impl Into<ErrorCode>, message: impl Into<String>) -> MagazineError {
    MagazineError::Invalid {
        code: code.into(),
        message: message.into(),
    }
}

pub struct MagazineService {
    store: Arc<dyn MagazineStore>,
    storage: Arc<Storage>,
    /// Moved forward when what readers see changes (an issue published, changed, taken back).
    generation: kernel::Generation,
}

fn check_title(sent: &str) -> Result<String, MagazineError> {
    let title = sent.trim();
    if title.is_empty() {
        return Err(invalid(Common::TitleRequired, "A title is required."));
    }
    // Counted as sent, as the contract states it.
    if sent.chars().count() > MAX_TITLE_CHARS {
        return Err(invalid(
            Code::TitleTooLong,
            format!("The title must be at most {MAX_TITLE_CHARS} characters."),
        ));
    }
    Ok(title.to_string())
}

/// The publication's fields in the order the form shows them, each with its own message.
fn check_publication(p: &IssuePublication) -> Result<Publication, MagazineError> {
    let title = check_title(&p.title)?;
    let date = p.issue_date.trim();
    if chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").is_err() {
        return Err(invalid(
            Code::InvalidDate,
            "Please enter the issue date (YYYY-MM-DD).",
        ));
    }
    let description = p.description.trim();
    if description.is_empty() {
        return Err(invalid(
            Code::DescriptionRequired,
            "Please add a short description of the issue.",
        ));
    }
    if p.description.chars().count() > MAX_DESCRIPTION_CHARS {
        return Err(invalid(
            Common::TooLong,
            format!("The description must be at most {MAX_DESCRIPTION_CHARS} characters."),
        ));
    }
    let cover = p.cover_url.trim();
    if cover.is_empty() {
        return Err(invalid(
            Common::InvalidCoverImage,
            "Please upload a cover image for the issue.",
        ));
    }
    let web = cover.starts_with("https://");
    let local = cover.starts_with("/media/") && !cover.contains("..");
    if !(web || local)
        || p.cover_url.chars().count() > MAX_COVER_URL_CHARS
        || cover.chars().any(|c| c.is_whitespace() || c == '"')
    {
        return Err(invalid(
            Common::InvalidCoverImage,
            "The cover must be an uploaded image or an https:// address.",
        ));
    }
    Ok(Publication {
        title,
        issue_date: date.to_string(),
        description: description.to_string(),
        cover_url: cover.to_string(),
    })
}

/// The slug an issue titled `title` would like: lower-case, hyphenated, at most 80 characters.
fn base_slug(title: &str) -> String {
    let mut out: String = slug::slugify(title).chars().take(80).collect();
    while out.ends_with('-') {
        out.pop();
    }
    if out.is_empty() {
        "issue".to_string()
    } else {
        out
    }
}

impl MagazineService {
    pub fn new(db: &Db, storage: Arc<Storage>, generation: kernel::Generation) -> Self {
        Self {
            store: store_for(db),
            storage,
            generation,
        }
    }

    /// Published issues, the latest first.
    pub async fn issues(&self) -> Result<Vec<MagazineIssue>, MagazineError> {
        Ok(self
            .store
            .published()
            .await?
            .iter()
            .filter_map(MagazineRow::issue)
            .collect())
    }

    /// The issue with this id: `None` when there is none, `Some(None)` while it is a draft.
    pub async fn by_id(&self, id: &str) -> Result<Option<Option<MagazineIssue>>, MagazineError> {
        Ok(self.store.by_id(id).await?.map(|r| r.issue()))
    }

    /// The published issue at `slug`.
    pub async fn issue(&self, slug: &str) -> Result<Option<MagazineIssue>, MagazineError> {
        if slug.len() > 100 {
            return Ok(None);
        }
        Ok(self.store.by_slug(slug).await?.and_then(|r| r.issue()))
    }

    /// Publishes an uploaded issue (or changes a published one). Its slug comes from the
    /// title at the first publication (`-2`, `-3`… when taken) and is kept from then on.
    pub async fn publish(
        &self,
        id: &str,
        input: &IssuePublication,
    ) -> Result<Magazine, MagazineError> {
        let p = check_publication(input)?;
        let base = base_slug(&p.title);
        let now = kernel::ids::now();
        for n in 1..=50 {
            let slug = if n == 1 {
                base.clone()
            } else {
                format!("{base}-{n}")
            };
            if self
                .store
                .by_slug(&slug)
                .await?
                .is_some_and(|other| other.id != id)
            {
                continue;
            }
            match self.store.publish(id, &p, &slug, now).await {
                Ok(Some(row)) => {
                    self.changed(row.slug.as_deref(), false);
                    tracing::info!(id, slug = row.slug.as_deref(), "magazine issue published");
                    return Ok(row.into());
                }
                Ok(None) => return Err(MagazineError::NotFound),
                // Another issue took the slug meanwhile: the unique index said no.
                Err(sqlx::Error::Database(e)) if e.is_unique_violation() => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(invalid(
            Code::TitleTooLong,
            "Too many issues share this title; please choose another.",
        ))
    }

    /// An issue's change shows on the magazine's page and on the issue's own (`slug`, if it
    /// has one); `withdrawn`: it left the site.
    fn changed(&self, slug: Option<&str>, withdrawn: bool) {
        let own = slug.map(|slug| format!("/magazine/{slug}"));
        let mut pages = vec!["/magazine"];
        pages.extend(own.as_deref());
        if withdrawn {
            self.generation.withdraw(kernel::Scope::Pages(&pages));
        } else {
            self.generation.advance(kernel::Scope::Pages(&pages));
        }
    }

    /// Takes a published issue back to a private draft.
    pub async fn unpublish(&self, id: &str) -> Result<Magazine, MagazineError> {
        let row = self
            .store
            .unpublish(id)
            .await?
            .ok_or(MagazineError::NotFound)?;
        self.changed(row.slug.as_deref(), true);
        Ok(row.into())
    }

    /// Every issue, newest first.
    pub async fn list(&self) -> Result<Vec<Magazine>, MagazineError> {
        Ok(self
            .store
            .list()
            .await?
            .into_iter()
            .map(Into::into)
            .collect())
    }

    /// Adds the uploaded `file` (received whole, within the size limit) as an issue titled
    /// after its file name.
    pub async fn add(&self, file: &Spooled) -> Result<Magazine, MagazineError> {
        if !kernel::upload::is_pdf(file.head()) {
            return Err(invalid(Code::NotAPdf, "Please upload a PDF file."));
        }
        let Some(path) = file.path() else {
            return Err(MagazineError::Storage(std::io::Error::other(
                "the upload was not kept",
            )));
        };
        let now = kernel::ids::now();
        let id = kernel::ids::new_id();
        // A generated name, prefixed with the upload time: nothing the user sent reaches the
        // file system.
        let key = format!(
            "magazines/{}-{}.pdf",
            now.timestamp_millis(),
            &id[id.len().saturating_sub(12)..]
        );
        let sha256 = file.sha256().await?.unwrap_or_default();
        if let Some(existing) = self.store.by_hash(&sha256).await? {
            return Err(MagazineError::Duplicate {
                title: existing.title,
            });
        }
        self.storage.put_file(&key, path).await?;
        let row = MagazineRow {
            id,
            title: title_from_file_name(file.file_name().unwrap_or_default()),
            file_url: self.storage.url(&key),
            file_key: key,
            size_bytes: i64::try_from(file.size()).unwrap_or(i64::MAX),
            uploaded_at: now,
            content_sha256: Some(sha256.clone()),
            slug: None,
            issue_date: None,
            description: None,
            cover_url: None,
            published_at: None,
        };
        if let Err(e) = self.store.insert(&row).await {
            let _ = self.storage.delete(&row.file_key).await;
            // The same file uploaded twice at once: the unique index lets one in.
            if let Some(existing) = self.store.by_hash(&sha256).await? {
                return Err(MagazineError::Duplicate {
                    title: existing.title,
                });
            }
            return Err(e.into());
        }
        Ok(row.into())
    }

    pub async fn rename(&self, id: &str, title: &str) -> Result<Magazine, MagazineError> {
        let title = check_title(title)?;
        let row = self
            .store
            .rename(id, &title)
            .await?
            .ok_or(MagazineError::NotFound)?;
        if row.published_at.is_some() {
            self.changed(row.slug.as_deref(), false);
        }
        Ok(row.into())
    }

    /// Deletes an issue and its file.
    pub async fn delete(&self, id: &str) -> Result<(), MagazineError> {
        let row = self
            .store
            .delete(id)
            .await?
            .ok_or(MagazineError::NotFound)?;
        if row.published_at.is_some() {
            self.changed(row.slug.as_deref(), true);
        }
        if let Err(e) = self.storage.delete(&row.file_key).await {
            tracing::warn!(error = %e, key = row.file_key, "magazine file not removed");
        }
        Ok(())
    }
}
