//! The run's event stream: everything appended to the case store while a run goes — events
//! (findings, rejections, hypotheses, links, leads, rounds, run states, budget warnings) and
//! tool invocations — delivered in order to a face (`masf run --events jsonl`, the desktop
//! app). It reads the store through its own read-only connection, so it needs nothing from the
//! running process and sees exactly what is durable.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde::Serialize;

use crate::ApiError;

/// One item of the stream.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[serde(tag = "stream", rename_all = "snake_case")]
pub enum StreamItem {
    /// An event of the log.
    Event(masf_store::StoredEvent),
    /// A recorded tool call (without its output; `masf rerun` or the report has it).
    Invocation(masf_store::InvocationRecord),
}

/// Where a follower stands: the last event and invocation seq delivered.
#[derive(Debug, Clone, Copy, Default)]
pub struct Cursor {
    pub event_seq: i64,
    pub invocation_seq: i64,
}

/// Delivers what was appended after `cursor`, and returns the new cursor.
pub fn poll(
    work_dir: &Path,
    cursor: Cursor,
    f: &mut dyn FnMut(StreamItem),
) -> Result<Cursor, ApiError> {
    if !work_dir.join("case.sqlite").is_file() {
        return Ok(cursor);
    }
    let store = masf_store::Store::open_read_only(work_dir)?;
    let mut next = cursor;
    for e in store.events(cursor.event_seq)? {
        next.event_seq = e.seq;
        f(StreamItem::Event(e));
    }
    for i in store.invocations_after(cursor.invocation_seq)? {
        next.invocation_seq = i.seq;
        f(StreamItem::Invocation(i));
    }
    Ok(next)
}

/// Follows the store of `work_dir` from `cursor` until `stop` is set, polling every `every`,
/// then delivers what remains. Errors of a poll (the store being created, a migration) are
/// retried at the next poll; the final drain's error is returned.
pub fn follow(
    work_dir: &Path,
    mut cursor: Cursor,
    stop: &AtomicBool,
    every: Duration,
    f: &mut dyn FnMut(StreamItem),
) -> Result<Cursor, ApiError> {
    while !stop.load(Ordering::SeqCst) {
        if let Ok(next) = poll(work_dir, cursor, f) {
            cursor = next;
        }
        std::thread::sleep(every);
    }
    poll(work_dir, cursor, f)
}
