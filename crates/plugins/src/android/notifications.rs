//! Notification history (`/data/system_ce/<user>/notification_history/history/<time>`, Android 11
//! on, when the user turned it on), ALEAPP's `notificationHistory`: each file one Protocol
//! Buffers message of AOSP's `NotificationHistoryProto`
//! (`frameworks/base/core/proto/android/server/notificationhistory.proto`), read with
//! `read_protobuf` (its raw decoding) and mapped by the proto's field numbers: a string pool (1:
//! its strings, 1.2), the major version (2) and the notifications (3). One `notifications`
//! phenomenon per notification — the app (package 1, or its 1-based index 2 into the pool, as
//! Android writes it), channel name (3/4) and id (5/6), uid (7), user (8), posted (9, Unix ms),
//! title (10), text (11), the icon's kind, bitmap file, resource package and URI (12), the
//! conversation (13/14). Android keeps a rolling window (about a day); a notification may be the
//! only copy of a message whose app encrypts or deleted it.
//!
//! A file that does not decode as one message (cut short, another format) is noted; the other
//! files are read. Identities: none observed (a title is a name the app chose).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::Value;

use super::MAX_ROWS;
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{TreeRef, artefact_name};
use crate::outputs::in_json;

/// Whether `path` is a notification history file (`…/notification_history/history/<digits>`).
pub fn history_file(path: &str) -> bool {
    path.rsplit_once("/notification_history/history/")
        .is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Finds the notification history folders of `tree` and reads each file.
pub fn locate_and_triage(ctx: &AgentCtx<'_>, tree: &TreeRef) -> Result<(), RuntimeError> {
    for (path, listing) in crate::identity::files_in_dirs_named(ctx, tree, "notification_history")?
    {
        if history_file(&path) {
            one(ctx, tree, &listing, &path)?;
        }
    }
    Ok(())
}

/// The first value of field `f` of a decoded message.
fn first<'a>(m: &'a Value, f: &str) -> Option<&'a Value> {
    m.get(f)?.get(0)
}

fn one(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    listing: &Invoked,
    path: &str,
) -> Result<(), RuntimeError> {
    let name = artefact_name(tree, path);
    let Some((inv, doc)) = super::protobuf_message(ctx, tree, path)? else {
        return Ok(());
    };
    let pool: Vec<&str> = first(&doc, "1")
        .and_then(|p| p.get("2"))
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let version = first(&doc, "2").and_then(Value::as_i64);
    let notes = doc
        .get("3")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let file = path.rsplit('/').next().unwrap_or(path);
    let folder_user = path
        .split("/system_ce/")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap_or("?");
    for (i, n) in notes.iter().enumerate() {
        if i as u64 >= MAX_ROWS {
            ctx.unparsed(
                &name,
                &format!(
                    "{} notifications: those past the first {MAX_ROWS} were not read",
                    notes.len()
                ),
                Some(&inv.record.invocation_id),
            )?;
            break;
        }
        let text = |f: &str| {
            first(n, f)
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
        };
        let num = |f: &str| first(n, f).and_then(Value::as_i64);
        // a string written out, or its 1-based index into the file's pool
        let pooled = |direct: &str, index: &str| {
            text(direct).or_else(|| {
                num(index)
                    .and_then(|i| usize::try_from(i).ok())
                    .and_then(|i| i.checked_sub(1))
                    .and_then(|i| pool.get(i).copied())
            })
        };
        let package = pooled("1", "2");
        let (title, body) = (text("10"), text("11"));
        let mut d = Draft::new(
            "notifications",
            format!(
                "Notification of {}: {}",
                package.unwrap_or("an unnamed app"),
                title
                    .or(body)
                    .map(|t| t.chars().take(80).collect::<String>())
                    .unwrap_or_else(|| "(no text)".into())
            ),
        );
        d.fact(FactType::Path, Some(path), listing);
        let cite = |v: Option<&str>| v.map(in_json);
        d.fact(FactType::Identifier, cite(package).as_deref(), &inv);
        d.fact(FactType::Text, cite(title).as_deref(), &inv);
        d.fact(FactType::Text, cite(body).as_deref(), &inv);
        let posted = num("9").map(|t| t.to_string());
        d.time(
            posted.as_deref(),
            unix_millis(posted.as_deref()),
            "Notification posted",
            &inv,
        );
        let mut said = Vec::new();
        for (what, direct, index) in [
            ("channel", "3", "4"),
            ("channel id", "5", "6"),
            ("conversation", "13", "14"),
        ] {
            if let Some(v) = pooled(direct, index) {
                d.fact(FactType::Identifier, cite(Some(v)).as_deref(), &inv);
                said.push(format!("{what} {v}"));
            }
        }
        for (what, f) in [("uid", "7"), ("user", "8")] {
            if let Some(v) = num(f) {
                d.fact(FactType::Identifier, Some(&v.to_string()), &inv);
                said.push(format!("{what} {v}"));
            }
        }
        if let Some(icon) = first(n, "12") {
            let icon_text = |f: &str| first(icon, f).and_then(Value::as_str);
            for (what, f) in [
                ("icon bitmap", "2"),
                ("icon resource package", "4"),
                ("icon URI", "8"),
            ] {
                if let Some(v) = icon_text(f).filter(|v| !v.starts_with("x'")) {
                    d.fact(FactType::Text, cite(Some(v)).as_deref(), &inv);
                    said.push(format!("{what} {v}"));
                }
            }
        }
        d.interpretation = format!(
            "notification {} of {file} (user {folder_user}'s notification history{}): {} posted a notification at {} (Unix ms){}{}{}.",
            i + 1,
            version
                .map(|v| format!(", version {v}"))
                .unwrap_or_default(),
            package.unwrap_or("an unnamed app"),
            posted.as_deref().unwrap_or("a time not kept"),
            title.map(|t| format!(", titled {t}")).unwrap_or_default(),
            body.map(|t| format!(", reading {t}")).unwrap_or_default(),
            if said.is_empty() {
                String::new()
            } else {
                format!("; {}", said.join(", "))
            },
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
