//! The product's email address rule, shared by the public forms and staff settings.

/// What a form answers to an address [`is_email`] refuses: the original site's words, used
/// by every form that asks for one.
pub const INVALID_EMAIL: &str = "Please enter a valid email address.";

/// The product's email rule: no spaces, one at-sign, a dot in the domain.
pub fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !s.chars().any(|c| c.is_whitespace() || c.is_control())
        && !domain.contains('@')
        && domain
            .split_once('.')
            .is_some_and(|(a, b)| !a.is_empty() && !b.is_empty())
        && !domain.ends_with('.')
}

/// Addresses the rule takes, then addresses it refuses (for this rule's tests and for the
/// contract's pattern, which must agree with it).
#[cfg(test)]
pub(crate) const EXAMPLES: (&[&str], &[&str]) = (
    &[
        "a@b.co",
        "first.last+tag@school.example.org",
        "a@b.c.d",
        "é@ü.де",
    ],
    &[
        "",
        "a",
        "a@b",
        "a b@c.de",
        "@b.co",
        "a@@b.co",
        "a@b.",
        "a@.co",
        "a@b..",
        "a\u{8}@b.co",
        "a@b.c\u{8a}",
    ],
);

#[cfg(test)]
mod tests {
    use super::{is_email, EXAMPLES};

    #[test]
    fn the_simple_email_rule() {
        for ok in EXAMPLES.0 {
            assert!(is_email(ok), "{ok}");
        }
        for bad in EXAMPLES.1 {
            assert!(!is_email(bad), "{bad}");
        }
    }
}
