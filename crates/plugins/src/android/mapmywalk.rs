//! MapMyWalk (`com.mapmywalk.android2/databases/workout.db` and `mmdk_user`), ALEAPP's
//! `MMWActivities` and `MMWUsers`: the walks the app recorded — when, for how long, how far and
//! fast, where each route began and ended — and the Under Armour account signed in.
//!
//! | file: table | phenomenon | fields |
//! |---|---|---|
//! | `workout.db`: `timeSeries` | one `health` per recorded activity ("MapMyWalk activity <local id>") | local id, samples, samples with a position, distance (the largest cumulative value, as stored), mean speed (rounded to two places in the query) and max speed, duration (last sample's time less the first's, ms), time-offset span (ms); first and last sample (Unix ms) |
//! | `workout.db`: `timeSeries` | one `locations` per activity with positions ("MapMyWalk route of activity <local id>") | local id, points, the first and last latitude and longitude; the first and last point's time (Unix ms) |
//! | `mmdk_user`: `user_entity` | one `accounts` per user ("MapMyWalk user <user name>") | user id, user name, e-mail, display name, birth date (as stored), gender, height, weight, time zone, country, profile image URL, why it is held as the owner's; joined, last login (Unix ms) |
//!
//! The activities exist only as the samples of `timeSeries` (ALEAPP groups them by `localId`
//! too): an activity here is the samples of one local id, summarised in the query — the store
//! keeps no title, type or sync state for it. The route is summarised in one pass (a window
//! numbering each activity's positioned samples by time, then row), never one phenomenon per
//! point; the points stay in the store, one `sqlite_query` away. Distance and speed are the
//! app's values and units as stored (ALEAPP's older module read the distance as metres).
//!
//! Identities: `mmdk_user` is the Under Armour SDK's store of the account signed in. Its user is
//! the device's user's (`owner`: e-mail, `mapmywalk:<id>` qualified in the query, user name,
//! display name) when it is the only row of `user_entity`, or the only row with an e-mail
//! address (the reason is a fact); any other row is a person `mapmywalk:<id>` with their user
//! and display name. The samples name no account. Columns are taken by name (an older
//! `timeSeries` without `timeOffset` or `speed`, an older `user_entity` without `timezone` or
//! the image, read with those NULL); a store with neither table, or a table without its key
//! columns (`timeSeries`: `localId`, `timestamp`; `user_entity`: `id`), is noted. `workout.db`
//! and `mmdk_user` are read only under MapMyWalk's package: other apps' files of the names are
//! none of its.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::{Tables, column_expr, column_or_null};
use crate::drafts::{RowPhenomena, unix_millis};
use crate::identity::{artefact_name, observe_columns, observe_row_person, schema_on};
use crate::outputs::{Table, raw};

const DIR: &str = "/com.mapmywalk.android2/databases/";

/// Whether `path` is MapMyWalk's `workout.db`.
pub fn is_store_path(path: &str) -> bool {
    path.contains(DIR) && path.ends_with("/workout.db")
}

/// Whether `path` is MapMyWalk's user store `mmdk_user`.
pub fn is_user_path(path: &str) -> bool {
    path.contains(DIR) && path.ends_with("/mmdk_user")
}

/// The category of a MapMyWalk file; `None` for another app's file of the name.
pub fn category(path: &str) -> Option<&'static str> {
    if is_store_path(path) {
        Some("health")
    } else if is_user_path(path) {
        Some("accounts")
    } else {
        None
    }
}

/// Whether `l` is MapMyWalk's `workout.db`.
pub fn is_store(l: &Located) -> bool {
    is_store_path(&l.path)
}

/// Whether `l` is MapMyWalk's `mmdk_user`.
pub fn is_user(l: &Located) -> bool {
    is_user_path(&l.path)
}

/// Whether `l` is a file this reader reads.
pub fn is_file(l: &Located) -> bool {
    is_store(l) || is_user(l)
}

/// The positioned rows of `table` summarised per activity in one pass, never a phenomenon per
/// point: `rid` and `activity` (the `link` column), `points` (the rows with both coordinates),
/// the first and last point's latitude, longitude and time (`first_lat`, `first_lon`,
/// `first_time`, `last_lat`, `last_lon`, `last_time`) — ordered by `time` (rows without one
/// last), then row; by row alone, the times NULL, when the table has no time column. The
/// values are the stored ones, copied by `max` over the one row that has each.
pub(super) fn route_summary_sql(
    table: &str,
    link: &str,
    lat: &str,
    lon: &str,
    time: Option<&str>,
) -> String {
    let (ts, order) = match time {
        Some(c) => (format!("t.{c}"), format!("t.{c} IS NULL, t.{c}, t.rowid")),
        None => ("NULL".to_string(), "t.rowid".to_string()),
    };
    format!(
        "WITH p AS (SELECT t.{link} AS activity, t.{lat} AS lat, t.{lon} AS lon, {ts} AS ts, row_number() OVER (PARTITION BY t.{link} ORDER BY {order}) AS n, count(*) OVER (PARTITION BY t.{link}) AS points FROM {table} t WHERE t.{link} IS NOT NULL AND t.{lat} IS NOT NULL AND t.{lon} IS NOT NULL) SELECT activity AS rid, activity, max(points) AS points, max(CASE WHEN n = 1 THEN lat END) AS first_lat, max(CASE WHEN n = 1 THEN lon END) AS first_lon, max(CASE WHEN n = 1 THEN ts END) AS first_time, max(CASE WHEN n = points THEN lat END) AS last_lat, max(CASE WHEN n = points THEN lon END) AS last_lon, max(CASE WHEN n = points THEN ts END) AS last_time FROM p GROUP BY activity ORDER BY activity"
    )
}

/// The route fields every reader of [`route_summary_sql`]'s rows records.
pub(super) const ROUTE_FIELDS: &[(&str, FactType, &str)] = &[
    ("activity", FactType::Identifier, "activity id"),
    ("points", FactType::Count, "points"),
    ("first_lat", FactType::Text, "first latitude"),
    ("first_lon", FactType::Text, "first longitude"),
    ("last_lat", FactType::Text, "last latitude"),
    ("last_lon", FactType::Text, "last longitude"),
];

/// One `workout.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(tables) = Tables::of(
        ctx,
        &name,
        "MapMyWalk's workout.db",
        &schema,
        &["timeSeries"],
    )?
    else {
        return Ok(());
    };
    let Some(cols) = tables.need("timeSeries", &["localId", "timestamp"])? else {
        return Ok(());
    };
    activities(ctx, l, cols)?;
    if cols.contains("latitude") && cols.contains("longitude") {
        routes(ctx, l)?;
    }
    Ok(())
}

fn activities(
    ctx: &AgentCtx<'_>,
    l: &Located,
    cols: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let c = |col: &str| column_expr(cols, "t.", col);
    let positioned = if cols.contains("latitude") && cols.contains("longitude") {
        "sum(CASE WHEN t.latitude IS NOT NULL AND t.longitude IS NOT NULL THEN 1 ELSE 0 END)"
    } else {
        "NULL"
    };
    let at = "CASE WHEN t.timestamp > 0 THEN t.timestamp END";
    let sql = format!(
        "SELECT t.localId AS rid, t.localId AS activity, count(*) AS samples, {positioned} AS positioned, max({dist}) AS distance, round(avg({speed}), 2) AS mean_speed, max({speed}) AS max_speed, max({at}) - min({at}) AS duration_ms, max({offset}) - min({offset}) AS offset_ms, min({at}) AS start_ms, max({at}) AS end_ms FROM timeSeries t WHERE t.localId IS NOT NULL GROUP BY t.localId ORDER BY t.localId",
        dist = c("distance"),
        speed = c("speed"),
        offset = c("timeOffset"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "timeSeries",
            category: "health",
            what: "an activity MapMyWalk recorded, its samples summarised in the query: how many and how many with a position, the distance (the largest cumulative value) and speeds as the app stores them (the mean rounded to two places), how long it lasted (the last sample's time less the first's, and the span of the samples' time offsets, milliseconds); first and last sample Unix milliseconds",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "MapMyWalk activity {}",
                    raw(t, row, "activity").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("activity", FactType::Identifier, "local id"),
                ("samples", FactType::Count, "samples"),
                ("positioned", FactType::Count, "samples with a position"),
                ("distance", FactType::Text, "distance"),
                ("mean_speed", FactType::Text, "mean speed"),
                ("max_speed", FactType::Text, "max speed"),
                ("duration_ms", FactType::Count, "duration (ms)"),
                ("offset_ms", FactType::Count, "time-offset span (ms)"),
            ],
            times: &[
                ("start_ms", "MapMyWalk activity started", unix_millis),
                ("end_ms", "MapMyWalk activity ended", unix_millis),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

fn routes(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let sql = route_summary_sql(
        "timeSeries",
        "localId",
        "latitude",
        "longitude",
        Some("timestamp"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "timeSeries",
            category: "locations",
            what: "the route of a MapMyWalk activity, its positioned samples summarised in the query: how many, where the first and the last were (decimal degrees as stored) and when (Unix milliseconds); the points themselves stay in the store",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "MapMyWalk route of activity {}",
                    raw(t, row, "activity").unwrap_or_else(|| "?".into())
                )
            },
            fields: ROUTE_FIELDS,
            times: &[
                ("first_time", "First MapMyWalk route point", unix_millis),
                ("last_time", "Last MapMyWalk route point", unix_millis),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// One `mmdk_user`: the users of `user_entity`, the account signed in observed as the owner's.
pub fn users(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = Tables::one(
        ctx,
        &name,
        "MapMyWalk's mmdk_user",
        &schema,
        "user_entity",
        &["id"],
    )?
    else {
        return Ok(());
    };
    let u = |col: &str| column_or_null(cols, "u.", col, col);
    let by_email = if cols.contains("email") {
        "WHEN u.email IS NOT NULL AND u.email != '' AND (SELECT count(*) FROM user_entity WHERE email IS NOT NULL AND email != '') = 1 THEN 'the only user with an e-mail address' "
    } else {
        ""
    };
    let sql = format!(
        "SELECT u.rowid AS rid, u.id AS id, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, CASE WHEN (SELECT count(*) FROM user_entity) = 1 THEN 'the only user of the store' {by_email}END AS owner_reason FROM user_entity u ORDER BY u.rowid",
        crate::calls::qualified_or_null(cols, "u.", "id", "mapmywalk", "qualified"),
        u("username"),
        u("email"),
        u("display_name"),
        u("birthdate"),
        u("gender"),
        u("height"),
        u("weight"),
        u("timezone"),
        u("location_country"),
        u("profile_image_medium"),
        u("date_joined"),
        u("last_login"),
    );
    let file = l.name().to_string();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "user_entity",
            category: "accounts",
            what: "a user of the Under Armour account store MapMyWalk keeps (values as stored; joined and last login Unix milliseconds)",
            title: &|t: &Table, row: &[Option<String>]| {
                let shown = raw(t, row, "username")
                    .or_else(|| raw(t, row, "display_name"))
                    .or_else(|| raw(t, row, "id"))
                    .unwrap_or_else(|| "?".into());
                format!("MapMyWalk user {shown}")
            },
            fields: &[
                ("id", FactType::Account, "user id"),
                ("username", FactType::Account, "user name"),
                ("email", FactType::Email, "e-mail"),
                ("display_name", FactType::Name, "display name"),
                ("birthdate", FactType::Text, "birth date"),
                ("gender", FactType::Text, "gender"),
                ("height", FactType::Text, "height"),
                ("weight", FactType::Text, "weight"),
                ("timezone", FactType::Text, "time zone"),
                ("location_country", FactType::Text, "country"),
                ("profile_image_medium", FactType::Url, "profile image"),
                ("owner_reason", FactType::Text, "held as"),
            ],
            times: &[
                ("date_joined", "MapMyWalk user joined", unix_millis),
                ("last_login", "MapMyWalk user last logged in", unix_millis),
            ],
        },
        &mut |inv, t, row| {
            let ids = [
                ("email", IdType::Email, "The e-mail address"),
                ("qualified", IdType::AccountId, "The MapMyWalk user id"),
                ("username", IdType::Nickname, "The MapMyWalk user name"),
                ("display_name", IdType::DisplayName, "The display name"),
            ];
            if let Some(reason) = t.get(row, "owner_reason") {
                observe_columns(ctx, "owner", "device owner", t, row, inv, &ids, &|what| {
                    format!(
                        "{what} of the MapMyWalk account held on the device (user_entity of {file}: {reason}), the device's user's."
                    )
                })
            } else {
                observe_row_person(ctx, t, row, inv, "username", &ids[1..], &|what, who| {
                    format!(
                        "{what} of the MapMyWalk user {who}, whom the app's account store keeps beside the account signed in ({file})."
                    )
                })
            }
        },
    )
}
