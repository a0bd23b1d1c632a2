//! OruxMaps (`oruxmaps/tracklogs/oruxmapstracks.db`, on the shared storage or in the app's
//! external files folder), ALEAPP's `Oruxmaps` (`get_Oruxmaps`, `get_Oruxmaps_tracks`): the
//! tracks the app recorded or holds — where each began and ended, when, how far — and the
//! waypoints saved.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `tracks` (with `segments`, `trackpoints`) | one `locations` per track ("OruxMaps track <name>") | track id, name, description, folder, city, country, type and difficulty as stored, server user, the track's stored position (`tracklat`, `tracklon`; 999, the app's "unset", left out); from `segments`: segments, distance (m, summed, one decimal), moving time (ms, summed), highest and lowest altitude; from `trackpoints` (through their segment): points, the first and last point's latitude and longitude; started (`trackfechaini`), first and last point's time (Unix ms) |
//! | `pois` (with `tracks`) | one `locations` per waypoint ("OruxMaps waypoint <name>") | waypoint id, name, description, latitude, longitude, altitude, type as stored, the track it belongs to (id and name; -1, none, left out), folder, city, country, notes, URL; created (`poitime`, Unix ms) |
//!
//! Track points are summarised per track, never one phenomenon per point (the points are one
//! `sqlite_query` away): a point belongs to a segment (`trkptseg`) and a segment to a track
//! (`segtrack`); an older store whose points name their track (`trkpttrack`) is read by that.
//! The first and last point are the lowest and highest point ids (the order the app wrote them).
//! A track may be one the user recorded or one imported or planned (its points' times then are
//! the file's, or none); the app does not always say which. A waypoint is a place the user saved
//! (or imported), not necessarily where the phone was. Identities: none — the server user is a
//! fact. Tables and columns are taken by name (absent ones NULL: older stores keep fewer); a
//! store with neither `tracks` nor `pois`, or a table without its key columns, is noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::{Tables, column_expr, column_or_null};
use crate::drafts::{RowPhenomena, title_of, unix_millis};
use crate::identity::{artefact_name, schema_on};

/// Whether `l` is OruxMaps' track store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "oruxmapstracks.db" && is_store_path(&l.path)
}

/// Whether `path` is OruxMaps' track store (for `categorise`).
pub fn is_store_path(path: &str) -> bool {
    path.ends_with("/oruxmapstracks.db")
        && (path.contains("/oruxmaps/tracklogs/") || path.contains("/com.orux.oruxmaps"))
}

/// One `oruxmapstracks.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(tables) = Tables::of(
        ctx,
        &name,
        "OruxMaps' oruxmapstracks.db",
        &schema,
        &["tracks", "pois"],
    )?
    else {
        return Ok(());
    };
    tracks(ctx, l, &tables)?;
    pois(ctx, l, &tables)
}

/// The CTEs summarising each track's points and segments, and the select list and joins that
/// take them (NULL where the store cannot link them).
fn summaries(tables: &Tables<'_, '_>) -> (String, String, String) {
    let segments = tables
        .get("segments")
        .filter(|s| s.contains("_id") && s.contains("segtrack"));
    let points = tables
        .get("trackpoints")
        .filter(|p| p.contains("trkptlat") && p.contains("trkptlon"));
    let mut ctes = Vec::new();
    let mut select = Vec::new();
    let mut joins = String::new();
    // which track a point is on: through its segment, else the track it names (older stores)
    let link = points.and_then(|p| match segments {
        Some(_) if p.contains("trkptseg") && p.contains("trkpttrack") => Some((
            "coalesce(s.segtrack, p.trkpttrack)",
            " LEFT JOIN segments s ON s._id = p.trkptseg",
        )),
        Some(_) if p.contains("trkptseg") => {
            Some(("s.segtrack", " JOIN segments s ON s._id = p.trkptseg"))
        }
        _ if p.contains("trkpttrack") => Some(("p.trkpttrack", "")),
        _ => None,
    });
    match (points, link) {
        (Some(p), Some((track, join))) => {
            ctes.push(format!(
                "pts AS (SELECT {track} AS track, p.rowid AS pid, p.trkptlat AS lat, p.trkptlon AS lon, {} AS time FROM trackpoints p{join} WHERE p.trkptlat IS NOT NULL AND p.trkptlon IS NOT NULL)",
                column_expr(p, "p.", "trkpttime")
            ));
            ctes.push("firsts AS (SELECT track, count(*) AS points, min(pid) AS pid, lat AS first_lat, lon AS first_lon, time AS first_time FROM pts GROUP BY track)".to_string());
            ctes.push("lasts AS (SELECT track, max(pid) AS pid, lat AS last_lat, lon AS last_lon, time AS last_time FROM pts GROUP BY track)".to_string());
            select.push("f.points AS points, f.first_lat AS first_lat, f.first_lon AS first_lon, f.first_time AS first_time, z.last_lat AS last_lat, z.last_lon AS last_lon, z.last_time AS last_time".to_string());
            joins.push_str(
                " LEFT JOIN firsts f ON f.track = t._id LEFT JOIN lasts z ON z.track = t._id",
            );
        }
        _ => select.push("NULL AS points, NULL AS first_lat, NULL AS first_lon, NULL AS first_time, NULL AS last_lat, NULL AS last_lon, NULL AS last_time".to_string()),
    }
    match segments {
        Some(s) => {
            ctes.push(format!(
                "segs AS (SELECT segtrack AS track, count(*) AS segments, round(sum({}), 1) AS distance, sum({}) AS moving, max({}) AS max_alt, min({}) AS min_alt FROM segments GROUP BY segtrack)",
                column_expr(s, "", "segdist"),
                column_expr(s, "", "segtimemov"),
                column_expr(s, "", "segmaxalt"),
                column_expr(s, "", "segminalt"),
            ));
            select.push("g.segments AS segments, g.distance AS distance, g.moving AS moving, g.max_alt AS max_alt, g.min_alt AS min_alt".to_string());
            joins.push_str(" LEFT JOIN segs g ON g.track = t._id");
        }
        None => select.push(
            "NULL AS segments, NULL AS distance, NULL AS moving, NULL AS max_alt, NULL AS min_alt"
                .to_string(),
        ),
    }
    let with = if ctes.is_empty() {
        String::new()
    } else {
        format!("WITH {} ", ctes.join(", "))
    };
    (with, select.join(", "), joins)
}

/// `tracks`, each summarised with its segments and points.
fn tracks(ctx: &AgentCtx<'_>, l: &Located, tables: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    let Some(cols) = tables.need("tracks", &["_id"])? else {
        return Ok(());
    };
    let t = |c: &str| column_or_null(cols, "t.", c, c);
    // 999 is the app's "unset" position
    let place = |c: &str, alias: &str, bound: u32| {
        if cols.contains(c) {
            format!("CASE WHEN t.{c} BETWEEN -{bound} AND {bound} THEN t.{c} END AS {alias}")
        } else {
            format!("NULL AS {alias}")
        }
    };
    let (with, summary, joins) = summaries(tables);
    let sql = format!(
        "{with}SELECT t.rowid AS rid, t._id AS track, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {summary} FROM tracks t{joins} ORDER BY t.rowid",
        t("trackname"),
        t("trackdescr"),
        t("trackfolder"),
        t("trackciudad"),
        t("trackpais"),
        t("tracktipo"),
        t("trackdificultad"),
        t("trackuser"),
        t("trackfechaini"),
        place("tracklat", "track_lat", 90),
        place("tracklon", "track_lon", 180),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "tracks",
            category: "locations",
            what: "a track OruxMaps holds — recorded on the phone, or imported or planned — summarised: its stored position, its segments (distance in metres and moving time in milliseconds summed, altitudes in metres), how many points and where and when the first and last were (decimal degrees, Unix milliseconds); type and difficulty as stored; the points themselves stay in the store",
            title: &title_of("OruxMaps track", &["trackname", "track"]),
            fields: &[
                ("track", FactType::Identifier, "track id"),
                ("trackname", FactType::Text, "name"),
                ("trackdescr", FactType::Text, "description"),
                ("trackfolder", FactType::Text, "folder"),
                ("trackciudad", FactType::Text, "city"),
                ("trackpais", FactType::Text, "country"),
                ("tracktipo", FactType::Text, "type"),
                ("trackdificultad", FactType::Text, "difficulty"),
                ("trackuser", FactType::Account, "server user"),
                ("track_lat", FactType::Text, "track latitude"),
                ("track_lon", FactType::Text, "track longitude"),
                ("segments", FactType::Count, "segments"),
                ("distance", FactType::Text, "distance (m)"),
                ("moving", FactType::Count, "moving time (ms)"),
                ("max_alt", FactType::Text, "highest altitude (m)"),
                ("min_alt", FactType::Text, "lowest altitude (m)"),
                ("points", FactType::Count, "points"),
                ("first_lat", FactType::Text, "first latitude"),
                ("first_lon", FactType::Text, "first longitude"),
                ("last_lat", FactType::Text, "last latitude"),
                ("last_lon", FactType::Text, "last longitude"),
            ],
            times: &[
                ("trackfechaini", "OruxMaps track started", unix_millis),
                ("first_time", "First OruxMaps track point", unix_millis),
                ("last_time", "Last OruxMaps track point", unix_millis),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// The columns read from `pois` besides the coordinates, as `(column, type, label)`.
const POI: &[(&str, FactType, &str)] = &[
    ("poi", FactType::Identifier, "waypoint id"),
    ("poiname", FactType::Text, "name"),
    ("poidescr", FactType::Text, "description"),
    ("poilat", FactType::Text, "latitude"),
    ("poilon", FactType::Text, "longitude"),
    ("poialt", FactType::Text, "altitude (m)"),
    ("poitipo", FactType::Text, "type"),
    ("poitrack", FactType::Identifier, "track id"),
    ("track_name", FactType::Text, "track"),
    ("poifolder", FactType::Text, "folder"),
    ("poiciudad", FactType::Text, "city"),
    ("poipais", FactType::Text, "country"),
    ("poinotes", FactType::Text, "notes"),
    ("poiurl", FactType::Url, "URL"),
];

/// `pois`: one phenomenon per waypoint.
fn pois(ctx: &AgentCtx<'_>, l: &Located, tables: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    let Some(cols) = tables.need("pois", &["poilat", "poilon"])? else {
        return Ok(());
    };
    let o = |c: &str| column_or_null(cols, "o.", c, c);
    // -1 is the app's "no track"
    let (track, track_name) = if cols.contains("poitrack") {
        (
            "CASE WHEN o.poitrack >= 0 THEN o.poitrack END AS poitrack".to_string(),
            match tables.get("tracks") {
                Some(t) if t.contains("_id") && t.contains("trackname") => {
                    "(SELECT t.trackname FROM tracks t WHERE t._id = o.poitrack AND o.poitrack >= 0 LIMIT 1) AS track_name".to_string()
                }
                _ => "NULL AS track_name".to_string(),
            },
        )
    } else {
        (
            "NULL AS poitrack".to_string(),
            "NULL AS track_name".to_string(),
        )
    };
    let sql = format!(
        "SELECT o.rowid AS rid, {}, {}, {}, o.poilat AS poilat, o.poilon AS poilon, {}, {}, {track}, {track_name}, {}, {}, {}, {}, {}, {} FROM pois o ORDER BY o.rowid",
        column_or_null(cols, "o.", "_id", "poi"),
        o("poiname"),
        o("poidescr"),
        o("poialt"),
        o("poitipo"),
        o("poifolder"),
        o("poiciudad"),
        o("poipais"),
        o("poinotes"),
        o("poiurl"),
        o("poitime"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "pois",
            category: "locations",
            what: "a waypoint saved in OruxMaps (or imported with a track): a place the user marked, not necessarily where the phone was (decimal degrees, altitude in metres, type as stored, created Unix milliseconds)",
            title: &title_of("OruxMaps waypoint", &["poiname", "poi"]),
            fields: POI,
            times: &[("poitime", "OruxMaps waypoint created", unix_millis)],
        },
        &mut |_, _, _| Ok(()),
    )
}
