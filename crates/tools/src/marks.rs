//! The examiner's tags, bookmarks and notes in the case store: their fold beside the graph's,
//! and their one write path (see `masf_graph::tags` for what they are and how a request is
//! judged).
//!
//! A mark is written like an examiner's `same_as` decision: judged on the graph and the marks
//! folded so far, dated by the caller's clock, naming the last event of that fold as its
//! cause, and appended only if no graph or mark event came after it
//! ([`Store::append_batch_unless_newer`]); otherwise the fold catches up and the request is
//! judged again. It needs no run lease: marks only add to the log, never to the graph, so a
//! run in another process goes on and the mark is in the log whatever happens to that run.

use std::collections::BTreeMap;
use std::path::PathBuf;

use masf_graph::tags::{Asked, FileCheck, Judged, MarkEvent, MarkRequest, Marks, judge};
use masf_graph::{GraphState, Scoring};
use masf_store::{ActorKind, Guarded, NewEvent, Store, StoreError, StoredEvent, Versions, Watch};

use crate::log::{FoldCursor, FoldError, feed, graph_kinds};

/// Why a stored mark event could not be folded.
#[derive(Debug, thiserror::Error)]
pub enum MarkError {
    /// The store or the graph's fold failed.
    #[error(transparent)]
    Fold(#[from] FoldError),
    /// A stored mark event does not parse.
    #[error("stored event {seq} ({kind}) is not a mark event: {reason}")]
    BadEvent {
        /// Its seq.
        seq: i64,
        /// Its kind.
        kind: String,
        /// The parse error.
        reason: String,
    },
}

impl From<StoreError> for MarkError {
    fn from(e: StoreError) -> Self {
        MarkError::Fold(FoldError::Store(e))
    }
}

/// Reads a stored event as a mark event: `None` for any other kind.
pub fn mark_event(stored: &StoredEvent) -> Result<Option<MarkEvent>, MarkError> {
    if !MarkEvent::KINDS.contains(&stored.kind.as_str()) {
        return Ok(None);
    }
    MarkEvent::from_payload(&stored.payload)
        .map(Some)
        .map_err(|e| MarkError::BadEvent {
            seq: stored.seq,
            kind: stored.kind.clone(),
            reason: e.to_string(),
        })
}

/// The graph and the marks, folded in one pass of the log, with where the fold stands.
pub fn fold_with_marks(
    store: &Store,
    scoring: Scoring,
) -> Result<(GraphState, Marks, FoldCursor), MarkError> {
    let mut state = GraphState::new(scoring);
    let mut cursor = FoldCursor::default();
    let mut marks = Marks::new();
    store.for_each_event(0, |stored| -> Result<(), MarkError> {
        feed(&mut state, &mut cursor, &stored)?;
        if let Some(event) = mark_event(&stored)? {
            // An event that does not follow is skipped (the consistency check names it).
            let _ = marks.apply(&event);
        }
        Ok(())
    })?;
    Ok((state, marks, cursor))
}

/// The marks alone.
pub fn fold_marks(store: &Store) -> Result<Marks, MarkError> {
    let mut marks = Marks::new();
    store.for_each_event(0, |stored| -> Result<(), MarkError> {
        if let Some(event) = mark_event(&stored)? {
            let _ = marks.apply(&event);
        }
        Ok(())
    })?;
    Ok(marks)
}

/// The kinds a mark's writer watches: a graph or mark event after its fold makes it judge again.
pub fn watched_kinds() -> Vec<&'static str> {
    graph_kinds().into_iter().chain(MarkEvent::KINDS).collect()
}

/// What [`write`] did.
#[derive(Debug, Clone, PartialEq)]
pub enum Written {
    /// The event, stored at `seq`.
    Recorded {
        /// Its seq.
        seq: i64,
        /// The event.
        event: MarkEvent,
    },
    /// Nothing to write: already so.
    Unchanged(String),
    /// Refused: why, naming the id and what exists.
    Refused(String),
}

/// Judges `request` by `examiner` on the store's graph and marks and appends its event (see
/// the module documentation). `now` dates it, read again on each attempt.
pub fn write(
    store: &mut Store,
    scoring: &Scoring,
    request: &MarkRequest,
    (examiner, reason): (&str, &str),
    now: &dyn Fn() -> jiff::Timestamp,
    files: &dyn FileCheck,
) -> Result<Written, MarkError> {
    let kinds = watched_kinds();
    let mut versions = Versions::new();
    versions.insert("masf".to_string(), env!("CARGO_PKG_VERSION").to_string());
    loop {
        let (state, marks, cursor) = fold_with_marks(store, scoring.clone())?;
        let ts = now();
        let at = ts.to_string();
        let asked = Asked {
            by: examiner,
            at: &at,
            reason,
        };
        let event = match judge(&state, &marks, request, &asked, files) {
            Judged::Record(event) => event,
            Judged::Unchanged(why) => return Ok(Written::Unchanged(why)),
            Judged::Refused(why) => return Ok(Written::Refused(why)),
        };
        let new = NewEvent {
            kind: event.kind().to_string(),
            payload: event.to_payload(),
            actor_kind: ActorKind::Examiner,
            actor_id: examiner.to_string(),
            idempotency_key: event.idempotency_key(),
            causation_seq: (cursor.seq > 0).then_some(cursor.seq),
            ts,
            versions: versions.clone(),
        };
        let watch = Watch {
            after_seq: cursor.seq,
            kinds: &kinds,
        };
        match store.append_batch_unless_newer(std::slice::from_ref(&new), &watch)? {
            Guarded::Appended(appended) => {
                let seq = appended.first().map_or(0, |a| a.seq);
                return Ok(Written::Recorded { seq, event });
            }
            Guarded::Newer(_) => continue,
        }
    }
}

/// [`FileCheck`] over the case's sources: each opened (scanned) on first use, the file looked
/// up in the layer named (the tools' `partition`).
pub struct SourceFiles {
    /// Source id → (evidence path, the variable holding a backup password).
    sources: BTreeMap<String, (PathBuf, Option<String>)>,
    /// The case's work folder, whose store holds the searches a hit target names.
    work_dir: Option<PathBuf>,
}

impl SourceFiles {
    /// The sources a case declares: (id, evidence path, `password_env`).
    pub fn new(sources: impl IntoIterator<Item = (String, PathBuf, Option<String>)>) -> Self {
        Self {
            sources: sources
                .into_iter()
                .map(|(id, path, pw)| (id, (path, pw)))
                .collect(),
            work_dir: None,
        }
    }

    /// The same, checking search-hit targets against the logged searches in `work_dir`'s store.
    pub fn with_searches(mut self, work_dir: PathBuf) -> Self {
        self.work_dir = Some(work_dir);
        self
    }
}

impl FileCheck for SourceFiles {
    fn describe(&self, source_id: &str, layer: Option<&str>, path: &str) -> Result<String, String> {
        let Some((evidence, password_env)) = self.sources.get(source_id) else {
            let known: Vec<&str> = self.sources.keys().map(String::as_str).collect();
            return Err(format!(
                "no source has the id {source_id:?}; the case has {}",
                known.join(", ")
            ));
        };
        let ctx = crate::SourceCtx::open_with(source_id, evidence, password_env.as_deref())
            .map_err(|e| format!("source {source_id} cannot be opened: {e}"))?;
        let fs = ctx.scan.file_system(layer).map_err(|e| {
            format!(
                "{} of source {source_id}: {e}",
                layer.map_or("the file system".to_owned(), |l| format!("layer {l:?}"))
            )
        })?;
        let entry = fs
            .stat(&masf_evidence::fs::normalize_path(path))
            .map_err(|e| format!("{path} is not in source {source_id}: {e}"))?;
        let kind = match entry.kind {
            masf_evidence::fs::EntryKind::Dir => "folder".to_owned(),
            _ => format!("file, {} bytes", entry.size),
        };
        let deleted = if entry.deleted { ", deleted" } else { "" };
        Ok(match layer {
            Some(l) => format!("{} in {source_id} ({l}): {kind}{deleted}", entry.path),
            None => format!("{} in {source_id}: {kind}{deleted}", entry.path),
        })
    }

    fn describe_hit(&self, invocation_id: &str, hit: u32) -> Result<String, String> {
        let Some(work) = &self.work_dir else {
            return Err(format!(
                "search hits cannot be checked here ({invocation_id})"
            ));
        };
        let store = Store::open(work).map_err(|e| format!("the case store: {e}"))?;
        let rec = store
            .invocation(invocation_id)
            .map_err(|e| format!("the case store: {e}"))?
            .ok_or_else(|| format!("no invocation has the id {invocation_id:?}"))?;
        if rec.tool != "search_index" {
            return Err(format!(
                "{invocation_id} is a {} call, not a search (`masf search` logs search_index calls)",
                rec.tool
            ));
        }
        let output = store
            .invocation_output(invocation_id)
            .map_err(|e| format!("the output of {invocation_id}: {e}"))?;
        let text = String::from_utf8_lossy(&output);
        let hits: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        let line = usize::try_from(hit)
            .ok()
            .and_then(|n| n.checked_sub(1))
            .and_then(|i| hits.get(i))
            .ok_or_else(|| {
                format!(
                    "the search {invocation_id} of source {} has {} hit(s) (#hit1 … #hit{})",
                    rec.source_id,
                    hits.len(),
                    hits.len()
                )
            })?;
        Ok(format!("search hit in {}: {line}", rec.source_id))
    }
}
