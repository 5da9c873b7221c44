//! Monthly magazine issues: PDFs uploaded by an admin, checked by content, stored under a
//! timestamp-prefixed generated name and listed newest first.

use chrono::{DateTime, Utc};
use kernel::text::{Required, Rule, Text};
use poem_openapi::Object;

mod api;
mod service;
pub(crate) mod store;

pub use api::MagazineApi;
pub(crate) use api::{read_pdf_upload, PdfUpload, UploadRefusal};
pub use service::{MagazineError, MagazineService};

pub const MAX_TITLE_CHARS: usize = 200;

pub const MAX_DESCRIPTION_CHARS: usize = 500;
pub const MAX_COVER_URL_CHARS: usize = 500;

#[derive(Debug, Clone, PartialEq, Eq, Object)]
pub struct Magazine {
    pub id: String,
    pub title: String,
    /// Where the PDF is served (opens inline in the browser).
    pub file_url: String,
    pub size_bytes: i64,
    pub uploaded_at: DateTime<Utc>,
    /// Set once the issue is published; `null` while it is a private draft.
    #[oai(nullable)]
    pub published_at: Option<DateTime<Utc>>,
    /// The issue's address, `/magazine/{slug}`: given at the first publication, then kept.
    #[oai(nullable)]
    pub slug: Option<String>,
    /// The issue date (YYYY-MM-DD).
    #[oai(nullable)]
    pub issue_date: Option<String>,
    #[oai(nullable)]
    pub description: Option<String>,
    #[oai(nullable)]
    pub cover_url: Option<String>,
}

/// A published issue, as readers see it.
#[derive(Debug, Clone, PartialEq, Eq, Object, serde::Serialize)]
pub struct MagazineIssue {
    pub slug: String,
    pub title: String,
    /// YYYY-MM-DD.
    pub issue_date: String,
    pub description: String,
    pub cover_url: String,
    /// The PDF, served inline (with range requests) so browsers show it.
    pub file_url: String,
    pub size_bytes: i64,
    pub published_at: DateTime<Utc>,
}

/// What publishing an issue takes (also to change a published one).
#[derive(Debug, Clone, Object)]
#[oai(deny_unknown_fields)]
pub struct IssuePublication {
    pub title: Text<Required<MAX_TITLE_CHARS>>,
    /// YYYY-MM-DD.
    pub issue_date: Text<IssueDate>,
    /// A sentence or two for the issue's card and social previews.
    pub description: Text<Required<MAX_DESCRIPTION_CHARS>>,
    /// An uploaded cover (`POST /v1/staff/covers`) or an https address.
    pub cover_url: Text<CoverAddress>,
}

/// A calendar date, YYYY-MM-DD (white space around it is trimmed).
pub struct IssueDate;

impl Rule for IssueDate {
    fn pattern() -> Option<String> {
        let space = kernel::text::SPACE;
        Some(format!(
            "^[{space}]*[0-9]{{4}}-[0-9]{{2}}-[0-9]{{2}}[{space}]*$"
        ))
    }
    const FORMAT: Option<&'static str> = Some("date");
}

/// `https://` anything, or an uploaded file's `/media/` path without `..`; no white space
/// or quote inside.
pub struct CoverAddress;

impl Rule for CoverAddress {
    const MIN_LENGTH: Option<usize> = Some(7);
    const MAX_LENGTH: Option<usize> = Some(MAX_COVER_URL_CHARS);
    fn pattern() -> Option<String> {
        let space = kernel::text::SPACE;
        let char = format!("[^\\u0000\"{space}]");
        let not_dot = format!("[^\\u0000\".{space}]");
        Some(format!(
            "^[{space}]*(https://{char}*|/media/({not_dot}|\\.{not_dot})*\\.?)[{space}]*$"
        ))
    }
}

/// The issue's title from the uploaded file name: the name without `.pdf`, printable
/// characters only.
pub fn title_from_file_name(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or_default();
    let stem = match base.len().checked_sub(4) {
        Some(cut) if base.is_char_boundary(cut) && base[cut..].eq_ignore_ascii_case(".pdf") => {
            &base[..cut]
        }
        _ => base,
    };
    let clean: String = stem
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_TITLE_CHARS)
        .collect();
    let clean = clean.trim();
    if clean.is_empty() {
        "Untitled issue".to_string()
    } else {
        clean.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_come_from_the_file_name() {
        assert_eq!(title_from_file_name("November 2026.pdf"), "November 2026");
        assert_eq!(title_from_file_name("Issue 3.PDF"), "Issue 3");
        assert_eq!(title_from_file_name("../../x/Issue 4.pdf"), "Issue 4");
        assert_eq!(title_from_file_name(".pdf"), "Untitled issue");
    }
}
