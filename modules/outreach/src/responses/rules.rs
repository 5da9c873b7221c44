//! The rules of responses, as pure functions: what a response may hold, who may send one when,
//! and how it is named in public.

use chrono::{DateTime, Duration, Utc};

/// The shortest and the longest response, in characters.
pub const MIN_RESPONSE_CHARS: usize = 20;
pub const MAX_RESPONSE_CHARS: usize = 2000;
/// Responses a reader may have waiting for the desk at once.
pub const MAX_PENDING: i64 = 5;
/// Responses a reader may send in a day (the 24 hours before now).
pub const MAX_PER_DAY: i64 = 20;
/// Reports by different readers that put an approved response back in the queue.
pub const REPORTS_TO_REQUEUE: i64 = 3;
/// How long after an article is first published it takes responses, by default.
pub const DEFAULT_OPEN_DAYS: i64 = 30;
/// The longest reason given with a rejection, in characters.
pub const MAX_REASON_CHARS: usize = 500;

/// Why a response's text was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyFault {
    TooShort,
    TooLong,
    /// A control character other than a line break or a tab.
    ControlCharacter,
}

impl BodyFault {
    pub fn message(self) -> &'static str {
        match self {
            BodyFault::TooShort => "A response is at least 20 characters.",
            BodyFault::TooLong => "A response is at most 2,000 characters.",
            BodyFault::ControlCharacter => "A response cannot contain control characters.",
        }
    }
}

/// A response's text as kept: plain text, trimmed, its line breaks kept (`\r\n` read as one)
/// and at most one empty line between paragraphs, 20 to 2,000 characters. Nothing in it is
/// markup: pages show it as text, links included.
pub fn checked_body(text: &str) -> Result<String, BodyFault> {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    if text
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return Err(BodyFault::ControlCharacter);
    }
    let mut kept = String::with_capacity(text.len());
    let mut blank = 0;
    for line in text.trim().lines() {
        let line = line.trim_end();
        if line.is_empty() {
            blank += 1;
            if blank > 1 {
                continue;
            }
        } else {
            blank = 0;
        }
        if !kept.is_empty() {
            kept.push('\n');
        }
        kept.push_str(line);
    }
    let n = kept.chars().count();
    if n < MIN_RESPONSE_CHARS {
        Err(BodyFault::TooShort)
    } else if n > MAX_RESPONSE_CHARS {
        Err(BodyFault::TooLong)
    } else {
        Ok(kept)
    }
}

/// What decides whether a reader may respond to an article now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Standing {
    pub confirmed: bool,
    pub blocked: bool,
    /// Staff closed the article's responses.
    pub closed: bool,
    /// When the article was first published.
    pub published_at: DateTime<Utc>,
    /// Their responses waiting for the desk.
    pub pending: i64,
    /// Their responses sent in the last day.
    pub today: i64,
}

/// Why a reader may not respond now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    Unconfirmed,
    Blocked,
    Closed,
    TooManyPending,
    TooManyToday,
}

impl Refusal {
    pub fn message(self) -> &'static str {
        match self {
            Refusal::Unconfirmed => "Please confirm your email address before responding.",
            Refusal::Blocked => "You can no longer respond to articles.",
            Refusal::Closed => "Responses to this article are closed.",
            Refusal::TooManyPending => {
                "You have 5 responses waiting for review. Please wait until they are reviewed."
            }
            Refusal::TooManyToday => "You have sent 20 responses today. Please try again tomorrow.",
        }
    }
}

/// Whether the article still takes responses `open_days` after it was first published.
pub fn open_at(published_at: DateTime<Utc>, open_days: i64, now: DateTime<Utc>) -> bool {
    now < published_at + Duration::days(open_days)
}

/// Whether a reader standing so may respond now; the first reason they may not.
pub fn may_respond(s: Standing, open_days: i64, now: DateTime<Utc>) -> Result<(), Refusal> {
    if !s.confirmed {
        Err(Refusal::Unconfirmed)
    } else if s.blocked {
        Err(Refusal::Blocked)
    } else if s.closed || !open_at(s.published_at, open_days, now) {
        Err(Refusal::Closed)
    } else if s.pending >= MAX_PENDING {
        Err(Refusal::TooManyPending)
    } else if s.today >= MAX_PER_DAY {
        Err(Refusal::TooManyToday)
    } else {
        Ok(())
    }
}

/// How a response names its reader in public: the first name and the last name's initial,
/// never more ("Noor Haddad" → "Noor H.").
pub fn public_name(first: &str, last: &str) -> String {
    let first = first.split_whitespace().next().unwrap_or_default();
    let initial: String = last
        .split_whitespace()
        .next_back()
        .and_then(|w| w.chars().next())
        .map(|c| c.to_uppercase().collect())
        .unwrap_or_default();
    match (first.is_empty(), initial.is_empty()) {
        (false, false) => format!("{first} {initial}."),
        (false, true) => first.to_string(),
        (true, false) => format!("{initial}."),
        (true, true) => "A reader".to_string(),
    }
}

/// A rejection's reason as kept: trimmed, one line, at most [`MAX_REASON_CHARS`] as sent (as
/// the contract states it); `None` for none.
pub fn checked_reason(sent: Option<&str>) -> Result<Option<String>, &'static str> {
    if sent.is_some_and(|r| r.chars().count() > MAX_REASON_CHARS) {
        return Err("A reason is at most 500 characters.");
    }
    let Some(reason) = sent.map(str::trim).filter(|r| !r.is_empty()) else {
        return Ok(None);
    };
    if reason.chars().any(char::is_control) {
        return Err("A reason cannot contain control characters.");
    }
    Ok(Some(reason.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_response_is_plain_text_of_20_to_2000_characters() {
        assert_eq!(
            checked_body("  First point, made well.\r\n\r\n\r\n\r\nSecond: https://x.example  "),
            Ok("First point, made well.\n\nSecond: https://x.example".into())
        );
        assert_eq!(checked_body("Too short."), Err(BodyFault::TooShort));
        assert_eq!(checked_body(&" ".repeat(50)), Err(BodyFault::TooShort));
        assert_eq!(
            checked_body(&"é".repeat(MAX_RESPONSE_CHARS)).map(|b| b.chars().count()),
            Ok(2000)
        );
        assert_eq!(
            checked_body(&"a".repeat(MAX_RESPONSE_CHARS + 1)),
            Err(BodyFault::TooLong)
        );
        assert_eq!(
            checked_body("Twenty characters and a NUL\u{0}"),
            Err(BodyFault::ControlCharacter)
        );
        assert_eq!(
            checked_body("Twenty characters and a bell\u{7}"),
            Err(BodyFault::ControlCharacter)
        );
        // Markup is text like any other.
        assert_eq!(
            checked_body("<script>alert(1)</script> is just text"),
            Ok("<script>alert(1)</script> is just text".into())
        );
    }

    #[test]
    fn who_may_respond_when() {
        let now = chrono::Utc::now();
        let ok = Standing {
            confirmed: true,
            blocked: false,
            closed: false,
            published_at: now - Duration::days(29),
            pending: 4,
            today: 19,
        };
        let cases: [(Standing, Result<(), Refusal>); 8] = [
            (ok, Ok(())),
            (
                Standing {
                    confirmed: false,
                    ..ok
                },
                Err(Refusal::Unconfirmed),
            ),
            (
                Standing {
                    blocked: true,
                    ..ok
                },
                Err(Refusal::Blocked),
            ),
            (Standing { closed: true, ..ok }, Err(Refusal::Closed)),
            (
                Standing {
                    published_at: now - Duration::days(30),
                    ..ok
                },
                Err(Refusal::Closed),
            ),
            (Standing { pending: 5, ..ok }, Err(Refusal::TooManyPending)),
            (Standing { today: 20, ..ok }, Err(Refusal::TooManyToday)),
            // The first reason is the one given.
            (
                Standing {
                    confirmed: false,
                    blocked: true,
                    pending: 9,
                    ..ok
                },
                Err(Refusal::Unconfirmed),
            ),
        ];
        for (standing, want) in cases {
            assert_eq!(
                may_respond(standing, DEFAULT_OPEN_DAYS, now),
                want,
                "{standing:?}"
            );
        }
        // A longer window keeps an older article open.
        let old = Standing {
            published_at: now - Duration::days(45),
            ..ok
        };
        assert_eq!(may_respond(old, 60, now), Ok(()));
    }

    #[test]
    fn a_reader_is_named_by_first_name_and_initial() {
        assert_eq!(public_name("Noor", "Haddad"), "Noor H.");
        assert_eq!(public_name("Ana Sofia", "de la Cruz"), "Ana C.");
        assert_eq!(public_name("léa", "émond"), "léa É.");
        assert_eq!(public_name("Zoë", ""), "Zoë");
        assert_eq!(public_name(" ", " "), "A reader");
    }

    #[test]
    fn a_reason_is_one_short_line_or_none() {
        assert_eq!(checked_reason(None), Ok(None));
        assert_eq!(checked_reason(Some("  ")), Ok(None));
        assert_eq!(
            checked_reason(Some(" Off topic. ")),
            Ok(Some("Off topic.".into()))
        );
        assert!(checked_reason(Some("two\nlines")).is_err());
        assert!(checked_reason(Some(&"a".repeat(501))).is_err());
        assert!(checked_reason(Some(&"a".repeat(500))).is_ok());
        // Counted as sent: white space that trimming would take off still counts.
        assert!(checked_reason(Some(&format!("{} ", "a".repeat(500)))).is_err());
    }
}
