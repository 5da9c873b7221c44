//! Documents too large to attach. Above [`OutreachSettings::attach_at_most`] in all, an
//! application's documents stay in private storage and the team's email links to each one:
//! a staff-only download whose link is signed (it opens this document of this application
//! and nothing else) and expiring (after [`OutreachSettings::documents_ttl`] the documents
//! are deleted). Every download is recorded: who, which document, when.

use chrono::{DateTime, Utc};
use kernel::secret::{sign, signed};
use kernel::storage::ByteStream;
use serde::Deserialize;

use crate::service::{OutreachError, OutreachService, OutreachSettings};

/// What the signature covers: the application, the document and the expiry.
fn signed_text(id: &str, field: &str, expires: i64) -> String {
    format!("application-document\n{id}\n{field}\n{expires}")
}

/// The staff-only download of document `field` of application `id`, valid until `until`,
/// through the sign-in page: it starts the download at once for a signed-in member, and after
/// signing in otherwise.
pub(super) fn link(
    settings: &OutreachSettings,
    id: &str,
    field: &str,
    until: DateTime<Utc>,
) -> String {
    let expires = until.timestamp();
    let signature = sign(settings.link_key.expose(), &signed_text(id, field, expires));
    let download = format!(
        "/api/v1/staff/applications/{id}/documents/{field}?expires={expires}&signature={signature}"
    );
    let next: String = form_urlencoded::byte_serialize(download.as_bytes()).collect();
    format!("{}/key-login?next={next}", settings.site_url)
}

/// A stored document as the application row lists it.
#[derive(Debug, Deserialize)]
struct SavedFile {
    field: String,
    filename: String,
    storage_key: String,
    #[serde(default)]
    size: u64,
}

/// Why a document link opens nothing.
#[derive(Debug, thiserror::Error)]
pub enum DownloadError {
    /// Not a link we made (changed, or cut short).
    #[error("not a valid document link")]
    NotSigned,
    /// Past its expiry: the documents are deleted (or about to be).
    #[error("the document link has expired")]
    Expired,
    /// No such application, or it has no such document.
    #[error("no such document")]
    NotFound,
    #[error("storage failed: {0}")]
    Storage(std::io::Error),
    #[error(transparent)]
    Unexpected(sqlx::Error),
}

impl From<sqlx::Error> for DownloadError {
    fn from(e: sqlx::Error) -> Self {
        kernel::http::note_database_error(&e);
        DownloadError::Unexpected(e)
    }
}

/// A document on its way to a staff member.
pub struct Download {
    pub filename: String,
    pub size: u64,
    pub body: ByteStream,
    /// Downloads of this document so far, this one included.
    pub count: i64,
}

impl OutreachService {
    /// Document `field` of application `id` for staff member `user`, by a link signed for it
    /// that has not expired; the download is recorded.
    pub async fn download_document(
        &self,
        id: &str,
        field: &str,
        expires: i64,
        signature: &str,
        user: &str,
    ) -> Result<Download, DownloadError> {
        if !signed(
            self.settings.link_key.expose(),
            &signed_text(id, field, expires),
            signature,
        ) {
            return Err(DownloadError::NotSigned);
        }
        let now = self.clock.now();
        if expires <= now.timestamp() {
            return Err(DownloadError::Expired);
        }
        let found = self
            .store
            .linked_documents(id)
            .await?
            .ok_or(DownloadError::NotFound)?;
        match found.documents_until {
            Some(until) if until > now => {}
            Some(_) => return Err(DownloadError::Expired),
            None => return Err(DownloadError::NotFound),
        }
        let files: Vec<SavedFile> = serde_json::from_str(&found.files).unwrap_or_default();
        let file = files
            .into_iter()
            .find(|f| f.field == field)
            .ok_or(DownloadError::NotFound)?;
        let body = self
            .files
            .stream(&file.storage_key, None)
            .await
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::NotFound => DownloadError::Expired,
                _ => DownloadError::Storage(e),
            })?;
        let count = self.store.record_download(id, field, user, now).await?;
        tracing::info!(
            application = id,
            document = field,
            user,
            count,
            "application document downloaded"
        );
        Ok(Download {
            filename: file.filename,
            size: file.size,
            body,
            count,
        })
    }

    /// Deletes the linked documents that are due (their links expired, or the applicant's
    /// account was deleted); returns how many.
    pub async fn delete_expired_documents(&self) -> Result<usize, OutreachError> {
        let due = self.store.expired_documents(self.clock.now()).await?;
        for key in &due {
            self.files
                .delete(key)
                .await
                .map_err(OutreachError::Storage)?;
            self.store.forget_document(key).await?;
        }
        Ok(due.len())
    }
}
