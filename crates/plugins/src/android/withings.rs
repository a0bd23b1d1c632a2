//! Withings Health Mate (`com.withings.wiscale2/databases/Withings-WiScale` and
//! `room-healthmate`), ALEAPP's `WithingsHealthMate` (`healthmate_accounts`, `_devices`,
//! `_measurements`, `_trackings`, `_locations`, `_contacts`): the account and the people on it,
//! the scales and watches paired with the phone and where they were set up, the body
//! measurements and the days' activity, the tracked workouts with the GPS points recorded during
//! them, and the leaderboard's people.
//!
//! | store: table | phenomenon | fields |
//! |---|---|---|
//! | `Withings-WiScale`: `users` | one `accounts` per user ("Withings user <name>") | user id, first, last and short name, e-mail, gender, pronoun, fat method, body model; born, created, modified (Unix ms) |
//! | `Withings-WiScale`: `devices` | one `device` per device ("Withings device <name or address>") | device id, user id, Bluetooth address (as stored, and with colons when stored without), firmware, language, latitude, longitude, manual geolocation, battery, type, model, name, network; associated, last used, modified |
//! | `Withings-WiScale`: `measuregroup` (with `measure`) | one `health` per measurement group ("Withings measurement <id>") | id, server id, category, attribution, device id, user, comment, deleted, the group's measures as `type=value` (Withings' measure types as stored: 1 weight, 9 and 10 blood pressure, 11 pulse, …); taken |
//! | `Withings-WiScale`: `aggregatewam` | one `health` per day ("Withings activity of <day>") | day, time zone, steps, distance, calories (active, earned, passive), ascent, descent, inactive, light, moderate and intense durations, heart rate (average, resting, min, max), SpO2, temperature, device model; midnight |
//! | `room-healthmate`: `Track` (with `WorkoutLocation`) | one `health` per tracked activity ("Withings track <id>") | id, server id, user id, time zone, day, device id, model and type, attribution, category (as stored), note, deleted, its data (JSON as stored), the GPS points recorded between its start and end with the first and last position; started, ended, modified |
//! | `room-healthmate`: `WorkoutLocation` | one `locations` per day (UTC) ("Withings GPS points of <day>") | day, points, the first and last latitude and longitude; the first and last point's time |
//! | `room-healthmate`: `leaderboard` | one `contacts` per entry ("Withings leaderboard <name> (<date>)") | user id, first and last name, score, date, image URL; modified |
//!
//! Identities: the user whose e-mail the store keeps — when exactly one has one — is the device's
//! user (`owner`: e-mail, `withings:<user id>`, name); every other user, and each leaderboard
//! entry, is a person `withings:<user id>` with their name. Each device is observed by its
//! Bluetooth address as the device `bluetooth:<address>` (as `android::fitbit` and
//! `android::auto` observe theirs) — the scale or watch paired with a second phone, or seized
//! itself, is the same device. Never selected: the device's `klSecret`. GPS points are summarised
//! per workout and per day, never one phenomenon per point; the per-minute `vasistas` samples
//! (heart rate, steps, SpO2, whose columns ALEAPP reads by position only) and the `chat` table are
//! left in the store. Columns are taken by name, the older `devices` layout's names too
//! (`macaddress`, `user`, `startdate`, `preflang`, `manual_geoloc`); times by magnitude (Unix
//! seconds or milliseconds) where the unit is not established. A store with none of the tables
//! read, or a table without its key columns, is noted.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};

use super::Located;
use crate::calls::{Tables, column_or_null};
use crate::drafts::{RowPhenomena, unix_by_magnitude, unix_millis};
use crate::identity::{artefact_name, observe, observe_columns, observe_row_person, schema_on};
use crate::ios::withingsios::{device_context, mac_colons_sql};
use crate::outputs::{Table, raw};

const DIR: &str = "/com.withings.wiscale2/databases/";

/// Whether `l` is one of Health Mate's stores (`Withings-WiScale`, `room-healthmate…`; not a
/// `-wal`, `-shm` or `-journal`).
pub fn is_store(l: &Located) -> bool {
    let n = l.name();
    l.path.contains(DIR)
        && (n == "Withings-WiScale" || n.starts_with("room-healthmate"))
        && !["-wal", "-shm", "-journal"].iter().any(|s| n.ends_with(s))
}

/// One Health Mate store.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    if l.name() == "Withings-WiScale" {
        let Some(tables) = Tables::of(
            ctx,
            &name,
            "Health Mate's Withings-WiScale",
            &schema,
            &["users", "devices", "measuregroup", "aggregatewam"],
        )?
        else {
            return Ok(());
        };
        users(ctx, l, &tables)?;
        devices(ctx, l, &tables)?;
        measurements(ctx, l, &tables)?;
        if tables.need("aggregatewam", &["day"])?.is_some() {
            days(ctx, l, &schema)?;
        }
        Ok(())
    } else {
        let Some(tables) = Tables::of(
            ctx,
            &name,
            "Health Mate's room-healthmate",
            &schema,
            &["Track", "WorkoutLocation", "leaderboard"],
        )?
        else {
            return Ok(());
        };
        tracks(ctx, l, &tables)?;
        locations(ctx, l, &tables)?;
        leaderboard(ctx, l, &tables)
    }
}

/// The first of `names` the table has, as `alias` (NULL when it has none).
fn first_col(cols: &BTreeSet<String>, prefix: &str, names: &[&str], alias: &str) -> String {
    names
        .iter()
        .find(|c| cols.contains(**c))
        .map(|c| format!("{prefix}{c} AS {alias}"))
        .unwrap_or_else(|| format!("NULL AS {alias}"))
}

fn users(ctx: &AgentCtx<'_>, l: &Located, tables: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    let Some(cols) = tables.need("users", &["id"])? else {
        return Ok(());
    };
    let c = |col: &str| column_or_null(cols, "", col, col);
    let part = |col: &str| {
        if cols.contains(col) {
            col.to_string()
        } else {
            "NULL".to_string()
        }
    };
    let with_email = if cols.contains("email") {
        "(SELECT count(*) FROM users WHERE email IS NOT NULL AND email != '')"
    } else {
        "0"
    };
    let sql = format!(
        "SELECT rowid AS rid, id, CASE WHEN id IS NOT NULL AND id != '' THEN 'withings:' || id END AS qualified, {}, {}, trim(coalesce({}, '') || ' ' || coalesce({}, '')) AS full_name, {}, {}, {}, {}, {}, {}, {}, {}, {}, {with_email} AS with_email FROM users ORDER BY rowid",
        c("firstname"),
        c("lastname"),
        part("firstname"),
        part("lastname"),
        c("shortname"),
        c("email"),
        c("gender"),
        c("pronoun"),
        c("fatmethod"),
        c("bodymodel"),
        c("birthdate"),
        c("creationdate"),
        c("modifieddate"),
    );
    let file = l.name().to_string();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "users",
            category: "accounts",
            what: "a user of the Withings account on the phone — the account holder or a person measured under it (codes as stored; times Unix milliseconds)",
            title: &|t: &Table, row: &[Option<String>]| {
                let shown = raw(t, row, "full_name")
                    .or_else(|| raw(t, row, "shortname"))
                    .or_else(|| raw(t, row, "id"))
                    .unwrap_or_else(|| "?".into());
                format!("Withings user {shown}")
            },
            fields: &[
                ("id", FactType::Account, "user id"),
                ("firstname", FactType::Name, "first name"),
                ("lastname", FactType::Name, "last name"),
                ("shortname", FactType::Name, "short name"),
                ("email", FactType::Email, "e-mail"),
                ("gender", FactType::Text, "gender"),
                ("pronoun", FactType::Text, "pronoun"),
                ("fatmethod", FactType::Text, "fat method"),
                ("bodymodel", FactType::Text, "body model"),
            ],
            times: &[
                ("birthdate", "Date of birth (Withings user)", unix_millis),
                ("creationdate", "Withings user created", unix_millis),
                ("modifieddate", "Withings user modified", unix_millis),
            ],
        },
        &mut |inv, t, row| {
            let owner = t.get(row, "with_email") == Some("1") && t.get(row, "email").is_some();
            if owner {
                observe_columns(
                    ctx,
                    "owner",
                    "device owner",
                    t,
                    row,
                    inv,
                    &[
                        ("email", IdType::Email, "The e-mail address"),
                        ("qualified", IdType::AccountId, "The Withings user id"),
                        ("full_name", IdType::DisplayName, "The name"),
                    ],
                    &|what| {
                        format!(
                            "{what} of the Withings user whose e-mail address the app keeps, the only one (users of {file}): the account holder signed in on the device."
                        )
                    },
                )
            } else {
                observe_row_person(
                    ctx,
                    t,
                    row,
                    inv,
                    "full_name",
                    &[
                        ("qualified", IdType::AccountId, "The Withings user id"),
                        ("full_name", IdType::DisplayName, "The name"),
                        ("email", IdType::Email, "The e-mail address"),
                    ],
                    &|what, who| {
                        format!(
                            "{what} of {who}, a user of the Withings account on the device ({file})."
                        )
                    },
                )
            }
        },
    )
}

fn devices(ctx: &AgentCtx<'_>, l: &Located, tables: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    let Some(cols) = tables.get("devices") else {
        return Ok(());
    };
    let Some(mac) = ["macAddress", "macaddress"]
        .into_iter()
        .find(|c| cols.contains(*c))
    else {
        crate::calls::require_columns(
            ctx,
            &artefact_name(&l.tree, &l.path),
            "Health Mate's Withings-WiScale",
            "devices",
            cols,
            &["macAddress"],
        )?;
        return Ok(());
    };
    let sql = format!(
        "SELECT rowid AS rid, {}, {}, {mac} AS mac, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM devices ORDER BY rowid",
        first_col(cols, "", &["id"], "id"),
        first_col(cols, "", &["userId", "user"], "user_id"),
        mac_colons_sql(mac),
        first_col(cols, "", &["firmware"], "firmware"),
        first_col(cols, "", &["preferredLanguage", "preflang"], "language"),
        first_col(cols, "", &["latitude"], "latitude"),
        first_col(cols, "", &["longitude"], "longitude"),
        first_col(
            cols,
            "",
            &["manualGeoloc", "manual_geoloc"],
            "manual_geoloc"
        ),
        first_col(cols, "", &["battery"], "battery"),
        first_col(cols, "", &["type"], "type"),
        first_col(cols, "", &["model"], "model"),
        first_col(cols, "", &["name"], "name"),
        first_col(cols, "", &["network"], "network"),
        first_col(cols, "", &["associationDate", "startdate"], "associated"),
        first_col(cols, "", &["lastUseDate"], "last_used"),
        first_col(cols, "", &["modifiedDate"], "modified"),
    );
    let file = l.name().to_string();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "devices",
            category: "device",
            what: "a Withings device (scale, watch, monitor) paired with the account on the phone, with the position recorded for it (type and model codes as stored; times Unix seconds or milliseconds by magnitude); its key (klSecret) is not read",
            title: &|t: &Table, row: &[Option<String>]| {
                let shown = raw(t, row, "name")
                    .or_else(|| raw(t, row, "mac"))
                    .unwrap_or_else(|| "?".into());
                format!("Withings device {shown}")
            },
            fields: &[
                ("id", FactType::Identifier, "device id"),
                ("user_id", FactType::Account, "user id"),
                ("mac", FactType::Identifier, "Bluetooth address"),
                (
                    "mac_colons",
                    FactType::Identifier,
                    "Bluetooth address (with colons)",
                ),
                ("firmware", FactType::Text, "firmware"),
                ("language", FactType::Text, "language"),
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
                ("manual_geoloc", FactType::Text, "manual geolocation"),
                ("battery", FactType::Count, "battery"),
                ("type", FactType::Text, "type"),
                ("model", FactType::Text, "model"),
                ("name", FactType::Name, "name"),
                ("network", FactType::Text, "network"),
            ],
            times: &[
                (
                    "associated",
                    "Withings device associated",
                    unix_by_magnitude,
                ),
                ("last_used", "Withings device last used", unix_by_magnitude),
                ("modified", "Withings device modified", unix_by_magnitude),
            ],
        },
        &mut |inv, t, row| {
            let Some(bt) = t.get(row, "mac_colons").or_else(|| t.get(row, "mac")) else {
                return Ok(());
            };
            let label = t
                .get(row, "name")
                .map(|n| format!("Withings {n}"))
                .unwrap_or_else(|| format!("Withings device {bt}"));
            observe(
                ctx,
                &device_context(bt),
                EntityKind::Device,
                &label,
                IdType::BluetoothAddress,
                bt,
                inv,
                format!(
                    "{file} lists the Withings device {label} paired with the account on the phone, Bluetooth address {bt}."
                ),
            )?;
            Ok(())
        },
    )
}

fn measurements(
    ctx: &AgentCtx<'_>,
    l: &Located,
    tables: &Tables<'_, '_>,
) -> Result<(), RuntimeError> {
    let Some(cols) = tables.need("measuregroup", &["id", "date"])? else {
        return Ok(());
    };
    let c = |col: &str| column_or_null(cols, "g.", col, col);
    let measures = match tables.get("measure") {
        Some(m)
            if ["measuregroup", "type", "value"]
                .iter()
                .all(|x| m.contains(*x)) =>
        {
            "(SELECT group_concat(x.type || '=' || x.value, '; ') FROM measure x WHERE x.measuregroup = g.id)"
        }
        _ => "NULL",
    };
    let sql = format!(
        "SELECT g.rowid AS rid, g.id AS id, {}, {}, {}, {}, {}, {}, {}, {measures} AS measures, g.date AS date FROM measuregroup g ORDER BY g.rowid",
        c("wsid"),
        c("category"),
        c("attrib"),
        c("deviceid"),
        c("user"),
        c("comment"),
        c("deleted"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "measuregroup",
            category: "health",
            what: "a group of body measurements Health Mate keeps (a weighing, a blood-pressure reading …): its measures as type=value with Withings' measure type codes as stored (1 weight, 9 and 10 diastolic and systolic blood pressure, 11 pulse, …), category, attribution and device as stored; taken Unix seconds or milliseconds by magnitude",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "Withings measurement {}",
                    raw(t, row, "id").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("id", FactType::Identifier, "id"),
                ("wsid", FactType::Identifier, "server id"),
                ("category", FactType::Text, "category"),
                ("attrib", FactType::Text, "attribution"),
                ("deviceid", FactType::Identifier, "device id"),
                ("user", FactType::Account, "user id"),
                ("comment", FactType::Text, "comment"),
                ("deleted", FactType::Text, "deleted"),
                ("measures", FactType::Text, "measures"),
            ],
            times: &[("date", "Withings measurement taken", unix_by_magnitude)],
        },
        &mut |_, _, _| Ok(()),
    )
}

fn days(ctx: &AgentCtx<'_>, l: &Located, schema: &super::Schema) -> Result<(), RuntimeError> {
    super::record_table(
        ctx,
        l,
        schema,
        "day",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "aggregatewam",
            category: "health",
            what: "a day of activity the Withings devices measured, as Health Mate aggregated it (values and units as stored; midnight Unix milliseconds)",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "Withings activity of {}",
                    raw(t, row, "day").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("day", FactType::Text, "day"),
                ("user", FactType::Account, "user id"),
                ("timezone", FactType::Text, "time zone"),
                ("steps", FactType::Count, "steps"),
                ("distance", FactType::Text, "distance"),
                ("calories", FactType::Text, "active calories"),
                ("earnedCalories", FactType::Text, "earned calories"),
                ("passivecalories", FactType::Text, "passive calories"),
                ("ascent", FactType::Text, "ascent"),
                ("descent", FactType::Text, "descent"),
                ("inactiveDuration", FactType::Text, "inactive duration"),
                ("softMETDuration", FactType::Text, "light activity duration"),
                (
                    "moderateMETDuration",
                    FactType::Text,
                    "moderate activity duration",
                ),
                (
                    "intenseMETDuration",
                    FactType::Text,
                    "intense activity duration",
                ),
                ("hrAverage", FactType::Text, "average heart rate"),
                ("hrResting", FactType::Count, "resting heart rate"),
                ("hrMin", FactType::Count, "lowest heart rate"),
                ("hrMax", FactType::Count, "highest heart rate"),
                ("averageSpo2", FactType::Text, "average SpO2"),
                ("temperatureAverage", FactType::Text, "average temperature"),
                ("devicemodel", FactType::Text, "device model"),
            ],
            times: &[("midnight", "Withings activity day began", unix_millis)],
        },
        &mut |_, _, _| Ok(()),
    )
}

fn tracks(ctx: &AgentCtx<'_>, l: &Located, tables: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    let Some(cols) = tables.need("Track", &["id", "startDate"])? else {
        return Ok(());
    };
    let c = |col: &str| column_or_null(cols, "t.", col, col);
    // the points are counted per track in one pass; the four positions are looked up only for
    // the tracks with points (the outer query), so a store of many nights costs one scan each
    let (count, positions) = match tables.get("WorkoutLocation") {
        Some(w)
            if ["date", "latitude", "longitude"]
                .iter()
                .all(|x| w.contains(*x))
                && cols.contains("endDate") =>
        {
            let same = w.contains("userId") && cols.contains("userId");
            let within = |of: &str| {
                let user = if same {
                    format!(" AND w.userId = {of}.userId")
                } else {
                    String::new()
                };
                format!("w.date BETWEEN {of}.startDate AND {of}.endDate{user}")
            };
            let at = |col: &str, order: &str| {
                format!(
                    "CASE WHEN q.gps_points > 0 THEN (SELECT w.{col} FROM WorkoutLocation w WHERE {} ORDER BY w.date {order}, w.rowid {order} LIMIT 1) END",
                    within("q")
                )
            };
            (
                format!(
                    "(SELECT count(*) FROM WorkoutLocation w WHERE {})",
                    within("t")
                ),
                format!(
                    "{} AS first_lat, {} AS first_lon, {} AS last_lat, {} AS last_lon",
                    at("latitude", "ASC"),
                    at("longitude", "ASC"),
                    at("latitude", "DESC"),
                    at("longitude", "DESC"),
                ),
            )
        }
        _ => (
            "NULL".to_string(),
            "NULL AS first_lat, NULL AS first_lon, NULL AS last_lat, NULL AS last_lon".to_string(),
        ),
    };
    let sql = format!(
        "SELECT q.*, {positions} FROM (SELECT t.rowid AS rid, t.id AS id, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {count} AS gps_points, t.startDate AS startDate, {}, {} FROM Track t) q ORDER BY q.rid",
        c("wsId"),
        c("userId"),
        c("timeZone"),
        c("day"),
        c("deviceId"),
        c("deviceModel"),
        c("deviceType"),
        c("attrib"),
        c("category"),
        c("note"),
        c("deleted"),
        c("dataJson"),
        c("endDate"),
        c("modifiedDate"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "Track",
            category: "health",
            what: "an activity Health Mate tracked (a workout, a walk, a night; category and device codes as stored; its data as the JSON stored), with the GPS points the app recorded between its start and end — how many, the first and the last position; times Unix milliseconds",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "Withings track {}",
                    raw(t, row, "id").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("id", FactType::Identifier, "id"),
                ("wsId", FactType::Identifier, "server id"),
                ("userId", FactType::Account, "user id"),
                ("timeZone", FactType::Text, "time zone"),
                ("day", FactType::Text, "day"),
                ("deviceId", FactType::Identifier, "device id"),
                ("deviceModel", FactType::Text, "device model"),
                ("deviceType", FactType::Text, "device type"),
                ("attrib", FactType::Text, "attribution"),
                ("category", FactType::Text, "category"),
                ("note", FactType::Text, "note"),
                ("deleted", FactType::Text, "deleted"),
                ("dataJson", FactType::Text, "data"),
                ("gps_points", FactType::Count, "GPS points"),
                ("first_lat", FactType::Text, "first latitude"),
                ("first_lon", FactType::Text, "first longitude"),
                ("last_lat", FactType::Text, "last latitude"),
                ("last_lon", FactType::Text, "last longitude"),
            ],
            times: &[
                ("startDate", "Withings track started", unix_millis),
                ("endDate", "Withings track ended", unix_millis),
                ("modifiedDate", "Withings track modified", unix_millis),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

fn locations(ctx: &AgentCtx<'_>, l: &Located, tables: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    if tables
        .need("WorkoutLocation", &["date", "latitude", "longitude"])?
        .is_none()
    {
        return Ok(());
    }
    let at = |col: &str, order: &str| {
        format!(
            "(SELECT f.{col} FROM WorkoutLocation f WHERE date(CASE WHEN f.date >= 1000000000000 THEN f.date / 1000 ELSE f.date END, 'unixepoch') = d.day ORDER BY f.date {order}, f.rowid {order} LIMIT 1)"
        )
    };
    let sql = format!(
        "SELECT d.day AS rid, d.day AS day, d.points AS points, d.first_time AS first_time, d.last_time AS last_time, {} AS first_lat, {} AS first_lon, {} AS last_lat, {} AS last_lon FROM (SELECT date(CASE WHEN date >= 1000000000000 THEN date / 1000 ELSE date END, 'unixepoch') AS day, count(*) AS points, min(date) AS first_time, max(date) AS last_time FROM WorkoutLocation WHERE date > 0 GROUP BY 1) d ORDER BY d.day",
        at("latitude", "ASC"),
        at("longitude", "ASC"),
        at("latitude", "DESC"),
        at("longitude", "DESC"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "WorkoutLocation",
            category: "locations",
            what: "a day (UTC) of the GPS points Health Mate recorded during workouts, summarised: how many, the first and last position and when (Unix milliseconds); the points themselves stay in the store",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "Withings GPS points of {}",
                    raw(t, row, "day").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("day", FactType::Text, "day (UTC)"),
                ("points", FactType::Count, "points"),
                ("first_lat", FactType::Text, "first latitude"),
                ("first_lon", FactType::Text, "first longitude"),
                ("last_lat", FactType::Text, "last latitude"),
                ("last_lon", FactType::Text, "last longitude"),
            ],
            times: &[
                (
                    "first_time",
                    "First Withings GPS point of the day",
                    unix_by_magnitude,
                ),
                (
                    "last_time",
                    "Last Withings GPS point of the day",
                    unix_by_magnitude,
                ),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

fn leaderboard(
    ctx: &AgentCtx<'_>,
    l: &Located,
    tables: &Tables<'_, '_>,
) -> Result<(), RuntimeError> {
    let Some(cols) = tables.need("leaderboard", &["userid"])? else {
        return Ok(());
    };
    let c = |col: &str| column_or_null(cols, "", col, col);
    let part = |col: &str| {
        if cols.contains(col) {
            col.to_string()
        } else {
            "NULL".to_string()
        }
    };
    let sql = format!(
        "SELECT rowid AS rid, userid, CASE WHEN userid IS NOT NULL AND userid != '' THEN 'withings:' || userid END AS qualified, {}, {}, trim(coalesce({}, '') || ' ' || coalesce({}, '')) AS full_name, {}, {}, {}, {} FROM leaderboard ORDER BY rowid",
        c("firstname"),
        c("lastName"),
        part("firstname"),
        part("lastName"),
        c("score"),
        c("date"),
        c("imageUrl"),
        c("modified"),
    );
    let file = l.name().to_string();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "leaderboard",
            category: "contacts",
            what: "an entry of the Health Mate leaderboard, a person the account compares steps with (score and date as stored; modified Unix milliseconds)",
            title: &|t: &Table, row: &[Option<String>]| {
                let who = raw(t, row, "full_name")
                    .or_else(|| raw(t, row, "userid"))
                    .unwrap_or_else(|| "?".into());
                match raw(t, row, "date") {
                    Some(d) => format!("Withings leaderboard {who} ({d})"),
                    None => format!("Withings leaderboard {who}"),
                }
            },
            fields: &[
                ("userid", FactType::Account, "user id"),
                ("firstname", FactType::Name, "first name"),
                ("lastName", FactType::Name, "last name"),
                ("score", FactType::Count, "score"),
                ("date", FactType::Text, "date"),
                ("imageUrl", FactType::Url, "image"),
            ],
            times: &[(
                "modified",
                "Withings leaderboard entry modified",
                unix_millis,
            )],
        },
        &mut |inv, t, row| {
            observe_row_person(
                ctx,
                t,
                row,
                inv,
                "full_name",
                &[
                    ("qualified", IdType::AccountId, "The Withings user id"),
                    ("full_name", IdType::DisplayName, "The name"),
                ],
                &|what, who| {
                    format!(
                        "{what} of {who}, on the Health Mate leaderboard of the account on the device ({file})."
                    )
                },
            )
        },
    )
}
