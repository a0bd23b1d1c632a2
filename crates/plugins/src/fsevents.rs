//! Apple's file-system event logs (FSEvents): a `.fseventsd` folder at the root of a macOS
//! volume (read by the generic tree triage of a disk or archive) or an iPhone's
//! `/private/var/.fseventsd/` and `/private/var/mobile/.fseventsd/` (read by the iOS plugin);
//! iLEAPP's `fileSystemEvents`.
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | each log file (`list_dir` of the folder) | one `files` per log ("FSEvents log <file> of <folder>") | the log's name (the event id after its last record, in hex), size, how many records it holds; its modification time: when fseventsd wrote it, the time at or before which its records' changes happened |
//! | each record (`read_fsevents`) | one `files` per record ("FSEvents <path>: <flags>") | the path that changed (relative to the volume's root), the event id, the flags as stored and in words (created, removed, renamed or moved, content modified, file, directory…), the node id (the file's inode or catalogue node id), the log file and the page version |
//!
//! A record has no time of its own: its log's modification time bounds it (the changes of a log
//! happened before the log was written; the previous log's time, when there is one, is after the
//! changes before them), which the interpretation says and the timeline keeps on the log. Event
//! ids grow with each change on the volume, so they order the records. A path removed since is
//! still named: the log is often the only trace of a file that was created and deleted (a
//! download, a wiped document). Records past [`crate::calls::ROW_CAP`] are counted in a note;
//! a log that is no gzip or a record cut short is noted with its offset, the rest read.
//!
//! Identities: none.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::{Value, json};

use crate::drafts::{Draft, record_draft};
use crate::outputs::{Table, escape, listed_files};

/// Records read per `read_fsevents` call.
pub const PAGE: u64 = 20_000;

/// Whether `path` is an FSEvents folder (`…/.fseventsd`).
pub fn is_folder(path: &str) -> bool {
    path.trim_end_matches('/').rsplit('/').next() == Some(".fseventsd")
}

/// One `.fseventsd` folder at `folder`, found by `found`; `args` adds the file system's
/// arguments (a partition) to a call's. `artefact` names it in notes.
pub fn folder(
    ctx: &AgentCtx<'_>,
    artefact: &str,
    folder: &str,
    found: &Invoked,
    args: &dyn Fn(Value) -> Value,
) -> Result<(), RuntimeError> {
    // the logs and their times
    let Some(listing) =
        crate::calls::call_or_note(ctx, artefact, "list_dir", args(json!({ "path": folder })))?
    else {
        return Ok(());
    };
    let logs: Vec<_> = listed_files(&listing.output.text)
        .into_iter()
        .filter(|f| masf_tools::fsevents::is_log_name(f.path.rsplit('/').next().unwrap_or(&f.path)))
        .collect();
    if logs.is_empty() {
        return Ok(());
    }
    let mut per_log: std::collections::BTreeMap<String, usize> = Default::default();
    let mut skip = 0u64;
    let mut read = 0u64;
    loop {
        let Some(inv) = crate::calls::call_or_note(
            ctx,
            artefact,
            "read_fsevents",
            args(json!({ "path": folder, "skip": skip, "limit": PAGE })),
        )?
        else {
            break;
        };
        let text = &inv.output.text;
        let (head, rest) = text.split_once('\n').unwrap_or((text, ""));
        if skip == 0 {
            let problems: Vec<&str> = rest
                .lines()
                .filter_map(|l| l.strip_prefix("# problem "))
                .collect();
            if !problems.is_empty() {
                ctx.unparsed(
                    artefact,
                    &format!(
                        "{} FSEvents problems (the rest read): {}",
                        problems.len(),
                        problems.join("; ")
                    ),
                    Some(&inv.record.invocation_id),
                )?;
            }
        }
        let t = Table::parse(rest);
        for row in &t.rows {
            let (Some(log), Some(_)) = (t.get(row, "file"), t.get(row, "event_id")) else {
                continue;
            };
            *per_log.entry(log.to_string()).or_default() += 1;
            let path = t.get(row, "path");
            let words = t.get(row, "flag_words").unwrap_or("no flags");
            let mut d = Draft::new(
                "files",
                format!(
                    "FSEvents {}: {words}",
                    path.map(escape).unwrap_or_else(|| "(the volume)".into())
                ),
            );
            d.fact(FactType::Path, Some(folder), found);
            let said = d.fields(
                &t,
                row,
                &inv,
                &[
                    ("path", FactType::Path, "path"),
                    ("event_id", FactType::Identifier, "event id"),
                    ("flags", FactType::Text, "flags"),
                    ("flag_words", FactType::Text, "meaning"),
                    ("node_id", FactType::Identifier, "node id"),
                    ("file", FactType::Text, "log"),
                    ("version", FactType::Text, "page"),
                ],
            );
            d.interpretation = format!(
                "{artefact}: fseventsd logged a change on the volume: {}. The record has no time of its own: the change happened before the log {log} was written (see that log's modification time).",
                said.join(", ")
            );
            record_draft(ctx, d)?;
            read += 1;
        }
        let more = head
            .split(", ")
            .find_map(|p| p.strip_suffix(&format!(" more past the limit of {PAGE}")))
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or(0);
        if more == 0 {
            break;
        }
        if read >= crate::calls::ROW_CAP {
            ctx.unparsed(
                artefact,
                &format!(
                    "more FSEvents records than the {} read one by one: {more} more not recorded",
                    crate::calls::ROW_CAP
                ),
                Some(&inv.record.invocation_id),
            )?;
            break;
        }
        skip += PAGE;
    }
    // the logs, with the time that bounds their records
    for f in &logs {
        let name = f.path.rsplit('/').next().unwrap_or(&f.path);
        let mut d = Draft::new("files", format!("FSEvents log {name} of {folder}"));
        d.fact(FactType::Path, Some(&f.path), &listing);
        d.fact(FactType::Count, Some(&f.size), &listing);
        let raw = f.time("modified");
        if let Some((enc, _)) = raw.and_then(|r| crate::outputs::time_mark("modified", r)) {
            d.time(
                raw,
                Some(enc),
                "FSEvents log written (its records' changes at or before)",
                &listing,
            );
        }
        let n = per_log.get(name).copied().unwrap_or(0);
        d.interpretation = format!(
            "{artefact}: fseventsd's log {name} ({} bytes, {n} records read from it); its modification time is when it was written: the changes it records happened before.",
            f.size
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
