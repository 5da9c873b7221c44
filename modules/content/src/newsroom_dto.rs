//! What the newsroom's API sends and takes: review notes, the audit log, revisions and their
//! differences, times to publish at.

use chrono::{DateTime, Utc};
use poem_openapi::{Enum, Object};
use serde::{Deserialize, Serialize};

use crate::workflow::{Action, Stage};

/// The reviewer's request for changes, shown to the writer until the piece is resubmitted.
#[derive(Debug, Clone, PartialEq, Object, Serialize, Deserialize)]
pub struct ReviewNote {
    pub note: String,
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by_name: Option<String>,
    pub at: DateTime<Utc>,
}

/// A writer's change to a live piece, waiting for a reviewer while the live version stays up
/// (review required).
#[derive(Debug, Clone, PartialEq, Object, Serialize, Deserialize)]
pub struct PendingChange {
    pub title: String,
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subtitle: Option<String>,
    /// Markdown.
    pub content: String,
    pub category: crate::model::Category,
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover_image: Option<String>,
    pub featured: bool,
    /// Who proposed it.
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proposed_by_name: Option<String>,
    /// When: send it back as `proposed_at` to approve or decline exactly this change.
    pub proposed_at: DateTime<Utc>,
}

/// Deciding on a pending change: the one proposed at `proposed_at` (a newer one is not
/// decided on by mistake).
#[derive(Debug, Clone, Object, Serialize, Deserialize)]
#[oai(deny_unknown_fields)]
pub struct PendingDecision {
    pub proposed_at: DateTime<Utc>,
    /// Declining: what the writer should know (optional).
    #[oai(nullable)]
    pub note: Option<String>,
}

/// One entry of an article's audit log: who moved it from which stage to which, and when.
#[derive(Debug, Clone, PartialEq, Object, Serialize, Deserialize)]
pub struct ArticleEvent {
    pub at: DateTime<Utc>,
    /// Who did it; `null` for the scheduler (a scheduled piece going out) or a removed member.
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actor_id: Option<String>,
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actor_name: Option<String>,
    pub action: EventAction,
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_stage: Option<Stage>,
    pub to_stage: Stage,
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// For a scheduled piece: when it goes (or went) out.
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publish_at: Option<DateTime<Utc>>,
}

/// What an audit-log entry records: a staff member's action, or one the system took.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize, Deserialize)]
#[oai(rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum EventAction {
    Create,
    Submit,
    Withdraw,
    RequestChanges,
    Approve,
    Publish,
    Schedule,
    Unschedule,
    Unpublish,
    /// A scheduled piece went out at its time (or as soon as the server was back).
    ScheduledPublish,
    /// A writer proposed a change to a live piece (review required).
    ProposeChange,
    /// A reviewer made a pending change live.
    ApproveChange,
    /// A pending change was dropped (declined, or taken back by its writer).
    DeclineChange,
}

impl EventAction {
    /// As stored and sent (`request_changes`).
    pub fn as_str(self) -> String {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::String(s)) => s,
            _ => format!("{self:?}"),
        }
    }

    pub fn parse(s: &str) -> Option<EventAction> {
        serde_json::from_value(serde_json::Value::String(s.to_string())).ok()
    }

    /// The entry an action leaves in the log (an edit that changes no stage leaves none).
    pub fn of(action: Action) -> Option<EventAction> {
        Some(match action {
            Action::Edit | Action::Delete => return None,
            Action::Submit => EventAction::Submit,
            Action::Withdraw => EventAction::Withdraw,
            Action::RequestChanges => EventAction::RequestChanges,
            Action::Approve => EventAction::Approve,
            Action::Publish => EventAction::Publish,
            Action::Schedule => EventAction::Schedule,
            Action::Unschedule => EventAction::Unschedule,
            Action::Unpublish => EventAction::Unpublish,
            Action::ProposeChange => EventAction::ProposeChange,
            Action::ApproveChange => EventAction::ApproveChange,
            Action::DeclineChange => EventAction::DeclineChange,
        })
    }
}

/// A saved version of an article's text, as the history lists it.
#[derive(Debug, Clone, PartialEq, Object, Serialize, Deserialize)]
pub struct RevisionSummary {
    /// 1 for the first save, then one more per save.
    pub number: i64,
    pub title: String,
    pub saved_at: DateTime<Utc>,
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub saved_by_name: Option<String>,
}

/// A saved version of an article's text, whole.
#[derive(Debug, Clone, PartialEq, Object, Serialize, Deserialize)]
pub struct Revision {
    #[oai(flatten)]
    #[serde(flatten)]
    pub summary: RevisionSummary,
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subtitle: Option<String>,
    pub content: String,
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover_image: Option<String>,
}

/// How a line of the difference between a revision and the current text reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize, Deserialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum DiffOp {
    /// In both.
    Same,
    /// Only in the revision (removed since).
    Removed,
    /// Only in the current text (added since).
    Added,
}

#[derive(Debug, Clone, PartialEq, Object, Serialize, Deserialize)]
pub struct DiffLine {
    pub op: DiffOp,
    pub text: String,
}

/// A field that differs between a revision and the current text.
#[derive(Debug, Clone, PartialEq, Object, Serialize, Deserialize)]
pub struct FieldChange {
    pub field: String,
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<String>,
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current: Option<String>,
}

/// What changed from a revision to the current text: the short fields that differ, and the
/// body line by line.
#[derive(Debug, Clone, PartialEq, Object, Serialize, Deserialize)]
pub struct RevisionDiff {
    pub number: i64,
    pub current_version: i64,
    pub fields: Vec<FieldChange>,
    pub content: Vec<DiffLine>,
}

/// Sending a piece in review back to its writer.
#[derive(Debug, Clone, Object, Serialize, Deserialize)]
#[oai(deny_unknown_fields)]
pub struct ChangesInput {
    /// What the writer should change (shown on their dashboard and in the editor).
    pub note: String,
}

/// Approving a piece in review: published now, or at `publish_at`.
#[derive(Debug, Clone, Object, Serialize, Deserialize)]
#[oai(deny_unknown_fields)]
pub struct ApproveInput {
    /// When it goes out (UTC); absent: now.
    pub publish_at: Option<DateTime<Utc>>,
}

/// Scheduling a piece (or moving its time).
#[derive(Debug, Clone, Object, Serialize, Deserialize)]
#[oai(deny_unknown_fields)]
pub struct ScheduleInput {
    /// When it goes out (UTC); must be in the future.
    pub publish_at: DateTime<Utc>,
}

/// Restoring a revision: its text becomes a new revision of the article.
#[derive(Debug, Clone, Object, Serialize, Deserialize)]
#[oai(deny_unknown_fields)]
pub struct RestoreInput {
    /// The version of the article the editor showed (a newer one: 409, nothing overwritten).
    pub base_version: Option<i64>,
}

/// A 409 answer: the piece's stage does not allow the action now (`invalid_transition`,
/// `in_review`), or an edit was based on an older version (`edit_conflict`: who saved the newer
/// one, and when; the editor offers to see it; nothing was overwritten).
#[derive(Debug, Clone, PartialEq, Object, Serialize, Deserialize)]
pub struct ConflictBody {
    pub code: kernel::ErrorCode,
    pub message: String,
    /// The version saved now (send it as `base_version` to save over it on purpose).
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_version: Option<i64>,
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changed_by: Option<String>,
    #[oai(skip_serializing_if_is_none)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changed_at: Option<DateTime<Utc>>,
}

/// How the newsroom runs on this site.
#[derive(Debug, Clone, PartialEq, Object, Serialize, Deserialize)]
pub struct NewsroomRules {
    /// Writers submit pieces for review instead of publishing or scheduling them.
    pub review_required: bool,
}
