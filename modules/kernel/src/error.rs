//! The one error body every API answer uses: a stable snake_case `code` and a human `message`.
//!
//! Each module owns the codes it answers with (its `codes` module, an enum); the codes any
//! module may answer (the HTTP edge's, and a few field rules several modules share) are
//! [`Common`] here. `app` joins them all ([`register_codes`]) into the contract's one
//! `ErrorCode` enum, so a generated client still gets one union type.

use std::borrow::Cow;
use std::sync::OnceLock;

use poem_openapi::registry::{MetaSchema, MetaSchemaRef, Registry};
use poem_openapi::types::{ParseError, ParseFromJSON, ParseResult, ToJSON, Type};
use poem_openapi::Object;
use serde::Serialize;

/// How a refusal of a well-formed request is answered, by its code: most break a rule of one
/// field (400); some are fields that each pass their rules but disagree, or an empty file
/// (422), or a file of another kind than asked for, judged by its bytes (415).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Refusal {
    Invalid,
    Unprocessable,
    Unsupported,
}

/// A code an API answer carries: its snake_case name, and how a refusal with it is answered.
/// Made from a module's own code enum (`From`), or from [`Common`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ErrorCode {
    name: &'static str,
    refusal: Refusal,
}

impl ErrorCode {
    /// A code whose refusal is a 400 (see [`Refusal`]).
    pub const fn invalid(name: &'static str) -> Self {
        Self::with(name, Refusal::Invalid)
    }

    pub const fn with(name: &'static str, refusal: Refusal) -> Self {
        Self { name, refusal }
    }

    /// The code as it is sent (`invalid_email`).
    pub const fn as_str(self) -> &'static str {
        self.name
    }

    /// How a refusal with this code is answered (see [`Refusal`]).
    pub const fn refusal(self) -> Refusal {
        self.refusal
    }
}

/// A module's own enum of codes (snake_case names from strum's `IntoStaticStr`): it becomes
/// an [`ErrorCode`] by its name and [`ModuleCode::refusal`], which says which of its codes
/// are not answered 400.
pub trait ModuleCode: Copy + Into<&'static str> {
    fn refusal(self) -> Refusal {
        Refusal::Invalid
    }
}

impl<C: ModuleCode> From<C> for ErrorCode {
    fn from(code: C) -> Self {
        ErrorCode::with(code.into(), code.refusal())
    }
}

/// The code as it is sent (`invalid_email`), for logs.
impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

impl Serialize for ErrorCode {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name)
    }
}

/// The codes any module may answer: the HTTP edge's, and the field rules several modules share.
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr, strum::EnumIter)]
#[strum(serialize_all = "snake_case")]
pub enum Common {
    InvalidRequest,
    InvalidCharacters,
    NotFound,
    NotSignedIn,
    Forbidden,
    TooManyRequests,
    InternalError,
    /// The server cannot answer for a moment (its database is unreachable): try again after
    /// `Retry-After` seconds. Never means "not signed in".
    ServiceUnavailable,
    /// Sign-in attempts from one place over their limit (staff keys and reader passwords).
    TooManyAttempts,
    // Field rules of more than one module.
    TitleRequired,
    TooLong,
    InvalidEmail,
    /// An email address left empty where one is needed.
    EmailRequired,
    /// Required fields left empty.
    MissingInformation,
    InvalidCoverImage,
    FileTooLarge,
    /// A change of state the item's current state does not allow (an article, an issue).
    InvalidTransition,
}

impl ModuleCode for Common {}

impl PartialEq<Common> for ErrorCode {
    fn eq(&self, other: &Common) -> bool {
        *self == ErrorCode::from(*other)
    }
}

/// Every code the contract lists, in order: set once by `app` (see [`register_codes`]).
static CODES: OnceLock<Vec<ErrorCode>> = OnceLock::new();

/// Joins every module's codes into the contract's `ErrorCode` enum, in the order given (the
/// [`Common`] codes first, whether or not they are given). Called once, by `app`, before the
/// contract is built; later calls change nothing.
pub fn register_codes(codes: impl IntoIterator<Item = ErrorCode>) {
    let _ = CODES.get_or_init(|| {
        let mut all: Vec<ErrorCode> = common_codes().collect();
        for code in codes {
            if !all.iter().any(|c| c.name == code.name) {
                all.push(code);
            }
        }
        all
    });
}

fn common_codes() -> impl Iterator<Item = ErrorCode> {
    codes_of::<Common>()
}

/// Every code of one module's code enum, in its order.
pub fn codes_of<C: strum::IntoEnumIterator + Into<ErrorCode>>() -> impl Iterator<Item = ErrorCode> {
    C::iter().map(Into::into)
}

/// The codes the contract lists: those registered, or only [`Common`]'s before that.
fn registered() -> Cow<'static, [ErrorCode]> {
    match CODES.get() {
        Some(all) => Cow::Borrowed(all.as_slice()),
        None => Cow::Owned(common_codes().collect()),
    }
}

impl Type for ErrorCode {
    const IS_REQUIRED: bool = true;
    type RawValueType = Self;
    type RawElementValueType = Self;

    fn name() -> Cow<'static, str> {
        "ErrorCode".into()
    }

    fn schema_ref() -> MetaSchemaRef {
        MetaSchemaRef::Reference(Self::name().into_owned())
    }

    fn register(registry: &mut Registry) {
        registry.create_schema::<Self, _>(Self::name().into_owned(), |_| MetaSchema {
            description: Some(
                "Every code an API answer can carry: each module's own, joined, so a \
                 generated client gets one union type.",
            ),
            enum_items: registered()
                .iter()
                .map(|c| serde_json::Value::from(c.name))
                .collect(),
            ..MetaSchema::new("string")
        });
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

impl ToJSON for ErrorCode {
    fn to_json(&self) -> Option<serde_json::Value> {
        Some(serde_json::Value::from(self.name))
    }
}

impl ErrorCode {
    /// The registered code of this name (see [`register_codes`]).
    pub fn named(name: &str) -> Option<ErrorCode> {
        registered().iter().find(|c| c.name == name).copied()
    }
}

impl ParseFromJSON for ErrorCode {
    fn parse_from_json(value: Option<serde_json::Value>) -> ParseResult<Self> {
        let value = value.unwrap_or_default();
        let known = value.as_str().and_then(ErrorCode::named);
        known.ok_or_else(|| ParseError::expected_type(value))
    }
}

impl<'de> serde::Deserialize<'de> for ErrorCode {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = Cow::<'de, str>::deserialize(deserializer)?;
        ErrorCode::named(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown error code {name}")))
    }
}

#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "ApiError")]
pub struct ErrorBody {
    /// Stable, machine-readable code (snake_case).
    pub code: ErrorCode,
    /// Human-readable explanation.
    pub message: String,
    /// A short heading for the message, where the product shows one (e.g. "Invalid Email").
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

impl ErrorBody {
    pub fn new(code: impl Into<ErrorCode>, message: impl Into<String>) -> Self {
        Self {
            code: code.into(),
            message: message.into(),
            title: None,
        }
    }

    /// An error with the heading the product shows above the message.
    pub fn titled(
        code: impl Into<ErrorCode>,
        title: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            code: code.into(),
            message: message.into(),
            title: Some(title.into()),
        }
    }

    pub fn unavailable() -> Self {
        Self::new(
            Common::ServiceUnavailable,
            "The server is unavailable for a moment. Please try again.",
        )
    }

    pub fn internal() -> Self {
        Self::new(
            Common::InternalError,
            "Something went wrong on our side. Please try again.",
        )
    }
}
