//! iCloud backup's CloudKit cache (`root/Library/Caches/Backup/cloudkit_cache.db`): the
//! snapshots of the device's iCloud backups and the files each holds, the fields of iLEAPP's
//! `cloudkit_snapshots` and `cloudkit_files`:
//!
//! - one `device` phenomenon per `Snapshots` row: the snapshot id, committed, created (Unix
//!   seconds), and from its property list (`snapshot`, read with `sqlite_query`'s `plists`: a
//!   plain or keyed archive) the device's name and UUID, the iOS version, the backup's type and
//!   reason, whether it may back up over cellular, its creation and modification times; with
//!   the number and total size of its files (`Files` through `Manifests`);
//! - one `files` phenomenon per `Files` row: the snapshot and manifest, the file's domain and
//!   relative path, file id, deleted, type (0 a file, 1 a folder, as iLEAPP reads them; others
//!   as stored), size, protection class, modified (Unix seconds).
//!
//! Identities: the device a snapshot names is observed by its name (`icloud-backup:<device
//! UUID>`): a backup of this phone, or of the device it was restored from, for the examiner to
//! compare with the sources' device names. Schema drift: each table is read when it has its key
//! columns, the others where present.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::Value;

use super::{Draft, Run, file_name, raw};
use crate::calls::{column_or_null, note_pages_cap};
use crate::drafts::unix_seconds;
use crate::outputs::{in_json_cell, plist_cell};

/// Triage of every `cloudkit_cache.db` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("cloudkit_cache.db", |find, path| one(run, find, path))
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["Snapshots", "Manifests", "Files"])? else {
        return Ok(());
    };
    if !schema.require(run, "Snapshots", &["snapshotID"])? {
        return Ok(());
    }
    let sc = schema.columns("Snapshots");
    let c = |col: &str| column_or_null(&sc, "s.", col, col);
    let files = !schema.columns("Files").is_empty() && !schema.columns("Manifests").is_empty();
    let fc = schema.columns("Files");
    let stats = if files
        && fc.contains("manifestID")
        && schema.columns("Manifests").contains("snapshotID")
    {
        format!(
            "(SELECT count(*) FROM Files f JOIN Manifests m ON f.manifestID = m.manifestID WHERE m.snapshotID = s.snapshotID) AS file_count, \
(SELECT {} FROM Files f JOIN Manifests m ON f.manifestID = m.manifestID WHERE m.snapshotID = s.snapshotID) AS total_size",
            if fc.contains("size") {
                "sum(f.size)"
            } else {
                "NULL"
            }
        )
    } else {
        "NULL AS file_count, NULL AS total_size".into()
    };
    let sql = format!(
        "SELECT s.snapshotID AS snapshot_id, {}, {}, {}, {stats} FROM Snapshots s",
        c("committed"),
        c("created"),
        c("snapshot"),
    );
    let Some((inv, t)) = crate::calls::query_with(run.ctx, path, &sql, 10_000, &["plists"])? else {
        return Ok(());
    };
    let file = file_name(path);
    for row in &t.rows {
        let id = t.get(row, "snapshot_id").unwrap_or("?");
        // a keyed archive's object is under `root`
        let plist: Value = t
            .get(row, "snapshot")
            .and_then(plist_cell)
            .map(|v| v.get("root").cloned().unwrap_or(v))
            .unwrap_or(Value::Null);
        // a member as it is, and as the cell holds it
        let s = |k: &str| -> Option<String> {
            match plist.get(k)? {
                Value::String(v) if !v.is_empty() => Some(v.clone()),
                Value::Number(n) => Some(n.to_string()),
                Value::Bool(b) => Some(b.to_string()),
                _ => None,
            }
        };
        let cited = |k: &str| s(k).map(|v| in_json_cell(&v));
        let name = s("DeviceName");
        let uuid = s("DeviceUUID");
        let mut d = Draft::new(
            "device",
            format!(
                "iCloud backup snapshot {id}{}",
                name.as_ref()
                    .map(|n| format!(" of {n}"))
                    .unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, Some(id), &inv);
        d.fact(FactType::Name, cited("DeviceName").as_deref(), &inv);
        d.fact(FactType::Identifier, cited("DeviceUUID").as_deref(), &inv);
        d.fact(
            FactType::Identifier,
            cited("ProductVersion").as_deref(),
            &inv,
        );
        d.fact(FactType::Count, t.get(row, "file_count"), &inv);
        d.fact(FactType::Count, t.get(row, "total_size"), &inv);
        let created = raw(&t, row, "created");
        d.time(
            created.as_deref(),
            unix_seconds(created.as_deref()),
            "iCloud backup snapshot created (cache row)",
            &inv,
        );
        for (k, what) in [
            ("SnapshotCreated", "iCloud backup snapshot created"),
            (
                "SnapshotModificationDate",
                "iCloud backup snapshot modified",
            ),
        ] {
            let v = cited(k);
            d.time(
                v.as_deref(),
                crate::drafts::date_text(v.as_deref()),
                what,
                &inv,
            );
        }
        d.interpretation = format!(
            "Snapshots row {id} of {file}: an iCloud backup (committed {}) of {} (device UUID {}, iOS {}), type {}, reason {}, backup over cellular allowed {}; {} files, {} bytes in all; `created` is Unix seconds.",
            t.get(row, "committed").unwrap_or("?"),
            name.as_deref().unwrap_or("an unnamed device"),
            uuid.as_deref().unwrap_or("?"),
            s("ProductVersion").as_deref().unwrap_or("?"),
            s("BackupType").as_deref().unwrap_or("?"),
            s("BackupReason").as_deref().unwrap_or("?"),
            s("IsBackupAllowedOnCellular").as_deref().unwrap_or("?"),
            t.get(row, "file_count").unwrap_or("?"),
            t.get(row, "total_size").unwrap_or("?"),
        );
        run.record(d)?;
        if let (Some(n), Some(u)) = (&name, &uuid) {
            run.observe(
                &format!("icloud-backup:{u}"),
                EntityKind::Device,
                n,
                IdType::DeviceName,
                n,
                &inv,
                format!(
                    "The name of the device iCloud backup snapshot {id} ({file}) was made of (device UUID {u})."
                ),
            )?;
        }
    }
    if files && fc.contains("manifestID") {
        files_of(run, find, path, &schema)?;
    }
    Ok(())
}

/// The files of the snapshots, through their manifests.
fn files_of(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &super::Schema,
) -> Result<(), RuntimeError> {
    let c = |col: &str| schema.col("f", "Files", col);
    let m = |col: &str| schema.col("m", "Manifests", col);
    let sql = format!(
        "SELECT f.rowid AS rid, {} AS snapshot_id, f.manifestID AS manifest_id, {} AS domain, {} AS relative_path, {} AS file_id, {} AS deleted, {} AS file_type, {} AS size, {} AS protection, {} AS modified \
FROM Files f LEFT JOIN Manifests m ON m.manifestID = f.manifestID",
        m("snapshotID"),
        c("domain"),
        c("relativePath"),
        c("fileID"),
        c("deleted"),
        c("fileType"),
        c("size"),
        c("protectionClass"),
        c("modified"),
    );
    let Some(pages) = run.paged(path, &sql, "f.rowid")? else {
        return Ok(());
    };
    note_pages_cap(run.ctx, path, &pages, "iCloud backup files")?;
    let file = file_name(path);
    for (inv, t, row) in pages.rows() {
        let domain = raw(t, row, "domain");
        let rel = raw(t, row, "relative_path");
        let kind = match t.get(row, "file_type") {
            Some("0") => "file".to_string(),
            Some("1") => "folder".to_string(),
            Some(v) => format!("type {v}"),
            None => "entry".to_string(),
        };
        let deleted = t.get(row, "deleted") == Some("1");
        let mut d = Draft::new(
            "files",
            format!(
                "iCloud backup {kind}: {}{}{}",
                domain.as_deref().unwrap_or("?"),
                rel.as_deref().map(|r| format!("/{r}")).unwrap_or_default(),
                if deleted { " (deleted)" } else { "" },
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, domain.as_deref(), inv);
        d.fact(FactType::Text, rel.as_deref(), inv);
        d.fact(FactType::Identifier, raw(t, row, "file_id").as_deref(), inv);
        d.fact(FactType::Count, t.get(row, "size"), inv);
        let modified = raw(t, row, "modified");
        d.time(
            modified.as_deref(),
            unix_seconds(modified.as_deref()),
            "File modified (as the iCloud backup recorded it)",
            inv,
        );
        d.interpretation = format!(
            "Files row {} of {file}: a {kind} of iCloud backup snapshot {} (manifest {}) in domain {}, {}, {} bytes, protection class {}, {}; `modified` is Unix seconds.",
            t.get(row, "rid").unwrap_or("?"),
            t.get(row, "snapshot_id").unwrap_or("?"),
            t.get(row, "manifest_id").unwrap_or("?"),
            domain.as_deref().unwrap_or("?"),
            rel.as_deref().unwrap_or("no relative path"),
            t.get(row, "size").unwrap_or("?"),
            t.get(row, "protection").unwrap_or("?"),
            if deleted {
                "marked deleted"
            } else {
                "not deleted"
            },
        );
        run.record(d)?;
    }
    Ok(())
}
