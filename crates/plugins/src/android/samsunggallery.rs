//! Samsung Gallery (`com.sec.android.gallery3d/databases/local.db`), ALEAPP's `galleryTrash`
//! (`get_galleryTrash`) and the research behind it (Michael Lacombe's and Cheeky4n6Monkey's
//! `trash` and `log` tables): the pictures and videos the user deleted to the Gallery's trash,
//! where each was and where it was taken, and the deletions the app logged.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `trash` | one `files` per item in the trash ("Samsung Gallery trash <original name>") | original path and name, the copy kept in the trash (path, name), id, expiry period as stored, and from `__restoreExtra` (JSON) the MIME type, size, latitude and longitude as stored, the JSON whole; deleted (`__deleteTime`, Unix ms), taken (`__dateTaken`, Unix ms), cloud time (`__cloudTimestamp`, Unix ms) |
//! | `log` | one `files` per deletion the app logged ("Samsung Gallery log <operation>") | the operation (`MOVE_TO_TRASH_SINGLE`, `DELETE_MULTIPLE`, `EMPTY_EXPIRED` …) and the line as stored (counts, the screen it was run from, the encoded paths); when (`_timestamp`, local text, no zone) |
//!
//! An item in the trash was deleted by the user (or an app through the Gallery) and can still be
//! restored: its copy is the file at the trash path. The JSON members are read by SQLite's JSON
//! functions in the query (`json_valid` guarding each cell: a cut document yields NULLs and the
//! rest is read); releases name the coordinates `__latitude`/`__longitude` or
//! `latitude`/`longitude`, both read. Of the log only the lines of deletions, moves to the trash,
//! restores and the emptying of the trash are read (their operation in brackets first); the
//! other lines (thumbnails, file checks, mounts) are counted and noted. The paths a log line
//! holds are encoded (base64 with filler characters the app inserts): kept as stored, not
//! decoded. Not read: `album` (the albums' paths and covers). Identities: none. A store with
//! neither table is noted; columns are taken by name (absent ones NULL: older releases keep
//! fewer).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::column_or_null;
use crate::drafts::{RowPhenomena, date_text, unix_millis};
use crate::identity::{artefact_name, query_on, schema_on};
use crate::outputs::raw;

/// Whether `l` is Samsung Gallery's `local.db`.
pub fn is_store(l: &Located) -> bool {
    l.name() == "local.db" && l.path.contains("/com.sec.android.gallery3d/")
}

/// The `log` lines read: deletions, moves to the trash, restores, emptying the trash.
const LOG_LINES: &str = "(_log LIKE '[DELETE%' OR _log LIKE '[MOVE_TO_TRASH%' OR _log LIKE '[EMPTY%' OR _log LIKE '[RESTORE%')";

/// The first of the members `paths` present in the JSON `cell`, as `alias`; NULL where the
/// cell is no JSON (as [`crate::calls::json_at`], over several paths).
fn member(cell: &str, paths: &[&str], alias: &str) -> String {
    let each: Vec<String> = paths
        .iter()
        .map(|p| format!("json_extract({cell}, '{p}')"))
        .collect();
    let pick = match each.as_slice() {
        [one] => one.clone(),
        _ => format!("COALESCE({})", each.join(", ")),
    };
    format!("CASE WHEN json_valid({cell}) THEN {pick} END AS {alias}")
}

/// One `local.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    if !schema.contains_key("trash") && !schema.contains_key("log") {
        ctx.unparsed(
            &name,
            "not Samsung Gallery's local.db: neither trash nor log",
            None,
        )?;
        return Ok(());
    }
    if let Some(cols) = schema.get("trash")
        && crate::calls::require_columns(
            ctx,
            &name,
            "Samsung Gallery's trash",
            "trash",
            cols,
            &["__originPath"],
        )?
    {
        let c = |col: &str| column_or_null(cols, "", col, col);
        let extra = if cols.contains("__restoreExtra") {
            let x = "__restoreExtra";
            [
                member(x, &["$.__mimeType"], "mime_type"),
                member(x, &["$.__size"], "size"),
                member(x, &["$.__latitude", "$.latitude"], "latitude"),
                member(x, &["$.__longitude", "$.longitude"], "longitude"),
                member(x, &["$.__dateTaken"], "taken"),
                member(x, &["$.__cloudTimestamp"], "cloud_time"),
                "__restoreExtra AS restore_extra".to_string(),
            ]
            .join(", ")
        } else {
            [
                "mime_type",
                "size",
                "latitude",
                "longitude",
                "taken",
                "cloud_time",
                "restore_extra",
            ]
            .map(|a| format!("NULL AS {a}"))
            .join(", ")
        };
        let sql = format!(
            "SELECT rowid AS rid, __originPath, {}, {}, {}, {}, {}, {}, {extra} FROM trash ORDER BY rowid",
            c("__originTitle"),
            c("__absPath"),
            c("__Title"),
            c("__absID"),
            c("__expiredPeriod"),
            c("__deleteTime"),
        );
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table: "trash",
                category: "files",
                what: "a picture or video deleted to Samsung Gallery's trash, restorable until it expires (the copy is the trash path; the MIME type, size and coordinates from __restoreExtra as stored; deleted, taken and cloud times Unix milliseconds)",
                title: &|t, row| {
                    format!(
                        "Samsung Gallery trash {}",
                        raw(t, row, "__originTitle")
                            .or_else(|| raw(t, row, "__originPath"))
                            .unwrap_or_else(|| "?".into())
                    )
                },
                fields: &[
                    ("__originPath", FactType::Path, "original path"),
                    ("__originTitle", FactType::Text, "original name"),
                    ("__absPath", FactType::Path, "copy in the trash"),
                    ("__Title", FactType::Text, "name in the trash"),
                    ("__absID", FactType::Identifier, "id"),
                    ("__expiredPeriod", FactType::Text, "expiry period"),
                    ("mime_type", FactType::Text, "MIME type"),
                    ("size", FactType::Count, "size"),
                    ("latitude", FactType::Text, "latitude"),
                    ("longitude", FactType::Text, "longitude"),
                    ("restore_extra", FactType::Text, "restore data"),
                ],
                times: &[
                    (
                        "__deleteTime",
                        "Samsung Gallery item deleted to the trash",
                        unix_millis,
                    ),
                    ("taken", "Samsung Gallery trashed item taken", unix_millis),
                    (
                        "cloud_time",
                        "Samsung Gallery trashed item cloud time",
                        unix_millis,
                    ),
                ],
            },
            &mut |_, _, _| Ok(()),
        )?;
    }
    if let Some(cols) = schema.get("log")
        && crate::calls::require_columns(
            ctx,
            &name,
            "Samsung Gallery's log",
            "log",
            cols,
            &["_log"],
        )?
    {
        let sql = format!(
            "SELECT rowid AS rid, CASE WHEN substr(_log, 1, 1) = '[' AND instr(_log, ']') > 2 THEN substr(_log, 2, instr(_log, ']') - 2) END AS operation, _log, {} FROM log WHERE {LOG_LINES} ORDER BY rowid",
            column_or_null(cols, "", "_timestamp", "_timestamp"),
        );
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table: "log",
                category: "files",
                what: "a deletion Samsung Gallery logged (a move to the trash, a deletion, a restore or the trash emptied; the line as stored: its counts, the screen it was run from and the encoded paths, not decoded; the time local text, no zone)",
                title: &|t, row| {
                    format!(
                        "Samsung Gallery log {}",
                        raw(t, row, "operation").unwrap_or_else(|| "line".into())
                    )
                },
                fields: &[
                    ("operation", FactType::Text, "operation"),
                    ("_log", FactType::Text, "line"),
                ],
                times: &[("_timestamp", "Samsung Gallery deletion logged", date_text)],
            },
            &mut |_, _, _| Ok(()),
        )?;
        let count = format!("SELECT count(*) AS n FROM log WHERE NOT {LOG_LINES}");
        if let Some((inv, t)) = query_on(ctx, &l.tree, &l.path, &count, 1)?
            && let Some(n) = t.rows.first().and_then(|r| t.get(r, "n"))
            && n != "0"
        {
            ctx.unparsed(
                &name,
                &format!(
                    "{n} lines of the Gallery's log are no deletion, move to the trash, restore or emptying (thumbnails, file checks, mounts): not read"
                ),
                Some(&inv.record.invocation_id),
            )?;
        }
    }
    Ok(())
}
