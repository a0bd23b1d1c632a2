//! Test helper for the crash-safety test: appends batches of events to the store in a work
//! folder, printing `committed <batch>` after each commit, until killed.
//!
//! Usage: `masf-store-writer <work_dir> <events_per_batch> [pad_bytes]`. Each event's payload is
//! `{"batch": b, "index": i, "pad": "…"}`; padding makes a batch outgrow SQLite's page cache, so
//! that uncommitted pages reach the WAL before the commit. The writer resumes after the last batch in the store, so it can be
//! killed and restarted on the same folder. It stops by itself when its stdout is closed.

use std::io::Write;
use std::path::PathBuf;

use masf_store::{ActorKind, NewEvent, Store, Versions};
use serde_json::json;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args_os().skip(1);
    let (Some(dir), Some(per_batch)) = (args.next(), args.next()) else {
        return Err("usage: masf-store-writer <work_dir> <events_per_batch> [pad_bytes]".into());
    };
    let per_batch: u64 = per_batch.to_str().ok_or("bad batch size")?.parse()?;
    let pad = match args.next() {
        Some(bytes) => "x".repeat(bytes.to_str().ok_or("bad pad size")?.parse()?),
        None => String::new(),
    };

    let mut store = Store::open(&PathBuf::from(dir))?;
    let mut batch = store.fold(0, |next, event| {
        event.payload["batch"]
            .as_u64()
            .map_or(next, |b| next.max(b + 1))
    })?;
    let mut stdout = std::io::stdout();
    loop {
        let events = (0..per_batch)
            .map(|index| event(batch, index, &pad))
            .collect::<Result<Vec<_>, _>>()?;
        store.append_batch(&events)?;
        // Fails (and ends the writer) once the test has closed the pipe.
        writeln!(stdout, "committed {batch}")?;
        stdout.flush()?;
        batch += 1;
    }
}

fn event(batch: u64, index: u64, pad: &str) -> Result<NewEvent, jiff::Error> {
    Ok(NewEvent {
        kind: "test.batch".to_owned(),
        payload: json!({ "batch": batch, "index": index, "pad": pad }),
        actor_kind: ActorKind::System,
        actor_id: "masf-store-writer".to_owned(),
        idempotency_key: format!("batch-{batch}-event-{index}"),
        causation_seq: None,
        ts: jiff::Timestamp::from_second(i64::try_from(batch).unwrap_or(i64::MAX))?,
        versions: Versions::from([("app".to_owned(), "writer".to_owned())]),
    })
}
