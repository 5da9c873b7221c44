//! The rules the forms' fields follow (lengths, ages, choices): stated once, read by the
//! contract's types (`model`) and by the checks of each form.

/// The contact form's fields.
pub const MAX_NAME_CHARS: usize = 100;
pub const MAX_EMAIL_CHARS: usize = kernel::text::MAX_EMAIL_CHARS;
pub const MAX_SUBJECT_CHARS: usize = 200;
pub const MAX_MESSAGE_CHARS: usize = 5000;

/// Reader accounts.
/// Interests offered on the form ("Digital Politics" as the product gives it).
pub const INTERESTS: [&str; 6] = [
    "International Affairs",
    "Youth Activism",
    "Human Rights",
    "Climate Justice",
    "Culture & Politics",
    "Digital Politics",
];

/// One of [`INTERESTS`], as the contract states it.
pub struct Interest;

impl kernel::text::Rule for Interest {
    const CHOICES: &'static [&'static str] = &INTERESTS;
}

/// The interests a reader ticked, each once, in the order given (a form or a client may send
/// one twice); `None` when one of them is not on the list.
pub fn chosen_interests<'a>(given: impl IntoIterator<Item = &'a str>) -> Option<Vec<String>> {
    let mut chosen: Vec<String> = Vec::new();
    for interest in given {
        if !INTERESTS.contains(&interest) {
            return None;
        }
        if !chosen.iter().any(|c| c == interest) {
            chosen.push(interest.to_string());
        }
    }
    Some(chosen)
}

/// The ages a reader may give, when they give one.
pub const MIN_READER_AGE: i64 = 13;
pub const MAX_READER_AGE: i64 = 25;
pub use identity::readers::{MAX_PASSWORD_CHARS, MIN_PASSWORD_CHARS};

/// The application form.
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
/// The longest short answer (a name, a country), in characters.
pub const MAX_SHORT_ANSWER: usize = 200;
/// The longest link, in characters.
pub const MAX_LINK_CHARS: usize = 2000;
/// The longest long answer (why you want to join), in characters.
pub const MAX_LONG_ANSWER: usize = 5000;
