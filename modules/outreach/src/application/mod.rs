//! Contributor applications: the product's checks in its order, then the documents, then
//! storage (files in private storage, the row and both emails in one transaction).

use crate::codes::Code;
use kernel::upload::Spooled;
use serde::Serialize;

use crate::files::{display_name, DocumentError, MAX_DOCUMENT_BYTES};
use crate::limits::*;
use crate::service::{invalid, OutreachError, OutreachService};
use crate::store::ApplicationRow;

pub(crate) mod checks;
mod documents;
mod emails;

pub use documents::DownloadError;

use checks::{check_file, validate};

/// A file part as received: spooled to a temporary file as it arrived, never held in memory
/// (nothing of it is kept when it had more than [`MAX_DOCUMENT_BYTES`]).
#[derive(Debug)]
pub struct IncomingFile {
    pub name: String,
    pub upload: Spooled,
}

/// The application as sent; every field is checked here.
#[derive(Debug, Default)]
pub struct ApplicationInput {
    pub full_name: String,
    pub age: String,
    pub country: String,
    pub email: String,
    pub time_zone: String,
    pub weekly_availability: String,
    pub english_level: String,
    pub how_did_you_hear: String,
    pub previous_experience: String,
    pub roles: Vec<String>,
    pub cv_file: Option<IncomingFile>,
    pub portfolio: String,
    pub portfolio_file: Option<IncomingFile>,
    pub writing_samples: String,
    pub writing_samples_file: Option<IncomingFile>,
    pub research_samples: String,
    pub research_samples_file: Option<IncomingFile>,
    pub why_join: String,
    pub contribution: String,
    pub additional: String,
}

#[derive(Debug, Serialize)]
struct StoredFile {
    field: &'static str,
    #[serde(skip)]
    label: &'static str,
    pub(super) filename: String,
    pub(super) content_type: &'static str,
    pub(super) storage_key: String,
    size: usize,
}

fn optional(s: &str) -> Option<String> {
    let t = s.trim();
    (!t.is_empty()).then(|| t.to_string())
}

fn role_names(roles: &[String]) -> Vec<&'static str> {
    ROLES
        .iter()
        .filter(|(id, _)| roles.iter().any(|r| r == id))
        .map(|(_, name)| *name)
        .collect()
}

impl OutreachService {
    /// Checks, stores and queues an application; returns how many files it carried.
    #[tracing::instrument(skip(self, input))]
    pub async fn apply(&self, input: ApplicationInput) -> Result<u32, OutreachError> {
        let checked = validate(&input)?;
        let id = kernel::ids::new_id();
        let files = [
            ("cv", "CV", &input.cv_file),
            ("portfolio", "portfolio", &input.portfolio_file),
            (
                "writing-samples",
                "writing samples",
                &input.writing_samples_file,
            ),
            (
                "research-samples",
                "research samples",
                &input.research_samples_file,
            ),
        ];
        // Check every file before storing any.
        let mut accepted = Vec::new();
        for (field, label, file) in files {
            let Some(file) = file else { continue };
            let kind = check_file(file).await?.map_err(|e| match e {
                DocumentError::TooLarge => OutreachError::TooLarge {
                    title: "File Too Large",
                    message: format!(
                        "Your {label} file is larger than {} MB. Please upload a smaller file.",
                        MAX_DOCUMENT_BYTES / (1024 * 1024)
                    ),
                },
                DocumentError::Empty => invalid(
                    Code::EmptyFile,
                    "Empty File",
                    format!("Your {label} file is empty. Please choose the file again."),
                ),
                DocumentError::NotADocument => invalid(
                    Code::UnsupportedFile,
                    "Unsupported File",
                    format!("Your {label} must be a PDF, DOC or DOCX file."),
                ),
            })?;
            accepted.push((field, label, kind, file));
        }
        let mut stored = Vec::new();
        for (field, label, kind, file) in accepted {
            let key = format!("applications/{id}/{field}.{}", kind.extension());
            let path = file.upload.path().ok_or_else(|| {
                OutreachError::Storage(std::io::Error::other("a checked file has no content"))
            })?;
            self.files
                .put_file(&key, path)
                .await
                .map_err(OutreachError::Storage)?;
            stored.push(StoredFile {
                field,
                label,
                filename: display_name(&file.name, kind, field),
                content_type: kind.content_type(),
                storage_key: key,
                size: usize::try_from(file.upload.size()).unwrap_or(usize::MAX),
            });
        }
        let row = ApplicationRow {
            id,
            full_name: input.full_name.trim().to_string(),
            age: checked.age,
            country: input.country.trim().to_string(),
            email: input.email.trim().to_string(),
            time_zone: input.time_zone.trim().to_string(),
            weekly_availability: checked.weekly_availability,
            english_level: input.english_level.trim().to_string(),
            how_did_you_hear: optional(&input.how_did_you_hear),
            previous_experience: optional(&input.previous_experience),
            roles: serde_json::to_string(&input.roles).unwrap_or_else(|_| "[]".into()),
            portfolio_url: optional(&input.portfolio),
            writing_samples_url: optional(&input.writing_samples),
            research_samples_url: optional(&input.research_samples),
            why_join: input.why_join.trim().to_string(),
            contribution: input.contribution.trim().to_string(),
            additional: optional(&input.additional),
            files: serde_json::to_string(&stored).unwrap_or_else(|_| "[]".into()),
            created_at: self.clock.now(),
            documents_until: None,
        };
        // Too large to attach (a relay would refuse the message): linked instead, and kept
        // until the links expire.
        let total: u64 = stored.iter().map(|f| f.size as u64).sum();
        let row = ApplicationRow {
            documents_until: (total > self.settings.attach_at_most)
                .then(|| row.created_at + self.settings.documents_ttl),
            ..row
        };
        let emails = [
            emails::to_team(&row, &stored, &input.roles, &self.settings),
            emails::to_applicant(&row, &input.roles, &self.settings),
        ];
        let linked: Vec<String> = match row.documents_until {
            Some(_) => stored.iter().map(|f| f.storage_key.clone()).collect(),
            None => vec![],
        };
        self.store.save_application(&row, &emails, &linked).await?;
        tracing::info!(id = %row.id, files = stored.len(), "application received");
        Ok(u32::try_from(stored.len()).unwrap_or(u32::MAX))
    }
}
