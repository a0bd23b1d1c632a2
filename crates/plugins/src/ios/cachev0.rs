//! Google image-fetcher caches (`cacheV0.db` of Google Drive's `drivekit/users/<account>/
//! image-fetcher-cache/main-cache/` and Google Photos' `ImageFetcherCache*/`), as iLEAPP's
//! `cachev0` reports them: one phenomenon per cached image with its row id and the data's size
//! and leading bytes (what kind of image it is), read with `sqlite_query`. The table has no
//! time and no URL: the row id and the path (the Google account id of a Drive cache) are what
//! identify the item; the image itself is the examiner's to export.

use masf_agents::RuntimeError;
use masf_graph::FactType;

use super::{Draft, Run};

/// The rows read: the id, the data's length and its first 8 bytes as hex.
const SELECT: &str =
    "SELECT id, length(data) AS data_bytes, hex(substr(data, 1, 8)) AS data_head FROM cache";

/// The image kind of the hex of a blob's first bytes.
pub fn kind(head: &str) -> &'static str {
    if head.starts_with("89504E470D0A1A0A") {
        "a PNG image"
    } else if head.starts_with("FFD8FF") {
        "a JPEG image"
    } else if head.starts_with("47494638") {
        "a GIF image"
    } else if head.starts_with("52494646") {
        "a RIFF (WebP) image"
    } else if head.is_empty() {
        "empty"
    } else {
        "data of an unrecognised kind"
    }
}

/// Triage of every `cacheV0.db` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("cacheV0.db")? else {
        return Ok(());
    };
    for path in &paths {
        let Some(schema) = run.schema(path, &["cache"])? else {
            continue;
        };
        if !schema.require(run, "cache", &["id", "data"])? {
            continue;
        }
        let Some(paged) = run.paged(path, SELECT, "id")? else {
            continue;
        };
        for (inv, t, row) in paged.rows() {
            let id = crate::outputs::raw(t, row, "id");
            let bytes = crate::outputs::raw(t, row, "data_bytes");
            let head = crate::outputs::raw(t, row, "data_head");
            let Some(id) = id else { continue };
            let mut d = Draft::new("media", format!("Cached image {id} of {path}"));
            d.fact(FactType::Path, Some(path), &find);
            d.fact(FactType::Identifier, Some(&id), inv);
            d.fact(FactType::Count, bytes.as_deref(), inv);
            d.fact(FactType::Text, head.as_deref(), inv);
            d.interpretation = format!(
                "Row id {id} of the cache table of {path} (a Google image-fetcher cache) holds {} bytes of {} (leading bytes {}); the table keeps no time or URL for it.",
                bytes.as_deref().unwrap_or("?"),
                kind(head.as_deref().unwrap_or("")),
                head.as_deref().unwrap_or("none"),
            );
            run.record(d)?;
        }
        crate::calls::note_pages_cap(run.ctx, path, &paged, "cached images")?;
    }
    Ok(())
}
