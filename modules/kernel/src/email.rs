//! The product's email address rule, shared by the public forms and staff settings.

/// The product's email rule: no spaces, one at-sign, a dot in the domain.
pub fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !s.chars().any(char::is_whitespace)
        && !domain.contains('@')
        && domain
            .split_once('.')
            .is_some_and(|(a, b)| !a.is_empty() && !b.is_empty())
        && !domain.ends_with('.')
}

#[cfg(test)]
mod tests {
    use super::is_email;

    #[test]
    fn the_simple_email_rule() {
        for ok in ["a@b.co", "first.last+tag@school.example.org"] {
            assert!(is_email(ok), "{ok}");
        }
        for bad in [
            "", "a", "a@b", "a b@c.de", "@b.co", "a@@b.co", "a@b.", "a@.co",
        ] {
            assert!(!is_email(bad), "{bad}");
        }
    }
}
