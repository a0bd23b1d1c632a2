//! SHAREit (`com.lenovo.anyshare.gps`, `com.lenovo.anyshare`) and Xender (`cn.xender`), the
//! phone-to-phone file-transfer apps beside Zapya ([`super::zapya`]): one phenomenon per
//! transfer, and for Xender one per device the app has met.
//!
//! - SHAREit `databases/history.db`: each `history` row with the `item` it moved (joined on
//!   `content_id = item_id`): direction (`history_type` 1 received, 2 sent, as ALEAPP reads it;
//!   other values reported as stored), the other device's id and name, the description, the
//!   time (Unix milliseconds) and the file's path — the fields of ALEAPP's `shareit`. A history
//!   row whose item is gone is still reported (ALEAPP's inner join drops it), with its
//!   description.
//! - Xender `databases/trans-history-db`: each `new_history` row — file path, display name,
//!   size, start time (Unix milliseconds), direction (`c_direction` 1 sent, as ALEAPP reads it),
//!   session, and the sender's and recipient's names and device ids — and each `profile` row
//!   (a device id and the nickname it showed, with its connection count): ALEAPP's
//!   `Xender - Messages` and `Xender - Contacts`. ALEAPP lists only profiles with
//!   `connect_times = 0`; every profile is reported here, its count stated.
//!
//! The apps do not document their columns; the direction readings are ALEAPP's. The other
//! device's name and the nicknames are chosen by users and shared by many phones: recorded as
//! facts, not observed as identifiers (as for Zapya). Schema drift: a `history` without
//! `timestamp` or a `new_history` without `c_start_time` is noted; other columns are read where
//! present.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use super::databases::tables_with;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, pages_on, table_columns};
use crate::outputs::raw;

/// Whether `l` is SHAREit's transfer history.
pub fn is_shareit(l: &Located) -> bool {
    l.path.contains("/com.lenovo.anyshare")
}

/// Whether `l` is Xender's transfer history.
pub fn is_xender(l: &Located) -> bool {
    l.path.contains("/cn.xender/")
}

/// One SHAREit `history.db`.
pub fn shareit(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(tables) = tables_with(ctx, l, &["history"])? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let cols = table_columns(ctx, &l.tree, &l.path, "history")?;
    if !require_columns(
        ctx,
        &name,
        "SHAREit's history.db",
        "history",
        &cols,
        &["timestamp"],
    )? {
        return Ok(());
    }
    let items = if tables.iter().any(|t| t == "item") {
        table_columns(ctx, &l.tree, &l.path, "item")?
    } else {
        Default::default()
    };
    let joined = cols.contains("content_id") && items.contains("item_id");
    let h = |col: &str| column_or_null(&cols, "h.", col, col);
    let i = |col: &str, alias: &str| {
        if joined {
            column_or_null(&items, "i.", col, alias)
        } else {
            format!("NULL AS {alias}")
        }
    };
    let sql = format!(
        "SELECT h.rowid AS rid, h.timestamp AS timestamp, {}, {}, {}, {}, {}, {}, {} FROM history h{} ORDER BY h.timestamp, h.rowid",
        h("history_type"),
        h("device_id"),
        h("device_name"),
        h("description"),
        i("file_path", "file_path"),
        i("name", "item_name"),
        i("file_size", "file_size"),
        if joined {
            " LEFT JOIN item i ON h.content_id = i.item_id"
        } else {
            ""
        },
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "SHAREit transfers")?;
    for (inv, t, row) in pages.rows() {
        let kind = t.get(row, "history_type");
        let device = t
            .get(row, "device_name")
            .or(t.get(row, "device_id"))
            .unwrap_or("an unnamed device");
        let path = t.get(row, "file_path");
        let file = t
            .get(row, "item_name")
            .or(path.map(|p| p.rsplit('/').next().unwrap_or(p)))
            .or(t.get(row, "description"))
            .unwrap_or("a file");
        let title = match kind {
            Some("1") => format!("SHAREit: {file} received from {device}"),
            Some("2") => format!("SHAREit: {file} sent to {device}"),
            _ => format!("SHAREit: {file} transferred with {device}"),
        };
        let mut d = Draft::new("files", title);
        d.fact(FactType::Path, Some(&l.path), &l.found);
        for (col, ty) in [
            ("device_id", FactType::Identifier),
            ("device_name", FactType::Name),
            ("description", FactType::Name),
            ("file_path", FactType::Path),
            ("item_name", FactType::Name),
            ("file_size", FactType::Count),
        ] {
            d.fact(ty, raw(t, row, col).as_deref(), inv);
        }
        let time = t.get(row, "timestamp");
        d.time(time, unix_millis(time), "Transfer recorded", inv);
        d.interpretation = format!(
            "history row {} of {}: SHAREit moved {file} between this phone and {device}{} ({}){}; timestamp is Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "device_id")
                .filter(|d| Some(*d) != t.get(row, "device_name"))
                .map(|d| format!(" (device id {d})"))
                .unwrap_or_default(),
            direction(
                kind,
                &[
                    ("1", "received by this phone"),
                    ("2", "sent from this phone")
                ]
            ),
            if joined && path.is_none() && t.get(row, "item_name").is_none() {
                "; its item row is gone from the item table"
            } else {
                ""
            },
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// How a direction value reads: ALEAPP's reading of a known value, the value as stored otherwise.
fn direction(v: Option<&str>, known: &[(&str, &str)]) -> String {
    match v {
        Some(v) => match known.iter().find(|(k, _)| *k == v) {
            Some((_, what)) => format!("direction {v}: {what}, as ALEAPP reads it"),
            None => format!("direction {v}, not documented"),
        },
        None => "no direction stored".to_string(),
    }
}

/// One Xender `trans-history-db`.
pub fn xender(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(tables) = tables_with(ctx, l, &["new_history"])? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let cols = table_columns(ctx, &l.tree, &l.path, "new_history")?;
    if require_columns(
        ctx,
        &name,
        "Xender's trans-history-db",
        "new_history",
        &cols,
        &["c_start_time"],
    )? {
        xender_history(ctx, l, &name, &cols)?;
    }
    if tables.iter().any(|t| t == "profile") {
        let cols = table_columns(ctx, &l.tree, &l.path, "profile")?;
        if require_columns(
            ctx,
            &name,
            "Xender's trans-history-db",
            "profile",
            &cols,
            &["device_id"],
        )? {
            xender_profiles(ctx, l, &name, &cols)?;
        }
    }
    Ok(())
}

fn xender_history(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    cols: &std::collections::BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let c = |col: &str| column_or_null(cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS rid, c_start_time, {} FROM new_history ORDER BY c_start_time, rowid",
        [
            "f_path",
            "f_display_name",
            "f_size_str",
            "c_direction",
            "c_session_id",
            "s_name",
            "s_device_id",
            "r_name",
            "r_device_id",
        ]
        .map(c)
        .join(", "),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Xender transfers")?;
    for (inv, t, row) in pages.rows() {
        let path = t.get(row, "f_path");
        let file = t
            .get(row, "f_display_name")
            .or(path.map(|p| p.rsplit('/').next().unwrap_or(p)))
            .unwrap_or("a file");
        let from = t.get(row, "s_name").or(t.get(row, "s_device_id"));
        let to = t.get(row, "r_name").or(t.get(row, "r_device_id"));
        let title = match (t.get(row, "c_direction"), from, to) {
            (Some("1"), _, Some(to)) => format!("Xender: {file} sent to {to}"),
            (_, Some(from), Some(to)) => format!("Xender: {file} from {from} to {to}"),
            (_, Some(other), None) | (_, None, Some(other)) => {
                format!("Xender: {file} transferred with {other}")
            }
            _ => format!("Xender: {file} transferred"),
        };
        let mut d = Draft::new("files", title);
        d.fact(FactType::Path, Some(&l.path), &l.found);
        for (col, ty) in [
            ("f_path", FactType::Path),
            ("f_display_name", FactType::Name),
            ("f_size_str", FactType::Count),
            ("c_session_id", FactType::Identifier),
            ("s_name", FactType::Name),
            ("s_device_id", FactType::Identifier),
            ("r_name", FactType::Name),
            ("r_device_id", FactType::Identifier),
        ] {
            d.fact(ty, raw(t, row, col).as_deref(), inv);
        }
        let time = t.get(row, "c_start_time");
        d.time(time, unix_millis(time), "Transfer started", inv);
        let party = |n: Option<&str>, id: Option<&str>| match (n, id) {
            (Some(n), Some(id)) if n != id => format!("{n} (device id {id})"),
            (Some(v), _) | (None, Some(v)) => v.to_string(),
            (None, None) => "not stored".to_string(),
        };
        d.interpretation = format!(
            "new_history row {} of {}: Xender moved {file}{}; sender {}, recipient {} ({}){}; c_start_time is Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "f_size_str")
                .map(|s| format!(" ({s})"))
                .unwrap_or_default(),
            party(t.get(row, "s_name"), t.get(row, "s_device_id")),
            party(t.get(row, "r_name"), t.get(row, "r_device_id")),
            direction(t.get(row, "c_direction"), &[("1", "sent from this phone")]),
            t.get(row, "c_session_id")
                .map(|s| format!(", session {s}"))
                .unwrap_or_default(),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

fn xender_profiles(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    cols: &std::collections::BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT rowid AS rid, device_id, {}, {} FROM profile ORDER BY rowid",
        column_or_null(cols, "", "nick_name", "nick_name"),
        column_or_null(cols, "", "connect_times", "connect_times"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Xender profiles")?;
    for (inv, t, row) in pages.rows() {
        let Some(id) = t.get(row, "device_id") else {
            continue;
        };
        let shown = t.get(row, "nick_name").unwrap_or(id);
        let mut d = Draft::new("contacts", format!("Xender: device {shown} met"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(
            FactType::Identifier,
            raw(t, row, "device_id").as_deref(),
            inv,
        );
        d.fact(FactType::Name, raw(t, row, "nick_name").as_deref(), inv);
        d.fact(
            FactType::Count,
            raw(t, row, "connect_times").as_deref(),
            inv,
        );
        d.interpretation = format!(
            "profile row {} of {}: Xender knows the device {id}{}{}.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "nick_name")
                .map(|n| format!(", shown as {n}"))
                .unwrap_or_default(),
            t.get(row, "connect_times")
                .map(|n| format!(", connect_times {n}"))
                .unwrap_or_default(),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
