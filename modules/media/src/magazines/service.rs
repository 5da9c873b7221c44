//! The magazine service: the rules of issues (a PDF by content, a title), where their files
//! go, and the rows that list them.

use std::sync::Arc;

use kernel::storage::Storage;
use kernel::upload::Spooled;
use kernel::Db;

use super::store::{store_for, MagazineRow, MagazineStore};
use super::{title_from_file_name, Magazine, MAX_TITLE_CHARS};
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
    Unexpected(#[from] sqlx::Error),
}

fn invalid(code: ErrorCode, message: impl Into<String>) -> MagazineError {
    MagazineError::Invalid {
        code,
        message: message.into(),
    }
}

pub struct MagazineService {
    store: Arc<dyn MagazineStore>,
    storage: Arc<dyn Storage>,
}

impl MagazineService {
    pub fn new(db: &Db, storage: Arc<dyn Storage>) -> Self {
        Self {
            store: store_for(db),
            storage,
        }
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
            return Err(invalid(ErrorCode::NotAPdf, "Please upload a PDF file."));
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
        let title = title.trim();
        if title.is_empty() {
            return Err(invalid(ErrorCode::TitleRequired, "A title is required."));
        }
        if title.chars().count() > MAX_TITLE_CHARS {
            return Err(invalid(
                ErrorCode::TitleTooLong,
                format!("The title must be at most {MAX_TITLE_CHARS} characters."),
            ));
        }
        self.store
            .rename(id, title)
            .await?
            .map(Into::into)
            .ok_or(MagazineError::NotFound)
    }

    /// Deletes an issue and its file.
    pub async fn delete(&self, id: &str) -> Result<(), MagazineError> {
        let row = self
            .store
            .delete(id)
            .await?
            .ok_or(MagazineError::NotFound)?;
        if let Err(e) = self.storage.delete(&row.file_key).await {
            tracing::warn!(error = %e, key = row.file_key, "magazine file not removed");
        }
        Ok(())
    }
}
