//! The device's life: factory resets, boots and shutdowns, for the examiner's question whether the
//! phone was wiped or restarted around the events of the case.
//!
//! - `bootstat` records (`/data/misc/bootstat/factory_reset`, `last_boot_time_utc`), ALEAPP's
//!   `factory_reset` and `last_boot_time`: AOSP's `BootEventRecordStore` keeps each record's
//!   value in the file's modification time (the file is empty), so one `device` phenomenon per
//!   record with that time as `stat` gives it: when the device was last reset to its factory
//!   state, when it last booted. An extraction that does not keep modification times makes them
//!   the extraction's (said in each interpretation).
//! - Shutdown checkpoints (`/data/system/shutdown-checkpoints/checkpoints-<n>`, Android 13 on),
//!   ALEAPP's `shutdown_checkpoints`: one `device` phenomenon per `Shutdown request from …` —
//!   who asked (the system, a binder call, an intent or an app), the time (`epoch=`, Unix ms) and
//!   the lines that follow it (the calling process, the method).
//! - init's persistent properties (`/data/property/persistent_properties`, a protobuf since
//!   Android 9), ALEAPP's `persistentProp`: one `device` phenomenon with every property kept
//!   across boots (time zone, locale, USB mode …) and one per line of the boot-reason history
//!   (`persist.sys.boot.reason.history`: reason, Unix seconds) — reboots, factory resets,
//!   kernel panics, shutdowns.
//! - Samsung's recovery history (`/efs/recovery/history`, its copy `/data/log/recovery_history.log`),
//!   ALEAPP's `sWipehist` and `sRecoveryhist`: one `device` phenomenon per boot into recovery —
//!   a factory reset (`--wipe_data`, `--prompt_and_wipe_data`) with who asked (`--reason`:
//!   Samsung Find My Mobile or Google Find My Device remotely, or the phone's own Settings), a
//!   firmware update (`--carry_out=open_fota`, the packages), the locale, the reboot reason,
//!   the time the recovery wrote (the device's local time, `YYYY/MM/DD HH:MM:SS`) and the
//!   time the wipe was requested.
//!
//! Identities: none observed.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, TimeEncoding};
use serde_json::json;

use super::Located;
use crate::calls::call_or_note;
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{args_on, artefact_name};

/// The bootstat records read, and what each time is.
const RECORDS: [(&str, &str); 2] = [
    ("factory_reset", "Factory reset (bootstat)"),
    ("last_boot_time_utc", "Last boot (bootstat)"),
];

/// Whether `l` is a bootstat record this reads.
pub fn is_bootstat(l: &Located) -> bool {
    l.path.contains("/bootstat/") && RECORDS.iter().any(|(n, _)| *n == l.name())
}

/// Whether `l` is a shutdown checkpoints file.
pub fn is_checkpoints(l: &Located) -> bool {
    l.path.contains("/shutdown-checkpoints/") && l.name().starts_with("checkpoints-")
}

/// One bootstat record: its modification time.
pub fn bootstat(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(inv) = call_or_note(
        ctx,
        &name,
        "stat",
        args_on(&l.tree, json!({"path": l.path})),
    )?
    else {
        return Ok(());
    };
    let Some((modified, encoding)) = crate::outputs::stat_modified(&inv.output.text) else {
        ctx.unparsed(
            &name,
            "the file system keeps no modification time for it: the record's value is that time",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let what = RECORDS
        .iter()
        .find(|(n, _)| *n == l.name())
        .map(|(_, w)| *w)
        .unwrap_or("bootstat record");
    let value = modified
        .strip_suffix("(local)")
        .map_or(modified, str::trim_end);
    let mut d = Draft::new("device", format!("{what}: {value}"));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.time(Some(modified), Some(encoding), what, &inv);
    d.interpretation = format!(
        "{name}: Android's boot statistics keep the {} record's value in the file's modification time ({value}): {}. An extraction that did not keep the file's times would make this the extraction's time.",
        l.name(),
        if l.name() == "factory_reset" {
            "when the device was last reset to its factory state"
        } else {
            "when the device last booted (UTC)"
        }
    );
    record_draft(ctx, d)
}

/// One shutdown checkpoints file: each request with the lines that follow it.
pub fn checkpoints(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(inv) = super::files::read(ctx, l)? else {
        return Ok(());
    };
    let text = &inv.output.text;
    let lines: Vec<&str> = text.lines().collect();
    let mut found = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some(rest) = line.strip_prefix("Shutdown request from ") else {
            continue;
        };
        found += 1;
        let who = rest.split(" at ").next().unwrap_or(rest).trim();
        let epoch = rest
            .split_once("epoch=")
            .and_then(|(_, e)| e.split(|c: char| !c.is_ascii_digit()).next())
            .filter(|e| !e.is_empty());
        // the request's details: the lines up to the next request or a blank line
        let details: Vec<&str> = lines[i + 1..]
            .iter()
            .take_while(|l| !l.trim().is_empty() && !l.starts_with("Shutdown request from "))
            .map(|l| l.trim())
            .take(8)
            .collect();
        let mut d = Draft::new("device", format!("Shutdown requested by {who}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Text, Some(line.trim()), &inv);
        d.fact(FactType::Identifier, Some(who), &inv);
        d.time(epoch, unix_millis(epoch), "Shutdown requested", &inv);
        for l in &details {
            d.fact(FactType::Text, Some(l), &inv);
        }
        d.interpretation = format!(
            "{name}: Android recorded a request to shut down or reboot the device from {who} at {} (Unix ms){}.",
            epoch.unwrap_or("a time not kept"),
            if details.is_empty() {
                String::new()
            } else {
                format!("; then {}", details.join(" | "))
            }
        );
        record_draft(ctx, d)?;
    }
    if found == 0 {
        ctx.unparsed(
            &name,
            "no line starts with 'Shutdown request from '",
            Some(&inv.record.invocation_id),
        )?;
    }
    Ok(())
}

/// Whether `l` is init's persistent properties file.
pub fn is_persistent(l: &Located) -> bool {
    l.name() == "persistent_properties" && l.path.contains("/property/")
}

/// The property holding the boot reasons.
const BOOT_HISTORY: &str = "persist.sys.boot.reason.history";

/// One `persistent_properties`: init's `PersistentProperties` message (AOSP
/// `system/core/init/persistent_properties.proto`: record 1 with name 1 and value 2), read with
/// `read_protobuf`. One `device` phenomenon with every property (name and value: the time zone,
/// locale, USB mode … the device keeps across boots), and one per line of the boot-reason history
/// (`persist.sys.boot.reason.history`: `<reason>,<Unix seconds>`, newest first; ALEAPP's
/// `persistentProp` keeps its reboots and factory resets, every line is kept here).
pub fn persistent(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, doc)) = super::protobuf_message(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let records: Vec<(String, String)> = match doc.get("1") {
        Some(serde_json::Value::Array(a)) => a.clone(),
        Some(one) => vec![one.clone()],
        None => Vec::new(),
    }
    .iter()
    .filter_map(|r| {
        let text = |k: &str| {
            r.get(k)
                .and_then(|v| v.as_array().and_then(|a| a.first()).or(Some(v)))
                .and_then(serde_json::Value::as_str)
                .map(str::to_string)
        };
        Some((text("1")?, text("2").unwrap_or_default()))
    })
    .collect();
    if records.is_empty() {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            "read_protobuf's output holds no property record (field 1 with a name)",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let mut d = Draft::new("device", "Persistent system properties".to_string());
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = Vec::new();
    for (n, v) in &records {
        d.fact(FactType::Name, Some(n), &inv);
        if n != BOOT_HISTORY && !v.is_empty() {
            d.fact(FactType::Text, Some(&crate::outputs::in_json(v)), &inv);
            said.push(format!("{n} = {v}"));
        }
    }
    d.interpretation = format!(
        "{}: the system properties init keeps across boots ({} records){}{}.",
        l.path,
        records.len(),
        if said.is_empty() { "" } else { ": " },
        said.join("; "),
    );
    record_draft(ctx, d)?;
    let Some((_, history)) = records.iter().find(|(n, _)| n == BOOT_HISTORY) else {
        return Ok(());
    };
    for (i, line) in history.lines().map(str::trim).enumerate() {
        let Some((reason, time)) = line.rsplit_once(',') else {
            continue;
        };
        if reason.is_empty() || time.is_empty() || !time.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let mut d = Draft::new("device", format!("Boot reason: {reason}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Text, Some(line), &inv);
        d.time(
            Some(time),
            crate::drafts::unix_seconds(Some(time)),
            &format!("Boot reason {reason}"),
            &inv,
        );
        d.interpretation = format!(
            "line {} of {BOOT_HISTORY} in {}: the device recorded the boot reason {reason} (its cause, as AOSP's bootstat names it{}) at Unix time {time}; the history lists the newest first.",
            i + 1,
            l.path,
            if reason.contains("factory_reset") {
                ": a reset to the factory state"
            } else {
                ""
            },
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// Whether `l` is Samsung's recovery history (`/efs/recovery/history`, or the copy
/// `/data/log/recovery_history.log`).
pub fn is_recovery_history(l: &Located) -> bool {
    (l.name() == "history" && l.path.contains("/recovery/")) || l.name() == "recovery_history.log"
}

/// Who asked for a wipe, by the words its `--reason` holds (ALEAPP's reading).
const WIPE_PROVIDERS: [(&str, &str); 3] = [
    ("Fmm.RemoteWipeOut", "Samsung Find My Mobile, remotely"),
    (
        "Find My Device wiping device remotely",
        "Google Find My Device, remotely",
    ),
    (
        "MasterClearConfirm",
        "the phone's own Settings (factory data reset)",
    ),
];

/// The first `YYYY/MM/DD HH:MM:SS` (or with dashes) in `s`: a recovery record's local time.
fn slash_time(s: &str) -> Option<&str> {
    let b = s.as_bytes();
    (0..b.len().saturating_sub(18)).find_map(|i| {
        let w = s.get(i..i + 19)?;
        let ok = w.bytes().enumerate().all(|(j, c)| match j {
            4 | 7 => c == b'/' || c == b'-',
            10 => c == b' ',
            13 | 16 => c == b':',
            _ => c.is_ascii_digit(),
        });
        ok.then_some(w)
    })
}

/// One record of the recovery history: its header line and the lines after it.
struct RecoveryRecord<'a> {
    header: &'a str,
    lines: Vec<&'a str>,
}

/// Samsung's recovery history: the recovery mode's log of each boot into it — factory resets
/// (`--wipe_data`, `--prompt_and_wipe_data` with the `--reason` naming who asked), firmware
/// updates (`--carry_out=open_fota`, the update packages), the locale and the reboot reason.
/// One `device` phenomenon per record (a `+` header line `+ [tag | YYYY/MM/DD HH:MM:SS | build]`
/// up to the next header or a lone `-`): ALEAPP's `sWipehist` and `sRecoveryhist`. The times are
/// the device's local time, as written.
pub fn recovery_history(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(inv) = super::files::read(ctx, l)? else {
        return Ok(());
    };
    let mut records: Vec<RecoveryRecord<'_>> = Vec::new();
    for line in inv.output.text.lines() {
        let line = line.trim_end();
        if line.starts_with('+') {
            records.push(RecoveryRecord {
                header: line,
                lines: Vec::new(),
            });
        } else if line.trim() == "-" {
            // the older layout's end of a record: lines up to the next header belong to none
            if let Some(r) = records.last_mut() {
                r.lines.push("-");
            }
        } else if let Some(r) = records.last_mut()
            && r.lines.last() != Some(&"-")
            && !line.trim().is_empty()
        {
            r.lines.push(line.trim());
        }
    }
    if records.is_empty() {
        ctx.unparsed(
            &name,
            "no record: no line starts with '+' (a recovery history record's header)",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    for (n, r) in records.iter().take(super::MAX_ROWS as usize).enumerate() {
        let lines: Vec<&str> = r.lines.iter().copied().filter(|l| *l != "-").collect();
        let option = |key: &str| {
            lines.iter().find_map(|l| {
                l.strip_prefix(key)
                    .and_then(|v| v.strip_prefix('=').or_else(|| v.strip_prefix(':')))
                    .map(str::trim)
            })
        };
        let wipe = lines
            .iter()
            .any(|l| l.starts_with("--wipe_data") || l.starts_with("--prompt_and_wipe_data"));
        let fota = option("--carry_out").is_some_and(|c| c.contains("fota"));
        let reason = option("--reason");
        let provider = reason.and_then(|r| {
            WIPE_PROVIDERS
                .iter()
                .find(|(k, _)| r.contains(k))
                .map(|(_, w)| *w)
        });
        // `+ [tag | time | build]`, or an older `+ …: time]`
        let inner = r
            .header
            .trim_start_matches('+')
            .trim()
            .trim_matches(['[', ']']);
        let parts: Vec<&str> = inner.split('|').map(str::trim).collect();
        let (tag, build) = if parts.len() > 1 {
            (
                Some(parts[0]).filter(|t| !t.is_empty()),
                parts.get(2).copied().filter(|b| !b.is_empty()),
            )
        } else {
            (None, None)
        };
        let time = slash_time(r.header);
        let what = if wipe {
            "Factory reset"
        } else if fota {
            "Firmware update"
        } else {
            "Recovery boot"
        };
        let mut d = Draft::new(
            "device",
            format!(
                "{what} (Samsung recovery history): {}",
                time.unwrap_or("no time")
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Text, Some(r.header), &inv);
        d.time(
            time,
            time.map(|_| TimeEncoding::LocalText),
            &format!("{what} (recovery)"),
            &inv,
        );
        let requested = option("--requested_time").and_then(slash_time);
        d.time(
            requested,
            requested.map(|_| TimeEncoding::LocalText),
            &format!("{what} requested"),
            &inv,
        );
        for line in lines.iter().take(32) {
            d.fact(FactType::Text, Some(line), &inv);
        }
        let mut said = Vec::new();
        for (label, v) in [
            ("entry tag", tag),
            ("build", build),
            ("reason", reason),
            ("locale", option("--locale")),
            ("carry out", option("--carry_out")),
            ("update package (original)", option("--update_org_package")),
            ("update package", option("--update_package")),
            (
                "reboot reason",
                option("reboot_reason").or_else(|| option("reboot reason")),
            ),
        ] {
            if let Some(v) = v.filter(|v| !v.is_empty()) {
                said.push(format!("{label} {v}"));
            }
        }
        d.interpretation = format!(
            "{name}, record {}: the phone booted into Samsung's recovery at {} (its local time, as written){}{}{}.",
            n + 1,
            time.unwrap_or("a time not written"),
            if wipe {
                format!(
                    " and erased its user data (a factory reset{})",
                    match provider {
                        Some(p) => format!(", asked by {p}"),
                        None => String::new(),
                    }
                )
            } else if fota {
                " to install a firmware (FOTA) update".to_string()
            } else {
                String::new()
            },
            match requested {
                Some(q) => format!("; requested at {q}"),
                None => String::new(),
            },
            if said.is_empty() {
                String::new()
            } else {
                format!("; {}", said.join("; "))
            }
        );
        record_draft(ctx, d)?;
    }
    if records.len() > super::MAX_ROWS as usize {
        ctx.unparsed(
            &name,
            &format!(
                "{} records; the first {} were recorded",
                records.len(),
                super::MAX_ROWS
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    Ok(())
}
