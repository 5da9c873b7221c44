use super::*;

fn matches<R: Rule>(text: &str) -> bool {
    let pattern = R::pattern().expect("a pattern");
    let re = regex::Regex::new(&pattern).expect("a valid pattern");
    let chars = text.chars().count();
    re.is_match(text)
        && R::MIN_LENGTH.is_none_or(|m| chars >= m)
        && R::MAX_LENGTH.is_none_or(|m| chars <= m)
}

#[test]
fn the_space_class_is_what_trim_removes() {
    let re = regex::Regex::new(&format!("^[{SPACE}]$")).expect("a class");
    for c in (0..=0x3000u32).filter_map(char::from_u32) {
        let s = c.to_string();
        assert_eq!(re.is_match(&s), s.trim().is_empty(), "U+{:04X}", c as u32);
    }
}

#[test]
fn required_text_is_what_a_trimmed_non_empty_check_takes() {
    for (text, ok) in [
        ("Ann", true),
        ("  Ann ", true),
        ("\u{1c}", true),
        ("", false),
        ("   ", false),
        ("\u{a0}\u{3000}", false),
        ("a\0b", false),
    ] {
        let server = !text.trim().is_empty() && !text.contains('\0');
        assert_eq!(server, ok, "{text:?}");
        assert_eq!(matches::<Required<10>>(text), ok, "{text:?}");
    }
    assert!(!matches::<Required<3>>("four"));
}

#[test]
fn the_email_pattern_is_the_email_rule() {
    let (good, bad) = crate::email::EXAMPLES;
    // As sent: white space around, and characters the rule does not mind.
    let sent = [" first.last+tag@school.example.org\n", "\u{1c}x@y.z"];
    for text in good.iter().chain(bad).chain(&sent) {
        let server = crate::email::is_email(text.trim());
        assert_eq!(matches::<EmailAddress>(text), server, "{text:?}");
    }
}

#[test]
fn an_email_or_nothing() {
    for (text, ok) in [("", true), ("  ", true), (" a@b.co", true), ("a@b", false)] {
        assert_eq!(matches::<EmailOrNothing>(text), ok, "{text:?}");
    }
}

#[test]
fn any_string_is_read_and_a_missing_one_is_empty() {
    type T = Text<Required<5>>;
    assert_eq!(T::parse_from_json(None).ok(), Some(T::from("")));
    assert_eq!(
        T::parse_from_json(Some(Value::String("far too long".into()))).ok(),
        Some(T::from("far too long"))
    );
    assert!(T::parse_from_json(Some(Value::Null)).is_err());
    assert!(T::parse_from_json(Some(Value::from(5))).is_err());
}
