//! Adidas Running, formerly Runtastic (`com.runtastic.android/databases/`: `db`, `user.db`,
//! `goals`), ALEAPP's `AdidasActivities`, `AdidasUser` and `AdidasGoals`: the account signed in,
//! the sessions it recorded — when, how far, where the route began and ended — and its goals.
//!
//! | store: table | phenomenon | fields |
//! |---|---|---|
//! | `db`: `session` | one `health` per session ("Adidas Running session <sample id>") | sample id, user id, sport type, distance, run time, max and average speed, calories, temperature, humidity, note, max and average pulse, max and min elevation, elevation gain and loss (the app's "no value" sentinels — temperature -300, elevation -32768 and 32767, humidity -1 — read as nothing); started, ended (Unix ms) |
//! | `db`: `session` (`encodedTrace`) | one `locations` per session with a route ("Adidas Running route of session <sample id>") | sample id, how many points, the first and last latitude and longitude (decoded from the encoded polyline in the query); the session's start and end |
//! | `user.db`: `userProperty` | one `accounts` ("Adidas Running account <e-mail or name>") | user id, first and last name, e-mail, gender, height, weight, country, avatar URL, MyFitnessPal, Garmin and Polar connected; created, last session sync (Unix ms) |
//! | `goals`: `goalV2` | one `health` per goal ("Adidas Running goal <metric>") | metric, target, recurrence, start and end date (as stored, `YYYYMMDD`), sport types, remote id, user id, version; created, updated, deleted (Unix ms) |
//!
//! Identities: the account of `user.db` is the device's user's (`owner`: its e-mail, name and
//! `runtastic:<user id>`); the sessions' user id is the owner's `runtastic:` id when they name
//! exactly one (the account that recorded them on the phone). The route is summarised, never one
//! phenomenon per point: the polyline is decoded inside the `sqlite_query` (see
//! `super::polyline`). `userProperty` is a key-value table: its key and value columns are taken by
//! name (`key` or `name`, `value`); a table without them is noted, as is a store without the
//! table it is read for or without its key columns (`session`: `sampleId`, `startTime`;
//! `goalV2`: `metric`). The column names of `userProperty` and `goalV2` are those ALEAPP's
//! reading by position stands for, not confirmed on a store.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::{Tables, column_or_null};
use crate::drafts::{RowPhenomena, unix_millis};
use crate::identity::{artefact_name, observe_columns, schema_on, sole_owner};
use crate::outputs::{Table, raw};

const DIR: &str = "/com.runtastic.android/databases/";

/// The stores read, by file name, with the table each is read for.
const STORES: &[(&str, &str)] = &[
    ("db", "session"),
    ("user.db", "userProperty"),
    ("goals", "goalV2"),
];

/// Whether `path` is one of Adidas Running's stores.
pub fn is_store_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    path.contains(DIR) && STORES.iter().any(|(n, _)| *n == name)
}

/// Whether `l` is one of Adidas Running's stores.
pub fn is_store(l: &Located) -> bool {
    is_store_path(&l.path)
}

/// One Adidas Running store.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let Some((_, table)) = STORES.iter().find(|(n, _)| *n == l.name()) else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let what = format!("Adidas Running's {}", l.name());
    let Some(tables) = Tables::of(ctx, &name, &what, &schema, &[*table])? else {
        return Ok(());
    };
    match *table {
        "session" => sessions(ctx, l, &tables),
        "userProperty" => account(ctx, l, &tables),
        _ => goals(ctx, l, &schema, &tables),
    }
}

/// `CASE WHEN s.<col> = <sentinel> THEN NULL ELSE s.<col> END AS <col>` (the app's "no value").
fn unless(cols: &std::collections::BTreeSet<String>, col: &str, sentinel: &str) -> String {
    if cols.contains(col) {
        format!("CASE WHEN s.{col} = {sentinel} THEN NULL ELSE s.{col} END AS {col}")
    } else {
        format!("NULL AS {col}")
    }
}

fn sessions(ctx: &AgentCtx<'_>, l: &Located, tables: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    let Some(cols) = tables.need("session", &["sampleId", "startTime"])? else {
        return Ok(());
    };
    let c = |col: &str| column_or_null(cols, "s.", col, col);
    let sql = format!(
        "SELECT s.rowid AS rid, s.sampleId AS sampleId, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, s.startTime AS startTime, {} FROM session s ORDER BY s.rowid",
        c("userId"),
        c("sportType"),
        c("distance"),
        c("runtime"),
        c("maxSpeed"),
        c("avgSpeed"),
        c("calories"),
        unless(cols, "temperature", "-300"),
        unless(cols, "humidity", "-1"),
        c("note"),
        c("maxPulse"),
        c("avgPulse"),
        unless(cols, "maxElevation", "-32768"),
        unless(cols, "minElevation", "32767"),
        c("elevationGain"),
        c("elevationLoss"),
        c("endTime"),
    );
    let file = l.name().to_string();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "session",
            category: "health",
            what: "a session Adidas Running recorded or synced (values and units as the app stores them; the app's no-value sentinels read as nothing; times Unix milliseconds)",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "Adidas Running session {}",
                    raw(t, row, "sampleId").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("sampleId", FactType::Identifier, "sample id"),
                ("userId", FactType::Account, "user id"),
                ("sportType", FactType::Text, "sport type"),
                ("distance", FactType::Text, "distance"),
                ("runtime", FactType::Count, "run time (ms)"),
                ("maxSpeed", FactType::Text, "max speed"),
                ("avgSpeed", FactType::Text, "average speed"),
                ("calories", FactType::Count, "calories"),
                ("temperature", FactType::Text, "temperature"),
                ("humidity", FactType::Text, "humidity"),
                ("note", FactType::Text, "note"),
                ("maxPulse", FactType::Count, "max pulse"),
                ("avgPulse", FactType::Count, "average pulse"),
                ("maxElevation", FactType::Text, "max elevation"),
                ("minElevation", FactType::Text, "min elevation"),
                ("elevationGain", FactType::Text, "elevation gain"),
                ("elevationLoss", FactType::Text, "elevation loss"),
            ],
            times: &[
                ("startTime", "Adidas Running session started", unix_millis),
                ("endTime", "Adidas Running session ended", unix_millis),
            ],
        },
        &mut |_, _, _| Ok(()),
    )?;
    if cols.contains("userId") {
        sole_owner(
            ctx,
            &l.tree,
            &l.path,
            "SELECT DISTINCT 'runtastic:' || userId AS qualified FROM session WHERE userId IS NOT NULL AND userId != '' ORDER BY 1",
            "The Adidas Running user id",
            &format!(
                "the sessions of {file} name this one account, the one that recorded them on the phone"
            ),
        )?;
    }
    if !cols.contains("encodedTrace") {
        return Ok(());
    }
    let end = column_or_null(cols, "s.", "endTime", "endTime");
    let sql = format!(
        "WITH RECURSIVE {} SELECT s.rowid AS rid, s.sampleId AS sampleId, g.points AS points, g.first_lat AS first_lat, g.first_lon AS first_lon, g.last_lat AS last_lat, g.last_lon AS last_lon, s.startTime AS startTime, {end} FROM session s JOIN pl g ON g.rid = s.rowid ORDER BY s.rowid",
        super::polyline::summary_ctes("session", "encodedTrace"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "session",
            category: "locations",
            what: "the route of an Adidas Running session, its encoded trace decoded in the query: how many points, where it began and where it ended (decimal degrees), the session's start and end (Unix milliseconds)",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "Adidas Running route of session {}",
                    raw(t, row, "sampleId").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("sampleId", FactType::Identifier, "sample id"),
                ("points", FactType::Count, "points"),
                ("first_lat", FactType::Text, "first latitude"),
                ("first_lon", FactType::Text, "first longitude"),
                ("last_lat", FactType::Text, "last latitude"),
                ("last_lon", FactType::Text, "last longitude"),
            ],
            times: &[
                (
                    "startTime",
                    "Adidas Running route's session started",
                    unix_millis,
                ),
                (
                    "endTime",
                    "Adidas Running route's session ended",
                    unix_millis,
                ),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// The properties read from `userProperty`, with their aliases.
const PROPERTIES: &[(&str, &str)] = &[
    ("userId", "user_id"),
    ("FirstName", "first_name"),
    ("LastName", "last_name"),
    ("EMail", "email"),
    ("Gender", "gender"),
    ("Height", "height"),
    ("Weight", "weight"),
    ("CountryCode", "country"),
    ("AvatarUrl", "avatar"),
    ("MY_FITNESS_PAL_CONNECTED", "myfitnesspal"),
    ("isGarminConnected", "garmin"),
    ("isPolarConnected", "polar"),
    ("createdAt", "created"),
    ("lastV3SessionSyncAtLocalTime", "last_sync"),
];

fn account(ctx: &AgentCtx<'_>, l: &Located, tables: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    let Some(cols) = tables.get("userProperty") else {
        return Ok(());
    };
    let key = ["key", "name"].into_iter().find(|k| cols.contains(*k));
    let Some(key) = key.filter(|_| cols.contains("value")) else {
        // names the missing columns in the note
        crate::calls::require_columns(
            ctx,
            &artefact_name(&l.tree, &l.path),
            "Adidas Running's user.db",
            "userProperty",
            cols,
            &["key", "value"],
        )?;
        return Ok(());
    };
    let pick = |prop: &str| format!("max(CASE WHEN \"{key}\" = '{prop}' THEN value END)");
    let mut select: Vec<String> = PROPERTIES
        .iter()
        .map(|&(prop, alias)| format!("{} AS {alias}", pick(prop)))
        .collect();
    select.push(format!(
        "trim(coalesce({}, '') || ' ' || coalesce({}, '')) AS full_name",
        pick("FirstName"),
        pick("LastName")
    ));
    select.push(format!(
        "CASE WHEN {u} IS NOT NULL AND {u} != '' THEN 'runtastic:' || {u} END AS qualified",
        u = pick("userId")
    ));
    let sql = format!(
        "SELECT * FROM (SELECT 1 AS rid, {}, count(*) AS properties FROM userProperty) WHERE properties > 0",
        select.join(", ")
    );
    let file = l.name().to_string();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "userProperty",
            category: "accounts",
            what: "the Adidas Running account signed in on the phone, from its user properties (as stored; created and last sync Unix milliseconds)",
            title: &|t: &Table, row: &[Option<String>]| {
                let shown = raw(t, row, "email")
                    .or_else(|| raw(t, row, "full_name"))
                    .or_else(|| raw(t, row, "user_id"))
                    .unwrap_or_else(|| "?".into());
                format!("Adidas Running account {shown}")
            },
            fields: &[
                ("user_id", FactType::Account, "user id"),
                ("first_name", FactType::Name, "first name"),
                ("last_name", FactType::Name, "last name"),
                ("email", FactType::Email, "e-mail"),
                ("gender", FactType::Text, "gender"),
                ("height", FactType::Text, "height"),
                ("weight", FactType::Text, "weight"),
                ("country", FactType::Text, "country"),
                ("avatar", FactType::Url, "avatar"),
                ("myfitnesspal", FactType::Text, "MyFitnessPal connected"),
                ("garmin", FactType::Text, "Garmin connected"),
                ("polar", FactType::Text, "Polar connected"),
            ],
            times: &[
                ("created", "Adidas Running account created", unix_millis),
                (
                    "last_sync",
                    "Adidas Running sessions last synced",
                    unix_millis,
                ),
            ],
        },
        &mut |inv, t, row| {
            observe_columns(
                ctx,
                "owner",
                "device owner",
                t,
                row,
                inv,
                &[
                    ("email", IdType::Email, "The e-mail address"),
                    ("qualified", IdType::AccountId, "The Adidas Running user id"),
                    ("full_name", IdType::DisplayName, "The name"),
                ],
                &|what| {
                    format!(
                        "{what} of the Adidas Running account signed in on the device (userProperty of {file}), the device's user's."
                    )
                },
            )
        },
    )
}

fn goals(
    ctx: &AgentCtx<'_>,
    l: &Located,
    schema: &super::Schema,
    tables: &Tables<'_, '_>,
) -> Result<(), RuntimeError> {
    if tables.need("goalV2", &["metric"])?.is_none() {
        return Ok(());
    }
    super::record_table(
        ctx,
        l,
        schema,
        "metric",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "goalV2",
            category: "health",
            what: "a goal set in Adidas Running (start and end dates as stored, YYYYMMDD; times Unix milliseconds)",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "Adidas Running goal {}",
                    raw(t, row, "metric").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("metric", FactType::Text, "metric"),
                ("target", FactType::Text, "target"),
                ("recurrence", FactType::Text, "recurrence"),
                ("startDate", FactType::Text, "start date"),
                ("endDate", FactType::Text, "end date"),
                ("sportTypes", FactType::Text, "sport types"),
                ("remoteId", FactType::Identifier, "remote id"),
                ("userId", FactType::Account, "user id"),
                ("version", FactType::Text, "version"),
            ],
            times: &[
                ("createdAt", "Adidas Running goal created", unix_millis),
                ("updatedAt", "Adidas Running goal updated", unix_millis),
                ("deletedAt", "Adidas Running goal deleted", unix_millis),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}
