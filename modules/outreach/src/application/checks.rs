//! The checks of an application: the product's (in its order), then the server's own, then
//! each document by its content.

use crate::files::{check_document, DocumentError, DocumentKind, MAX_DOCUMENT_BYTES};
use crate::service::{invalid, too_long, OutreachError};
use kernel::email::is_email;

use super::{ApplicationInput, IncomingFile, ENGLISH_LEVELS, MIN_AGE, MIN_WEEKLY_HOURS, ROLES};
use kernel::ErrorCode;

/// The longest short answer (a name, a country), in characters.
pub const MAX_SHORT_ANSWER: usize = 200;
/// The longest link, in characters.
pub const MAX_LINK_CHARS: usize = 2000;
/// The longest long answer (why you want to join), in characters.
pub const MAX_LONG_ANSWER: usize = 5000;
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
            ErrorCode::MissingInformation,
            "Missing Information",
            "Please fill in all required fields.",
        ));
    }
    let age: i64 = input.age.trim().parse().map_err(|_| {
        invalid(
            ErrorCode::InvalidAge,
            "Invalid Age",
            "Please enter your age as a whole number.",
        )
    })?;
    if age < MIN_AGE {
        return Err(invalid(
            ErrorCode::AgeRequirement,
            "Age Requirement",
            "You must be at least 14 years old to apply.",
        ));
    }
    if age > 120 {
        return Err(invalid(
            ErrorCode::InvalidAge,
            "Invalid Age",
            "Please enter your real age.",
        ));
    }
    let roles = &input.roles;
    if roles.is_empty() {
        return Err(invalid(
            ErrorCode::RoleRequired,
            "Role Required",
            "Please select at least one role you're applying for.",
        ));
    }
    let has_portfolio = !input.portfolio.trim().is_empty() || input.portfolio_file.is_some();
    if has_any(roles, &["graphic-designer", "design-director"]) && !has_portfolio {
        return Err(invalid(
            ErrorCode::PortfolioRequired,
            "Portfolio Required",
            "Portfolio is required when applying for Graphic Designer or Design Director role.",
        ));
    }
    let has_samples =
        !input.writing_samples.trim().is_empty() || input.writing_samples_file.is_some();
    if has_any(roles, &["editorial-writer", "educational-pack-developer"]) && !has_samples {
        return Err(invalid(
            ErrorCode::WritingSamplesRequired,
            "Writing Samples Required",
            "Writing samples are required when applying for Editorial Writer or Educational Pack Developer role.",
        ));
    }
    if input.why_join.trim().is_empty() || input.contribution.trim().is_empty() {
        return Err(invalid(
            ErrorCode::MissingAnswers,
            "Missing Information",
            "Please answer all required questions.",
        ));
    }
    if !is_email(input.email.trim()) {
        return Err(invalid(
            ErrorCode::InvalidEmail,
            "Invalid Email",
            "Please enter a valid email address.",
        ));
    }
    // Beyond the original: the browser's own limits, enforced here too.
    let hours: i64 = input.weekly_availability.trim().parse().map_err(|_| {
        invalid(
            ErrorCode::InvalidAvailability,
            "Weekly Availability",
            "Please enter your weekly availability as a whole number of hours.",
        )
    })?;
    if !(MIN_WEEKLY_HOURS..=168).contains(&hours) {
        return Err(invalid(
            ErrorCode::InvalidAvailability,
            "Weekly Availability",
            "Weekly availability must be between 1 and 168 hours.",
        ));
    }
    if !ENGLISH_LEVELS.contains(&input.english_level.trim()) {
        return Err(invalid(
            ErrorCode::InvalidEnglishLevel,
            "English Level",
            "Please choose your English level: B2, C1, C2 or Native.",
        ));
    }
    if roles.len() > ROLES.len() || !roles.iter().all(|r| ROLES.iter().any(|(id, _)| id == r)) {
        return Err(invalid(
            ErrorCode::UnknownRole,
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
                ErrorCode::LinkOrFile,
                "Link or File",
                format!("Please give either a link or a file for your {label}, not both."),
            ));
        }
        if !url.is_empty() && !is_web_link(url) {
            return Err(invalid(
                ErrorCode::InvalidLink,
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
mod tests {
    use kernel::upload::Spooled;

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

    /// Whether `text` matches the pattern the contract gives fields of rule `R`.
    fn contract_takes<R: kernel::text::Rule>(text: &str) -> bool {
        let pattern = R::pattern().unwrap();
        regex::Regex::new(&pattern).unwrap().is_match(text)
    }

    #[test]
    fn what_the_contract_takes_the_checks_take() {
        use crate::model::{Age, WebLink, WeeklyHours};
        let samples = [
            "",
            " ",
            "0",
            "1",
            "13",
            "14",
            " 16 ",
            "\u{a0}17\t",
            "99",
            "119",
            "120",
            "121",
            "168",
            "169",
            "+15",
            "015",
            "1 4",
            "14.0",
            "fourteen",
            "http://a.b",
            "https://ada.example/work",
            " https://x.y ",
            "https://x",
            "https://.",
            "ftp://a.b",
            "https://a b.c",
            "HTTPS://A.B",
            "https://a.b\u{3000}",
            "https://a.b\u{2028}c",
        ];
        let mut taken = 0;
        for text in samples {
            let with = |edit: fn(&mut ApplicationInput, &str)| {
                let mut input = complete();
                edit(&mut input, text);
                validate(&input).is_ok()
            };
            for (rule, contract, checks) in [
                (
                    "age",
                    contract_takes::<Age>(text),
                    with(|i, t| i.age = t.into()),
                ),
                (
                    "hours",
                    contract_takes::<WeeklyHours>(text),
                    with(|i, t| i.weekly_availability = t.into()),
                ),
                (
                    "link",
                    contract_takes::<WebLink>(text),
                    with(|i, t| i.portfolio = t.into()),
                ),
            ] {
                assert!(
                    !contract || checks,
                    "{rule}: the contract takes {text:?}, the checks do not"
                );
                taken += usize::from(contract);
            }
        }
        assert!(
            taken >= 12,
            "the samples reach the patterns ({taken} taken)"
        );
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
