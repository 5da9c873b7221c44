use super::*;

#[test]
fn a_diff_names_the_lines_removed_and_added() {
    let diff = line_diff("One.\nTwo.\nThree.", "One.\nTwo, changed.\nThree.\nFour.");
    let ops: Vec<(DiffOp, &str)> = diff.iter().map(|l| (l.op, l.text.as_str())).collect();
    assert_eq!(
        ops,
        vec![
            (DiffOp::Same, "One."),
            (DiffOp::Removed, "Two."),
            (DiffOp::Added, "Two, changed."),
            (DiffOp::Same, "Three."),
            (DiffOp::Added, "Four."),
        ]
    );
}
