//! Reminders on iOS: the Core Data stores `Container_v1/Stores/Data-*.sqlite` (under
//! `Library/Reminders/` before iOS 17, in the Reminders app group after), with the fields of
//! iLEAPP's `reminders`: one `notes` phenomenon per reminder — created, last modified, due and
//! completed (Core Data seconds), title, notes, completed, flagged, marked for deletion (as
//! stored; a reminder marked for deletion is read too), and where present its list's name and
//! priority. Two store generations: iOS 16 on keep reminders in `ZREMCDREMINDER`; earlier ones
//! in the single table `ZREMCDOBJECT`, the reminders' entity number read from `Z_PRIMARYKEY`
//! (`REMCDReminder`: it shifts between releases) and the title from `ZTITLE1` or `ZTITLE`.
//! A store with neither table (another of the folder's stores) is passed over.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::photos::fields;
use super::{Draft, Run, Schema, core_data_encoding, raw};

/// Triage of every Reminders store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("Data-*.sqlite", |find, path| {
        if path.contains("/Container_v1/Stores/") {
            store(run, find, path)
        } else {
            Ok(())
        }
    })
}

fn store(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(
        path,
        &[
            "ZREMCDREMINDER",
            "ZREMCDOBJECT",
            "ZREMCDBASELIST",
            "Z_PRIMARYKEY",
        ],
    )?
    else {
        return Ok(());
    };
    let (table, filter, title, list) = if !schema.columns("ZREMCDREMINDER").is_empty() {
        let list = if schema.columns("ZREMCDREMINDER").contains("ZLIST")
            && schema.columns("ZREMCDBASELIST").contains("ZNAME")
        {
            "(SELECT l.ZNAME FROM ZREMCDBASELIST l WHERE l.Z_PK = r.ZLIST)"
        } else {
            "NULL"
        };
        (
            "ZREMCDREMINDER",
            String::new(),
            schema.col("r", "ZREMCDREMINDER", "ZTITLE"),
            list.to_string(),
        )
    } else if !schema.columns("ZREMCDOBJECT").is_empty() {
        let k = schema.columns("Z_PRIMARYKEY");
        if !(k.contains("Z_ENT") && k.contains("Z_NAME")) {
            run.ctx.unparsed(
                path,
                "could not parse the Reminders store because it has no Z_PRIMARYKEY entity names to tell its reminders among the ZREMCDOBJECT rows",
                None,
            )?;
            return Ok(());
        }
        if !schema.require(run, "ZREMCDOBJECT", &["Z_ENT"])? {
            return Ok(());
        }
        let o = schema.columns("ZREMCDOBJECT");
        let title = match (o.contains("ZTITLE1"), o.contains("ZTITLE")) {
            (true, true) => "COALESCE(r.ZTITLE1, r.ZTITLE)".to_string(),
            (true, false) => "r.ZTITLE1".into(),
            (false, true) => "r.ZTITLE".into(),
            (false, false) => "NULL".into(),
        };
        let list = if o.contains("ZLIST") && o.contains("ZNAME") {
            "(SELECT l.ZNAME FROM ZREMCDOBJECT l WHERE l.Z_PK = r.ZLIST)"
        } else {
            "NULL"
        };
        (
            "ZREMCDOBJECT",
            " WHERE r.Z_ENT = (SELECT k.Z_ENT FROM Z_PRIMARYKEY k WHERE k.Z_NAME = 'REMCDReminder')"
                .to_string(),
            title,
            list.to_string(),
        )
    } else {
        // another store of the folder (accounts, a local cache)
        return Ok(());
    };
    if !schema.require(run, table, &["Z_PK"])? {
        return Ok(());
    }
    reminders(run, find, path, &schema, table, &filter, &title, &list)
}

#[allow(clippy::too_many_arguments)]
fn reminders(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    table: &str,
    filter: &str,
    title: &str,
    list: &str,
) -> Result<(), RuntimeError> {
    let r = |c: &str| schema.col("r", table, c);
    let sql = format!(
        "SELECT * FROM (SELECT r.Z_PK AS pk, {} AS created, {} AS modified, {} AS due, {} AS completed_at, {title} AS title, {} AS notes, {} AS completed, {} AS flagged, {} AS deleted, {} AS priority, {list} AS list FROM {table} r{filter})",
        r("ZCREATIONDATE"),
        r("ZLASTMODIFIEDDATE"),
        r("ZDUEDATE"),
        r("ZCOMPLETIONDATE"),
        r("ZNOTES"),
        r("ZCOMPLETED"),
        r("ZFLAGGED"),
        r("ZMARKEDFORDELETION"),
        r("ZPRIORITY"),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    let file = path.rsplit('/').next().unwrap_or(path);
    for (inv, t, row) in paged.rows() {
        let mut d = Draft::new(
            "notes",
            format!("Reminder: {}", t.get(row, "title").unwrap_or("(no title)")),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("title", FactType::Text, "title"),
                ("notes", FactType::Text, "notes"),
                ("list", FactType::Name, "list"),
                ("completed", FactType::Count, "completed"),
                ("flagged", FactType::Count, "flagged"),
                ("deleted", FactType::Count, "marked for deletion"),
                ("priority", FactType::Count, "priority"),
            ],
        );
        for (col, what) in [
            ("created", "Reminder created"),
            ("modified", "Reminder modified"),
            ("due", "Reminder due"),
            ("completed_at", "Reminder completed"),
        ] {
            let v = raw(t, row, col);
            d.time(v.as_deref(), core_data_encoding(v.as_deref()), what, inv);
        }
        d.interpretation = format!(
            "{table} Z_PK {} of {file}: a reminder in Apple's Reminders: {}; the times are Core Data seconds; the flags are as stored{}.",
            t.get(row, "pk").unwrap_or("?"),
            said.join(", "),
            if t.get(row, "deleted").is_some_and(|v| v != "0") {
                " (marked for deletion: the app has deleted it, the row is kept until cleaned up)"
            } else {
                ""
            }
        );
        run.record(d)?;
    }
    Ok(())
}
