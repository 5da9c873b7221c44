//! Text fields whose rules the contract states, and whose breaches the modules answer in their
//! own words.
//!
//! A [`Text<R>`] is a string whose schema carries its rule `R` (required, length, pattern,
//! format), so a client generated from the contract, or a fuzzer, knows what the server takes.
//! It is read leniently: a missing field reads as empty and any string is taken, so that the
//! module checking it answers with the product's message ("Please fill in all required
//! fields.") rather than a parser's. Only a value of another JSON type (a number, or `null`
//! for a required field) is refused by the parser, with 400.
//!
//! Every pattern rules out NUL, which the HTTP edge refuses in any body.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;
use std::ops::Deref;

use poem_openapi::registry::{MetaSchema, MetaSchemaRef};
use poem_openapi::types::{
    ParseError, ParseFromJSON, ParseFromMultipartField, ParseResult, ToJSON, Type,
};
use serde_json::Value;

/// What Rust's `trim` removes (Unicode `White_Space`), spelled for a regular expression that
/// JavaScript and Python read the same way (their `\s` differ from it and from each other).
pub const SPACE: &str =
    "\\t\\n\\u000B\\f\\r \\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000";

/// Any text a body may carry: everything but NUL, which the HTTP edge refuses in any body.
pub const BODY_TEXT: &str = "^[^\\u0000]*$";

/// The rule of a text field, as the contract states it.
pub trait Rule: Send + Sync + 'static {
    const MIN_LENGTH: Option<usize> = None;
    const MAX_LENGTH: Option<usize> = None;
    /// A regular expression (ECMA-262) the whole text matches; it must rule out NUL.
    fn pattern() -> Option<String> {
        None
    }
    const FORMAT: Option<&'static str> = None;
    /// The only values taken, when the field is a choice from a list.
    const CHOICES: &'static [&'static str] = &[];
    /// Whether the contract requires the field (a missing one reads as empty either way; a
    /// `null` is refused either way).
    const REQUIRED: bool = true;
}

/// Between `MIN` and `MAX` characters as sent, white space or not.
pub struct Chars<const MIN: usize, const MAX: usize>;

impl<const MIN: usize, const MAX: usize> Rule for Chars<MIN, MAX> {
    const MIN_LENGTH: Option<usize> = if MIN > 0 { Some(MIN) } else { None };
    const REQUIRED: bool = MIN > 0;
    const MAX_LENGTH: Option<usize> = Some(MAX);
    fn pattern() -> Option<String> {
        Some(BODY_TEXT.into())
    }
}

/// Between `MIN` and `MAX` characters as sent, and something other than white space.
pub struct NotBlank<const MIN: usize, const MAX: usize>;

impl<const MIN: usize, const MAX: usize> Rule for NotBlank<MIN, MAX> {
    const MIN_LENGTH: Option<usize> = Some(if MIN > 1 { MIN } else { 1 });
    const MAX_LENGTH: Option<usize> = Some(MAX);
    fn pattern() -> Option<String> {
        Some(format!("^[^\\u0000]*[^\\u0000{SPACE}][^\\u0000]*$"))
    }
}

/// Anything at all, or nothing (the field may be left out).
pub struct Anything;

impl Rule for Anything {
    const REQUIRED: bool = false;
    fn pattern() -> Option<String> {
        Some(BODY_TEXT.into())
    }
}

/// A required field: something other than white space, at most `MAX` characters as sent.
pub type Required<const MAX: usize> = NotBlank<1, MAX>;
/// Anything, or nothing (the field may be left out), up to `MAX` characters as sent.
pub type Optional<const MAX: usize> = Chars<0, MAX>;
/// Anything but nothing (white space counts), up to `MAX` characters as sent.
pub type Filled<const MAX: usize> = Chars<1, MAX>;

/// The longest address (RFC 5321's path limit), counted as sent.
pub const MAX_EMAIL_CHARS: usize = 254;

/// An email address as [`crate::email::is_email`] reads it, white space around it allowed
/// (it is trimmed), at most [`MAX_EMAIL_CHARS`] characters as sent.
pub struct EmailAddress;

impl Rule for EmailAddress {
    const MIN_LENGTH: Option<usize> = Some(3);
    const MAX_LENGTH: Option<usize> = Some(MAX_EMAIL_CHARS);
    fn pattern() -> Option<String> {
        // local@first.rest: no white space, control character or second '@' anywhere, no
        // empty part, no final dot.
        let part = format!("[^\\u0000-\\u001F\\u007F-\\u009F@{SPACE}]");
        let label = format!("[^\\u0000-\\u001F\\u007F-\\u009F@.{SPACE}]");
        Some(format!(
            "^[{SPACE}]*{part}+@{label}+\\.{part}*{label}[{SPACE}]*$"
        ))
    }
}

/// An email address, or nothing (white space only counts as nothing).
pub struct EmailOrNothing;

impl Rule for EmailOrNothing {
    const REQUIRED: bool = false;
    const MAX_LENGTH: Option<usize> = Some(MAX_EMAIL_CHARS);
    fn pattern() -> Option<String> {
        let email = EmailAddress::pattern()?;
        Some(format!("^[{SPACE}]*$|{email}"))
    }
}

/// A string whose schema states `R` and that any string satisfies on reading; the module that
/// owns the field checks it.
pub struct Text<R: Rule> {
    value: String,
    rule: PhantomData<fn() -> R>,
}

impl<R: Rule> Text<R> {
    pub fn new(value: impl Into<String>) -> Self {
        Text {
            value: value.into(),
            rule: PhantomData,
        }
    }

    pub fn as_str(&self) -> &str {
        &self.value
    }
}

impl<R: Rule> Deref for Text<R> {
    type Target = str;
    fn deref(&self) -> &str {
        &self.value
    }
}

impl<R: Rule> Default for Text<R> {
    fn default() -> Self {
        Text::new(String::new())
    }
}

impl<R: Rule> Clone for Text<R> {
    fn clone(&self) -> Self {
        Text::new(self.value.clone())
    }
}

impl<R: Rule> fmt::Debug for Text<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.value, f)
    }
}

impl<R: Rule> PartialEq for Text<R> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl<R: Rule> Eq for Text<R> {}

impl<R: Rule> From<String> for Text<R> {
    fn from(value: String) -> Self {
        Text::new(value)
    }
}

impl<R: Rule> From<&str> for Text<R> {
    fn from(value: &str) -> Self {
        Text::new(value)
    }
}

impl<R: Rule> From<Text<R>> for String {
    fn from(text: Text<R>) -> String {
        text.value
    }
}

impl<R: Rule> serde::Serialize for Text<R> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.value)
    }
}

impl<'de, R: Rule> serde::Deserialize<'de> for Text<R> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(Text::new)
    }
}

impl<R: Rule> Type for Text<R> {
    const IS_REQUIRED: bool = R::REQUIRED;
    type RawValueType = Self;
    type RawElementValueType = Self;

    fn name() -> Cow<'static, str> {
        "string".into()
    }

    fn schema_ref() -> MetaSchemaRef {
        MetaSchemaRef::Inline(Box::new(MetaSchema {
            min_length: R::MIN_LENGTH,
            max_length: R::MAX_LENGTH,
            pattern: R::pattern(),
            format: R::FORMAT,
            enum_items: R::CHOICES.iter().map(|c| Value::from(*c)).collect(),
            ..MetaSchema::new("string")
        }))
    }

    fn as_raw_value(&self) -> Option<&Self::RawValueType> {
        Some(self)
    }

    fn raw_element_iter<'a>(
        &'a self,
    ) -> Box<dyn Iterator<Item = &'a Self::RawElementValueType> + 'a> {
        Box::new(self.as_raw_value().into_iter())
    }
}

impl<R: Rule> ParseFromJSON for Text<R> {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        match value {
            None => Ok(Text::default()),
            // An optional field may be `null` (the contract says so): nothing.
            Some(Value::Null) if !R::REQUIRED => Ok(Text::default()),
            Some(Value::String(s)) => Ok(Text::new(s)),
            Some(other) => Err(ParseError::expected_type(other)),
        }
    }
}

/// A text part of a multipart form, read as leniently: a missing part reads as empty. (Forms
/// the modules read part by part as they arrive use the type for its schema only.)
impl<R: Rule> ParseFromMultipartField for Text<R> {
    async fn parse_from_multipart(field: Option<poem::web::Field>) -> ParseResult<Self> {
        match field {
            Some(field) => Ok(Text::new(field.text().await.map_err(ParseError::custom)?)),
            None => Ok(Text::default()),
        }
    }
}

impl<R: Rule> ToJSON for Text<R> {
    fn to_json(&self) -> Option<Value> {
        Some(Value::String(self.value.clone()))
    }
}

/// A value (a choice from a list, say) the contract requires but that reads as absent when
/// missing, so the module that needs it answers in its own words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Asked<T>(pub Option<T>);

impl<T> Default for Asked<T> {
    fn default() -> Self {
        Asked(None)
    }
}

impl<T: Type> Type for Asked<T> {
    const IS_REQUIRED: bool = true;
    type RawValueType = T::RawValueType;
    type RawElementValueType = T::RawElementValueType;

    fn name() -> Cow<'static, str> {
        T::name()
    }

    fn schema_ref() -> MetaSchemaRef {
        T::schema_ref()
    }

    fn register(registry: &mut poem_openapi::registry::Registry) {
        T::register(registry);
    }

    fn as_raw_value(&self) -> Option<&Self::RawValueType> {
        self.0.as_ref().and_then(T::as_raw_value)
    }

    fn raw_element_iter<'a>(
        &'a self,
    ) -> Box<dyn Iterator<Item = &'a Self::RawElementValueType> + 'a> {
        match &self.0 {
            Some(v) => v.raw_element_iter(),
            None => Box::new(std::iter::empty()),
        }
    }
}

impl<T: ParseFromJSON> ParseFromJSON for Asked<T> {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        match value {
            // Left out or `null` (which the contract does not allow either): not given, so
            // the module says what is missing.
            None | Some(Value::Null) => Ok(Asked(None)),
            Some(v) => T::parse_from_json(Some(v))
                .map(|t| Asked(Some(t)))
                .map_err(ParseError::propagate),
        }
    }
}

impl<T: ToJSON> ToJSON for Asked<T> {
    fn to_json(&self) -> Option<Value> {
        self.0.as_ref().and_then(ToJSON::to_json)
    }
}

impl<T: serde::Serialize> serde::Serialize for Asked<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de, T: serde::Deserialize<'de>> serde::Deserialize<'de> for Asked<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Option::<T>::deserialize(d).map(Asked)
    }
}

/// A whole number whose schema states its range, `MIN` to `MAX`, and that any whole number
/// satisfies on reading: the module that owns the field answers one out of range in its own
/// words ("Age must be between 13 and 25."), not a parser's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct Whole<const MIN: i64, const MAX: i64>(pub i64);

impl<const MIN: i64, const MAX: i64> Type for Whole<MIN, MAX> {
    const IS_REQUIRED: bool = true;
    type RawValueType = Self;
    type RawElementValueType = Self;

    fn name() -> Cow<'static, str> {
        "integer(int64)".into()
    }

    fn schema_ref() -> MetaSchemaRef {
        // The bounds are small whole numbers: exact as f64.
        #[allow(clippy::cast_precision_loss)]
        let (minimum, maximum) = (MIN as f64, MAX as f64);
        MetaSchemaRef::Inline(Box::new(MetaSchema {
            format: Some("int64"),
            minimum: Some(minimum),
            maximum: Some(maximum),
            ..MetaSchema::new("integer")
        }))
    }

    fn as_raw_value(&self) -> Option<&Self::RawValueType> {
        Some(self)
    }

    fn raw_element_iter<'a>(
        &'a self,
    ) -> Box<dyn Iterator<Item = &'a Self::RawElementValueType> + 'a> {
        Box::new(self.as_raw_value().into_iter())
    }
}

impl<const MIN: i64, const MAX: i64> ParseFromJSON for Whole<MIN, MAX> {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        match value {
            Some(Value::Number(n)) => n
                .as_i64()
                .map(Whole)
                .ok_or_else(|| ParseError::custom("expected a whole number")),
            Some(other) => Err(ParseError::expected_type(other)),
            None => Err(ParseError::expected_input()),
        }
    }
}

impl<const MIN: i64, const MAX: i64> ToJSON for Whole<MIN, MAX> {
    fn to_json(&self) -> Option<Value> {
        Some(Value::from(self.0))
    }
}

#[cfg(test)]
mod tests;
