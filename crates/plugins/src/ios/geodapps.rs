//! Which apps used Apple's map services, and when maps were shown: geod's `AP.db`
//! (`Library/Caches/com.apple.geod/AP.db`, iLEAPP's `geodApplications`) and its tile cache
//! `MapTiles.sqlitedb` (`Library/Caches/com.apple.geod/…/MapTiles.sqlitedb`, iLEAPP's
//! `geodMapTiles`).
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `AP.db` `mkcount`, `dailycounts` (older) | one `app_usage` per row ("Apple map services used by <app>") | the app (bundle id), the count type (as stored: its meanings are not documented), created (`createtime`: Cocoa seconds, or a `YYYY-MM-DD HH:MM:SS` text read as UTC, as iLEAPP does, its Unix seconds computed in the query) |
//! | `MapTiles.sqlitedb` `tiles` ⋈ `data` ⋈ `access_times`, `data` ⋈ `access_times`, or the older `image` | one `locations` per second at which cached tiles were last used ("Apple Maps tiles used (<n> tiles)") | the time (`access_times.timestamp`, `image.retrieved`: Unix seconds), the number of tiles, their tilesets, their payloads' kinds (vector tile VMP4, tile collection TCOL, PNG, JPEG, HEIF image, other; from the first bytes, in the query) and bytes |
//!
//! geod serves Apple Maps and every app showing a map through MapKit: an `AP.db` row is an
//! app's use of those services (iLEAPP's reading; the table names suggest MapKit use counts),
//! not a location. A tile's access time is when an app last displayed (or geod prefetched) that
//! piece of map — the map was on screen, not necessarily where the phone was (said); tiles
//! used in the same second are one phenomenon (iLEAPP lists each tile). What area a tile
//! covers is in its keys (`key_a`…`key_d`, `a`…`d`), whose encoding is not documented, and the
//! place names inside vector tiles are compressed (VMP4, TCOL): neither is read, nor the images
//! (said). An `AP.db` outside `com.apple.geod/` (another app's) is passed over; one with
//! neither table, and a `MapTiles.sqlitedb` with neither `data` and `access_times` nor `image`,
//! are noted; columns are taken by name (absent ones NULL). Past [`super::ROW_CAP`] seconds of
//! tile use, a summary (count, first and last time). Identities: none.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::{Draft, Run, Schema, file_name, raw, summarise};
use crate::drafts::{apple_seconds, unix_seconds};

/// geod's per-app tables of `AP.db`, newest first.
const COUNT_TABLES: [&str; 2] = ["mkcount", "dailycounts"];

/// Triage of geod's `AP.db` and tile caches.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("AP.db", |find, path| {
        if path.contains("/com.apple.geod/") {
            counts(run, find, path)
        } else {
            Ok(())
        }
    })?;
    run.each("MapTiles.sqlitedb", |find, path| {
        tile_cache(run, find, path)
    })
}

fn counts(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &COUNT_TABLES)? else {
        return Ok(());
    };
    let present: Vec<&str> = COUNT_TABLES
        .into_iter()
        .filter(|t| !schema.columns(t).is_empty())
        .collect();
    if present.is_empty() {
        run.ctx.unparsed(
            path,
            "unexpected schema: geod's AP.db has neither mkcount nor dailycounts",
            None,
        )?;
        return Ok(());
    }
    let file = file_name(path);
    for table in present {
        if !schema.require(run, table, &["app_id"])? {
            continue;
        }
        let c = |col: &str| schema.col(table, table, col);
        let created = c("createtime");
        let sql = format!(
            "SELECT {table}.rowid AS rid, {table}.app_id AS app, {} AS count_type, \
CASE WHEN typeof({created}) IN ('integer', 'real') THEN {created} END AS created, \
CASE WHEN typeof({created}) = 'text' THEN {created} END AS created_text, \
CASE WHEN typeof({created}) = 'text' THEN strftime('%s', {created}) END AS created_unix FROM {table}",
            c("count_type"),
        );
        let Some(paged) = run.paged(path, &sql, &format!("{table}.rowid"))? else {
            continue;
        };
        for (inv, t, row) in paged.rows() {
            let app = raw(t, row, "app");
            let mut d = Draft::new(
                "app_usage",
                format!(
                    "Apple map services used by {}",
                    app.as_deref().unwrap_or("an unnamed app")
                ),
            );
            d.fact(FactType::Path, Some(path), find);
            let said = d.fields(
                t,
                row,
                inv,
                &[
                    ("app", FactType::Identifier, "app"),
                    ("count_type", FactType::Text, "count type"),
                    ("created_text", FactType::Text, "created (as written)"),
                ],
            );
            let created = t.get(row, "created");
            d.time(
                created,
                apple_seconds(created),
                "Map services use counted",
                inv,
            );
            let unix = t.get(row, "created_unix");
            d.time(unix, unix_seconds(unix), "Map services use counted", inv);
            d.interpretation = format!(
                "{table} row {} of {file}: geod, the daemon serving Apple's maps to Apple Maps and to apps showing a map through MapKit, counted a use of its services by this app ({}); {}; an app's use of map services, not a place.",
                t.get(row, "rid").unwrap_or("?"),
                said.join(", "),
                if created.is_some() {
                    "created is Cocoa seconds"
                } else if unix.is_some() {
                    "created is a text read as UTC (as iLEAPP reads it), its Unix seconds computed in the query"
                } else {
                    "no creation time is kept"
                },
            );
            run.record(d)?;
        }
        crate::calls::note_pages_cap(run.ctx, path, &paged, &format!("{table} rows"))?;
    }
    Ok(())
}

/// The first table of `joined` (`(alias, table)`) holding `col`, as `alias.col`; `NULL` when
/// none does.
fn in_any(schema: &Schema, joined: &[(&str, &str)], col: &str) -> String {
    joined
        .iter()
        .find(|(_, t)| schema.columns(t).contains(col))
        .map(|(a, _)| format!("{a}.{col}"))
        .unwrap_or_else(|| "NULL".into())
}

/// The kind of a tile's payload by its first bytes (in the query, so that it grounds).
fn kind(data: &str) -> String {
    format!(
        "CASE WHEN {data} IS NULL THEN 'none' \
WHEN substr({data}, 1, 4) = x'564d5034' THEN 'VMP4' \
WHEN substr({data}, 1, 4) = x'54434f4c' THEN 'TCOL' \
WHEN substr({data}, 1, 4) = x'89504e47' THEN 'PNG' \
WHEN substr({data}, 1, 3) = x'ffd8ff' THEN 'JPEG' \
WHEN substr({data}, 5, 4) = x'66747970' THEN 'HEIF' ELSE 'other' END"
    )
}

fn tile_cache(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["data", "tiles", "access_times", "image"])? else {
        return Ok(());
    };
    let (data, tile_keys, access, image) = (
        schema.columns("data"),
        schema.columns("tiles"),
        schema.columns("access_times"),
        schema.columns("image"),
    );
    // one row per tile: (ts, tileset, kind, bytes), as iLEAPP joins the tables of each layout
    let base = if !data.is_empty() && access.contains("data_pk") && access.contains("timestamp") {
        let mut joined = vec![("d", "data"), ("a", "access_times")];
        let mut from = "data d JOIN access_times a ON a.data_pk = d.rowid".to_string();
        if tile_keys.contains("data_pk") {
            joined.insert(0, ("t", "tiles"));
            from = "data d JOIN tiles t ON t.data_pk = d.rowid JOIN access_times a ON a.data_pk = d.rowid"
                .into();
        }
        let payload = in_any(&schema, &joined, "data");
        format!(
            "SELECT a.timestamp AS ts, {} AS tileset, {} AS kind, length({payload}) AS bytes FROM {from}",
            in_any(&schema, &joined, "tileset"),
            kind(&payload),
        )
    } else if image.contains("retrieved") {
        let payload = if image.contains("data") {
            "data"
        } else {
            "NULL"
        };
        format!(
            "SELECT retrieved AS ts, {} AS tileset, {} AS kind, length({payload}) AS bytes FROM image",
            if image.contains("tileset") {
                "tileset"
            } else {
                "NULL"
            },
            kind(payload),
        )
    } else {
        run.ctx.unparsed(
            path,
            "unexpected schema: MapTiles.sqlitedb has neither data with access_times (data_pk, timestamp) nor image with retrieved",
            None,
        )?;
        return Ok(());
    };
    let sql = format!(
        "SELECT * FROM (SELECT row_number() OVER (ORDER BY ts) AS n, ts, count(*) AS tiles, \
group_concat(DISTINCT tileset) AS tilesets, group_concat(DISTINCT kind) AS kinds, \
sum(bytes) AS bytes FROM ({base}) GROUP BY ts)"
    );
    let Some(paged) = run.paged(path, &sql, "n")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in paged.rows() {
        let count = t.get(row, "tiles").unwrap_or("?");
        let plural = if count == "1" { "" } else { "s" };
        let mut d = Draft::new(
            "locations",
            format!("Apple Maps tiles used ({count} tile{plural})"),
        );
        d.fact(FactType::Path, Some(path), find);
        let ts = t.get(row, "ts");
        d.time(ts, unix_seconds(ts), "Map tiles last used", inv);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("tiles", FactType::Count, "tiles"),
                ("tilesets", FactType::Text, "tilesets"),
                ("kinds", FactType::Text, "kinds"),
                ("bytes", FactType::Count, "bytes"),
            ],
        );
        d.interpretation = format!(
            "{file}: geod's cache of Apple map tiles holds tiles last used at this second (Unix seconds; {}): an app (Apple Maps or one showing a map through MapKit) displayed, or geod prefetched, these pieces of map then — the map was on screen, not necessarily where the phone was; the area the tiles cover (their keys, an undocumented encoding) and the place names inside vector tiles (compressed) are not read.",
            said.join(", "),
        );
        run.record(d)?;
    }
    if paged.truncated {
        summarise(
            run,
            "locations",
            path,
            find,
            "seconds of map tile use",
            &format!(
                "SELECT count(DISTINCT ts) AS total, min(ts) AS first_time, max(ts) AS last_time FROM ({base})"
            ),
            unix_seconds,
            "First map tiles used",
            "Last map tiles used",
        )?;
    }
    Ok(())
}
