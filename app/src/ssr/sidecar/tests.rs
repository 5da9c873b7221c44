use bytes::Bytes;

use super::{RenderError, Rendered};

#[test]
fn an_answer_is_its_css_then_its_markup() {
    let body = Bytes::from_static("main{margin:0}<main>é</main>".as_bytes());
    let r = Rendered::split(body, Some("14")).unwrap();
    assert_eq!(r.css(), "main{margin:0}");
    assert_eq!(r.html(), "<main>é</main>");
    let none = Rendered::split(Bytes::from_static(b"<p>x</p>"), Some("0")).unwrap();
    assert_eq!((none.css(), none.html()), ("", "<p>x</p>"));
}

#[test]
fn a_malformed_answer_is_an_error_not_a_page() {
    for length in [None, Some("x"), Some("-1"), Some("99")] {
        assert!(matches!(
            Rendered::split(Bytes::from_static(b"<p>x</p>"), length),
            Err(RenderError::Malformed(_))
        ));
    }
    // A length that cuts a character in two.
    assert!(matches!(
        Rendered::split(Bytes::from_static("é<p>".as_bytes()), Some("1")),
        Err(RenderError::Malformed(_))
    ));
}

#[test]
fn an_answer_that_is_not_utf8_is_an_error() {
    assert!(matches!(
        Rendered::split(Bytes::from_static(b"p{}\xff<p>"), Some("3")),
        Err(RenderError::Malformed(_))
    ));
}
