//! Quick Look's cache of iCloud files' thumbnails (`cloudthumbnails.db`: under
//! `Library/Application Support/Quick Look/` on iOS 12, `Library/Caches/
//! com.apple.QuickLook.thumbnailcache/` since — where the rows often live only in the `-wal`),
//! iLEAPP's `quickLook`: one `files` phenomenon per `thumbnails` row — the path the file was last
//! seen at, its size, the last time its thumbnail was asked for (`last_hit_date`, Unix seconds).
//! A thumbnail asked for is a file shown somewhere (Files, a share sheet, a preview), not proof
//! that the user opened it (said). A store without the table or its path column is noted.
//! Identities: none.

use masf_agents::RuntimeError;
use masf_graph::FactType;

use super::{Draft, Run, file_name};
use crate::drafts::unix_seconds;

/// Triage of every Quick Look iCloud thumbnail cache of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("cloudthumbnails.db")? else {
        return Ok(());
    };
    for path in &paths {
        let Some(schema) = run.schema(path, &["thumbnails"])? else {
            continue;
        };
        if !schema.require(run, "thumbnails", &["last_seen_path"])? {
            continue;
        }
        let sql = format!(
            "SELECT t.rowid AS row_id, t.last_seen_path, {} AS last_hit_date, {} AS size FROM thumbnails t",
            schema.col("t", "thumbnails", "last_hit_date"),
            schema.col("t", "thumbnails", "size"),
        );
        let Some(paged) = run.paged(path, &sql, "row_id")? else {
            continue;
        };
        for (inv, t, row) in paged.rows() {
            let seen = crate::outputs::raw(t, row, "last_seen_path");
            let hit = crate::outputs::raw(t, row, "last_hit_date");
            let size = crate::outputs::raw(t, row, "size");
            let Some(seen) = seen.filter(|s| !s.trim().is_empty()) else {
                continue;
            };
            let mut d = Draft::new(
                "files",
                format!("Quick Look thumbnail of {}", file_name(&seen)),
            );
            d.fact(FactType::Path, Some(path), &find);
            d.fact(FactType::Path, Some(&seen), inv);
            d.fact(FactType::Count, size.as_deref(), inv);
            d.time(
                hit.as_deref(),
                unix_seconds(hit.as_deref()),
                "Quick Look thumbnail last asked for",
                inv,
            );
            d.interpretation = format!(
                "Quick Look cached a thumbnail of the iCloud file last seen at {seen}{}{}: the file was shown somewhere on the device (Files, a share sheet, a preview), which does not establish that the user opened it.",
                size.as_deref()
                    .map(|s| format!(" ({s} bytes)"))
                    .unwrap_or_default(),
                hit.as_deref()
                    .map(|h| format!(", its thumbnail last asked for at {h} (Unix seconds)"))
                    .unwrap_or_default(),
            );
            run.record(d)?;
        }
        crate::calls::note_pages_cap(run.ctx, path, &paged, "thumbnails")?;
    }
    Ok(())
}
