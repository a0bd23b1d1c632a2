//! Android Debug Bridge keys, which tie an Android device to the computers it allowed USB
//! debugging from: each computer keeps its public key in `~/.android/adbkey.pub` (Linux, macOS;
//! `C:\Users\<user>\.android\adbkey.pub` on Windows), and a device that accepted the computer
//! ("Always allow from this computer") keeps that key in `/data/misc/adb/adb_keys`, one line per
//! computer: the key's base64, then `user@host` (the computer's user and host name as adb
//! wrote them) — ALEAPP's `adb_hosts` reads the same lines. Read with `read_text`:
//!
//! - the device's `adb_keys`: one `device` phenomenon per line: the computer's user and host
//!   name, its key;
//! - a computer's `adbkey.pub`: one `device` phenomenon: this computer's key, user and host.
//!   Its private `adbkey` is never read.
//!
//! Identities: each key is observed (`adb_key`, strong) on the computer `adb-host:<md5 of the
//! key>`, with the host name (a device name), on both sides: the phone and the computer of the
//! case that debugged it meet. A line that holds no key is noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::json;

use crate::drafts::{Draft, record_draft};
use crate::identity::{TreeRef, args_on, artefact_name, observe};

/// Whether `path` is a device's list of trusted computers' keys.
pub fn is_trusted_keys(path: &str) -> bool {
    path.ends_with("/misc/adb/adb_keys")
}

/// Whether `path` is a computer's own ADB public key.
pub fn is_host_key(path: &str) -> bool {
    path.ends_with("/.android/adbkey.pub")
}

/// One key line: the key's base64 and what follows it (`user@host`).
fn key_lines(text: &str) -> Vec<(&str, &str)> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            let (key, comment) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
            masf_graph::identifiers::normalize_adb_key(key)
                .ok()
                .map(|_| (key, comment.trim()))
        })
        .collect()
}

/// The entity context of the computer holding `key`.
fn host_context(key: &str) -> String {
    format!("adb-host:{}", crate::identity::md5_hex(key))
}

/// A finding of one key line: the file's path (cited to its listing), the key and `user@host`
/// (cited to the read).
fn key_draft(
    title: String,
    path: &str,
    found: &Invoked,
    inv: &Invoked,
    key: &str,
    user_host: &str,
) -> Draft {
    let mut d = Draft::new("device", title);
    d.fact(FactType::Path, Some(path), found);
    d.fact(FactType::Identifier, Some(key), inv);
    d.fact(
        FactType::Name,
        Some(user_host).filter(|u| !u.is_empty()),
        inv,
    );
    d
}

/// A key line: the key's base64 and `user@host`.
type KeyLine = (String, String);

/// Reads the key file at `path` (up to 1 MiB) and its key lines; `None` when it cannot be read
/// or holds no key (noted).
fn read(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
) -> Result<Option<(Invoked, Vec<KeyLine>)>, RuntimeError> {
    let name = artefact_name(tree, path);
    let Some(inv) = crate::calls::call_or_note(
        ctx,
        &name,
        "read_text",
        args_on(tree, json!({"path": path, "length": 1 << 20})),
    )?
    else {
        return Ok(None);
    };
    let lines: Vec<KeyLine> = key_lines(&inv.output.text)
        .into_iter()
        .map(|(k, c)| (k.to_string(), c.to_string()))
        .collect();
    if lines.is_empty() {
        ctx.unparsed(
            &name,
            "no ADB public key line (base64, then user@host)",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(None);
    }
    Ok(Some((inv, lines)))
}

/// Observes the computer holding `key` by it and by its host name.
fn observe_host(
    ctx: &AgentCtx<'_>,
    inv: &Invoked,
    key: &str,
    user_host: &str,
    what: &str,
) -> Result<(), RuntimeError> {
    let context = host_context(key);
    let host = user_host
        .rsplit_once('@')
        .map(|(_, h)| h)
        .filter(|h| !h.is_empty() && *h != "unknown");
    let label = if user_host.is_empty() {
        "ADB host"
    } else {
        user_host
    };
    observe(
        ctx,
        &context,
        EntityKind::Device,
        label,
        IdType::AdbKey,
        key,
        inv,
        format!("The ADB public key of {label}, {what}."),
    )?;
    if let Some(h) = host {
        observe(
            ctx,
            &context,
            EntityKind::Device,
            h,
            IdType::DeviceName,
            h,
            inv,
            format!("{h} is the host name adb wrote beside the key of {label}, {what}."),
        )?;
    }
    Ok(())
}

/// A device's `adb_keys`: the computers it allowed USB debugging from.
pub fn trusted(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
) -> Result<(), RuntimeError> {
    let Some((inv, lines)) = read(ctx, tree, path)? else {
        return Ok(());
    };
    let name = artefact_name(tree, path);
    for (i, (key, user_host)) in lines.iter().enumerate() {
        let (key, user_host) = (key.as_str(), user_host.as_str());
        let shown = if user_host.is_empty() {
            "a computer with no name"
        } else {
            user_host
        };
        let mut d = key_draft(
            format!("Computer allowed USB debugging: {shown}"),
            path,
            found,
            &inv,
            key,
            user_host,
        );
        d.interpretation = format!(
            "line {} of {name}: the device allowed USB debugging (adb) from the computer whose user and host adb named {shown}: it accepted that computer's public key ({} characters of base64) and keeps it, so the computer can run adb commands on it without asking again.",
            i + 1,
            key.len()
        );
        record_draft(ctx, d)?;
        observe_host(
            ctx,
            &inv,
            key,
            user_host,
            &format!("a computer this device allowed USB debugging from ({name})"),
        )?;
    }
    Ok(())
}

/// A computer's `adbkey.pub`: its own ADB public key.
pub fn host(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
) -> Result<(), RuntimeError> {
    let Some((inv, lines)) = read(ctx, tree, path)? else {
        return Ok(());
    };
    let name = artefact_name(tree, path);
    let (key, user_host) = (lines[0].0.as_str(), lines[0].1.as_str());
    let title = format!(
        "This computer's ADB key{}",
        if user_host.is_empty() {
            String::new()
        } else {
            format!(" ({user_host})")
        }
    );
    let mut d = key_draft(title, path, found, &inv, key, user_host);
    d.interpretation = format!(
        "{name}: the public key adb on this computer presents to Android devices ({} characters of base64), written for {}: a device that allowed USB debugging from this computer keeps the same key in its adb_keys. The private key beside it (adbkey) is not read.",
        key.len(),
        if user_host.is_empty() {
            "no named user"
        } else {
            user_host
        }
    );
    record_draft(ctx, d)?;
    observe_host(
        ctx,
        &inv,
        key,
        user_host,
        &format!("this computer ({name})"),
    )
}
