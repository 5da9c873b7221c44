//! The error codes only the HTTP edge answers with, besides kernel's `Common` ones; and the
//! contract's `ErrorCode`, every module's codes joined.

use kernel::{ErrorCode, ModuleCode};

#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr, strum::EnumIter)]
#[strum(serialize_all = "snake_case")]
pub enum Code {
    CrossSiteRequest,
    PayloadTooLarge,
    MethodNotAllowed,
    /// A file attached before a form came back with an error was not attached again.
    FileNotKept,
}

impl ModuleCode for Code {}

/// Joins every module's codes into the contract's `ErrorCode`: called before the contract is
/// built (the API's routes, `agora openapi`).
pub fn register() {
    kernel::error::register_codes(every_code());
}

/// Every module's codes, the edge's first.
fn every_code() -> impl Iterator<Item = ErrorCode> {
    use kernel::error::codes_of;
    codes_of::<Code>()
        .chain(codes_of::<identity::codes::Code>())
        .chain(codes_of::<content::codes::Code>())
        .chain(codes_of::<media::codes::Code>())
        .chain(codes_of::<outreach::codes::Code>())
        .chain(codes_of::<analytics::codes::Code>())
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use kernel::{ErrorCode, Refusal};

    fn every_code() -> Vec<ErrorCode> {
        kernel::error::codes_of::<kernel::Common>()
            .chain(super::every_code())
            .collect()
    }

    /// Two modules declaring one name would answer one code with two meanings.
    #[test]
    fn no_two_modules_declare_the_same_code() {
        let all = every_code();
        let names: HashSet<&str> = all.iter().map(|c| c.as_str()).collect();
        assert_eq!(names.len(), all.len());
        assert!(all.iter().all(|c| c
            .as_str()
            .chars()
            .all(|ch| ch.is_ascii_lowercase() || ch == '_')));
    }

    /// Each code reads back as itself once joined (the answers forms read back carry them).
    #[test]
    fn every_code_is_in_the_contract_and_reads_back() {
        super::register();
        for code in every_code() {
            let json = serde_json::to_value(code).unwrap();
            assert_eq!(json, serde_json::json!(code.as_str()));
            assert_eq!(serde_json::from_value::<ErrorCode>(json).unwrap(), code);
        }
        assert!(serde_json::from_value::<ErrorCode>(serde_json::json!("no_such_code")).is_err());
    }

    /// Fields that pass their own rules but disagree, or an empty file, are 422; a file of
    /// another kind than asked for is 415; every other refusal is 400.
    #[test]
    fn each_code_is_answered_with_its_status() {
        let unprocessable = [
            "password_mismatch",
            "unknown_time_zone",
            "portfolio_required",
            "writing_samples_required",
            "link_or_file",
            "empty_file",
        ];
        let unsupported = ["not_a_pdf", "not_an_image", "unsupported_file"];
        for code in every_code() {
            let expected = if unprocessable.contains(&code.as_str()) {
                Refusal::Unprocessable
            } else if unsupported.contains(&code.as_str()) {
                Refusal::Unsupported
            } else {
                Refusal::Invalid
            };
            assert_eq!(code.refusal(), expected, "{code}");
        }
    }
}
