//! Zapya (`com.dewmobile.kuaiya.play`), the phone-to-phone file-transfer app: its
//! `databases/transfer20.db` `transfer` table, one phenomenon per transfer — the other device
//! (`device`), its name, direction, time (Unix milliseconds), the file's path and title: the
//! fields of ALEAPP's `Zapya`. Direction 1 is read as a send, as ALEAPP reads it; the app does
//! not document the column, so any other value is reported as stored. The other device's name
//! is no person's identifier: it is recorded, not observed.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use super::databases::tables_with;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, pages_on, table_columns};
use crate::outputs::raw;

/// Whether `l` is Zapya's transfer database.
pub fn is_zapya(l: &Located) -> bool {
    l.path.contains("/com.dewmobile.kuaiya")
}

/// One `transfer20.db`.
pub fn transfers(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if tables_with(ctx, l, &["transfer"])?.is_none() {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    let cols = table_columns(ctx, &l.tree, &l.path, "transfer")?;
    if !require_columns(
        ctx,
        &name,
        "Zapya's transfer20.db",
        "transfer",
        &cols,
        &["createtime"],
    )? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(&cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS rid, createtime, {}, {}, {}, {}, {} FROM transfer ORDER BY createtime, rowid",
        c("device"),
        c("name"),
        c("direction"),
        c("path"),
        c("title"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Zapya transfers")?;
    for (inv, t, row) in pages.rows() {
        let sent = t.get(row, "direction") == Some("1");
        let device = t
            .get(row, "name")
            .or(t.get(row, "device"))
            .unwrap_or("an unnamed device");
        let file = t
            .get(row, "title")
            .or(t.get(row, "path"))
            .unwrap_or("a file");
        let mut d = Draft::new(
            "files",
            if sent {
                format!("Zapya: {file} sent to {device}")
            } else {
                format!("Zapya: {file} transferred with {device}")
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, raw(t, row, "device").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "name").as_deref(), inv);
        d.fact(FactType::Path, raw(t, row, "path").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "title").as_deref(), inv);
        let time = t.get(row, "createtime");
        d.time(time, unix_millis(time), "Transfer created", inv);
        d.interpretation = format!(
            "transfer row {} of {}: Zapya moved {file} between this phone and the device {device}{} ({}); createtime is Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "device")
                .filter(|d| Some(*d) != t.get(row, "name"))
                .map(|d| format!(" (id {d})"))
                .unwrap_or_default(),
            match t.get(row, "direction") {
                Some("1") => "direction 1: sent from this phone, as ALEAPP reads it".to_string(),
                Some(v) => format!("direction {v}, not documented"),
                None => "no direction stored".to_string(),
            },
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
