//! The educational packs: a fixed catalogue of three (as the product gives it), a PDF per
//! pack uploaded by an admin, and the launch — until it, the packs page keeps its "launching
//! this January" content and nothing is served; from it, readers and educators download the
//! packs from storage.

mod api;
mod store;

use crate::codes::Code;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use kernel::storage::Storage;
use kernel::upload::Spooled;
use kernel::{Db, ErrorCode};
use poem_openapi::Object;

pub use api::PackApi;
use store::{store_for, PackStore};

/// A pack of the catalogue: id, title, level (as the product gives them).
/// The packs' public page: what an upload or the launch changes.
const PACKS_PAGE: &str = "/educational-packs";

pub const CATALOGUE: [(&str, &str, &str); 3] = [
    ("democracy", "How Democracy Works", "High School"),
    (
        "climate",
        "Climate Policy and Global Cooperation",
        "Advanced",
    ),
    ("rights", "Human Rights in Everyday Life", "Middle School"),
];

#[derive(Debug, Clone, PartialEq, Eq, Object, serde::Serialize)]
pub struct Pack {
    pub id: String,
    pub title: String,
    pub level: String,
    /// The pack's PDF; `null` until uploaded, and for readers until the launch.
    #[oai(nullable)]
    pub file_url: Option<String>,
    #[oai(nullable)]
    pub size_bytes: Option<i64>,
    #[oai(nullable)]
    pub uploaded_at: Option<DateTime<Utc>>,
}

/// A pack as educators see it: whether it can be downloaded, and how often it was.
#[derive(Debug, Clone, PartialEq, Eq, Object, serde::Serialize)]
pub struct PackUsage {
    pub id: String,
    pub title: String,
    pub level: String,
    /// Launched and with its file: the download link works.
    pub available: bool,
    /// Downloads by staff, each member counted once per pack per day (UTC).
    pub downloads: i64,
}

/// The packs on the educator dashboard.
#[derive(Debug, Clone, PartialEq, Eq, Object, serde::Serialize)]
pub struct PacksUsage {
    #[oai(nullable)]
    pub launched_at: Option<DateTime<Utc>>,
    /// Packs that can be downloaded now.
    pub available: i64,
    pub total_downloads: i64,
    pub packs: Vec<PackUsage>,
}

/// The packs and whether they are launched.
#[derive(Debug, Clone, PartialEq, Eq, Object, serde::Serialize)]
pub struct Packs {
    #[oai(nullable)]
    pub launched_at: Option<DateTime<Utc>>,
    pub packs: Vec<Pack>,
}

#[derive(Debug, thiserror::Error)]
pub enum PackError {
    #[error("{message}")]
    Invalid { code: ErrorCode, message: String },
    #[error("No such pack.")]
    NotFound,
    #[error("The educational packs are not launched yet.")]
    NotLaunched,
    /// Not now: something must be done first (the message says what).
    #[error("{message}")]
    NotReady { code: ErrorCode, message: String },
    #[error("storage failed: {0}")]
    Storage(#[from] std::io::Error),
    #[error(transparent)]
    Unexpected(sqlx::Error),
}

impl From<sqlx::Error> for PackError {
    fn from(e: sqlx::Error) -> Self {
        kernel::http::note_database_error(&e);
        PackError::Unexpected(e)
    }
}

pub struct PackService {
    store: Arc<dyn PackStore>,
    storage: Arc<Storage>,
    generation: kernel::Generation,
}

impl PackService {
    pub fn new(db: &Db, storage: Arc<Storage>, generation: kernel::Generation) -> Self {
        PackService {
            store: store_for(db),
            storage,
            generation,
        }
    }

    /// The catalogue with its files (`public`: without them before the launch).
    pub async fn packs(&self, public: bool) -> Result<Packs, PackError> {
        let launched_at = self.store.launched_at().await?;
        let files = self.store.files().await?;
        let show = !public || launched_at.is_some();
        Ok(Packs {
            launched_at,
            packs: CATALOGUE
                .iter()
                .map(|(id, title, level)| {
                    let file = files.iter().find(|f| f.pack_id == *id).filter(|_| show);
                    Pack {
                        id: (*id).into(),
                        title: (*title).into(),
                        level: (*level).into(),
                        file_url: file.map(|f| f.file_url.clone()),
                        size_bytes: file.map(|f| f.size_bytes),
                        uploaded_at: file.map(|f| f.uploaded_at),
                    }
                })
                .collect(),
        })
    }

    /// Stores (or replaces) the PDF of pack `id`.
    pub async fn upload(&self, id: &str, file: &Spooled) -> Result<Packs, PackError> {
        if !CATALOGUE.iter().any(|(p, _, _)| *p == id) {
            return Err(PackError::NotFound);
        }
        if !kernel::upload::is_pdf(file.head()) {
            return Err(PackError::Invalid {
                code: Code::NotAPdf.into(),
                message: "Please upload a PDF file.".into(),
            });
        }
        let Some(path) = file.path() else {
            return Err(PackError::Storage(std::io::Error::other(
                "the upload was not kept",
            )));
        };
        let now = kernel::ids::now();
        // A generated name that cannot be guessed: nothing is public before the launch.
        let key = format!("packs/{id}-{}.pdf", kernel::secret::new_token());
        self.storage.put_file(&key, path).await?;
        let row = store::PackFile {
            pack_id: id.to_string(),
            file_url: self.storage.url(&key),
            file_key: key,
            size_bytes: i64::try_from(file.size()).unwrap_or(i64::MAX),
            uploaded_at: now,
        };
        if let Some(old) = self.store.put(&row).await? {
            if let Err(e) = self.storage.delete(&old).await {
                tracing::warn!(error = %e, key = old, "replaced pack file not removed");
            }
        }
        self.generation.advance(kernel::Scope::Pages(&[PACKS_PAGE]));
        self.packs(false).await
    }

    /// Launches the packs: from now on readers and educators download them. Every pack
    /// needs its file first.
    pub async fn launch(&self) -> Result<Packs, PackError> {
        let files = self.store.files().await?;
        let missing: Vec<&str> = CATALOGUE
            .iter()
            .filter(|(id, _, _)| !files.iter().any(|f| f.pack_id == *id))
            .map(|(_, title, _)| *title)
            .collect();
        if !missing.is_empty() {
            return Err(PackError::NotReady {
                code: Code::PackFileMissing.into(),
                message: format!(
                    "Upload every pack first: {} has no file yet.",
                    missing.join(", ")
                ),
            });
        }
        self.store.launch(kernel::ids::now()).await?;
        self.generation.advance(kernel::Scope::Pages(&[PACKS_PAGE]));
        self.packs(false).await
    }

    /// The packs with their downloads, for educators.
    pub async fn usage(&self) -> Result<PacksUsage, PackError> {
        let packs = self.packs(true).await?;
        let counts = self.store.download_counts().await?;
        let usage: Vec<PackUsage> = packs
            .packs
            .into_iter()
            .map(|p| PackUsage {
                available: p.file_url.is_some(),
                downloads: counts
                    .iter()
                    .find(|(id, _)| *id == p.id)
                    .map_or(0, |(_, n)| *n),
                id: p.id,
                title: p.title,
                level: p.level,
            })
            .collect();
        Ok(PacksUsage {
            launched_at: packs.launched_at,
            available: usage.iter().filter(|p| p.available).count() as i64,
            total_downloads: usage.iter().map(|p| p.downloads).sum(),
            packs: usage,
        })
    }

    /// Where staff member `user` downloads pack `id` from (launched packs only), counting the
    /// download once per member, pack and day.
    pub async fn download(&self, id: &str, user: &str) -> Result<String, PackError> {
        if !CATALOGUE.iter().any(|(p, _, _)| *p == id) {
            return Err(PackError::NotFound);
        }
        let packs = self.packs(true).await?;
        if packs.launched_at.is_none() {
            return Err(PackError::NotLaunched);
        }
        let url = packs
            .packs
            .into_iter()
            .find(|p| p.id == id)
            .and_then(|p| p.file_url)
            .ok_or(PackError::NotFound)?;
        let day = kernel::ids::now().format("%Y-%m-%d").to_string();
        self.store.record_download(id, user, &day).await?;
        Ok(url)
    }

    pub async fn is_launched(&self) -> Result<bool, PackError> {
        Ok(self.store.launched_at().await?.is_some())
    }
}
