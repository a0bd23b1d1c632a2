//! Slopes (`com.consumedbycode.slopes/databases/slopes.db`), ALEAPP's `slopes` (`get_slopes`,
//! `get_slopes_actions`): the ski and snowboard days the app recorded — where, when the first
//! run or lift began and the last ended, how far, how fast, the area covered — and the resorts
//! it keeps.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `activity` (with `action`) | one `locations` per day recorded ("Slopes activity at <location> (<id>)") | activity id, location name; from its `action` rows: how many, by type as stored, distance (summed, m, one decimal), top speed, highest and lowest altitude, and the area covered (the northmost, southmost, eastmost and westmost of the actions' bounding boxes, decimal degrees); the first action's start and the last one's end (Unix, unit by size) |
//! | `resort` | one `locations` per resort ("Slopes resort <name>") | name, locality, region, country, latitude, longitude, website, general and ski patrol numbers, base and summit altitude, distance, very easy, easy, intermediate and expert runs |
//!
//! A day's actions are its runs and lift rides (each with a bounding box, speeds and altitudes):
//! summarised per day, never one phenomenon per action (they are one `sqlite_query` away); the
//! bounding box says where the phone was that day, to the box. Action types, speeds (the app's
//! unit) and altitudes are as stored. A resort is one the app keeps details of (where the user
//! recorded, or looked at): a place, not a visit; its phone numbers are the resort's. The
//! resort's lifts (`lift`) are not read. Identities: none. Tables and columns are taken by name
//! (absent ones NULL: older stores keep no bounding box); a store with neither `activity` nor
//! `resort`, or a table without its key column, is noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::{Tables, column_expr, column_or_null};
use crate::drafts::{RowPhenomena, unix_by_magnitude};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::{Table, raw};

/// Whether `l` is Slopes' store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "slopes.db" && is_store_path(&l.path)
}

/// Whether `path` is Slopes' store (for `categorise`).
pub fn is_store_path(path: &str) -> bool {
    path.ends_with("/com.consumedbycode.slopes/databases/slopes.db")
}

/// One `slopes.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(tables) = Tables::of(
        ctx,
        &name,
        "Slopes' slopes.db",
        &schema,
        &["activity", "resort"],
    )?
    else {
        return Ok(());
    };
    days(ctx, l, &tables)?;
    super::record_table(
        ctx,
        l,
        &schema,
        "name",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "resort",
            category: "locations",
            what: "a ski resort Slopes keeps details of (where the user recorded, or one looked at: a place, not a visit); altitudes and distance as stored, the phone numbers the resort's",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "Slopes resort {}",
                    raw(t, row, "name").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("name", FactType::Text, "resort"),
                ("locality", FactType::Text, "locality"),
                ("admin_area", FactType::Text, "region"),
                ("country", FactType::Text, "country"),
                ("coordinate_lat", FactType::Text, "latitude"),
                ("coordinate_long", FactType::Text, "longitude"),
                ("website", FactType::Url, "website"),
                ("generalNumber", FactType::Text, "general number"),
                ("skiPatrolNumber", FactType::Text, "ski patrol number"),
                ("baseAltitude", FactType::Text, "base altitude"),
                ("summitAltitude", FactType::Text, "summit altitude"),
                ("distance", FactType::Text, "distance"),
                ("veryEasyRuns", FactType::Count, "very easy runs"),
                ("easyRuns", FactType::Count, "easy runs"),
                ("intermediateRuns", FactType::Count, "intermediate runs"),
                ("expertRuns", FactType::Count, "expert runs"),
            ],
            times: &[],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// The CTEs summarising each activity's actions, and the select list and joins that take them
/// (NULL where the store cannot link them).
fn summaries(tables: &Tables<'_, '_>) -> (String, &'static str, &'static str) {
    const NONE: &str = "NULL AS actions, NULL AS by_type, NULL AS distance, NULL AS top_speed, NULL AS max_alt, NULL AS min_alt, NULL AS north, NULL AS south, NULL AS east, NULL AS west, NULL AS first_start, NULL AS last_end";
    let Some(a) = tables.get("action").filter(|a| a.contains("activity")) else {
        return (String::new(), NONE, "");
    };
    let x = |c: &str| column_expr(a, "x.", c);
    let with = format!(
        "WITH s AS (SELECT x.activity AS activity, count(*) AS actions, min({}) AS first_start, max({}) AS last_end, round(sum({}), 1) AS distance, max({}) AS top_speed, max({}) AS max_alt, min({}) AS min_alt, max({}) AS north, min({}) AS south, max({}) AS east, min({}) AS west FROM action x GROUP BY x.activity), k AS (SELECT activity, group_concat(type || ' ' || n, ', ') AS by_type FROM (SELECT x.activity AS activity, {} AS type, count(*) AS n FROM action x GROUP BY x.activity, {} ORDER BY x.activity, {}) GROUP BY activity) ",
        x("start"),
        x("end"),
        x("distance"),
        x("top_speed"),
        x("max_alt"),
        x("min_alt"),
        x("max_lat"),
        x("min_lat"),
        x("max_long"),
        x("min_long"),
        x("type"),
        x("type"),
        x("type"),
    );
    (
        with,
        "s.actions AS actions, k.by_type AS by_type, s.distance AS distance, s.top_speed AS top_speed, s.max_alt AS max_alt, s.min_alt AS min_alt, s.north AS north, s.south AS south, s.east AS east, s.west AS west, s.first_start AS first_start, s.last_end AS last_end",
        " LEFT JOIN s ON s.activity = a.id LEFT JOIN k ON k.activity = a.id",
    )
}

/// `activity`: one phenomenon per day, its actions summarised.
fn days(ctx: &AgentCtx<'_>, l: &Located, tables: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    let Some(cols) = tables.need("activity", &["id"])? else {
        return Ok(());
    };
    let (with, summary, joins) = summaries(tables);
    let sql = format!(
        "{with}SELECT a.rowid AS rid, a.id AS activity, {}, {summary} FROM activity a{joins} ORDER BY a.rowid",
        column_or_null(cols, "a.", "location_name", "location_name"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "activity",
            category: "locations",
            what: "a ski or snowboard day Slopes recorded, its runs and lift rides summarised: how many (by type as stored), the distance summed (m), the top speed (the app's unit), the altitudes, and the area the phone covered (the extremes of the actions' bounding boxes, decimal degrees); the first start and last end Unix, their unit by their size",
            title: &|t: &Table, row: &[Option<String>]| {
                let id = t.get(row, "activity").unwrap_or("?");
                match raw(t, row, "location_name").filter(|v| !v.trim().is_empty()) {
                    Some(at) => format!("Slopes activity at {at} ({id})"),
                    None => format!("Slopes activity {id}"),
                }
            },
            fields: &[
                ("activity", FactType::Identifier, "activity id"),
                ("location_name", FactType::Text, "location"),
                ("actions", FactType::Count, "runs and lifts"),
                ("by_type", FactType::Text, "by type"),
                ("distance", FactType::Text, "distance (m)"),
                ("top_speed", FactType::Text, "top speed"),
                ("max_alt", FactType::Text, "highest altitude"),
                ("min_alt", FactType::Text, "lowest altitude"),
                ("north", FactType::Text, "northmost latitude"),
                ("south", FactType::Text, "southmost latitude"),
                ("east", FactType::Text, "eastmost longitude"),
                ("west", FactType::Text, "westmost longitude"),
            ],
            times: &[
                (
                    "first_start",
                    "First Slopes run or lift started",
                    unix_by_magnitude,
                ),
                (
                    "last_end",
                    "Last Slopes run or lift ended",
                    unix_by_magnitude,
                ),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}
