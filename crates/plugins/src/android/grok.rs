//! Grok (`ai.x.grok`), ALEAPP's `Grok` (`grok_generatedvideos`): the videos the app's player
//! cached — AndroidX Media3 / ExoPlayer's store `databases/exoplayer_internal.db` and the cache's
//! span files `cache/<folder>/video-cache/<id mod 10>/<id>.<position>.<timestamp>.v3.exo`, found
//! by listing the app's folder (one `find_files` for the store and every `.exo`).
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `ExoPlayerCacheFileMetadata<uid>` (with `ExoPlayerCacheIndex<uid>` by the id the file name starts with) | one `media` per cached span ("Grok cached video <file name>") | file name, cache id, byte offset, length, the original URL (`key`), content type (computed in the query: "user generated" for a URL under `https://assets.grok.com/users/`, else "public", as ALEAPP labels them), the span file's path and size when the listing holds it; written (the name's timestamp, Unix ms) and last touched (`last_touch_timestamp`, Unix ms) |
//! | — (a listed `.exo` the file index does not name; `ExoPlayerCacheIndex<uid>` for its URL) | one `media` per file ("Grok cached video <file name> (not in the file index)") | path, size, the URL and content type of its cache id where the content index holds it; written (the name's timestamp as the listing writes it) |
//!
//! What it proves: the player held these bytes of that URL — a video the user generated (its
//! URL names the generating account's folder) or a public one the app loaded, at least in part
//! (a span is a byte range). The last-touch time is the cache's own bookkeeping, moved by any
//! read the player made (a least-recently-used evictor), not proof the user watched; with
//! another evictor it stays the write time. A span in the file index whose file is no longer
//! listed was evicted or deleted (its interpretation says so); content-index rows without any
//! span are not reported (ALEAPP reports none). The `metadata` blob (content length, redirect)
//! is not read.
//!
//! Schema drift: the tables are found by their prefixes (one pair per cache instance uid);
//! a store with the content index only (no file metadata table) gives the listed files with
//! their URLs; a store with neither table is noted and the listed files are still read; a file
//! metadata table without `name` is noted. Identities: none — the account's e-mail, user id and
//! X user name are Grok's Intercom preferences, read by [`super::intercom`]; the user folder in
//! a generated video's URL names the account that generated it, which need not be the device's
//! user (a shared creation), so it stays a fact of the URL.

use std::collections::BTreeMap;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::json;

use super::Located;
use crate::calls::{call_or_note, column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{args_on, artefact_name, pages_on, schema_on};
use crate::outputs::{ListedFile, listed_files, raw};

/// The app's data folder name.
pub const PACKAGE: &str = "ai.x.grok";

/// The player's store.
const DB: &str = "exoplayer_internal.db";
/// The tables' name prefixes (each followed by the cache instance's uid in hex).
const FILES: &str = "ExoPlayerCacheFileMetadata";
const INDEX: &str = "ExoPlayerCacheIndex";
/// The store, as notes name it.
const STORE: &str = "Grok's exoplayer_internal.db";
/// The URL prefix ALEAPP calls user generated.
const USER_URL: &str = "https://assets.grok.com/users/";

/// Whether `l` is Grok's data folder.
pub fn is_app_dir(l: &Located) -> bool {
    l.path.rsplit('/').next() == Some(PACKAGE)
}

/// A `.exo` span file name's parts: `<id>.<position>.<timestamp>.v3.exo`.
fn span_parts(name: &str) -> Option<(&str, &str, &str)> {
    let stem = name.strip_suffix(".exo")?;
    let mut parts = stem.split('.');
    let (id, pos, ts) = (parts.next()?, parts.next()?, parts.next()?);
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(id) && digits(pos) && digits(ts)).then_some((id, pos, ts))
}

/// Lists the folder (the store and the cache's span files) and reads both.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let dir_name = artefact_name(&l.tree, &l.path);
    let Some(listing) = call_or_note(
        ctx,
        &dir_name,
        "find_files",
        args_on(
            &l.tree,
            json!({"path": l.path, "name_globs": [DB, "*.exo"], "limit": 100000}),
        ),
    )?
    else {
        return Ok(());
    };
    if listing.output.text.contains("\n# truncated") {
        ctx.unparsed(
            &dir_name,
            "only the first 100000 files of Grok's folder were listed: cached videos past them were not read",
            Some(&listing.record.invocation_id),
        )?;
    }
    let cache = format!("{}/cache/", l.path);
    let spans: Vec<ListedFile> = listed_files(&listing.output.text)
        .into_iter()
        .filter(|f| f.path.starts_with(&cache) && f.path.contains("/video-cache/"))
        .filter(|f| span_parts(f.path.rsplit('/').next().unwrap_or("")).is_some())
        .collect();
    let db_path = format!("{}/databases/{DB}", l.path);
    let db = crate::outputs::found_paths(&listing.output.text)
        .into_iter()
        .find(|p| *p == db_path)
        .map(|path| Located {
            tree: l.tree.clone(),
            path,
            found: listing.clone(),
        });
    let name = artefact_name(&l.tree, db.as_ref().map_or(&cache, |d| &d.path));
    ctx.artefact(&name, || cache_of(ctx, l, db.as_ref(), &spans, &listing))?;
    Ok(())
}

/// A content-index entry: its URL and content type, with the call that returned them.
struct Entry {
    inv: Invoked,
    url: Option<String>,
    content: Option<String>,
}

/// The store (when there is one) and the listed span files.
fn cache_of(
    ctx: &AgentCtx<'_>,
    app: &Located,
    db: Option<&Located>,
    spans: &[ListedFile],
    listing: &Invoked,
) -> Result<(), RuntimeError> {
    // file names the file index holds, and each content-index entry by its id
    let mut indexed: Vec<String> = Vec::new();
    let mut entries: BTreeMap<String, Entry> = BTreeMap::new();
    if let Some(db) = db {
        store(ctx, db, spans, listing, &mut indexed, &mut entries)?;
    }
    for f in spans {
        let file = f.path.rsplit('/').next().unwrap_or(&f.path);
        if indexed.iter().any(|n| n == file) {
            continue;
        }
        let Some((id, pos, ts)) = span_parts(file) else {
            continue;
        };
        let entry = entries.get(id);
        let mut d = Draft::new(
            "media",
            format!("Grok cached video {file} (not in the file index)"),
        );
        d.fact(FactType::Path, Some(&f.path), listing);
        d.fact(FactType::Count, Some(&f.size), listing);
        if let Some(e) = entry {
            d.fact(FactType::Url, e.url.as_deref(), &e.inv);
            d.fact(FactType::Text, e.content.as_deref(), &e.inv);
        }
        d.time(
            Some(ts),
            unix_millis(Some(ts)),
            "Grok video span written to the cache",
            listing,
        );
        d.interpretation = format!(
            "a span file of Grok's video cache ({}) that {}: cache id {id}, byte offset {pos}, {} bytes; the name's timestamp (Unix milliseconds) is when the player wrote the span{}.",
            app.path,
            if db.is_some() {
                "the store's file index does not name (a cache without one, or a file the index lost)"
            } else {
                "no store describes (no exoplayer_internal.db was listed)"
            },
            f.size,
            match entry.and_then(|e| e.url.as_deref()) {
                Some(u) => format!(
                    "; the content index gives its URL {u} ({})",
                    entry
                        .and_then(|e| e.content.as_deref())
                        .unwrap_or("content type not given")
                ),
                None => "; no URL is known for its cache id".to_string(),
            }
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// `"<name>"` with inner quotes doubled (a table name from the evidence).
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// The content type ALEAPP gives a URL, computed in the query.
fn content_sql(key: &str) -> String {
    format!(
        "CASE WHEN instr({key}, '{USER_URL}') = 1 THEN 'user generated' WHEN {key} IS NOT NULL AND {key} != '' THEN 'public' END"
    )
}

/// One `exoplayer_internal.db`: each cache instance's content index (kept for the listed files)
/// and file index (one phenomenon per span).
fn store(
    ctx: &AgentCtx<'_>,
    l: &Located,
    spans: &[ListedFile],
    listing: &Invoked,
    indexed: &mut Vec<String>,
    entries: &mut BTreeMap<String, Entry>,
) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let uids = |prefix: &str| -> Vec<String> {
        schema
            .keys()
            .filter_map(|t| t.strip_prefix(prefix))
            .map(str::to_string)
            .collect()
    };
    let (file_uids, index_uids) = (uids(FILES), uids(INDEX));
    if file_uids.is_empty() && index_uids.is_empty() {
        ctx.unparsed(
            &name,
            &format!("not an ExoPlayer cache store: no {FILES}… or {INDEX}… table"),
            None,
        )?;
        return Ok(());
    }
    let index_ok = |uid: &str| {
        schema
            .get(&format!("{INDEX}{uid}"))
            .is_some_and(|c| c.contains("id") && c.contains("key"))
    };
    // the content index: each id's URL (for the spans the file index does not name)
    for uid in &index_uids {
        let table = format!("{INDEX}{uid}");
        let cols = schema.get(&table).cloned().unwrap_or_default();
        if !require_columns(ctx, &name, STORE, &table, &cols, &["id", "key"])? {
            continue;
        }
        let sql = format!(
            "SELECT rowid AS rid, id, key AS url, {} AS content FROM {} ORDER BY rowid",
            content_sql("key"),
            quoted(&table)
        );
        let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
            continue;
        };
        note_pages_cap(ctx, &name, &pages, "Grok cache index entries")?;
        for (inv, t, row) in pages.rows() {
            if let Some(id) = t.get(row, "id") {
                entries.insert(
                    id.to_string(),
                    Entry {
                        inv: inv.clone(),
                        url: raw(t, row, "url"),
                        content: raw(t, row, "content"),
                    },
                );
            }
        }
    }
    // the file index: one phenomenon per span, its URL joined by the id its name starts with
    for uid in &file_uids {
        let table = format!("{FILES}{uid}");
        let cols = schema.get(&table).cloned().unwrap_or_default();
        if !require_columns(ctx, &name, STORE, &table, &cols, &["name"])? {
            continue;
        }
        let (url, content, join) = if index_ok(uid) {
            (
                "i.key".to_string(),
                content_sql("i.key"),
                format!(
                    " LEFT JOIN {} i ON i.id = CAST(g.cache_id AS INTEGER)",
                    quoted(&format!("{INDEX}{uid}"))
                ),
            )
        } else {
            ("NULL".to_string(), "NULL".to_string(), String::new())
        };
        let sql = format!(
            "WITH f AS (SELECT rowid AS rid, name, {}, {}, CASE WHEN name GLOB '[0-9]*.[0-9]*.[0-9]*.exo' THEN substr(name, instr(name, '.') + 1) END AS r1 FROM {}), \
             g AS (SELECT *, CASE WHEN r1 IS NOT NULL THEN substr(name, 1, instr(name, '.') - 1) END AS cache_id, substr(r1, instr(r1, '.') + 1) AS r2 FROM f) \
             SELECT g.rid AS rid, g.name AS name, g.length AS length, g.touched AS touched, g.cache_id AS cache_id, \
             substr(g.r1, 1, instr(g.r1, '.') - 1) AS byte_offset, substr(g.r2, 1, instr(g.r2, '.') - 1) AS created, \
             {url} AS url, {content} AS content FROM g{join} ORDER BY g.rid",
            column_or_null(&cols, "", "length", "length"),
            column_or_null(&cols, "", "last_touch_timestamp", "touched"),
            quoted(&table),
        );
        let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
            continue;
        };
        note_pages_cap(ctx, &name, &pages, "Grok cached video spans")?;
        for (inv, t, row) in pages.rows() {
            let Some(file) = t.get(row, "name") else {
                continue;
            };
            indexed.push(file.to_string());
            let on_disk = spans
                .iter()
                .find(|f| f.path.rsplit('/').next() == Some(file));
            let mut d = Draft::new(
                "media",
                format!(
                    "Grok cached video {}",
                    raw(t, row, "name").unwrap_or_default()
                ),
            );
            d.fact(FactType::Path, Some(&l.path), &l.found);
            let said = d.fields(
                t,
                row,
                inv,
                &[
                    ("name", FactType::Text, "file"),
                    ("cache_id", FactType::Identifier, "cache id"),
                    ("byte_offset", FactType::Count, "byte offset"),
                    ("length", FactType::Count, "length"),
                    ("url", FactType::Url, "URL"),
                    ("content", FactType::Text, "content"),
                ],
            );
            if let Some(f) = on_disk {
                d.fact(FactType::Path, Some(&f.path), listing);
                d.fact(FactType::Count, Some(&f.size), listing);
            }
            let created = t.get(row, "created");
            d.time(
                created,
                unix_millis(created),
                "Grok video span written to the cache",
                inv,
            );
            let touched = t.get(row, "touched");
            d.time(
                touched,
                unix_millis(touched),
                "Grok cached video span last touched",
                inv,
            );
            d.interpretation = format!(
                "{table} row {} of {}: a span of a video Grok's player cached ({}); {}; the name's timestamp is when the span was written, last_touch_timestamp the cache's last read of it (Unix milliseconds; a player's read, not a proven view).",
                t.get(row, "rid").unwrap_or("?"),
                l.name(),
                said.join(", "),
                match on_disk {
                    Some(f) => format!("its file {} ({} bytes) is in the cache", f.path, f.size),
                    None => "its file is not in the cache folder (evicted or deleted)".to_string(),
                }
            );
            record_draft(ctx, d)?;
        }
    }
    Ok(())
}
