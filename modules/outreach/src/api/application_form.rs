//! The application form read part by part: text fields capped, files spooled as they arrive.

use kernel::upload::{read_text, spool, MultipartStream, PartError};
use kernel::Common;
use kernel::ErrorBody;
use poem_openapi::payload::Json;

use super::answers::{application_answer, ApplicationResponse};
use crate::application::{ApplicationInput, IncomingFile};
use crate::files::MAX_DOCUMENT_BYTES;
use crate::model::ApplicationForm;
use crate::service::OutreachError;

/// Longest text kept from one multipart text field; no valid answer comes near it (the longest
/// allowed is 5,000 characters), so a longer one is still refused by its length rule.
const MAX_TEXT_FIELD_BYTES: usize = 32 * 1024;
/// Longest role id kept (longer ones are unknown either way).
const MAX_ROLE_BYTES: usize = 256;
/// Role parts kept (more than there are roles is refused by the roles rule).
const MAX_ROLE_PARTS: usize = 64;

pub(super) fn part_error(e: PartError) -> ApplicationResponse {
    match e {
        PartError::Nul => ApplicationResponse::BadRequest(Json(ErrorBody::new(
            kernel::Common::InvalidCharacters,
            kernel::upload::NUL_MESSAGE,
        ))),
        e @ PartError::Malformed(_) => ApplicationResponse::BadRequest(Json(ErrorBody::new(
            Common::InvalidRequest,
            e.to_string(),
        ))),
        PartError::Io(e) => application_answer(Err(OutreachError::Storage(e))),
    }
}

/// Reads the application part by part: text fields capped, files spooled to temporary files
/// as they arrive (over 10 MB, nothing of a file is kept). Returns the input and whether the
/// honeypot was filled.
pub(super) async fn read_application(
    form: &mut MultipartStream<ApplicationForm>,
) -> Result<(ApplicationInput, bool), PartError> {
    let mut input = ApplicationInput::default();
    let mut website = String::new();
    let mut seen: Vec<String> = Vec::new();
    while let Some(field) = form.next_field().await? {
        let Some(name) = field.name().map(str::to_string) else {
            continue;
        };
        if name == "roles" {
            let role = read_text(field, MAX_ROLE_BYTES).await?;
            if input.roles.len() < MAX_ROLE_PARTS {
                input.roles.push(role);
            }
            continue;
        }
        let file_slot = match name.as_str() {
            "cv_file" => Some(&mut input.cv_file),
            "portfolio_file" => Some(&mut input.portfolio_file),
            "writing_samples_file" => Some(&mut input.writing_samples_file),
            "research_samples_file" => Some(&mut input.research_samples_file),
            _ => None,
        };
        let text_slot = match name.as_str() {
            "full_name" => Some(&mut input.full_name),
            "age" => Some(&mut input.age),
            "country" => Some(&mut input.country),
            "email" => Some(&mut input.email),
            "time_zone" => Some(&mut input.time_zone),
            "weekly_availability" => Some(&mut input.weekly_availability),
            "english_level" => Some(&mut input.english_level),
            "how_did_you_hear" => Some(&mut input.how_did_you_hear),
            "previous_experience" => Some(&mut input.previous_experience),
            "portfolio" => Some(&mut input.portfolio),
            "writing_samples" => Some(&mut input.writing_samples),
            "research_samples" => Some(&mut input.research_samples),
            "why_join" => Some(&mut input.why_join),
            "contribution" => Some(&mut input.contribution),
            "additional" => Some(&mut input.additional),
            "website" => Some(&mut website),
            _ => None,
        };
        if file_slot.is_none() && text_slot.is_none() {
            // Not a field of the form: skipped unread.
            continue;
        }
        if seen.contains(&name) {
            return Err(PartError::form(format!(
                "failed to parse field `{name}`: repeated field"
            )));
        }
        seen.push(name);
        if let Some(slot) = file_slot {
            let upload = spool(field, MAX_DOCUMENT_BYTES as u64).await?;
            let file_name = upload.file_name().unwrap_or_default().to_string();
            // An empty file input sent by some browsers is no file.
            if !(file_name.is_empty() && upload.size() == 0) {
                *slot = Some(IncomingFile {
                    name: file_name,
                    upload,
                });
            }
        } else if let Some(slot) = text_slot {
            *slot = read_text(field, MAX_TEXT_FIELD_BYTES).await?;
        }
    }
    Ok((input, !website.is_empty()))
}
