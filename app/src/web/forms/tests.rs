use super::*;
use kernel::Common;

fn posted(fields: &[(&str, &str)], files: &[(&str, &str)]) -> Posted {
    let own = |pairs: &[(&str, &str)]| {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    Posted {
        fields: own(fields),
        files: own(files),
        raw: None,
    }
}

#[test]
fn a_file_attached_before_the_form_came_back_is_asked_for_again() {
    let first = posted(&[("full_name", "Kemi")], &[("cv_file", "cv.pdf")]);
    assert!(files_not_kept(&first).is_empty(), "nothing was asked yet");
    let shown = with_files(&first, &[]);
    assert!(shown.contains(&("reattach".into(), "cv_file".into())));
    assert!(shown.contains(&("attached_cv_file".into(), "cv.pdf".into())));

    // Sent back without it: refused, and still named.
    let again = posted(
        &[("reattach", "cv_file"), ("attached_cv_file", "cv.pdf")],
        &[],
    );
    let missing = files_not_kept(&again);
    assert_eq!(missing, [("cv_file".to_string(), "cv.pdf".to_string())]);
    let shown = with_files(&again, &missing);
    assert_eq!(
        shown.iter().filter(|(k, _)| k == "reattach").count(),
        1,
        "{shown:?}"
    );
    // Attached again, or left out on purpose: sent.
    let attached = posted(
        &[("reattach", "cv_file"), ("attached_cv_file", "cv.pdf")],
        &[("cv_file", "cv-v2.pdf")],
    );
    assert!(files_not_kept(&attached).is_empty());
    let skipped = posted(
        &[
            ("reattach", "cv_file"),
            ("attached_cv_file", "cv.pdf"),
            ("reattach_skip", "cv_file"),
        ],
        &[],
    );
    assert!(files_not_kept(&skipped).is_empty());
}

#[test]
fn secrets_are_never_kept() {
    let fields: Vec<(String, String)> = [
        ("email", "a@b.org"),
        ("password", "hunter22"),
        ("confirm_password", "hunter22"),
        ("interests", "Human Rights"),
        ("interests", "Climate Justice"),
        ("access_key", "k"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    let kept = kept_values(&fields);
    assert_eq!(
        Value::Object(kept),
        serde_json::json!({"email": "a@b.org", "interests": ["Human Rights", "Climate Justice"]})
    );
}

#[test]
fn every_public_form_has_its_operation() {
    let path = |page, intent, target| operation(page, intent, target).map(|o| o.path.into_owned());
    assert_eq!(path("/contact-us", "", ""), Some("/v1/contact".into()));
    assert_eq!(
        path("/login", "link", ""),
        Some("/v1/reader/sign-in-link".into())
    );
    assert_eq!(path("/magazine", "notify", ""), Some("/v1/notify".into()));
    assert_eq!(operation("/about", "", ""), None);
    assert!(takes_forms("/educational-packs"));
    assert!(!takes_forms("/articles"));
    // An article's page: its response form, and the report buttons naming a response.
    assert!(takes_forms("/article/votes-at-16"));
    assert!(!takes_forms("/article/"));
    assert_eq!(
        path("/article/votes-at-16", "respond", ""),
        Some("/v1/articles/votes-at-16/responses".into())
    );
    assert_eq!(
        path("/article/votes-at-16", "report", "r1"),
        Some("/v1/responses/r1/report".into())
    );
    // Whatever is posted as the response stays inside its path segment.
    assert_eq!(
        path("/account", "delete-response", "../session?x=1"),
        Some("/v1/reader/responses/..%2Fsession%3Fx%3D1".into())
    );
    assert_eq!(path("/article/votes-at-16", "", ""), None);
}

#[test]
fn errors_keep_the_operations_words() {
    let body = br#"{"code":"invalid_email","title":"Invalid Email","message":"Please enter a valid email address."}"#;
    let e = error_of(StatusCode::BAD_REQUEST, body);
    assert_eq!(e.code, Common::InvalidEmail);
    assert_eq!(e.title.as_deref(), Some("Invalid Email"));
    assert_eq!(
        error_of(StatusCode::BAD_GATEWAY, b"x").code,
        Common::InternalError
    );
}
