//! The checks of an application: the product's (in its order), then the server's own, then
//! each document by its content.

use crate::codes::Code;
use crate::files::{check_document, DocumentError, DocumentKind, MAX_DOCUMENT_BYTES};
use crate::service::{invalid, too_long, OutreachError};
use kernel::email::is_email;
use kernel::Common;

use super::{ApplicationInput, IncomingFile};
use crate::limits::*;

const MAX_SHORT: usize = MAX_SHORT_ANSWER;
const MAX_URL: usize = MAX_LINK_CHARS;
const MAX_LONG: usize = MAX_LONG_ANSWER;

fn has_any(roles: &[String], wanted: &[&str]) -> bool {
    roles.iter().any(|r| wanted.contains(&r.as_str()))
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
            Common::MissingInformation,
            "Missing Information",
            "Please fill in all required fields.",
        ));
    }
    let age: i64 = input.age.trim().parse().map_err(|_| {
        invalid(
            Code::InvalidAge,
            "Invalid Age",
            "Please enter your age as a whole number.",
        )
    })?;
    if age < MIN_AGE {
        return Err(invalid(
            Code::AgeRequirement,
            "Age Requirement",
            "You must be at least 14 years old to apply.",
        ));
    }
    if age > 120 {
        return Err(invalid(
            Code::InvalidAge,
            "Invalid Age",
            "Please enter your real age.",
        ));
    }
    let roles = &input.roles;
    if roles.is_empty() {
        return Err(invalid(
            Code::RoleRequired,
            "Role Required",
            "Please select at least one role you're applying for.",
        ));
    }
    let has_portfolio = !input.portfolio.trim().is_empty() || input.portfolio_file.is_some();
    if has_any(roles, &["graphic-designer", "design-director"]) && !has_portfolio {
        return Err(invalid(
            Code::PortfolioRequired,
            "Portfolio Required",
            "Portfolio is required when applying for Graphic Designer or Design Director role.",
        ));
    }
    let has_samples =
        !input.writing_samples.trim().is_empty() || input.writing_samples_file.is_some();
    if has_any(roles, &["editorial-writer", "educational-pack-developer"]) && !has_samples {
        return Err(invalid(
            Code::WritingSamplesRequired,
            "Writing Samples Required",
            "Writing samples are required when applying for Editorial Writer or Educational Pack Developer role.",
        ));
    }
    if input.why_join.trim().is_empty() || input.contribution.trim().is_empty() {
        return Err(invalid(
            Code::MissingAnswers,
            "Missing Information",
            "Please answer all required questions.",
        ));
    }
    if !is_email(input.email.trim()) {
        return Err(invalid(
            Common::InvalidEmail,
            "Invalid Email",
            kernel::email::INVALID_EMAIL,
        ));
    }
    // Beyond the original: the browser's own limits, enforced here too.
    let hours: i64 = input.weekly_availability.trim().parse().map_err(|_| {
        invalid(
            Code::InvalidAvailability,
            "Weekly Availability",
            "Please enter your weekly availability as a whole number of hours.",
        )
    })?;
    if !(MIN_WEEKLY_HOURS..=168).contains(&hours) {
        return Err(invalid(
            Code::InvalidAvailability,
            "Weekly Availability",
            "Weekly availability must be between 1 and 168 hours.",
        ));
    }
    if !ENGLISH_LEVELS.contains(&input.english_level.trim()) {
        return Err(invalid(
            Code::InvalidEnglishLevel,
            "English Level",
            "Please choose your English level: B2, C1, C2 or Native.",
        ));
    }
    if roles.len() > ROLES.len() || !roles.iter().all(|r| ROLES.iter().any(|(id, _)| id == r)) {
        return Err(invalid(
            Code::UnknownRole,
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
                Code::LinkOrFile,
                "Link or File",
                format!("Please give either a link or a file for your {label}, not both."),
            ));
        }
        if !url.is_empty() && !is_web_link(url) {
            return Err(invalid(
                Code::InvalidLink,
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
pub(super) async fn check_file(
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

#[cfg(test)]
mod tests;
