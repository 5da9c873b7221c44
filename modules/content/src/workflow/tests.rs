use super::*;

#[test]
fn without_review_a_writer_publishes_and_schedules() {
    for action in [Action::Publish, Action::Schedule] {
        assert!(decide(Actor::Writer, Stage::Draft, action, false).is_ok());
        assert_eq!(
            decide(Actor::Writer, Stage::Draft, action, true),
            Err(Refusal::ReviewRequired)
        );
    }
}

#[test]
fn only_reviewers_approve_or_request_changes() {
    for review in [false, true] {
        for action in [Action::Approve, Action::RequestChanges] {
            assert_eq!(
                decide(Actor::Writer, Stage::InReview, action, review),
                Err(Refusal::Forbidden)
            );
            assert!(decide(Actor::Editor, Stage::InReview, action, review).is_ok());
        }
    }
}

#[test]
fn nobody_but_the_reviewer_edits_a_piece_in_review() {
    assert_eq!(
        decide(Actor::Writer, Stage::InReview, Action::Edit, false),
        Err(Refusal::InReview)
    );
    assert_eq!(
        decide(Actor::Editor, Stage::InReview, Action::Edit, true),
        Ok(Stage::InReview)
    );
}

#[test]
fn taking_back_always_leads_to_draft() {
    for actor in [Actor::Writer, Actor::Editor] {
        for review in [false, true] {
            assert_eq!(
                decide(actor, Stage::Published, Action::Unpublish, review),
                Ok(Stage::Draft)
            );
            assert_eq!(
                decide(actor, Stage::Scheduled, Action::Unschedule, review),
                Ok(Stage::Draft)
            );
        }
    }
}

#[test]
fn the_admin_reviews_and_does_nothing_else() {
    assert_eq!(
        decide(Actor::Admin, Stage::InReview, Action::Approve, true),
        Ok(Stage::Scheduled)
    );
    for action in [
        Action::Edit,
        Action::Delete,
        Action::Submit,
        Action::Withdraw,
        Action::Publish,
        Action::Schedule,
    ] {
        assert_eq!(
            decide(Actor::Admin, Stage::Draft, action, false),
            Err(Refusal::Forbidden)
        );
    }
}

#[test]
fn a_live_piece_stays_live_through_every_edit() {
    for stage in [Stage::Published, Stage::Scheduled] {
        // Without review, writers and the director edit a live piece where it stands.
        for actor in [Actor::Writer, Actor::Editor] {
            assert_eq!(decide(actor, stage, Action::Edit, false), Ok(stage));
        }
        assert_eq!(decide(Actor::Editor, stage, Action::Edit, true), Ok(stage));
        // With review, a writer proposes instead, and the piece stays where it is.
        assert_eq!(
            decide(Actor::Writer, stage, Action::Edit, true),
            Err(Refusal::NotNow)
        );
        assert_eq!(
            decide(Actor::Writer, stage, Action::ProposeChange, true),
            Ok(stage)
        );
        assert_eq!(
            decide(Actor::Writer, stage, Action::ProposeChange, false),
            Err(Refusal::NotNow)
        );
        for reviewer in [Actor::Editor, Actor::Admin] {
            assert_eq!(
                decide(reviewer, stage, Action::ApproveChange, true),
                Ok(stage)
            );
        }
        assert_eq!(
            decide(Actor::Writer, stage, Action::ApproveChange, true),
            Err(Refusal::Forbidden)
        );
        // The writer may drop their own proposal.
        assert_eq!(
            decide(Actor::Writer, stage, Action::DeclineChange, true),
            Ok(stage)
        );
    }
    assert_eq!(
        decide(Actor::Editor, Stage::Draft, Action::ApproveChange, true),
        Err(Refusal::NotNow)
    );
}

#[test]
fn the_educator_has_no_say() {
    for stage in Stage::ALL {
        for action in Action::ALL {
            assert_eq!(
                decide(Actor::Outsider, stage, action, false),
                Err(Refusal::Forbidden)
            );
        }
    }
}
