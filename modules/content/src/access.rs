//! Who may read and change which articles, and which changes of stage and times the rules
//! allow: the checks every editorial and newsroom write starts with (the table itself is
//! [`crate::workflow::decide`]).

use chrono::{DateTime, Utc};
use identity::{Role, StaffUser};
use kernel::ErrorCode;

use crate::error::ContentError;
use crate::store::StaffRow;
use crate::workflow::{decide, Action, Actor, Stage};

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
            ErrorCode::InvalidPublishAt,
            "Choose a time in the future for the piece to go out.",
        ));
    }
    if at > now + chrono::Duration::days(MAX_SCHEDULE_DAYS) {
        return Err(ContentError::invalid(
            ErrorCode::InvalidPublishAt,
            "A piece can be scheduled up to a year ahead.",
        ));
    }
    Ok(())
}
