//! The two emails an application sends: the team's (every answer, the documents attached)
//! and the applicant's receipt.

use kernel::outbox::{Attachment, Email};

use super::{role_names, StoredFile};
use crate::service::OutreachSettings;
use crate::store::ApplicationRow;

/// To the applications inbox: every answer, replying to the applicant, documents attached.
pub(super) fn to_team(
    row: &ApplicationRow,
    stored: &[StoredFile],
    roles: &[String],
    settings: &OutreachSettings,
) -> Email {
    let names = role_names(roles).join(", ");
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
         {}",
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
        documents(row, stored, settings),
    );
    // Linked documents stay in storage until their links expire; attached ones belong to the
    // message (deleted once it is delivered).
    let attachments = match row.documents_until {
        Some(_) => vec![],
        None => stored
            .iter()
            .map(|f| Attachment {
                filename: f.filename.clone(),
                content_type: f.content_type.to_string(),
                storage_key: f.storage_key.clone(),
            })
            .collect(),
    };
    Email {
        html: None,
        to: vec![settings.inbox_applications.clone()],
        reply_to: Some(row.email.clone()),
        subject: format!("[Application] {}: {names}", row.full_name),
        body,
        attachments,
        list_unsubscribe: None,
    }
}

/// The documents' paragraph: their names when attached; when too large to attach, a signed
/// link to each, and until when they work.
fn documents(row: &ApplicationRow, stored: &[StoredFile], settings: &OutreachSettings) -> String {
    if stored.is_empty() {
        return "Attached files: none\n".to_string();
    }
    let Some(until) = row.documents_until else {
        let names: Vec<&str> = stored.iter().map(|f| f.filename.as_str()).collect();
        return format!("Attached files: {}\n", names.join(", "));
    };
    let total: usize = stored.iter().map(|f| f.size).sum();
    let mut text = format!(
        "Documents ({} in all, too large to attach). Download them by {} (UTC), signed in \
         as an admin or content director ({}/key-login); they are deleted then.\n",
        megabytes(total),
        until.format("%-d %B %Y, %H:%M"),
        settings.site_url,
    );
    for f in stored {
        text.push_str(&format!(
            "\n{} ({}, {}):\n{}\n",
            f.filename,
            f.label,
            megabytes(f.size),
            super::documents::link(settings, &row.id, f.field, until)
        ));
    }
    text
}

fn megabytes(bytes: usize) -> String {
    format!("{:.1} MB", bytes as f64 / (1024.0 * 1024.0))
}

/// To the applicant: what they applied as, and that the team will be in touch.
pub(super) fn to_applicant(
    row: &ApplicationRow,
    roles: &[String],
    settings: &OutreachSettings,
) -> Email {
    let names = role_names(roles).join(", ");
    Email {
        html: None,
        to: vec![row.email.clone()],
        reply_to: Some(settings.inbox_applications.clone()),
        subject: format!("We've got your application to {}", settings.site_name),
        body: format!(
            "Hi {},\n\nThank you for applying to join {} as: {names}.\n\
             We'll review your application and contact you soon.\n",
            row.full_name, settings.site_name
        ),
        attachments: vec![],
        list_unsubscribe: None,
    }
}
