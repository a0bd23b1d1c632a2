//! The examiner's tags, bookmarks and notes (issue 21): `masf tag`, `untag`, `bookmark`,
//! `unbookmark`, `note`, `tags` and the desktop's tag controls. Wiring only: requests are
//! judged by `masf_graph::tags::judge` and written by `masf_tools::marks::write`; rows come
//! from `masf_report::tagged`.

use std::sync::Arc;

use masf_graph::tags::{MarkEvent, MarkRequest, Marks, Target};
use masf_report::tagged::TaggedRow;
use masf_store::Store;
use masf_tools::marks::{SourceFiles, Written};
use serde::Serialize;

use crate::{ApiError, CaseCtx, Clock, ErrorCode};

pub use masf_graph::tags::DEFAULT_TAGS;

/// What the examiner does to a target (the CLI's and the desktop's words for a
/// [`MarkRequest`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize, ts_rs::TS)]
#[serde(tag = "act", rename_all = "snake_case")]
pub enum MarkAct {
    /// Put `tag` on the target.
    Tag {
        /// The tag.
        tag: String,
    },
    /// Take `tag` off.
    Untag {
        /// The tag.
        tag: String,
    },
    /// Bookmark the target.
    Bookmark,
    /// Take the bookmark off.
    Unbookmark,
    /// Write a note on the target.
    Note {
        /// The note.
        text: String,
    },
}

/// The outcome of a mark.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct MarkOutcome {
    /// False when it was already so (nothing written).
    pub recorded: bool,
    /// The event's seq when one was written.
    pub seq: Option<i64>,
    /// What happened, in words.
    pub message: String,
    /// The item after it, when anything is still on it.
    pub item: Option<TaggedRow>,
}

/// Reads a target's text form (`ph-000012`, `ph-000012#fact2`, `ent-000003`, `actor-000003`,
/// `ph-000012#time1`, `src-usb:/DCIM/a.jpg`).
pub fn parse_target(text: &str) -> Result<Target, ApiError> {
    Target::parse(text).map_err(|e| ApiError::new(ErrorCode::BadRequest, e))
}

/// Tags, untags, bookmarks, unbookmarks or writes a note on `target`, as `examiner`: one
/// examiner event (who, when, `reason`) in the case's log. Refused (bad request) when the
/// target does not exist, naming it and the kinds that do.
pub fn mark(
    ctx: &CaseCtx,
    target: &str,
    act: &MarkAct,
    reason: &str,
    examiner: &str,
    clock: Arc<dyn Clock>,
) -> Result<MarkOutcome, ApiError> {
    let target = parse_target(target)?;
    let request = match act.clone() {
        MarkAct::Tag { tag } => MarkRequest::Tag {
            target: target.clone(),
            tag,
        },
        MarkAct::Untag { tag } => MarkRequest::Untag {
            target: target.clone(),
            tag,
        },
        MarkAct::Bookmark => MarkRequest::Bookmark {
            target: target.clone(),
        },
        MarkAct::Unbookmark => MarkRequest::Unbookmark {
            target: target.clone(),
        },
        MarkAct::Note { text } => MarkRequest::Note {
            target: target.clone(),
            text,
        },
    };
    write(ctx, &request, reason, examiner, clock, Some(&target))
}

/// Withdraws a note (it stays in the log, marked withdrawn).
pub fn withdraw_note(
    ctx: &CaseCtx,
    note_id: &str,
    reason: &str,
    examiner: &str,
    clock: Arc<dyn Clock>,
) -> Result<MarkOutcome, ApiError> {
    let request = MarkRequest::WithdrawNote {
        note_id: note_id.to_owned(),
    };
    write(ctx, &request, reason, examiner, clock, None)
}

fn write(
    ctx: &CaseCtx,
    request: &MarkRequest,
    reason: &str,
    examiner: &str,
    clock: Arc<dyn Clock>,
    target: Option<&Target>,
) -> Result<MarkOutcome, ApiError> {
    let files = SourceFiles::new(
        ctx.case
            .sources
            .iter()
            .map(|s| (s.id.clone(), s.path.clone(), s.password_env.clone())),
    )
    .with_searches(ctx.work_dir.clone());
    // A connection of its own: the write is one immediate transaction.
    let mut store = Store::open(&ctx.work_dir).map_err(ApiError::store)?;
    let scoring = crate::compose::scoring(&ctx.config.scoring);
    let now = || clock.now();
    let written = masf_tools::marks::write(
        &mut store,
        &scoring,
        request,
        (examiner, reason),
        &now,
        &files,
    )
    .map_err(|e| ApiError::new(ErrorCode::Store, e.to_string()))?;
    let (recorded, seq, message, target) = match written {
        Written::Refused(why) => return Err(ApiError::new(ErrorCode::BadRequest, why)),
        Written::Unchanged(why) => (false, None, why, target.cloned()),
        Written::Recorded { seq, event } => {
            let target = target.cloned().or_else(|| note_target(&store, &event));
            (true, Some(seq), said(&event), target)
        }
    };
    let item = match target {
        Some(t) => {
            let state = crate::compose::graph_state(ctx)?;
            let marks = marks_of(ctx)?;
            masf_report::tagged::rows(&state, &marks, None)
                .into_iter()
                .find(|r| r.target == t.to_string())
        }
        None => None,
    };
    Ok(MarkOutcome {
        recorded,
        seq,
        message,
        item,
    })
}

/// The target a withdrawn note was on.
fn note_target(store: &Store, event: &MarkEvent) -> Option<Target> {
    let MarkEvent::NoteWithdrawn { note_id, .. } = event else {
        return None;
    };
    store
        .events_of_kind("NoteAdded")
        .ok()?
        .into_iter()
        .find(|e| e.payload["note_id"].as_str() == Some(note_id))
        .and_then(|e| serde_json::from_value(e.payload["target"].clone()).ok())
}

/// What an event did, in words.
fn said(event: &MarkEvent) -> String {
    match event {
        MarkEvent::Tagged { target, tag, .. } => format!("{target} tagged {tag:?}"),
        MarkEvent::Untagged { target, tag, .. } => format!("{target} no longer tagged {tag:?}"),
        MarkEvent::Bookmarked { target, .. } => format!("{target} bookmarked"),
        MarkEvent::Unbookmarked { target, .. } => format!("{target} no longer bookmarked"),
        MarkEvent::NoteAdded {
            note_id, target, ..
        } => format!("{note_id} written on {target}"),
        MarkEvent::NoteWithdrawn { note_id, .. } => format!("{note_id} withdrawn"),
    }
}

/// The marks folded from the case's log.
pub(crate) fn marks_of(ctx: &CaseCtx) -> Result<Marks, ApiError> {
    masf_tools::marks::fold_marks(&ctx.store)
        .map_err(|e| ApiError::new(ErrorCode::Store, e.to_string()))
}

/// Every item the examiner tagged, bookmarked or wrote a note on, with who and when; with
/// `tag`, only those carrying it.
pub fn tagged(ctx: &CaseCtx, tag: Option<&str>) -> Result<Vec<TaggedRow>, ApiError> {
    let state = crate::compose::graph_state(ctx)?;
    Ok(masf_report::tagged::rows(&state, &marks_of(ctx)?, tag))
}

/// The tag names to offer: the defaults, then every other tag used in the case.
pub fn tag_names(ctx: &CaseCtx) -> Result<Vec<String>, ApiError> {
    Ok(marks_of(ctx)?.tag_names())
}
