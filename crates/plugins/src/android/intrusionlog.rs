//! Android 16's intrusion logs (Advanced Protection's Intrusion Logging), ALEAPP's
//! `intrusion_logging` (`ail_dns_events`, `ail_connect_events`, `ail_security_events`; MVT's
//! `check-intrusion-logs` reads the same files): what the phone logged of its network and security
//! activity, downloaded and decrypted by the user from the settings page into the shared storage's
//! `Download/Intrusion Logging/` (androidqf copies that folder as `intrusion_logs/`). The folder is
//! found by its name (an app folder of [`super::APP_DIRS`]: `Intrusion Logging`, `intrusion_logs`,
//! `intrusion-logs`), listed with `find_files` for its `YYYY-MM-DD*.txt` files, and each read with
//! `read_text` (1 MiB at a time, cut at the last whole line, up to [`MAX_CHUNKS`] MiB a file; the
//! rest noted).
//!
//! | file: line | phenomenon | fields |
//! |---|---|---|
//! | `YYYY-MM-DD*.txt` | one `device` per file ("Intrusion log <file name>") | path, size; the events counted by kind, duplicates and unreadable lines in the interpretation; the first and last event's time, the file's modified time |
//! | `{"dns_event": {…}}` | one `web` per DNS lookup ("Intrusion log DNS lookup of <hostname> by <package>") | event id, package, host name, each resolved address (the leading `/` Java writes left out), the count as stored; when (`event_time`, Unix ms) |
//! | `{"connect_event": {…}}` | one `web` per connection ("Intrusion log connection to <address>:<port> by <package>") | event id, package, address (without its `/`), port; when (Unix ms) |
//! | `{"security_event": {…}}` | one per security event ("Intrusion log security event <action>"): `apps` for `package_installed`, `package_updated`, `package_uninstalled`, `app_process_start`, else `device` | event id, the action (the member beside `event_id` and `event_time`: `adb_shell_cmd`, `keyguard_dismiss_auth_attempt`, `wifi_connection`, `cert_authority_installed` … as `android.app.admin.SecurityLog` names them), every scalar of its payload as stored (command, package, version, user, process, uid, pid, success, BSSID, certificate subject …; a scalar payload as it is); when (`event_time`, Unix ns as MVT reads them) |
//! | any other wrapper | one `device` ("Intrusion log <kind>") | event id, every scalar of it; when |
//!
//! Times: `event_time` is read by its size (from 10¹⁷ nanoseconds, from 10¹⁴ microseconds, from
//! 10¹¹ milliseconds, else seconds): DNS and connection events carry milliseconds, security
//! events nanoseconds. An event is taken once: a line written again (the same JSON text in two
//! day files, which overlapping downloads give) is counted as a duplicate of the first and not
//! recorded again, as MVT's reading drops it.
//!
//! Drift and damage: members are taken by name, absent ones left out (a DNS event without
//! addresses or count, a connection without its package). A line that is not a JSON object (the
//! cut end of a file, a damaged line) is counted and noted, the other lines read; a file none of
//! whose lines is an event (another format named like a day) is noted; events past
//! [`crate::calls::ROW_CAP`] a file are counted and noted. Only files in the folders named above
//! are read: other apps' dated text files are neither read nor noted. A value is a fact only as
//! the line writes it (a string the writer escaped otherwise is said in the interpretation).
//!
//! Secrets: the logs hold no credentials of their own, but an ADB shell command may carry one: a
//! payload member named like a password, token or secret, and a command that looks like it carries
//! one (`password`, `token`, `secret`, `api_key` …), is withheld (counted, never a fact, title or
//! interpretation); `read_text`'s output holds the lines as the file does.
//!
//! What it proves: that Android's intrusion logging recorded these lookups, connections and
//! security events on the phone (the package is the app the system attributed them to); it does
//! not say who used the phone. Identities: none (package names, addresses and Android user
//! numbers are no accounts).

use std::collections::HashSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::Located;
use super::fishingnet::listed_modified;
use crate::calls::{ROW_CAP, call_or_note};
use crate::drafts::{Draft, record_draft};
use crate::identity::{args_on, artefact_name};
use crate::outputs::{ListedFile, json_leaves, json_scalar, listed_files};

/// The shared storage's folder the settings page decrypts the logs into.
pub const DEVICE_DIR: &str = "Intrusion Logging";

/// androidqf's copy of that folder.
pub const AQF_DIR: &str = "intrusion_logs";

/// androidqf's copy as some of its releases name it.
pub const AQF_DIR_DASH: &str = "intrusion-logs";

/// Most day files listed in one folder.
const LIST_LIMIT: u64 = 20_000;

/// Bytes read at a time.
const CHUNK: u64 = 1 << 20;

/// Most chunks read of one file.
pub const MAX_CHUNKS: usize = 32;

/// Members of a security event beside its action.
const META: &[&str] = &["event_id", "event_time", "event_type", "timestamp"];

/// Words that mark a payload member's name, or a command, as carrying a secret (lower case).
const SECRET_MARKS: &[&str] = &[
    "password",
    "passwd",
    "pass=",
    "token",
    "secret",
    "api_key",
    "apikey",
    "private_key",
    "--pass ",
];

/// Whether `l` is a folder of intrusion logs.
pub fn is_app_dir(l: &Located) -> bool {
    matches!(
        l.path.rsplit('/').next(),
        Some(DEVICE_DIR | AQF_DIR | AQF_DIR_DASH)
    )
}

/// Whether `name` is a day file's (`YYYY-MM-DD*.txt`, the year from 2000: ALEAPP's
/// `2[0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*.txt`).
pub fn is_day_name(name: &str) -> bool {
    let b = name.as_bytes();
    b.len() >= 14
        && name.ends_with(".txt")
        && b[0] == b'2'
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && b[7] == b'-'
        && b[8..10].iter().all(u8::is_ascii_digit)
}

/// Whether `path` is a day file of an intrusion-log folder (for `categorise`).
pub fn is_log_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    is_day_name(name)
        && [DEVICE_DIR, AQF_DIR, AQF_DIR_DASH]
            .iter()
            .any(|d| path.contains(&format!("/{d}/")))
}

/// How `event_time` is read, by its size.
fn encoding(v: Option<&str>) -> Option<TimeEncoding> {
    let x: f64 = v?.trim().parse().ok()?;
    if !x.is_finite() || x <= 0.0 {
        return None;
    }
    Some(if x >= 1e17 {
        TimeEncoding::UnixNanos
    } else if x >= 1e14 {
        TimeEncoding::UnixMicros
    } else if x >= 1e11 {
        TimeEncoding::UnixMillis
    } else {
        TimeEncoding::UnixSeconds
    })
}

/// `event_time` in milliseconds, to order events of different kinds.
fn millis(v: &str) -> Option<f64> {
    let x: f64 = v.trim().parse().ok()?;
    Some(match encoding(Some(v))? {
        TimeEncoding::UnixNanos => x / 1e6,
        TimeEncoding::UnixMicros => x / 1e3,
        TimeEncoding::UnixMillis => x,
        _ => x * 1e3,
    })
}

/// Whether a member name or a command looks like it carries a secret.
fn secret(s: &str) -> bool {
    let l = s.to_ascii_lowercase();
    SECRET_MARKS.iter().any(|m| l.contains(m))
}

/// A folder of intrusion logs: each day file in it.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let listing = ctx.call(
        "find_files",
        args_on(
            &l.tree,
            json!({"path": l.path, "name_globs": ["2???-??-??*.txt"], "limit": LIST_LIMIT}),
        ),
    )?;
    if !crate::calls::succeeded(&listing) {
        return Ok(());
    }
    let files: Vec<ListedFile> = listed_files(&listing.output.text)
        .into_iter()
        .filter(|f| is_day_name(f.path.rsplit('/').next().unwrap_or(&f.path)))
        .collect();
    if files.is_empty() {
        // another folder of the name, without day files
        return Ok(());
    }
    if listing.output.text.contains("\n# truncated") {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            &format!(
                "more than {LIST_LIMIT} intrusion-log files; those past the first {LIST_LIMIT} were not read"
            ),
            Some(&listing.record.invocation_id),
        )?;
    }
    let mut seen: HashSet<String> = HashSet::new();
    for f in &files {
        day(ctx, l, &listing, f, &mut seen)?;
    }
    Ok(())
}

/// What one day file held.
#[derive(Default)]
struct Tally {
    lines: usize,
    events: usize,
    recorded: usize,
    duplicates: usize,
    bad: usize,
    first_bad: Option<usize>,
    withheld: usize,
    kinds: Vec<(String, usize)>,
    /// (ms, raw value, chunk) of the first and last event
    first: Option<(f64, String, usize)>,
    last: Option<(f64, String, usize)>,
}

/// One day file, read a chunk at a time.
fn day(
    ctx: &AgentCtx<'_>,
    l: &Located,
    listing: &Invoked,
    f: &ListedFile,
    seen: &mut HashSet<String>,
) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &f.path);
    let mut chunks: Vec<Invoked> = Vec::new();
    let mut tally = Tally::default();
    let mut offset = 0u64;
    loop {
        let Some(inv) = call_or_note(
            ctx,
            &name,
            "read_text",
            args_on(
                &l.tree,
                json!({"path": f.path, "offset": offset, "length": CHUNK}),
            ),
        )?
        else {
            break;
        };
        let text = inv.output.text.clone();
        let s = inv.output.structured.clone();
        let read = s
            .as_ref()
            .and_then(|s| s.get("length"))
            .and_then(Value::as_u64)
            .unwrap_or(text.len() as u64);
        let more = match s
            .as_ref()
            .and_then(|s| s.get("more"))
            .and_then(Value::as_bool)
        {
            Some(m) => m,
            None => read >= CHUNK,
        };
        chunks.push(inv);
        let at = chunks.len() - 1;
        let (body, consumed) = if more {
            match text.rfind('\n') {
                Some(i) => (
                    &text[..=i],
                    read.saturating_sub((text.len() - (i + 1)) as u64),
                ),
                None => {
                    ctx.unparsed(
                        &name,
                        &format!(
                            "a line longer than {CHUNK} bytes at byte {offset}: the file was read up to it"
                        ),
                        Some(&chunks[at].record.invocation_id),
                    )?;
                    break;
                }
            }
        } else {
            (text.as_str(), read)
        };
        for line in body.lines() {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            tally.lines += 1;
            one_line(ctx, f, listing, &chunks[at], at, line, seen, &mut tally)?;
        }
        if !more || consumed == 0 {
            break;
        }
        offset += consumed;
        if chunks.len() >= MAX_CHUNKS {
            ctx.unparsed(
                &name,
                &format!(
                    "bytes {offset}–{} of its {} were not read: only the first {offset} bytes are parsed",
                    f.size, f.size
                ),
                Some(&chunks[at].record.invocation_id),
            )?;
            break;
        }
    }
    // nothing read, or an empty file: nothing to say
    if chunks.is_empty() || tally.lines == 0 {
        return Ok(());
    }
    if tally.events == 0 {
        ctx.unparsed(
            &name,
            &format!(
                "could not parse the intrusion log because none of its {} lines is an intrusion-logging event (a JSON object wrapping dns_event, connect_event or security_event)",
                tally.lines
            ),
            Some(&chunks[0].record.invocation_id),
        )?;
        return Ok(());
    }
    if tally.bad > 0 {
        ctx.unparsed(
            &name,
            &format!(
                "{} of its {} lines are not JSON events (the first, line {}, cut or damaged); the other lines were read",
                tally.bad,
                tally.lines,
                tally.first_bad.unwrap_or(0)
            ),
            Some(&chunks[0].record.invocation_id),
        )?;
    }
    if tally.events > tally.recorded + tally.duplicates {
        ctx.unparsed(
            &name,
            &format!(
                "{} events: the first {ROW_CAP} were recorded, the other {} counted",
                tally.events,
                tally.events - tally.recorded - tally.duplicates
            ),
            Some(&chunks[0].record.invocation_id),
        )?;
    }

    let file = f.path.rsplit('/').next().unwrap_or(&f.path);
    let mut d = Draft::new("device", format!("Intrusion log {file}"));
    d.fact(FactType::Path, Some(&f.path), listing);
    d.fact(FactType::Count, Some(&f.size), listing);
    if let Some((_, raw, c)) = &tally.first {
        d.time(
            Some(raw),
            encoding(Some(raw)),
            "First event of the intrusion log",
            &chunks[*c],
        );
    }
    if let Some((_, raw, c)) = &tally.last
        && tally.first.as_ref().map(|x| &x.1) != Some(raw)
    {
        d.time(
            Some(raw),
            encoding(Some(raw)),
            "Last event of the intrusion log",
            &chunks[*c],
        );
    }
    let (at, enc) = listed_modified(f);
    d.time(at, enc, "Intrusion log written", listing);
    d.interpretation = format!(
        "{}: a day file of Android's intrusion logging as the user downloaded and decrypted it ({} bytes): {} events ({}){}{}{}{}; times from the events' event_time (DNS and connection events Unix ms, security events Unix ns).",
        f.path,
        f.size,
        tally.events,
        tally
            .kinds
            .iter()
            .map(|(k, n)| format!("{n} {k}"))
            .collect::<Vec<_>>()
            .join(", "),
        if tally.duplicates > 0 {
            format!(
                ", {} of them written before (the same line in an earlier file or line) and recorded once",
                tally.duplicates
            )
        } else {
            String::new()
        },
        if tally.bad > 0 {
            format!(
                "; {} lines are not JSON events and were not read",
                tally.bad
            )
        } else {
            String::new()
        },
        if tally.withheld > 0 {
            format!(
                "; {} values withheld: they look like they carry a password, token or secret",
                tally.withheld
            )
        } else {
            String::new()
        },
        match (&tally.first, &tally.last) {
            (Some(a), Some(b)) if a.1 != b.1 => format!("; from {} to {}", a.1, b.1),
            (Some(a), _) => format!("; at {}", a.1),
            _ => String::new(),
        }
    );
    record_draft(ctx, d)
}

/// One line of a day file: counted, and recorded when it is an event not seen before.
#[allow(clippy::too_many_arguments)]
fn one_line(
    ctx: &AgentCtx<'_>,
    f: &ListedFile,
    listing: &Invoked,
    inv: &Invoked,
    chunk: usize,
    line: &str,
    seen: &mut HashSet<String>,
    tally: &mut Tally,
) -> Result<(), RuntimeError> {
    // an event: a member wrapping an object with its id or time
    let parsed = serde_json::from_str::<Value>(line).ok();
    let wrapped: Vec<(&String, &Value)> = parsed
        .as_ref()
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter(|(_, b)| b.get("event_time").is_some() || b.get("event_id").is_some())
                .collect()
        })
        .unwrap_or_default();
    if wrapped.is_empty() {
        tally.bad += 1;
        tally.first_bad.get_or_insert(tally.lines);
        return Ok(());
    }
    for &(kind, body) in &wrapped {
        tally.events += 1;
        match tally
            .kinds
            .iter_mut()
            .find(|(k, _)| k.as_str() == kind.as_str())
        {
            Some((_, n)) => *n += 1,
            None => tally.kinds.push((kind.clone(), 1)),
        }
        if let Some(raw) = json_scalar(body.get("event_time"))
            && let Some(ms) = millis(&raw)
        {
            if tally.first.as_ref().is_none_or(|(x, _, _)| ms < *x) {
                tally.first = Some((ms, raw.clone(), chunk));
            }
            if tally.last.as_ref().is_none_or(|(x, _, _)| ms > *x) {
                tally.last = Some((ms, raw, chunk));
            }
        }
    }
    if !seen.insert(line.to_string()) {
        tally.duplicates += wrapped.len();
        return Ok(());
    }
    for &(kind, body) in &wrapped {
        if tally.recorded as u64 >= ROW_CAP {
            return Ok(());
        }
        tally.recorded += 1;
        event(ctx, f, listing, inv, line, kind, body, tally)?;
    }
    Ok(())
}

/// Adds `v` as a fact when the line writes it so; returns whether it did.
fn grounded(d: &mut Draft, t: FactType, v: &str, line: &str, inv: &Invoked) -> bool {
    if !v.trim().is_empty() && line.contains(v) {
        d.fact(t, Some(v), inv);
        true
    } else {
        false
    }
}

/// One event of a line.
#[allow(clippy::too_many_arguments)]
fn event(
    ctx: &AgentCtx<'_>,
    f: &ListedFile,
    listing: &Invoked,
    inv: &Invoked,
    line: &str,
    kind: &str,
    body: &Value,
    tally: &mut Tally,
) -> Result<(), RuntimeError> {
    let get = |k: &str| json_scalar(body.get(k));
    let id = get("event_id");
    let package = get("package_name");
    let pkg = package.clone().unwrap_or_else(|| "?".into());
    let mut said: Vec<String> = Vec::new();
    let (category, title) = match kind {
        "dns_event" => {
            let host = get("hostname").unwrap_or_else(|| "?".into());
            (
                "web",
                format!("Intrusion log DNS lookup of {host} by {pkg}"),
            )
        }
        "connect_event" => {
            let ip = get("ip_address")
                .map(|a| a.trim_start_matches('/').to_string())
                .unwrap_or_else(|| "?".into());
            let port = get("port").unwrap_or_else(|| "?".into());
            (
                "web",
                format!("Intrusion log connection to {ip}:{port} by {pkg}"),
            )
        }
        "security_event" => {
            let action = body
                .as_object()
                .and_then(|o| o.keys().find(|k| !META.contains(&k.as_str())))
                .cloned()
                .unwrap_or_else(|| "unknown".into());
            let category = if action.starts_with("package_") || action == "app_process_start" {
                "apps"
            } else {
                "device"
            };
            (category, format!("Intrusion log security event {action}"))
        }
        other => ("device", format!("Intrusion log {other}")),
    };
    let mut d = Draft::new(category, title);
    d.fact(FactType::Path, Some(&f.path), listing);
    if let Some(x) = &id
        && grounded(&mut d, FactType::Identifier, x, line, inv)
    {
        said.push(format!("event id {x}"));
    }
    let mut unquoted = 0usize;
    let mut put = |d: &mut Draft, t: FactType, label: &str, v: &str, said: &mut Vec<String>| {
        if grounded(d, t, v, line, inv) {
            said.push(format!("{label} {v}"));
        } else if !v.trim().is_empty() {
            unquoted += 1;
            said.push(format!("{label} {v} (as decoded)"));
        }
    };
    match kind {
        "dns_event" => {
            if let Some(p) = &package {
                put(&mut d, FactType::Identifier, "package", p, &mut said);
            }
            if let Some(h) = get("hostname") {
                put(&mut d, FactType::Text, "host name", &h, &mut said);
            }
            for a in body
                .get("ip_addresses")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(x) = json_scalar(Some(a)) {
                    put(
                        &mut d,
                        FactType::Identifier,
                        "address",
                        x.trim_start_matches('/'),
                        &mut said,
                    );
                }
            }
            if let Some(n) = get("ip_addresses_count") {
                put(&mut d, FactType::Count, "addresses", &n, &mut said);
            }
        }
        "connect_event" => {
            if let Some(p) = &package {
                put(&mut d, FactType::Identifier, "package", p, &mut said);
            }
            if let Some(a) = get("ip_address") {
                put(
                    &mut d,
                    FactType::Identifier,
                    "address",
                    a.trim_start_matches('/'),
                    &mut said,
                );
            }
            if let Some(p) = get("port") {
                put(&mut d, FactType::Count, "port", &p, &mut said);
            }
        }
        _ => {
            let empty = serde_json::Map::new();
            let obj = body.as_object().unwrap_or(&empty);
            for (k, v) in obj {
                if k == "event_id" || k == "event_time" {
                    continue;
                }
                if kind == "security_event" && !META.contains(&k.as_str()) {
                    // the action, then its payload's scalars
                    put(&mut d, FactType::Text, "action", k, &mut said);
                }
                let mut leaves = Vec::new();
                match v {
                    Value::Object(_) | Value::Array(_) => json_leaves(v, k, &mut leaves),
                    other => {
                        if let Some(x) = json_scalar(Some(other)) {
                            leaves.push((k.clone(), x));
                        }
                    }
                }
                for (path, x) in leaves {
                    let member = path.rsplit('.').next().unwrap_or(&path);
                    let command = member.eq_ignore_ascii_case("command") || member == "cmd";
                    if secret(member) || (command && secret(&x)) {
                        tally.withheld += 1;
                        said.push(format!("{path} withheld"));
                        continue;
                    }
                    put(&mut d, FactType::Text, &path, &x, &mut said);
                }
            }
        }
    }
    let at = get("event_time");
    d.time(
        at.as_deref(),
        encoding(at.as_deref()),
        "Intrusion log event",
        inv,
    );
    d.interpretation = format!(
        "a {kind} line of {}: an event Android's intrusion logging recorded{}: {}{}; when from event_time{}.",
        f.path,
        match kind {
            "dns_event" => " (a host name an app looked up, and what it resolved to)",
            "connect_event" => " (a connection an app opened)",
            "security_event" =>
                " (a security-log event, as android.app.admin.SecurityLog names it)",
            _ => "",
        },
        said.join(", "),
        if unquoted > 0 {
            "; values marked as decoded are not written so in the line (escaped) and are no facts"
        } else {
            ""
        },
        match encoding(at.as_deref()) {
            Some(TimeEncoding::UnixNanos) => " (Unix nanoseconds)",
            Some(TimeEncoding::UnixMicros) => " (Unix microseconds)",
            Some(TimeEncoding::UnixMillis) => " (Unix milliseconds)",
            Some(_) => " (Unix seconds)",
            None => "",
        }
    );
    record_draft(ctx, d)
}
