//! AllTrails (`com.alltrails.alltrails/databases/alltrails`), ALEAPP's `allTrails`
//! (`alltrails_user`, `alltrails_recorded_activities`, `alltrails_trackpoints`,
//! `alltrails_photos`): whose account it is and where they live, the hikes and rides the app
//! recorded — when, how far, where each track began and ended — the photos it kept with their
//! places, and the user's lists.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `users` (with `locations`) | one `accounts` per user ("AllTrails user <user name>") | user name, first and last name, remote id, e-mail, slug, the recorded place (city, region, country, postal code), pro, metric, review, follower, following, track and photo counts, Garmin and Facebook connected, referral link |
//! | `maps` (with `users`, `lines`, `line_geo_stats`) | one `locations` per map and line ("AllTrails map <name>") | map id, name, the user's name, type, activity id and privacy level as stored, data uid, line id, total distance (m), elevation gain, loss, min and max, average speed (m/s), moving and total time (s); created, started, ended |
//! | `trackpoints` | one `locations` per track ("AllTrails track <track id>") | track id, map id, points, segments, the first and last latitude and longitude (the stored millionths of a degree divided in the query); first and last point's time (Unix ms) |
//! | `map_photos`, `trail_photos` (with `maps`, `locations`) | one `media` per photo ("AllTrails photo <title or file>") | the table, local path, title, description, the map's name, remote id, likes, the place's latitude, longitude, city, region and country; created |
//! | `userlists` | one `notes` per list ("AllTrails list <name>") | name, description, remote id, user id, items, privacy level; created, updated |
//!
//! Identities: the account held on the phone is the device's user's (`owner`: its e-mail,
//! `alltrails:<remote id>` computed in the query, user name and name) — the only row of `users`,
//! or else the one user the recorded maps belong to when they name exactly one; any other user
//! is a person `alltrails:<remote id>` with their user name and name. Track points are
//! summarised per track, never one phenomenon per point (the points are one `sqlite_query`
//! away). `created_at` is read as Unix time when it is digits, else as date text. Tables and
//! columns are taken where present (an older store keeps fewer); a store with none of the tables
//! read, or a table without its key column, is noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType, TimeEncoding};

use super::Located;
use crate::calls::{Tables, column_or_null};
use crate::drafts::{RowPhenomena, date_text, unix_by_magnitude, unix_millis};
use crate::identity::{artefact_name, observe_columns, observe_row_person, schema_on};
use crate::outputs::{Table, raw};

/// Whether `l` is AllTrails' store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "alltrails" && l.path.contains("/com.alltrails.alltrails/databases/")
}

const TABLES: [&str; 6] = [
    "users",
    "maps",
    "trackpoints",
    "map_photos",
    "trail_photos",
    "userlists",
];

/// A stored time: Unix (seconds or milliseconds, by magnitude) when it is digits, else date text.
fn stamp(value: Option<&str>) -> Option<TimeEncoding> {
    match value.map(str::trim) {
        Some(v) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => {
            unix_by_magnitude(value)
        }
        _ => date_text(value),
    }
}

/// A coordinate as decimal degrees: the stored integer millionths of a degree divided, a value
/// already in degrees (at most 180 either way) as stored.
fn degrees(col: &str) -> String {
    format!("CASE WHEN abs({col}) > 180 THEN printf('%.6f', {col} / 1000000.0) ELSE {col} END")
}

/// One `alltrails`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(tables) = Tables::of(ctx, &name, "AllTrails' store", &schema, &TABLES)? else {
        return Ok(());
    };
    users(ctx, l, &tables)?;
    maps(ctx, l, &tables)?;
    tracks(ctx, l, &tables)?;
    for t in ["map_photos", "trail_photos"] {
        photos(ctx, l, &tables, t)?;
    }
    if tables.need("userlists", &["name"])?.is_some() {
        super::record_table(
            ctx,
            l,
            &schema,
            "name",
            &|_| Vec::new(),
            &RowPhenomena {
                table: "userlists",
                category: "notes",
                what: "a list the AllTrails user keeps (privacy level as stored; times as stored)",
                title: &|t: &Table, row: &[Option<String>]| {
                    format!(
                        "AllTrails list {}",
                        raw(t, row, "name").unwrap_or_else(|| "?".into())
                    )
                },
                fields: &[
                    ("name", FactType::Text, "name"),
                    ("description", FactType::Text, "description"),
                    ("remote_id", FactType::Identifier, "remote id"),
                    ("user_id", FactType::Account, "user id"),
                    ("item_count", FactType::Count, "items"),
                    ("privacy_level", FactType::Text, "privacy level"),
                ],
                times: &[
                    ("created_at", "AllTrails list created", stamp),
                    ("updated_at", "AllTrails list updated", stamp),
                ],
            },
            &mut |_, _, _| Ok(()),
        )?;
    }
    Ok(())
}

fn users(ctx: &AgentCtx<'_>, l: &Located, tables: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    let Some(cols) = tables.need("users", &["_id"])? else {
        return Ok(());
    };
    let u = |c: &str| column_or_null(cols, "u.", c, c);
    let place = match tables.get("locations") {
        Some(loc) if loc.contains("_id") && cols.contains("location_id") => (
            [
                ("city", "city"),
                ("region", "region"),
                ("country_name", "country"),
                ("postal_code", "postal_code"),
            ]
            .iter()
            .map(|(c, a)| column_or_null(loc, "l.", c, a))
            .collect::<Vec<_>>()
            .join(", "),
            " LEFT JOIN locations l ON l._id = u.location_id",
        ),
        _ => (
            "NULL AS city, NULL AS region, NULL AS country, NULL AS postal_code".to_string(),
            "",
        ),
    };
    let name_of = |c: &str| {
        if cols.contains(c) {
            format!("u.{c}")
        } else {
            "NULL".to_string()
        }
    };
    let recorded = match tables.get("maps") {
        Some(m) if m.contains("user_id") => {
            "WHEN (SELECT count(DISTINCT user_id) FROM maps WHERE user_id IS NOT NULL) = 1 AND EXISTS (SELECT 1 FROM maps m WHERE m.user_id = u._id) THEN 'the one user the recorded maps belong to' "
        }
        _ => "",
    };
    let sql = format!(
        "SELECT u.rowid AS rid, u._id AS uid, {}, {}, {}, trim(coalesce({}, '') || ' ' || coalesce({}, '')) AS full_name, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, CASE WHEN (SELECT count(*) FROM users) = 1 THEN 'the only user of the store' {recorded}END AS owner_reason FROM users u{} ORDER BY u.rowid",
        u("user_name"),
        u("first_name"),
        u("last_name"),
        name_of("first_name"),
        name_of("last_name"),
        u("remote_id"),
        crate::calls::qualified_or_null(cols, "u.", "remote_id", "alltrails", "qualified"),
        u("email"),
        u("slug"),
        place.0,
        u("pro"),
        u("metric"),
        u("review_count"),
        u("follower_count"),
        u("following_count"),
        u("track_count"),
        u("photo_count"),
        u("garmin_connected"),
        u("facebook_connected"),
        u("referral_link"),
        place.1,
    );
    let file = l.name().to_string();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "users",
            category: "accounts",
            what: "an AllTrails user the app keeps, with the place recorded for them (counts are the ones the app cached; flags as stored)",
            title: &|t: &Table, row: &[Option<String>]| {
                let shown = raw(t, row, "user_name")
                    .or_else(|| raw(t, row, "full_name"))
                    .or_else(|| raw(t, row, "remote_id"))
                    .unwrap_or_else(|| "?".into());
                format!("AllTrails user {shown}")
            },
            fields: &[
                ("user_name", FactType::Account, "user name"),
                ("first_name", FactType::Name, "first name"),
                ("last_name", FactType::Name, "last name"),
                ("remote_id", FactType::Account, "remote id"),
                ("email", FactType::Email, "e-mail"),
                ("slug", FactType::Text, "slug"),
                ("city", FactType::Text, "city"),
                ("region", FactType::Text, "region"),
                ("country", FactType::Text, "country"),
                ("postal_code", FactType::Text, "postal code"),
                ("pro", FactType::Text, "pro"),
                ("metric", FactType::Text, "metric units"),
                ("review_count", FactType::Count, "reviews"),
                ("follower_count", FactType::Count, "followers"),
                ("following_count", FactType::Count, "following"),
                ("track_count", FactType::Count, "tracks"),
                ("photo_count", FactType::Count, "photos"),
                ("garmin_connected", FactType::Text, "Garmin connected"),
                ("facebook_connected", FactType::Text, "Facebook connected"),
                ("referral_link", FactType::Url, "referral link"),
                ("owner_reason", FactType::Text, "held as"),
            ],
            times: &[],
        },
        &mut |inv, t, row| {
            let ids = [
                ("email", IdType::Email, "The e-mail address"),
                ("qualified", IdType::AccountId, "The AllTrails user id"),
                ("user_name", IdType::Nickname, "The AllTrails user name"),
                ("full_name", IdType::DisplayName, "The name"),
            ];
            if let Some(reason) = t.get(row, "owner_reason") {
                observe_columns(ctx, "owner", "device owner", t, row, inv, &ids, &|what| {
                    format!(
                        "{what} of the AllTrails account held on the device (users of {file}: {reason}), the device's user's."
                    )
                })
            } else {
                observe_row_person(ctx, t, row, inv, "user_name", &ids[1..], &|what, who| {
                    format!("{what} of the AllTrails user {who}, whom the app keeps ({file}).")
                })
            }
        },
    )
}

fn maps(ctx: &AgentCtx<'_>, l: &Located, tables: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    let Some(cols) = tables.need("maps", &["_id"])? else {
        return Ok(());
    };
    let m = |c: &str| column_or_null(cols, "m.", c, c);
    let (user, user_join) = match tables.get("users") {
        Some(u) if u.contains("_id") && u.contains("user_name") && cols.contains("user_id") => (
            "u.user_name AS user_name",
            " LEFT JOIN users u ON u._id = m.user_id",
        ),
        _ => ("NULL AS user_name", ""),
    };
    let stats = [
        "time_start",
        "time_end",
        "distance_total",
        "elevation_gain",
        "elevation_loss",
        "elevation_min",
        "elevation_max",
        "speed_average",
        "time_moving",
        "time_total",
    ];
    let joined = tables.get("lines").is_some_and(|c| {
        ["_id", "map_id", "line_geo_stats_id"]
            .iter()
            .all(|x| c.contains(*x))
    }) && tables
        .get("line_geo_stats")
        .is_some_and(|c| c.contains("_id"));
    let (line, stat_cols, line_join, order) = if joined {
        let s = tables.get("line_geo_stats").unwrap_or(cols);
        (
            "l._id AS line_id",
            stats
                .iter()
                .map(|c| column_or_null(s, "s.", c, c))
                .collect::<Vec<_>>()
                .join(", "),
            " LEFT JOIN lines l ON l.map_id = m._id LEFT JOIN line_geo_stats s ON s._id = l.line_geo_stats_id",
            "m.rowid, l.rowid",
        )
    } else {
        (
            "NULL AS line_id",
            stats
                .iter()
                .map(|c| format!("NULL AS {c}"))
                .collect::<Vec<_>>()
                .join(", "),
            "",
            "m.rowid",
        )
    };
    let sql = format!(
        "SELECT m.rowid AS rid, m._id AS map_id, {}, {}, {}, {}, {}, {}, {user}, {line}, {stat_cols} FROM maps m{user_join}{line_join} ORDER BY {order}",
        m("name"),
        m("created_at"),
        m("type"),
        m("activity_id"),
        m("privacy_level"),
        m("data_uid"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "maps",
            category: "locations",
            what: "a map AllTrails keeps — a recorded activity where its line carries statistics (distance in metres, speed in metres per second, times in seconds as the values bear out; elevations as stored; start and end Unix milliseconds); activity id and privacy level as stored",
            title: &|t: &Table, row: &[Option<String>]| {
                let shown = raw(t, row, "name")
                    .or_else(|| raw(t, row, "map_id"))
                    .unwrap_or_else(|| "?".into());
                format!("AllTrails map {shown}")
            },
            fields: &[
                ("map_id", FactType::Identifier, "map id"),
                ("name", FactType::Text, "name"),
                ("user_name", FactType::Account, "user"),
                ("type", FactType::Text, "type"),
                ("activity_id", FactType::Text, "activity id"),
                ("privacy_level", FactType::Text, "privacy level"),
                ("data_uid", FactType::Identifier, "data uid"),
                ("line_id", FactType::Identifier, "line id"),
                ("distance_total", FactType::Text, "distance (m)"),
                ("elevation_gain", FactType::Text, "elevation gain"),
                ("elevation_loss", FactType::Text, "elevation loss"),
                ("elevation_min", FactType::Text, "lowest elevation"),
                ("elevation_max", FactType::Text, "highest elevation"),
                ("speed_average", FactType::Text, "average speed (m/s)"),
                ("time_moving", FactType::Text, "moving time (s)"),
                ("time_total", FactType::Text, "total time (s)"),
            ],
            times: &[
                ("created_at", "AllTrails map created", stamp),
                ("time_start", "AllTrails recording started", unix_millis),
                ("time_end", "AllTrails recording ended", unix_millis),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

fn tracks(ctx: &AgentCtx<'_>, l: &Located, tables: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    let Some(cols) = tables.need("trackpoints", &["track_id", "time", "lat", "lng"])? else {
        return Ok(());
    };
    let point = |col: &str, order: &str| {
        format!(
            "(SELECT {} FROM trackpoints f WHERE f.track_id = e.track_id AND f.lat IS NOT NULL AND f.lng IS NOT NULL ORDER BY f.time {order}, f.rowid {order} LIMIT 1)",
            degrees(&format!("f.{col}"))
        )
    };
    let map = if cols.contains("map_id") {
        "max(e.map_id)"
    } else {
        "NULL"
    };
    let segments = if cols.contains("segment_id") {
        "count(DISTINCT e.segment_id)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT e.track_id AS rid, e.track_id AS track, {map} AS map, count(*) AS points, {segments} AS segments, min(e.time) AS first_time, max(e.time) AS last_time, {} AS first_lat, {} AS first_lon, {} AS last_lat, {} AS last_lon FROM trackpoints e GROUP BY e.track_id ORDER BY e.track_id",
        point("lat", "ASC"),
        point("lng", "ASC"),
        point("lat", "DESC"),
        point("lng", "DESC"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "trackpoints",
            category: "locations",
            what: "a track AllTrails recorded, summarised: how many position fixes and segments, where the first and last fix were (decimal degrees: the stored millionths divided in the query) and when (Unix milliseconds); the fixes themselves stay in the store",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "AllTrails track {}",
                    raw(t, row, "track").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("track", FactType::Identifier, "track id"),
                ("map", FactType::Identifier, "map id"),
                ("points", FactType::Count, "points"),
                ("segments", FactType::Count, "segments"),
                ("first_lat", FactType::Text, "first latitude"),
                ("first_lon", FactType::Text, "first longitude"),
                ("last_lat", FactType::Text, "last latitude"),
                ("last_lon", FactType::Text, "last longitude"),
            ],
            times: &[
                ("first_time", "First AllTrails track point", unix_millis),
                ("last_time", "Last AllTrails track point", unix_millis),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

fn photos(
    ctx: &AgentCtx<'_>,
    l: &Located,
    tables: &Tables<'_, '_>,
    table: &'static str,
) -> Result<(), RuntimeError> {
    let Some(cols) = tables.get(table) else {
        return Ok(());
    };
    let p = |c: &str| column_or_null(cols, "p.", c, c);
    let (map_name, map_join) = match tables.get("maps") {
        Some(m) if m.contains("_id") && m.contains("name") && cols.contains("map_id") => (
            "m.name AS map_name",
            " LEFT JOIN maps m ON m._id = p.map_id",
        ),
        _ => ("NULL AS map_name", ""),
    };
    let (place, place_join) = match tables.get("locations") {
        Some(loc) if loc.contains("_id") && cols.contains("location_id") => (
            [
                ("lat", "lat"),
                ("lng", "lng"),
                ("city", "city"),
                ("region", "region"),
                ("country_name", "country"),
            ]
            .iter()
            .map(|(c, a)| column_or_null(loc, "l.", c, a))
            .collect::<Vec<_>>()
            .join(", "),
            " LEFT JOIN locations l ON l._id = p.location_id",
        ),
        _ => (
            "NULL AS lat, NULL AS lng, NULL AS city, NULL AS region, NULL AS country".to_string(),
            "",
        ),
    };
    let sql = format!(
        "SELECT p.rowid AS rid, '{table}' AS source, {}, {}, {}, {}, {}, {}, {map_name}, {place} FROM {table} p{map_join}{place_join} ORDER BY p.rowid",
        p("created_at"),
        p("local_path"),
        p("title"),
        p("description"),
        p("remote_id"),
        p("like_count"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table,
            category: "media",
            what: "a photo AllTrails keeps for a map or trail, with the path the app recorded for its local copy and the place recorded for it (coordinates and place names as stored)",
            title: &|t: &Table, row: &[Option<String>]| {
                let file = t
                    .get(row, "local_path")
                    .map(|p| p.rsplit('/').next().unwrap_or(p).to_string());
                let shown = raw(t, row, "title")
                    .or(file)
                    .or_else(|| raw(t, row, "remote_id"))
                    .unwrap_or_else(|| "?".into());
                format!("AllTrails photo {shown}")
            },
            fields: &[
                ("source", FactType::Text, "kept in"),
                ("local_path", FactType::Text, "local copy"),
                ("title", FactType::Text, "title"),
                ("description", FactType::Text, "description"),
                ("map_name", FactType::Text, "map"),
                ("remote_id", FactType::Identifier, "remote id"),
                ("like_count", FactType::Count, "likes"),
                ("lat", FactType::Text, "latitude"),
                ("lng", FactType::Text, "longitude"),
                ("city", FactType::Text, "city"),
                ("region", FactType::Text, "region"),
                ("country", FactType::Text, "country"),
            ],
            times: &[("created_at", "AllTrails photo created", stamp)],
        },
        &mut |_, _, _| Ok(()),
    )
}
