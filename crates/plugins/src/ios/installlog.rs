//! The installation daemon's logs (`installd/Library/Logs/MobileInstallation/
//! mobile_installation.log.<n>`), the events of iLEAPP's `mobileInstall` modules: one phenomenon
//! per line that records an app installed (`Install Successful for (<kind>:<bundle>)`: an App
//! Store placeholder, a customer app or a system app), uninstalled (`Uninstalling identifier`,
//! `Destroying container with identifier … at …`), its data container moved or made live, a delta
//! update attempted, or a reboot detected — each with the line's time as written (C's ctime
//! layout, the device's local time without a zone: read in the source's zone, `local_text`),
//! the bundle id and the path. Apps installed and removed before the extraction — and when —
//! show here even when nothing else of them is left.
//!
//! Read with `read_text` in 1 MiB pieces cut at line ends, up to 64 MiB a file; at most
//! [`ENTRY_CAP`] events a source (noted beyond). iLEAPP also lists each bundle's last install
//! and uninstall: the same lines, summarised; here every event is kept. Identities: none
//! observed.

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::json;

use super::{Draft, ENTRY_CAP, Run, file_name};

/// One read.
const CHUNK: u64 = 1 << 20;
/// Most bytes read of one log.
const MAX_BYTES: u64 = 64 << 20;

/// Triage of every installation log of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut count = 0usize;
    run.each("mobile_installation.log.*", |find, path| {
        one(run, find, path, &mut count)
    })
}

/// What one line says: (event, category, bundle, path).
struct Event<'a> {
    what: &'static str,
    category: &'static str,
    kind: Option<&'a str>,
    bundle: Option<&'a str>,
    path: Option<&'a str>,
}

/// The text between `start` and `end` (or the line's end) after `start`.
fn between<'a>(line: &'a str, start: &str, end: Option<&str>) -> Option<&'a str> {
    let rest = &line[line.find(start)? + start.len()..];
    let v = match end {
        Some(e) => &rest[..rest.find(e)?],
        None => rest,
    };
    let v = v.trim();
    (!v.is_empty()).then_some(v)
}

/// The event a log line records, if any (read in its message, after the method's `]: `).
fn event(line: &str) -> Option<Event<'_>> {
    let line = line.split_once("]: ").map_or(line, |(_, m)| m);
    let e = |what, category, bundle, path| {
        Some(Event {
            what,
            category,
            kind: None,
            bundle,
            path,
        })
    };
    if let Some(inner) = between(line, "Install Successful for (", Some(")")) {
        let (kind, bundle) = match inner.split_once(':') {
            Some((k, b)) => (Some(k), b),
            None => (None, inner),
        };
        return Some(Event {
            what: "App installed",
            category: "apps",
            kind,
            bundle: Some(bundle),
            path: None,
        });
    }
    if line.contains("Uninstalling identifier ") {
        return e(
            "App uninstalled",
            "apps",
            between(line, "Uninstalling identifier ", None),
            None,
        );
    }
    if line.contains("Destroying container ") {
        return e(
            "App container destroyed",
            "apps",
            between(line, "identifier ", Some(" at ")),
            between(line, " at ", None),
        );
    }
    if line.contains("Data container for ") {
        return e(
            "App data container moved",
            "apps",
            between(line, "Data container for ", Some(" is now ")),
            between(line, " at ", None),
        );
    }
    if line.contains("Made container live for ") {
        return e(
            "App container made live",
            "apps",
            between(line, "Made container live for ", Some(" at ")),
            between(line, " at ", None),
        );
    }
    if line.contains("Attempting Delta patch update of ") {
        return e(
            "App delta update attempted",
            "apps",
            between(line, "Attempting Delta patch update of ", Some(" from ")),
            between(line, " from ", None),
        );
    }
    if line.contains("main: Reboot detected") {
        return e("Reboot detected", "device", None, None);
    }
    None
}

/// The line's time as written: the text before ` [` when it reads as C's ctime layout
/// (weekday, month, day, time, year).
pub(super) fn stamp(line: &str) -> Option<&str> {
    let t = &line[..line.find(" [")?];
    let parts: Vec<&str> = t.split_ascii_whitespace().collect();
    (parts.len() == 5 && parts[3].len() == 8 && parts[4].len() == 4).then_some(t)
}

fn one(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    count: &mut usize,
) -> Result<(), RuntimeError> {
    let file = file_name(path);
    each_line(run, path, "installation events", |inv, line| {
        let (Some(t), Some(ev)) = (stamp(line), event(line)) else {
            return Ok(true);
        };
        if *count >= ENTRY_CAP as usize {
            return Ok(false);
        }
        *count += 1;
        record(run, find, inv, path, file, t, &ev)?;
        Ok(true)
    })
}

/// Calls `f` on every line of the text file `path` with the `read_text` call citing it, read in
/// [`CHUNK`] pieces cut at line ends, up to [`MAX_BYTES`]; `f` returns `false` when the source
/// has recorded [`ENTRY_CAP`] `what` already, which is noted and ends the read. A log's lines,
/// for the installation and lockdownd logs alike.
pub(super) fn each_line(
    run: &Run<'_, '_>,
    path: &str,
    what: &str,
    mut f: impl FnMut(&Invoked, &str) -> Result<bool, RuntimeError>,
) -> Result<(), RuntimeError> {
    let mut offset = 0u64;
    loop {
        let Some(inv) = crate::calls::call_or_note(
            run.ctx,
            path,
            "read_text",
            json!({"path": path, "offset": offset, "length": CHUNK}),
        )?
        else {
            return Ok(());
        };
        let s = inv.output.structured.clone().unwrap_or_default();
        let more = s.get("more").and_then(|m| m.as_bool()).unwrap_or(false);
        let length = s.get("length").and_then(|m| m.as_u64()).unwrap_or(0);
        let text = &inv.output.text;
        // complete lines only, unless this is the file's end
        let cut = if more {
            text.rfind('\n').map(|i| i + 1)
        } else {
            Some(text.len())
        };
        let body = &text[..cut.unwrap_or(text.len())];
        for line in body.lines() {
            if !f(&inv, line)? {
                run.ctx.unparsed(
                    path,
                    &format!("more than {ENTRY_CAP} {what}: those past the first {ENTRY_CAP} were not read"),
                    Some(&inv.record.invocation_id),
                )?;
                return Ok(());
            }
        }
        if !more || length == 0 {
            return Ok(());
        }
        // a piece with bytes that are not UTF-8 is not cut at a line (its text is longer than
        // its bytes): the next read starts after it
        offset += match cut {
            Some(c) if !text.contains('\u{FFFD}') => c as u64,
            _ => length,
        };
        if offset >= MAX_BYTES {
            run.ctx.unparsed(
                path,
                &format!("the log is larger than {MAX_BYTES} bytes: the rest was not read"),
                Some(&inv.record.invocation_id),
            )?;
            return Ok(());
        }
    }
}

fn record(
    run: &Run<'_, '_>,
    find: &Invoked,
    inv: &Invoked,
    path: &str,
    file: &str,
    t: &str,
    ev: &Event<'_>,
) -> Result<(), RuntimeError> {
    let mut d = Draft::new(
        ev.category,
        match ev.bundle {
            Some(b) => format!("{}: {b} (installation log)", ev.what),
            None => format!("{} (installation log)", ev.what),
        },
    );
    d.fact(FactType::Path, Some(path), find);
    d.time(
        Some(t),
        Some(TimeEncoding::LocalText),
        &format!("{} (installation log)", ev.what),
        inv,
    );
    d.fact(FactType::Identifier, ev.bundle, inv);
    d.fact(FactType::Text, ev.kind, inv);
    d.fact(FactType::Path, ev.path, inv);
    d.interpretation = format!(
        "{file}: at {t} (the device's local time, as the installation daemon wrote it) {}{}{}{}.",
        ev.what.to_lowercase(),
        ev.bundle.map(|b| format!(" for {b}")).unwrap_or_default(),
        ev.kind
            .map(|k| format!(
                " ({k} app{})",
                if k == "Placeholder" {
                    ": the App Store's placeholder while it downloads"
                } else {
                    ""
                }
            ))
            .unwrap_or_default(),
        ev.path.map(|p| format!(", at {p}")).unwrap_or_default(),
    );
    run.record(d)
}
