//! The newsroom's rules: where a piece stands (its stage), what each staff member may do to it
//! there, and where that leads. One pure function decides, so the server, its tests and the
//! documentation agree on every role × stage × action.
//!
//! - A writer works on their own pieces only (others' are "not found", as before); the
//!   content director and the admin review everyone's. The educator has no say.
//! - With review required (`REVIEW_REQUIRED`), a writer submits instead of publishing or
//!   scheduling; a reviewer approves (publishing now or at a time) or requests changes with a
//!   note, which sends the piece back to draft. Without it, everything works as before, and
//!   "Ask for review" is there for whoever wants a second reader.
//! - Nobody but a reviewer changes a piece in review. Taking a piece back (pulling a scheduled
//!   one, or unpublishing) always leads to draft.
//! - Editing a live piece (published or scheduled) keeps it live. With review required, a
//!   writer's edit to a live piece becomes a pending change: the live version stays up until a
//!   reviewer approves the change (it goes live then, the stage and schedule unchanged) or
//!   declines it; the writer may also drop it themself.

use identity::Role;
use poem_openapi::Enum;
use serde::{Deserialize, Serialize};

/// Where a piece stands. Only `published` is public.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Enum, Serialize, Deserialize)]
#[oai(rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    Draft,
    InReview,
    Scheduled,
    Published,
}

impl Stage {
    pub const ALL: [Stage; 4] = [
        Stage::Draft,
        Stage::InReview,
        Stage::Scheduled,
        Stage::Published,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Draft => "draft",
            Stage::InReview => "in_review",
            Stage::Scheduled => "scheduled",
            Stage::Published => "published",
        }
    }

    pub fn parse(s: &str) -> Option<Stage> {
        Stage::ALL.into_iter().find(|st| st.as_str() == s)
    }

    /// The public status stored beside the stage (what readers may see).
    pub fn status(self) -> crate::model::Status {
        match self {
            Stage::Published => crate::model::Status::Published,
            _ => crate::model::Status::Draft,
        }
    }
}

/// What a staff member asks to do to a piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Enum, Serialize, Deserialize)]
#[oai(rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Save changes to the text (the stage stays, unless the save also asks for another).
    Edit,
    /// Ask for review.
    Submit,
    /// Take one's own piece out of review, back to draft.
    Withdraw,
    /// Send a piece in review back to its writer with a note.
    RequestChanges,
    /// Approve a piece in review: it is published now or scheduled.
    Approve,
    /// Publish now.
    Publish,
    /// Set (or change) the time a piece goes out.
    Schedule,
    /// Pull a scheduled piece back to draft.
    Unschedule,
    /// Take a published piece back to draft.
    Unpublish,
    /// Delete the piece.
    Delete,
    /// Propose a change to a live piece, to wait for review while the live version stays.
    ProposeChange,
    /// Make a pending change live.
    ApproveChange,
    /// Drop a pending change (the reviewer declining it, or its writer taking it back).
    DeclineChange,
}

impl Action {
    pub const ALL: [Action; 13] = [
        Action::Edit,
        Action::Submit,
        Action::Withdraw,
        Action::RequestChanges,
        Action::Approve,
        Action::Publish,
        Action::Schedule,
        Action::Unschedule,
        Action::Unpublish,
        Action::Delete,
        Action::ProposeChange,
        Action::ApproveChange,
        Action::DeclineChange,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Action::Edit => "edit",
            Action::Submit => "submit",
            Action::Withdraw => "withdraw",
            Action::RequestChanges => "request_changes",
            Action::Approve => "approve",
            Action::Publish => "publish",
            Action::Schedule => "schedule",
            Action::Unschedule => "unschedule",
            Action::Unpublish => "unpublish",
            Action::Delete => "delete",
            Action::ProposeChange => "propose_change",
            Action::ApproveChange => "approve_change",
            Action::DeclineChange => "decline_change",
        }
    }
}

/// Who is asking, as far as the rules care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Actor {
    /// A writer on their own piece.
    Writer,
    /// The content director: writes and reviews everyone's pieces.
    Editor,
    /// The admin: reviews (approves, publishing now or at a time, or requests changes), and
    /// nothing else.
    Admin,
    /// Nobody the newsroom knows (the educator).
    Outsider,
}

impl Actor {
    pub fn of(role: Role) -> Actor {
        match role {
            Role::Writer => Actor::Writer,
            Role::ContentDirector => Actor::Editor,
            Role::Admin => Actor::Admin,
            Role::Educator => Actor::Outsider,
        }
    }

    /// Whether this actor reviews others' pieces.
    pub fn reviews(self) -> bool {
        matches!(self, Actor::Editor | Actor::Admin)
    }
}

/// Why an action is refused (each with its code and words).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The role may not do this at all (403).
    Forbidden,
    /// With review required, a writer asks for review instead (403 `review_required`).
    ReviewRequired,
    /// The piece's stage does not allow it now (409 `invalid_transition`).
    NotNow,
    /// The piece is in review: only a reviewer changes it (409 `in_review`).
    InReview,
}

/// Where `action` by `actor` on a piece at `stage` leads, or why it is refused. `Approve` and
/// `Schedule` lead to `Scheduled` here; a caller approving for "now" publishes instead. The
/// pending-change actions say nothing of whether a change is waiting: the caller checks that.
pub fn decide(
    actor: Actor,
    stage: Stage,
    action: Action,
    review_required: bool,
) -> Result<Stage, Refusal> {
    use Action as A;
    use Stage as S;
    if actor == Actor::Outsider
        || (actor == Actor::Admin
            && !matches!(
                action,
                A::RequestChanges | A::Approve | A::ApproveChange | A::DeclineChange
            ))
    {
        return Err(Refusal::Forbidden);
    }
    let reviewer = actor.reviews();
    // What only a reviewer may do.
    if matches!(action, A::RequestChanges | A::Approve | A::ApproveChange) && !reviewer {
        return Err(Refusal::Forbidden);
    }
    // A writer under review rules does not publish or set times by themself.
    let writer_gated = !reviewer && review_required;
    match (stage, action) {
        (_, A::Delete) => Ok(stage),

        (S::InReview, A::Edit) if reviewer => Ok(S::InReview),
        (S::InReview, A::Edit) => Err(Refusal::InReview),
        (S::Scheduled | S::Published, A::Edit) if writer_gated => Err(Refusal::NotNow),
        (_, A::Edit) => Ok(stage),

        (S::Draft, A::Submit) => Ok(S::InReview),
        (_, A::Submit) => Err(Refusal::NotNow),

        (S::InReview, A::Withdraw) => Ok(S::Draft),
        (_, A::Withdraw) => Err(Refusal::NotNow),

        (S::InReview, A::RequestChanges) => Ok(S::Draft),
        (_, A::RequestChanges) => Err(Refusal::NotNow),

        (S::InReview, A::Approve) => Ok(S::Scheduled),
        (_, A::Approve) => Err(Refusal::NotNow),

        (S::Draft | S::Scheduled, A::Publish | A::Schedule) if writer_gated => {
            Err(Refusal::ReviewRequired)
        }
        (S::InReview, A::Publish | A::Schedule) if !reviewer => Err(Refusal::InReview),
        (S::Draft | S::InReview | S::Scheduled, A::Publish) => Ok(S::Published),
        (S::Draft | S::InReview | S::Scheduled, A::Schedule) => Ok(S::Scheduled),
        (S::Published, A::Publish | A::Schedule) => Err(Refusal::NotNow),

        (S::Scheduled, A::Unschedule) => Ok(S::Draft),
        (_, A::Unschedule) => Err(Refusal::NotNow),

        (S::Published, A::Unpublish) => Ok(S::Draft),
        (_, A::Unpublish) => Err(Refusal::NotNow),

        // Only a writer under review rules proposes; everyone else edits a live piece directly.
        (S::Scheduled | S::Published, A::ProposeChange) if writer_gated => Ok(stage),
        (_, A::ProposeChange) => Err(Refusal::NotNow),
        (S::Scheduled | S::Published, A::ApproveChange | A::DeclineChange) => Ok(stage),
        (_, A::ApproveChange | A::DeclineChange) => Err(Refusal::NotNow),
    }
}

#[cfg(test)]
mod tests;
