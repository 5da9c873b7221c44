//! URL slugs: lower-case, ASCII-folded, hyphenated, bounded in length.

const MAX_SLUG_LEN: usize = 80;

pub fn slugify(title: &str) -> String {
    let base = slug::slugify(title);
    let mut out: String = base.chars().take(MAX_SLUG_LEN).collect();
    while out.ends_with('-') {
        out.pop();
    }
    if out.is_empty() {
        "article".to_string()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::slugify;

    #[test]
    fn folds_and_hyphenates() {
        assert_eq!(
            slugify("Why Gen Z Votes: A Primer!"),
            "why-gen-z-votes-a-primer"
        );
        assert_eq!(
            slugify("Café & Política — São Paulo"),
            "cafe-politica-sao-paulo"
        );
    }

    #[test]
    fn never_empty_and_bounded() {
        assert_eq!(slugify("!!!"), "article");
        let long = "word ".repeat(60);
        let s = slugify(&long);
        assert!(s.len() <= 80);
        assert!(!s.ends_with('-'));
    }
}
