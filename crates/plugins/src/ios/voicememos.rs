//! Voice Memos (`CloudRecordings.db`, iOS 12 on, in `com.apple.voicememod/Recordings/` or the app
//! group's `Recordings/`; `Recordings.db` of `Media/Recordings/` before), the fields of iLEAPP's
//! `voice_memos`: one `media` phenomenon per recording (`ZCLOUDRECORDING`, or `ZRECORDING`) —
//! when it was recorded (`ZDATE`, Core Data seconds), its duration (seconds), title
//! (`ZCUSTOMLABELFORSORTING`, `ZCUSTOMLABEL`: by default the place it was recorded at), the
//! audio file (`ZPATH`, whether one is recorded at all), its unique id, the user's folder
//! (`ZFOLDER` → `ZFOLDER.ZENCRYPTEDNAME`), and when it leaves Recently Deleted
//! (`ZEVICTIONDATE`: a recording the user deleted, kept 30 days, as the forensic literature
//! describes the column) — every column read where the release has it.
//!
//! Schema drift: a store with neither table is noted; a table without `ZDATE` is noted naming it.
//! Identities: none observed.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::photos::{fields, times};
use super::{Draft, Run, raw};
use crate::calls::column_or_null;

/// Triage of every Voice Memos store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("CloudRecordings.db", |find, path| one(run, find, path))?;
    run.each("Recordings.db", |find, path| {
        if path.contains("/Recordings/") {
            one(run, find, path)
        } else {
            Ok(())
        }
    })
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["ZCLOUDRECORDING", "ZRECORDING", "ZFOLDER"])? else {
        return Ok(());
    };
    let table = if !schema.columns("ZCLOUDRECORDING").is_empty() {
        "ZCLOUDRECORDING"
    } else if !schema.columns("ZRECORDING").is_empty() {
        "ZRECORDING"
    } else {
        run.ctx.unparsed(
            path,
            "unexpected schema: the database has neither a ZCLOUDRECORDING (iOS 12 on) nor a ZRECORDING table",
            None,
        )?;
        return Ok(());
    };
    if !schema.require(run, table, &["Z_PK", "ZDATE"])? {
        return Ok(());
    }
    let c = schema.columns(table);
    let f = schema.columns("ZFOLDER");
    let col = |n: &str, a: &str| column_or_null(&c, "r.", n, a);
    let (folder_join, folder) = if c.contains("ZFOLDER") && f.contains("ZENCRYPTEDNAME") {
        (
            " LEFT JOIN ZFOLDER f ON f.Z_PK = r.ZFOLDER",
            "f.ZENCRYPTEDNAME AS folder",
        )
    } else {
        ("", "NULL AS folder")
    };
    let sql = format!(
        "SELECT r.Z_PK AS pk, r.ZDATE AS recorded, {}, {}, {}, {}, {}, {}, {}, {}, {folder} FROM {table} r{folder_join}",
        col("ZDURATION", "duration"),
        col("ZLOCALDURATION", "local_duration"),
        col("ZCUSTOMLABELFORSORTING", "title"),
        col("ZCUSTOMLABEL", "label"),
        col("ZENCRYPTEDTITLE", "encrypted_title"),
        col("ZPATH", "file"),
        col("ZUNIQUEID", "unique_id"),
        col("ZEVICTIONDATE", "evicted"),
    );
    let Some(pages) = run.paged(path, &sql, "r.Z_PK")? else {
        return Ok(());
    };
    crate::calls::note_pages_cap(run.ctx, path, &pages, "voice memos")?;
    for (inv, t, row) in pages.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let title = t
            .get(row, "title")
            .or(t.get(row, "label"))
            .or(t.get(row, "encrypted_title"))
            .unwrap_or("untitled");
        let mut d = Draft::new("media", format!("Voice memo {pk}: {title}"));
        d.fact(FactType::Path, Some(path), find);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("title", FactType::Name, "title"),
                ("label", FactType::Name, "label"),
                ("encrypted_title", FactType::Name, "title (ZENCRYPTEDTITLE)"),
                ("duration", FactType::Text, "duration (s)"),
                (
                    "local_duration",
                    FactType::Text,
                    "local copy's duration (s)",
                ),
                ("file", FactType::Path, "audio file"),
                ("unique_id", FactType::Identifier, "unique id"),
                ("folder", FactType::Name, "folder"),
            ],
        );
        times(
            &mut d,
            t,
            row,
            inv,
            &[
                ("recorded", "Voice memo recorded"),
                ("evicted", "Voice memo leaves Recently Deleted"),
            ],
        );
        let deleted = t.get(row, "evicted").is_some_and(|v| v != "0");
        d.interpretation = format!(
            "{table} Z_PK {pk} of {path}: a voice memo recorded with the Voice Memos app{}{}; {}. Times are Core Data seconds since 2001.",
            if t.get(row, "file").is_some() {
                ""
            } else {
                " (no audio file recorded for it)"
            },
            if deleted {
                ", deleted by the user: in Recently Deleted until its eviction date"
            } else {
                ""
            },
            said.join("; ")
        );
        run.record(d)?;
    }
    Ok(())
}
