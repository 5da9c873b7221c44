//! Contributor applications: the product's checks in its order, then the documents, then
//! storage (files in private storage, the row and both emails in one transaction).

use kernel::outbox::{Attachment, Email};
use kernel::upload::Spooled;
use serde::Serialize;

use crate::files::{check_document, display_name, DocumentError, DocumentKind, MAX_DOCUMENT_BYTES};
use crate::service::{invalid, too_long, OutreachError, OutreachService};
use crate::store::ApplicationRow;
use crate::validate::is_email;

/// Role ids the form sends, with the names the team reads.
pub const ROLES: [(&str, &str); 8] = [
    ("editorial-writer", "Editorial Writer"),
    ("copy-editor", "Copy Editor"),
    ("research-assistant", "Research Assistant"),
    ("educational-pack-developer", "Educational Pack Developer"),
    (
        "communications-outreach-director",
        "Communications & Outreach Director",
    ),
    ("communications-assistant", "Communications Assistant"),
    ("design-director", "Design Director"),
    ("graphic-designer", "Graphic Designer"),
];
pub const ENGLISH_LEVELS: [&str; 4] = ["B2", "C1", "C2", "Native"];
pub const MIN_AGE: i64 = 14;
pub const MIN_WEEKLY_HOURS: i64 = 1;

const MAX_SHORT: usize = 200;
const MAX_URL: usize = 2000;
const MAX_LONG: usize = 5000;

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
    filename: String,
    content_type: &'static str,
    storage_key: String,
    size: usize,
}

fn has_any(roles: &[String], wanted: &[&str]) -> bool {
    roles.iter().any(|r| wanted.contains(&r.as_str()))
}

fn optional(s: &str) -> Option<String> {
    let t = s.trim();
    (!t.is_empty()).then(|| t.to_string())
}

fn is_web_link(s: &str) -> bool {
    let lower = s.to_ascii_lowercase();
    let rest = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"));
    rest.is_some_and(|r| r.len() > 2 && r.contains('.') && !r.chars().any(char::is_whitespace))
}

/// The checked values of an application.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    pub age: i64,
    pub weekly_availability: i64,
}

/// The product's checks (spec §5, in its order), then the server's own: numbers, lists,
/// link-or-file, links, lengths. Files are checked afterwards, by content.
pub fn validate(input: &ApplicationInput) -> Result<Checked, OutreachError> {
    let required = [
        &input.full_name,
        &input.age,
        &input.country,
        &input.email,
        &input.time_zone,
        &input.weekly_availability,
        &input.english_level,
    ];
    if required.iter().any(|v| v.trim().is_empty()) {
        return Err(invalid(
            "missing_information",
            "Missing Information",
            "Please fill in all required fields.",
        ));
    }
    let age: i64 = input.age.trim().parse().map_err(|_| {
        invalid(
            "invalid_age",
            "Invalid Age",
            "Please enter your age as a whole number.",
        )
    })?;
    if age < MIN_AGE {
        return Err(invalid(
            "age_requirement",
            "Age Requirement",
            "You must be at least 14 years old to apply.",
        ));
    }
    if age > 120 {
        return Err(invalid(
            "invalid_age",
            "Invalid Age",
            "Please enter your real age.",
        ));
    }
    let roles = &input.roles;
    if roles.is_empty() {
        return Err(invalid(
            "role_required",
            "Role Required",
            "Please select at least one role you're applying for.",
        ));
    }
    let has_portfolio = !input.portfolio.trim().is_empty() || input.portfolio_file.is_some();
    if has_any(roles, &["graphic-designer", "design-director"]) && !has_portfolio {
        return Err(invalid(
            "portfolio_required",
            "Portfolio Required",
            "Portfolio is required when applying for Graphic Designer or Design Director role.",
        ));
    }
    let has_samples =
        !input.writing_samples.trim().is_empty() || input.writing_samples_file.is_some();
    if has_any(roles, &["editorial-writer", "educational-pack-developer"]) && !has_samples {
        return Err(invalid(
            "writing_samples_required",
            "Writing Samples Required",
            "Writing samples are required when applying for Editorial Writer or Educational Pack Developer role.",
        ));
    }
    if input.why_join.trim().is_empty() || input.contribution.trim().is_empty() {
        return Err(invalid(
            "missing_answers",
            "Missing Information",
            "Please answer all required questions.",
        ));
    }
    if !is_email(input.email.trim()) {
        return Err(invalid(
            "invalid_email",
            "Invalid Email",
            "Please enter a valid email address.",
        ));
    }
    // Beyond the original: the browser's own limits, enforced here too.
    let hours: i64 = input.weekly_availability.trim().parse().map_err(|_| {
        invalid(
            "invalid_availability",
            "Weekly Availability",
            "Please enter your weekly availability as a whole number of hours.",
        )
    })?;
    if !(MIN_WEEKLY_HOURS..=168).contains(&hours) {
        return Err(invalid(
            "invalid_availability",
            "Weekly Availability",
            "Weekly availability must be between 1 and 168 hours.",
        ));
    }
    if !ENGLISH_LEVELS.contains(&input.english_level.trim()) {
        return Err(invalid(
            "invalid_english_level",
            "English Level",
            "Please choose your English level: B2, C1, C2 or Native.",
        ));
    }
    if roles.len() > ROLES.len() || !roles.iter().all(|r| ROLES.iter().any(|(id, _)| id == r)) {
        return Err(invalid(
            "unknown_role",
            "Role Required",
            "Please choose roles from the list.",
        ));
    }
    for (label, url, file) in [
        ("portfolio", &input.portfolio, &input.portfolio_file),
        (
            "writing samples",
            &input.writing_samples,
            &input.writing_samples_file,
        ),
        (
            "research samples",
            &input.research_samples,
            &input.research_samples_file,
        ),
    ] {
        let url = url.trim();
        if !url.is_empty() && file.is_some() {
            return Err(invalid(
                "link_or_file",
                "Link or File",
                format!("Please give either a link or a file for your {label}, not both."),
            ));
        }
        if !url.is_empty() && !is_web_link(url) {
            return Err(invalid(
                "invalid_link",
                "Invalid Link",
                format!("Please enter a full link starting with https:// for your {label}."),
            ));
        }
        too_long(&format!("{label} link"), url, MAX_URL)?;
    }
    for (field, value, max) in [
        ("full name", &input.full_name, MAX_SHORT),
        ("country", &input.country, MAX_SHORT),
        ("email", &input.email, 254),
        ("time zone", &input.time_zone, MAX_SHORT),
        (
            "answer to how you heard about us",
            &input.how_did_you_hear,
            MAX_SHORT,
        ),
        ("previous experience", &input.previous_experience, MAX_LONG),
        ("answer to why you want to join", &input.why_join, MAX_LONG),
        (
            "answer about your contribution",
            &input.contribution,
            MAX_LONG,
        ),
        ("additional information", &input.additional, MAX_LONG),
    ] {
        too_long(field, value.trim(), max)?;
    }
    Ok(Checked {
        age,
        weekly_availability: hours,
    })
}

/// Checks a spooled file by its content, reading it in small pieces off the async runtime.
async fn check_file(
    file: &IncomingFile,
) -> Result<Result<DocumentKind, DocumentError>, OutreachError> {
    let size = file.upload.size();
    if file.upload.over_limit() || size > MAX_DOCUMENT_BYTES as u64 {
        return Ok(Err(DocumentError::TooLarge));
    }
    let Some(path) = file.upload.path() else {
        return Ok(Err(DocumentError::Empty));
    };
    let (name, head, path) = (
        file.name.clone(),
        file.upload.head().to_vec(),
        path.to_path_buf(),
    );
    tokio::task::spawn_blocking(move || {
        let mut f = std::fs::File::open(&path)?;
        Ok(check_document(&name, size, &head, &mut f))
    })
    .await
    .map_err(|e| OutreachError::Storage(std::io::Error::other(e)))?
    .map_err(OutreachError::Storage)
}

fn role_names(roles: &[String]) -> Vec<&'static str> {
    ROLES
        .iter()
        .filter(|(id, _)| roles.iter().any(|r| r == id))
        .map(|(_, name)| *name)
        .collect()
}

impl OutreachService {
    /// Checks, stores and queues an application; returns how many files were attached.
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
                    "empty_file",
                    "Empty File",
                    format!("Your {label} file is empty. Please choose the file again."),
                ),
                DocumentError::NotADocument => invalid(
                    "unsupported_file",
                    "Unsupported File",
                    format!("Your {label} must be a PDF, DOC or DOCX file."),
                ),
            })?;
            accepted.push((field, kind, file));
        }
        let mut stored = Vec::new();
        for (field, kind, file) in accepted {
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
            created_at: kernel::ids::now(),
        };
        let names = role_names(&input.roles).join(", ");
        let line = |label: &str, value: &Option<String>| {
            format!("{label}: {}\n", value.as_deref().unwrap_or("-"))
        };
        let body = format!(
            "New contributor application\n\n\
             Name: {}\nAge: {}\nCountry: {}\nEmail: {}\nTime zone: {}\n\
             Weekly availability: {} hours\nEnglish level: {}\n{}{}\
             Roles: {names}\n{}{}{}\n\
             Why do you want to join?\n{}\n\n\
             What would you like to contribute?\n{}\n\n\
             Anything else?\n{}\n\n\
             Attached files: {}\n",
            row.full_name,
            row.age,
            row.country,
            row.email,
            row.time_zone,
            row.weekly_availability,
            row.english_level,
            line("How they heard about us", &row.how_did_you_hear),
            line("Previous experience", &row.previous_experience),
            line("Portfolio link", &row.portfolio_url),
            line("Writing samples link", &row.writing_samples_url),
            line("Research samples link", &row.research_samples_url),
            row.why_join,
            row.contribution,
            row.additional.as_deref().unwrap_or("-"),
            if stored.is_empty() {
                "none".to_string()
            } else {
                stored
                    .iter()
                    .map(|f| f.filename.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            },
        );
        let to_team = Email {
            to: vec![self.settings.inbox_applications.clone()],
            reply_to: Some(row.email.clone()),
            subject: format!("[Application] {}: {names}", row.full_name),
            body,
            attachments: stored
                .iter()
                .map(|f| Attachment {
                    filename: f.filename.clone(),
                    content_type: f.content_type.to_string(),
                    storage_key: f.storage_key.clone(),
                })
                .collect(),
        };
        let to_applicant = Email {
            to: vec![row.email.clone()],
            reply_to: Some(self.settings.inbox_applications.clone()),
            subject: format!("We've got your application to {}", self.settings.site_name),
            body: format!(
                "Hi {},\n\nThank you for applying to join {} as: {names}.\n\
                 We'll review your application and contact you soon.\n",
                row.full_name, self.settings.site_name
            ),
            attachments: vec![],
        };
        self.store
            .save_application(&row, &[to_team, to_applicant])
            .await?;
        tracing::info!(id = %row.id, files = stored.len(), "application received");
        Ok(u32::try_from(stored.len()).unwrap_or(u32::MAX))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn complete() -> ApplicationInput {
        ApplicationInput {
            full_name: "Ada Student".into(),
            age: "16".into(),
            country: "Kenya".into(),
            email: "ada@school.example".into(),
            time_zone: "Africa/Nairobi".into(),
            weekly_availability: "4".into(),
            english_level: "C1".into(),
            roles: vec!["copy-editor".into()],
            why_join: "To learn.".into(),
            contribution: "Careful edits.".into(),
            ..Default::default()
        }
    }

    fn some_file() -> IncomingFile {
        IncomingFile {
            name: "a.pdf".into(),
            upload: Spooled::from_bytes("a.pdf", b"%PDF-1.4").unwrap(),
        }
    }

    fn title(input: &ApplicationInput) -> String {
        match validate(input) {
            Err(OutreachError::Invalid { title, .. }) => title.to_string(),
            Ok(_) => "ok".into(),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn a_complete_application_passes() {
        assert_eq!(
            validate(&complete()).ok(),
            Some(Checked {
                age: 16,
                weekly_availability: 4
            })
        );
    }

    #[test]
    fn faults_are_reported_in_the_products_order() {
        // Everything wrong at once: the first rule wins, then the next, and so on.
        let mut a = ApplicationInput {
            age: "12".into(),
            email: "not an email".into(),
            roles: vec![],
            ..complete()
        };
        a.country = " ".into();
        assert_eq!(title(&a), "Missing Information");
        a.country = "Kenya".into();
        assert_eq!(title(&a), "Age Requirement");
        a.age = "14".into();
        assert_eq!(title(&a), "Role Required");
        a.roles = vec!["design-director".into(), "editorial-writer".into()];
        assert_eq!(title(&a), "Portfolio Required");
        a.portfolio = "https://ada.example/portfolio".into();
        assert_eq!(title(&a), "Writing Samples Required");
        a.writing_samples_file = Some(some_file());
        a.why_join = String::new();
        assert_eq!(title(&a), "Missing Information");
        a.why_join = "Because.".into();
        assert_eq!(title(&a), "Invalid Email");
        a.email = "ada@school.example".into();
        assert_eq!(title(&a), "ok");
    }

    #[test]
    fn the_servers_own_limits() {
        let check = |f: &dyn Fn(&mut ApplicationInput)| {
            let mut a = complete();
            f(&mut a);
            title(&a)
        };
        assert_eq!(
            check(&|a| a.weekly_availability = "0".into()),
            "Weekly Availability"
        );
        assert_eq!(check(&|a| a.age = "sixteen".into()), "Invalid Age");
        assert_eq!(check(&|a| a.english_level = "A1".into()), "English Level");
        assert_eq!(check(&|a| a.roles = vec!["hacker".into()]), "Role Required");
        assert_eq!(
            check(&|a| a.portfolio = "javascript:alert(1)".into()),
            "Invalid Link"
        );
        assert_eq!(
            check(&|a| {
                a.research_samples = "https://x.example/r".into();
                a.research_samples_file = Some(some_file());
            }),
            "Link or File"
        );
        assert_eq!(check(&|a| a.why_join = "w".repeat(5001)), "Too Long");
        assert_eq!(check(&|a| a.english_level = "Native".into()), "ok");
    }
}
