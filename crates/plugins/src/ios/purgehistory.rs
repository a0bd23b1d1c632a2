//! When iOS purged caches to free space: CacheDelete's history
//! (`mobile/Library/Caches/com.apple.cache_delete/CacheDeletePurgeHistory.txt`, and the copy a
//! sysdiagnose keeps under `logs/CacheDelete/`), iLEAPP's `cacheDeletePurgeHistory`, read with
//! `read_text`:
//!
//! | line | phenomenon | fields |
//! |---|---|---|
//! | `P<YYYY-MM-DD HH:MM:SS.ffffff>\|<target>\|<urgency>\|<available>\|<purged>\|<seconds>` (headerless, `\|`-separated; the `P` may be absent) | one `device` per purge ("CacheDelete purge of <target> at <time>") | the time as written (without the `P`), the target directory or volume, the urgency as stored (1 routine, 3 critical, said), the bytes available, the bytes purged, the duration in seconds |
//!
//! A purge is the system reclaiming purgeable space (caches, temporary and offloadable data)
//! under the target when storage ran low; it is not the user deleting a file, and it says
//! which data could be gone from the extraction and when. The file does not document its
//! fields: the reading of the fields, their units and the urgency words are the Apple Wiki's,
//! which iLEAPP follows (community documentation, said). The time carries no zone: it is read
//! as the device's local time (`local_text`, in the source's zone; iLEAPP shows it as UTC), so a
//! timeline placement is as good as that assumption (said). Fields after the sixth are
//! ignored; a line short of fields keeps those it has.
//!
//! A line whose first field is no time of that layout is not a purge record: such lines are
//! counted and noted (one note per file); a file with none is noted as holding no purge record.
//! Read in 1 MiB pieces cut at line ends ([`super::installlog::each_line`]); at most
//! [`ENTRY_CAP`] purges a source (noted beyond).
//!
//! Identities: none.

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;

use super::{Draft, ENTRY_CAP, Run, file_name};

/// One purge record, each field as written.
struct Purge<'a> {
    time: &'a str,
    target: &'a str,
    urgency: &'a str,
    available: &'a str,
    purged: &'a str,
    duration: &'a str,
}

/// Whether `t` is `YYYY-MM-DD HH:MM:SS` with an optional fraction of digits.
fn is_time(t: &str) -> bool {
    let b = t.as_bytes();
    if b.len() < 19 {
        return false;
    }
    let digits = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18];
    let ok = digits.iter().all(|&i| b[i].is_ascii_digit())
        && b[4] == b'-'
        && b[7] == b'-'
        && b[10] == b' '
        && b[13] == b':'
        && b[16] == b':';
    let rest = &b[19..];
    ok && (rest.is_empty()
        || (rest.len() > 1 && rest[0] == b'.' && rest[1..].iter().all(u8::is_ascii_digit)))
}

/// The purge a line records, if it is one.
fn parse(line: &str) -> Option<Purge<'_>> {
    let mut fields = line.trim_end_matches('\r').split('|').map(str::trim);
    let first = fields.next()?;
    let time = first.strip_prefix('P').unwrap_or(first);
    if !is_time(time) {
        return None;
    }
    let mut next = || fields.next().unwrap_or("");
    Some(Purge {
        time,
        target: next(),
        urgency: next(),
        available: next(),
        purged: next(),
        duration: next(),
    })
}

/// The urgency's word (the Apple Wiki's, as iLEAPP maps it).
fn urgency_word(u: &str) -> &'static str {
    match u {
        "1" => "routine",
        "3" => "critical",
        _ => "not documented",
    }
}

/// Triage of every CacheDelete purge history of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut count = 0usize;
    run.each("CacheDeletePurgeHistory.txt", |find, path| {
        one(run, find, path, &mut count)
    })
}

fn one(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    count: &mut usize,
) -> Result<(), RuntimeError> {
    let file = file_name(path);
    let (mut read, mut other) = (0usize, 0usize);
    let mut cite: Option<String> = None;
    super::installlog::each_line(run, path, "purge records", |inv, line| {
        if cite.as_deref() != Some(inv.record.invocation_id.as_str()) {
            cite = Some(inv.record.invocation_id.clone());
        }
        if line.trim().is_empty() {
            return Ok(true);
        }
        let Some(p) = parse(line) else {
            other += 1;
            return Ok(true);
        };
        if *count >= ENTRY_CAP as usize {
            return Ok(false);
        }
        *count += 1;
        read += 1;
        record(run, find, inv, path, file, &p)?;
        Ok(true)
    })?;
    if other == 0 {
        return Ok(());
    }
    let reason = if read == 0 {
        "could not read CacheDelete purge records because no line reads as one (a time `YYYY-MM-DD HH:MM:SS`, with or without a `P` before it, then `|`-separated fields)".to_string()
    } else {
        format!(
            "{other} line{} that {} not a CacheDelete purge record (no time of the file's layout first) {} not read",
            if other == 1 { "" } else { "s" },
            if other == 1 { "is" } else { "are" },
            if other == 1 { "was" } else { "were" },
        )
    };
    run.ctx.unparsed(path, &reason, cite.as_deref())
}

fn record(
    run: &Run<'_, '_>,
    find: &Invoked,
    inv: &Invoked,
    path: &str,
    file: &str,
    p: &Purge<'_>,
) -> Result<(), RuntimeError> {
    let shown = |v: &str| {
        if v.is_empty() {
            "?".to_string()
        } else {
            v.to_string()
        }
    };
    let mut d = Draft::new(
        "device",
        format!(
            "CacheDelete purge of {} at {}",
            if p.target.is_empty() {
                "an unnamed target"
            } else {
                p.target
            },
            p.time
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    d.time(
        Some(p.time),
        Some(TimeEncoding::LocalText),
        "CacheDelete purge",
        inv,
    );
    d.fact(FactType::Path, Some(p.target), inv);
    d.fact(FactType::Text, Some(p.urgency), inv);
    d.fact(FactType::Count, Some(p.available), inv);
    d.fact(FactType::Count, Some(p.purged), inv);
    d.fact(FactType::Text, Some(p.duration), inv);
    d.interpretation = format!(
        "{file}: at {} (as written, without a zone: read as the device's local time; iLEAPP shows it as UTC) CacheDelete purged {} bytes from {} with urgency {} ({}), {} bytes being available, in {} seconds. The system reclaimed purgeable data (caches, temporary and offloadable files) there to free space; no user deletion is implied, and data of that place may be missing from the extraction since. The fields' reading, units and urgency words are the Apple Wiki's, which iLEAPP follows.",
        p.time,
        shown(p.purged),
        if p.target.is_empty() {
            "an unnamed target"
        } else {
            p.target
        },
        shown(p.urgency),
        urgency_word(p.urgency),
        shown(p.available),
        shown(p.duration),
    );
    run.record(d)
}
