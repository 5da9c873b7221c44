use kernel::upload::Spooled;

use super::*;

fn complete() -> ApplicationInput {
    ApplicationInput {
        full_name: "Ada Student".into(),
        age: "16".into(),
        country: "Kenya".into(),
        email: "ada@school.example".into(),
        time_zone: "Africa/Nairobi".into(),
        weekly_availability: "4".into(),
        english_level: "C1".into(),
        roles: vec!["copy-editor".into()],
        why_join: "To learn.".into(),
        contribution: "Careful edits.".into(),
        ..Default::default()
    }
}

/// Whether `text` matches the pattern the contract gives fields of rule `R`.
fn contract_takes<R: kernel::text::Rule>(text: &str) -> bool {
    let pattern = R::pattern().unwrap();
    regex::Regex::new(&pattern).unwrap().is_match(text)
}

#[test]
fn what_the_contract_takes_the_checks_take() {
    use crate::model::{Age, WebLink, WeeklyHours};
    let samples = [
        "",
        " ",
        "0",
        "1",
        "13",
        "14",
        " 16 ",
        "\u{a0}17\t",
        "99",
        "119",
        "120",
        "121",
        "168",
        "169",
        "+15",
        "015",
        "1 4",
        "14.0",
        "fourteen",
        "http://a.b",
        "https://ada.example/work",
        " https://x.y ",
        "https://x",
        "https://.",
        "ftp://a.b",
        "https://a b.c",
        "HTTPS://A.B",
        "https://a.b\u{3000}",
        "https://a.b\u{2028}c",
    ];
    let mut taken = 0;
    for text in samples {
        let with = |edit: fn(&mut ApplicationInput, &str)| {
            let mut input = complete();
            edit(&mut input, text);
            validate(&input).is_ok()
        };
        for (rule, contract, checks) in [
            (
                "age",
                contract_takes::<Age>(text),
                with(|i, t| i.age = t.into()),
            ),
            (
                "hours",
                contract_takes::<WeeklyHours>(text),
                with(|i, t| i.weekly_availability = t.into()),
            ),
            (
                "link",
                contract_takes::<WebLink>(text),
                with(|i, t| i.portfolio = t.into()),
            ),
        ] {
            assert!(
                !contract || checks,
                "{rule}: the contract takes {text:?}, the checks do not"
            );
            taken += usize::from(contract);
        }
    }
    assert!(
        taken >= 12,
        "the samples reach the patterns ({taken} taken)"
    );
}

fn some_file() -> IncomingFile {
    IncomingFile {
        name: "a.pdf".into(),
        upload: Spooled::from_bytes("a.pdf", b"%PDF-1.4").unwrap(),
    }
}

fn title(input: &ApplicationInput) -> String {
    match validate(input) {
        Err(OutreachError::Invalid { title, .. }) => title.to_string(),
        Ok(_) => "ok".into(),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_complete_application_passes() {
    assert_eq!(
        validate(&complete()).ok(),
        Some(Checked {
            age: 16,
            weekly_availability: 4
        })
    );
}

#[test]
fn faults_are_reported_in_the_products_order() {
    // Everything wrong at once: the first rule wins, then the next, and so on.
    let mut a = ApplicationInput {
        age: "12".into(),
        email: "not an email".into(),
        roles: vec![],
        ..complete()
    };
    a.country = " ".into();
    assert_eq!(title(&a), "Missing Information");
    a.country = "Kenya".into();
    assert_eq!(title(&a), "Age Requirement");
    a.age = "14".into();
    assert_eq!(title(&a), "Role Required");
    a.roles = vec!["design-director".into(), "editorial-writer".into()];
    assert_eq!(title(&a), "Portfolio Required");
    a.portfolio = "https://ada.example/portfolio".into();
    assert_eq!(title(&a), "Writing Samples Required");
    a.writing_samples_file = Some(some_file());
    a.why_join = String::new();
    assert_eq!(title(&a), "Missing Information");
    a.why_join = "Because.".into();
    assert_eq!(title(&a), "Invalid Email");
    a.email = "ada@school.example".into();
    assert_eq!(title(&a), "ok");
}

#[test]
fn the_servers_own_limits() {
    let check = |f: &dyn Fn(&mut ApplicationInput)| {
        let mut a = complete();
        f(&mut a);
        title(&a)
    };
    assert_eq!(
        check(&|a| a.weekly_availability = "0".into()),
        "Weekly Availability"
    );
    assert_eq!(check(&|a| a.age = "sixteen".into()), "Invalid Age");
    assert_eq!(check(&|a| a.english_level = "A1".into()), "English Level");
    assert_eq!(check(&|a| a.roles = vec!["hacker".into()]), "Role Required");
    assert_eq!(
        check(&|a| a.portfolio = "javascript:alert(1)".into()),
        "Invalid Link"
    );
    assert_eq!(
        check(&|a| {
            a.research_samples = "https://x.example/r".into();
            a.research_samples_file = Some(some_file());
        }),
        "Link or File"
    );
    assert_eq!(check(&|a| a.why_join = "w".repeat(5001)), "Too Long");
    assert_eq!(check(&|a| a.english_level = "Native".into()), "ok");
}
