//! Who may read and change which articles, and which changes of stage and times the rules
//! allow: the checks every editorial and newsroom write starts with (the table itself is
//! [`crate::workflow::decide`]).

use crate::codes::Code;
use chrono::{DateTime, Utc};
use identity::{Role, StaffUser};
use kernel::Common;

use crate::error::ContentError;
use crate::store::StaffRow;
use crate::workflow::{decide, Action, Actor, Refusal, Stage};

/// The author filter of a staff member who writes: a writer's own id, everyone for the
/// content director.
pub(crate) fn scope(user: &StaffUser) -> Result<Option<&str>, ContentError> {
    match user.role {
        Role::Writer => Ok(Some(user.id.as_str())),
        Role::ContentDirector => Ok(None),
        Role::Admin | Role::Educator => Err(ContentError::Forbidden),
    }
}

/// The author filter for reading one piece: as [`scope`], and the admin, who reviews, reads
/// every piece (what they may do to it is the newsroom's rules' business).
pub(crate) fn read_scope(user: &StaffUser) -> Result<Option<&str>, ContentError> {
    match user.role {
        Role::Admin => Ok(None),
        _ => scope(user),
    }
}

/// The longest note a reviewer may send with a request for changes.
pub const MAX_NOTE_CHARS: usize = 2000;
/// How far ahead a piece may be scheduled.
const MAX_SCHEDULE_DAYS: i64 = 366;

/// Where a stored stage stands (an unknown one is a bug, not the caller's fault).
pub(crate) fn stage_of(row: &StaffRow) -> Result<Stage, ContentError> {
    Stage::parse(&row.stage).ok_or_else(|| {
        ContentError::Unexpected(format!("stored stage {:?} is unknown", row.stage).into())
    })
}

/// Checks `action` by `user` on a piece at `stage` under the site's rules.
pub(crate) fn check(
    user: &StaffUser,
    stage: Stage,
    action: Action,
    review_required: bool,
) -> Result<Stage, ContentError> {
    decide(Actor::of(user.role), stage, action, review_required)
        .map_err(|refusal| refusal.error(action, stage))
}

/// A time to publish at: in the future, and not more than a year ahead.
pub(crate) fn check_publish_at(at: DateTime<Utc>, now: DateTime<Utc>) -> Result<(), ContentError> {
    if at <= now {
        return Err(ContentError::invalid(
            Code::InvalidPublishAt,
            "Choose a time in the future for the piece to go out.",
        ));
    }
    if at > now + chrono::Duration::days(MAX_SCHEDULE_DAYS) {
        return Err(ContentError::invalid(
            Code::InvalidPublishAt,
            "A piece can be scheduled up to a year ahead.",
        ));
    }
    Ok(())
}

/// A refusal in the words staff read, with its code.
impl Refusal {
    pub fn error(self, action: Action, stage: Stage) -> ContentError {
        match self {
            Refusal::Forbidden => ContentError::Forbidden,
            Refusal::ReviewRequired => ContentError::Refused {
                code: Code::ReviewRequired.into(),
                message: "Publishing needs an editor's approval here: submit the piece for review."
                    .into(),
            },
            Refusal::InReview => ContentError::Conflict {
                code: Code::InReview.into(),
                message: "This piece is in review: only the reviewer can change it. Withdraw it \
                          to edit it yourself."
                    .into(),
            },
            Refusal::NotNow
                if action == Action::Edit
                    && matches!(stage, Stage::Scheduled | Stage::Published) =>
            {
                ContentError::Conflict {
                    code: Common::InvalidTransition.into(),
                    message: format!(
                        "A {} piece is changed through review here: your change waits for an \
                         editor while the live version stays up.",
                        stage.as_str()
                    ),
                }
            }
            Refusal::NotNow if matches!(action, Action::ApproveChange | Action::DeclineChange) => {
                ContentError::Conflict {
                    code: Common::InvalidTransition.into(),
                    message: "This article has no change waiting for review.".into(),
                }
            }
            Refusal::NotNow => ContentError::Conflict {
                code: Common::InvalidTransition.into(),
                message: format!(
                    "A piece that is {} cannot be {}.",
                    stage_words(stage),
                    action_words(action)
                ),
            },
        }
    }
}

fn stage_words(stage: Stage) -> &'static str {
    match stage {
        Stage::Draft => "a draft",
        Stage::InReview => "in review",
        Stage::Scheduled => "scheduled",
        Stage::Published => "published",
    }
}

fn action_words(action: Action) -> &'static str {
    match action {
        Action::Edit => "edited",
        Action::Submit => "submitted for review",
        Action::Withdraw => "withdrawn from review",
        Action::RequestChanges => "sent back with changes requested",
        Action::Approve => "approved",
        Action::Publish => "published",
        Action::Schedule => "scheduled",
        Action::Unschedule => "pulled back from the schedule",
        Action::Unpublish => "taken back to draft",
        Action::Delete => "deleted",
        Action::ProposeChange => "changed through review",
        Action::ApproveChange => "given an approved change",
        Action::DeclineChange => "given a declined change",
    }
}
