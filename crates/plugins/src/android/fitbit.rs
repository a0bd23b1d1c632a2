//! Fitbit (`com.fitbit.FitbitMobile/databases/`), ALEAPP's `fitbit` (the phone app's
//! `activity_db`, `device_database`, `exercise_db`, `heart_rate_db`, `sleep`, `social_db`, and
//! the Wear OS app's `user.db` and `passive_stats.db`): who the account is and who its friends
//! are, the trackers paired with the phone, and what the wearer did, where and when.
//!
//! | store: table | phenomenon | fields |
//! |---|---|---|
//! | `activity_db`: `ACTIVITY_LOG_ENTRY` | one `health` per activity ("Fitbit activity <name>") | name, log type, active duration, duration, speed, pace, elevation gain, average heart rate, distance and unit, steps, details type, calories (manual), source name and type, GPS, swim lengths, pool length and unit, very and moderately active minutes, fat-burn, cardio and peak heart-rate zones; logged, created |
//! | `device_database`: `core_device` | one `device` per tracker ("Fitbit device <name>") | name, Bluetooth address, battery, type; last sync |
//! | `exercise_db`: `EXERCISE_EVENT` | one `locations` per exercise session ("Fitbit exercise session <id>") | points, labels, the first and last point's latitude and longitude; first and last point's time |
//! | `heart_rate_db`: `HEART_RATE_DAILY_SUMMARY` | one `health` per day | average and resting heart rate; the day |
//! | `sleep`: `SLEEP_LOG` | one `health` per sleep | log id, sync status, duration, minutes asleep, awake, to fall asleep, after waking; the night, start |
//! | `social_db`: `FRIEND` | one `contacts` per friend ("Fitbit friend <name>") | the owning user's id, the friend's encoded id, display name, avatar, friend, child |
//! | `social_db`: `USER_PROFILE` | one `accounts` per profile ("Fitbit profile <name>") | encoded id, display and full name, about me, avatar, cover photo, city, state, country, birth date, height, weight, gender, coach; last updated, joined |
//! | `user.db`: `FitbitProfileEntity` | one `accounts` ("Fitbit account <e-mail>") | user id, full and display name, e-mail, gender, birth date, height, weight, member since |
//! | `user.db`: `ActivityExerciseEntity`, `FitbitSleepDateEntity` | one `health` per exercise (name, duration, distance, steps, calories, heart rate, elevation, active-zone minutes, log id; start) and per sleep (night, minutes asleep, awake, to fall asleep, after waking, type, main; start, end) |
//! | `passive_stats.db`: `ExerciseSummaryEntity`, `ExerciseGpsEntity` | one `health` per workout (session, type, distance in mm, steps, calories, heart rate, elevation in ft; start); one `locations` for the watch's GPS track (points, first and last position and time) |
//!
//! Times are Unix milliseconds as stored. Identities: the friends list's owning user id is the
//! device's user's (`owner`: `fitbit:<id>`), the Wear OS profile's e-mail, user id
//! (`fitbit:<id>`) and name too; each friend and profile is a `fitbit:<encoded id>` person with
//! its names; each tracker is the device `bluetooth:<address>` — the tracker paired with a
//! second phone, or seized itself, is the same device. GPS points in between and the
//! minute-level step, heart-rate and sleep-stage tables are left in the store (one
//! `sqlite_query` away). A store without any table it is read for is noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};

use super::Located;
use crate::calls::column_or_null;
use crate::drafts::{RowPhenomena, no_identity, title_of, unix_millis};
use crate::identity::{artefact_name, observe, observe_columns, schema_on};
use crate::outputs::{Table, raw};

/// The Fitbit stores read, by file name.
const STORES: &[(&str, &[&str])] = &[
    ("activity_db", &["ACTIVITY_LOG_ENTRY"]),
    ("device_database", &["core_device"]),
    ("exercise_db", &["EXERCISE_EVENT"]),
    ("heart_rate_db", &["HEART_RATE_DAILY_SUMMARY"]),
    ("sleep", &["SLEEP_LOG"]),
    ("social_db", &["FRIEND", "USER_PROFILE"]),
    (
        "user.db",
        &[
            "FitbitProfileEntity",
            "ActivityExerciseEntity",
            "FitbitSleepDateEntity",
        ],
    ),
    (
        "passive_stats.db",
        &["ExerciseSummaryEntity", "ExerciseGpsEntity"],
    ),
];

/// Whether `path` is one of Fitbit's stores.
pub fn is_store_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    path.contains("/com.fitbit.FitbitMobile/databases/") && STORES.iter().any(|(n, _)| *n == name)
}

/// Whether `l` is one of Fitbit's stores.
pub fn is_store(l: &Located) -> bool {
    is_store_path(&l.path)
}

use super::Schema;

/// One Fitbit store.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let expected = STORES
        .iter()
        .find(|(n, _)| *n == l.name())
        .map(|(_, t)| *t)
        .unwrap_or_default();
    if !expected.iter().any(|t| schema.contains_key(*t)) {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            &format!(
                "not Fitbit's {}: no table {}",
                l.name(),
                expected.join(" or ")
            ),
            None,
        )?;
        return Ok(());
    }
    match l.name() {
        "activity_db" => activities(ctx, l, &schema),
        "device_database" => devices(ctx, l, &schema),
        "exercise_db" => track(ctx, l, &schema, "EXERCISE_EVENT", &TRACK_PHONE),
        "heart_rate_db" => heart_rate(ctx, l, &schema),
        "sleep" => sleep(ctx, l, &schema),
        "social_db" => social(ctx, l, &schema),
        "user.db" => wear_user(ctx, l, &schema),
        _ => wear_passive(ctx, l, &schema),
    }
}

/// `'fitbit:' || col AS alias` where the column holds a value: a Fitbit id qualified in the
/// query, so that the observed value is in its output.
fn qualified(col: &str, alias: &str) -> String {
    format!("CASE WHEN {col} != '' THEN 'fitbit:' || {col} END AS {alias}")
}

fn activities(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    super::record_table(
        ctx,
        l,
        schema,
        "LOG_DATE",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "ACTIVITY_LOG_ENTRY",
            category: "health",
            what: "an activity the Fitbit account logged (durations as stored; times Unix milliseconds)",
            title: &title_of("Fitbit activity", &["NAME"]),
            fields: &[
                ("NAME", FactType::Text, "activity"),
                ("LOG_TYPE", FactType::Text, "log type"),
                ("ACTIVE_DURATION", FactType::Count, "active duration"),
                ("DURATION", FactType::Count, "duration"),
                ("SPEED", FactType::Text, "speed"),
                ("PACE", FactType::Text, "pace"),
                ("ELEVATION_GAIN", FactType::Text, "elevation gain"),
                ("AVERAGE_HEART_RATE", FactType::Count, "average heart rate"),
                ("DISTANCE", FactType::Text, "distance"),
                ("DISTANCE_UNIT", FactType::Text, "distance unit"),
                ("STEPS", FactType::Count, "steps"),
                ("DETAILS_TYPE", FactType::Text, "details type"),
                ("CALORIES", FactType::Count, "calories"),
                (
                    "MANUAL_CALORIES_POPULATED",
                    FactType::Text,
                    "calories entered",
                ),
                ("SOURCE_NAME", FactType::Text, "source"),
                ("SOURCE_TYPE", FactType::Text, "source type"),
                ("HAS_GPS", FactType::Text, "GPS"),
                ("SWIM_LENGTHS", FactType::Count, "swim lengths"),
                ("POOL_LENGTH", FactType::Text, "pool length"),
                ("POOL_LENGTH_UNIT", FactType::Text, "pool length unit"),
                (
                    "VERY_ACTIVE_MINUTES",
                    FactType::Count,
                    "very active minutes",
                ),
                (
                    "MODERATELY_ACTIVE_MINUTES",
                    FactType::Count,
                    "moderately active minutes",
                ),
                ("FAT_BURN_HEART_RATE_ZONE", FactType::Text, "fat-burn zone"),
                ("CARDIO_HEART_RATE_ZONE", FactType::Text, "cardio zone"),
                ("PEAK_HEART_RATE_ZONE", FactType::Text, "peak zone"),
            ],
            times: &[
                ("LOG_DATE", "Fitbit activity", unix_millis),
                ("TIME_CREATED", "Fitbit activity logged", unix_millis),
            ],
        },
        &mut no_identity,
    )
}

fn devices(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    let file = l.name();
    super::record_table(
        ctx,
        l,
        schema,
        "bleMacAddress",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "core_device",
            category: "device",
            what: "a Fitbit tracker paired with the app (last sync Unix milliseconds)",
            title: &title_of("Fitbit device", &["deviceName", "bleMacAddress"]),
            fields: &[
                ("deviceName", FactType::Name, "name"),
                ("bleMacAddress", FactType::Identifier, "Bluetooth address"),
                ("batteryPercent", FactType::Count, "battery %"),
                ("deviceType", FactType::Text, "type"),
            ],
            times: &[("lastsynctime", "Fitbit device last synced", unix_millis)],
        },
        &mut |inv, t, row| {
            let Some(mac) = t.get(row, "bleMacAddress").filter(|m| !m.is_empty()) else {
                return Ok(());
            };
            let label = t.get(row, "deviceName").unwrap_or(mac);
            observe(
                ctx,
                &format!("bluetooth:{}", mac.to_ascii_uppercase()),
                EntityKind::Device,
                label,
                IdType::BluetoothAddress,
                mac,
                inv,
                format!(
                    "{file} lists the Fitbit tracker {label} paired with the app, Bluetooth address {mac}."
                ),
            )?;
            Ok(())
        },
    )
}

/// How a GPS table is summarised: its columns and the session column (none: one track).
struct TrackSpec {
    time: &'static str,
    lat: &'static str,
    lon: &'static str,
    session: Option<&'static str>,
    label: Option<&'static str>,
    what: &'static str,
    title: &'static str,
}

const TRACK_PHONE: TrackSpec = TrackSpec {
    time: "TIME",
    lat: "LATITUDE",
    lon: "LONGITUDE",
    session: Some("SESSION_ID"),
    label: Some("LABEL"),
    what: "the GPS track the Fitbit app recorded during an exercise session: its points, labels and the first and last position (Unix milliseconds)",
    title: "Fitbit exercise session",
};

const TRACK_WATCH: TrackSpec = TrackSpec {
    time: "time",
    lat: "latitude",
    lon: "longitude",
    session: None,
    label: None,
    what: "the GPS track the Fitbit watch recorded: its points and the first and last position (Unix milliseconds)",
    title: "Fitbit watch GPS track",
};

/// One `locations` per session of a GPS table: points, labels, first and last position.
fn track(
    ctx: &AgentCtx<'_>,
    l: &Located,
    schema: &Schema,
    table: &str,
    s: &TrackSpec,
) -> Result<(), RuntimeError> {
    let Some(cols) = schema.get(table) else {
        return Ok(());
    };
    let mut needed = vec![s.time, s.lat, s.lon];
    needed.extend(s.session);
    if !crate::calls::require_columns(
        ctx,
        &artefact_name(&l.tree, &l.path),
        &format!("Fitbit's {}", l.name()),
        table,
        cols,
        &needed,
    )? {
        return Ok(());
    }
    let (key, group, same) = match s.session {
        Some(c) => (
            format!("e.{c}"),
            format!(" GROUP BY e.{c} ORDER BY e.{c}"),
            format!(" AND f.{c} = e.{c}"),
        ),
        None => ("'all'".to_string(), String::new(), String::new()),
    };
    let point = |col: &str, order: &str| {
        format!(
            "(SELECT f.{col} FROM {table} f WHERE f.{} IS NOT NULL AND f.{} IS NOT NULL{same} ORDER BY f.{} {order} LIMIT 1)",
            s.lat, s.lon, s.time
        )
    };
    let labels = match s.label {
        Some(c) if cols.contains(c) => format!("group_concat(DISTINCT e.{c})"),
        _ => "NULL".to_string(),
    };
    let sql = format!(
        "SELECT {key} AS rid, {key} AS session, count(*) AS points, {labels} AS labels, min(e.{t}) AS first_time, max(e.{t}) AS last_time, {} AS first_lat, {} AS first_lon, {} AS last_lat, {} AS last_lon FROM {table} e{group}",
        point(s.lat, "ASC"),
        point(s.lon, "ASC"),
        point(s.lat, "DESC"),
        point(s.lon, "DESC"),
        t = s.time,
    );
    let title = title_of(s.title, &["session"]);
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table,
            category: "locations",
            what: s.what,
            title: &title,
            fields: &[
                ("points", FactType::Count, "points"),
                ("labels", FactType::Text, "labels"),
                ("first_lat", FactType::Text, "first latitude"),
                ("first_lon", FactType::Text, "first longitude"),
                ("last_lat", FactType::Text, "last latitude"),
                ("last_lon", FactType::Text, "last longitude"),
            ],
            times: &[
                ("first_time", "First GPS point (Fitbit)", unix_millis),
                ("last_time", "Last GPS point (Fitbit)", unix_millis),
            ],
        },
        &mut no_identity,
    )
}

fn heart_rate(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    super::record_table(
        ctx,
        l,
        schema,
        "DATE_TIME",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "HEART_RATE_DAILY_SUMMARY",
            category: "health",
            what: "a day's heart rate as the Fitbit app summarised it (the day Unix milliseconds)",
            title: &title_of("Fitbit heart rate of day", &["DATE_TIME"]),
            fields: &[
                ("AVERAGE_HEART_RATE", FactType::Count, "average heart rate"),
                ("RESTING_HEART_RATE", FactType::Count, "resting heart rate"),
            ],
            times: &[("DATE_TIME", "Fitbit heart-rate day", unix_millis)],
        },
        &mut no_identity,
    )
}

fn sleep(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    super::record_table(
        ctx,
        l,
        schema,
        "START_TIME",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "SLEEP_LOG",
            category: "health",
            what: "a sleep the Fitbit tracker recorded (duration as stored; times Unix milliseconds)",
            title: &title_of("Fitbit sleep", &["LOG_ID"]),
            fields: &[
                ("LOG_ID", FactType::Identifier, "log id"),
                ("SYNC_STATUS_STRING", FactType::Text, "sync status"),
                ("DURATION", FactType::Count, "duration"),
                ("MINUTES_ASLEEP", FactType::Count, "minutes asleep"),
                ("MINUTES_AWAKE", FactType::Count, "minutes awake"),
                (
                    "MINUTES_TO_FALL_ASLEEP",
                    FactType::Count,
                    "minutes to fall asleep",
                ),
                (
                    "MINUTES_AFTER_WAKEUP",
                    FactType::Count,
                    "minutes after waking",
                ),
            ],
            times: &[
                ("START_TIME", "Fitbit sleep started", unix_millis),
                ("DATE_OF_SLEEP", "Fitbit night of sleep", unix_millis),
            ],
        },
        &mut no_identity,
    )
}

fn social(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    let file = l.name();
    super::record_table(
        ctx,
        l,
        schema,
        "ENCODED_ID",
        &|cols| {
            let mut q = vec![qualified("ENCODED_ID", "qualified")];
            if cols.contains("OWNING_USER_ID") {
                q.push(qualified("OWNING_USER_ID", "owner_q"));
            }
            q
        },
        &RowPhenomena {
            table: "FRIEND",
            category: "contacts",
            what: "a Fitbit user on the account's friends list (the owning user is the account)",
            title: &title_of("Fitbit friend", &["DISPLAY_NAME", "ENCODED_ID"]),
            fields: &[
                ("OWNING_USER_ID", FactType::Account, "owning user"),
                ("ENCODED_ID", FactType::Account, "user id"),
                ("DISPLAY_NAME", FactType::Name, "display name"),
                ("AVATAR_URL", FactType::Url, "avatar"),
                ("FRIEND", FactType::Text, "friend"),
                ("CHILD", FactType::Text, "child"),
            ],
            times: &[],
        },
        &mut |inv, t, row| {
            if let Some(own) = raw(t, row, "owner_q") {
                crate::identity::observe_owner_ids(
                    ctx,
                    inv,
                    vec![(Some(own), IdType::AccountId, "The Fitbit user id")],
                    &|what| {
                        format!(
                            "{what} owning the friends list of the Fitbit app ({file}), the device's user's account."
                        )
                    },
                )?;
            }
            fitbit_person(
                ctx,
                inv,
                t,
                row,
                "ENCODED_ID",
                &["DISPLAY_NAME"],
                "a friend of the account",
                file,
            )
        },
    )?;
    super::record_table(
        ctx,
        l,
        schema,
        "DISPLAY_NAME",
        &|cols| {
            if cols.contains("ENCODED_ID") {
                vec![qualified("ENCODED_ID", "qualified")]
            } else {
                Vec::new()
            }
        },
        &RowPhenomena {
            table: "USER_PROFILE",
            category: "accounts",
            what: "a Fitbit user's profile the app kept (times Unix milliseconds)",
            title: &title_of("Fitbit profile", &["DISPLAY_NAME", "FULL_NAME"]),
            fields: &[
                ("ENCODED_ID", FactType::Account, "user id"),
                ("DISPLAY_NAME", FactType::Name, "display name"),
                ("FULL_NAME", FactType::Name, "full name"),
                ("ABOUT_ME", FactType::Text, "about me"),
                ("AVATAR_URL", FactType::Url, "avatar"),
                ("COVER_PHOTO_URL", FactType::Url, "cover photo"),
                ("CITY", FactType::Text, "city"),
                ("STATE", FactType::Text, "state"),
                ("COUNTRY", FactType::Text, "country"),
                ("HEIGHT", FactType::Text, "height"),
                ("WEIGHT", FactType::Text, "weight"),
                ("GENDER", FactType::Text, "gender"),
                ("COACH", FactType::Text, "coach"),
            ],
            times: &[
                ("LAST_UPDATED", "Fitbit profile updated", unix_millis),
                ("JOINED_DATE", "Joined Fitbit", unix_millis),
                (
                    "DATE_OF_BIRTH",
                    "Date of birth (Fitbit profile)",
                    unix_millis,
                ),
            ],
        },
        &mut |inv, t, row| {
            fitbit_person(
                ctx,
                inv,
                t,
                row,
                "ENCODED_ID",
                &["FULL_NAME", "DISPLAY_NAME"],
                "a profile the app kept",
                file,
            )
        },
    )
}

/// Observes the `fitbit:<id>` person of a row's `id` column with its names.
#[allow(clippy::too_many_arguments)]
fn fitbit_person(
    ctx: &AgentCtx<'_>,
    inv: &masf_tools::Invoked,
    t: &Table,
    row: &[Option<String>],
    id: &str,
    names: &[&str],
    what: &str,
    file: &str,
) -> Result<(), RuntimeError> {
    let (Some(user), Some(context)) = (
        t.get(row, id).filter(|v| !v.is_empty()),
        t.get(row, "qualified"),
    ) else {
        return Ok(());
    };
    let label = names
        .iter()
        .find_map(|c| t.get(row, c))
        .unwrap_or(user)
        .to_string();
    observe(
        ctx,
        context,
        EntityKind::Person,
        &label,
        IdType::AccountId,
        context,
        inv,
        format!("The Fitbit user id {user} of {label}, {what} ({file})."),
    )?;
    let ids: Vec<(&str, IdType, &str)> = names
        .iter()
        .map(|c| (*c, IdType::DisplayName, "The name"))
        .collect();
    observe_columns(ctx, context, &label, t, row, inv, &ids, &|w| {
        format!("{w} of the Fitbit user {user}, {what} ({file}).")
    })
}

fn wear_user(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    let file = l.name();
    let profile = schema.get("FitbitProfileEntity");
    let fitbit_id = if profile.is_some_and(|c| c.contains("userId")) {
        qualified("userId", "qualified")
    } else {
        "NULL AS qualified".to_string()
    };
    if let Some(cols) = profile.filter(|c| c.contains("userId") || c.contains("email")) {
        let c = |col: &str| column_or_null(cols, "", col, col);
        let sql = format!(
            "SELECT rowid AS rid, {}, {}, {}, {}, {}, {}, {}, {}, {}, {fitbit_id} FROM FitbitProfileEntity ORDER BY rowid",
            c("userId"),
            c("fullName"),
            c("displayName"),
            c("email"),
            c("gender"),
            c("dateOfBirth"),
            c("height"),
            c("weight"),
            c("memberSince"),
        );
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table: "FitbitProfileEntity",
                category: "accounts",
                what: "the Fitbit account signed in on the watch app",
                title: &title_of("Fitbit account", &["email", "displayName", "userId"]),
                fields: &[
                    ("userId", FactType::Account, "user id"),
                    ("fullName", FactType::Name, "full name"),
                    ("displayName", FactType::Name, "display name"),
                    ("email", FactType::Email, "e-mail"),
                    ("gender", FactType::Text, "gender"),
                    ("dateOfBirth", FactType::Text, "born"),
                    ("height", FactType::Text, "height"),
                    ("weight", FactType::Text, "weight"),
                    ("memberSince", FactType::Text, "member since"),
                ],
                times: &[],
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
                        ("qualified", IdType::AccountId, "The Fitbit user id"),
                        ("fullName", IdType::DisplayName, "The name"),
                    ],
                    &|what| {
                        format!(
                            "{what} of the Fitbit account signed in on the device (FitbitProfileEntity of {file}), the device's user's."
                        )
                    },
                )
            },
        )?;
    }
    super::record_table(
        ctx,
        l,
        schema,
        "startTime",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "ActivityExerciseEntity",
            category: "health",
            what: "an exercise the Fitbit watch app logged (duration as stored; start Unix milliseconds)",
            title: &title_of("Fitbit exercise", &["name"]),
            fields: &[
                ("name", FactType::Text, "activity"),
                ("logId", FactType::Identifier, "log id"),
                ("duration", FactType::Count, "duration"),
                ("distance", FactType::Text, "distance"),
                ("distanceUnit", FactType::Text, "distance unit"),
                ("steps", FactType::Count, "steps"),
                ("calories", FactType::Count, "calories"),
                ("averageHeartRate", FactType::Count, "average heart rate"),
                ("elevationGain", FactType::Text, "elevation gain"),
                ("activeZoneMinutes", FactType::Count, "active-zone minutes"),
            ],
            times: &[("startTime", "Fitbit exercise started", unix_millis)],
        },
        &mut no_identity,
    )?;
    super::record_table(
        ctx,
        l,
        schema,
        "startTime",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "FitbitSleepDateEntity",
            category: "health",
            what: "a sleep the Fitbit watch app recorded (times Unix milliseconds)",
            title: &title_of("Fitbit sleep of", &["dateOfSleep"]),
            fields: &[
                ("dateOfSleep", FactType::Text, "night"),
                ("minutesAsleep", FactType::Count, "minutes asleep"),
                ("minutesAwake", FactType::Count, "minutes awake"),
                (
                    "minutesToFallAsleep",
                    FactType::Count,
                    "minutes to fall asleep",
                ),
                (
                    "minutesAfterWakeup",
                    FactType::Count,
                    "minutes after waking",
                ),
                ("type", FactType::Text, "type"),
                ("isMainSleep", FactType::Text, "main sleep"),
            ],
            times: &[
                ("startTime", "Fitbit sleep started", unix_millis),
                ("endTime", "Fitbit sleep ended", unix_millis),
            ],
        },
        &mut no_identity,
    )
}

fn wear_passive(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    super::record_table(
        ctx,
        l,
        schema,
        "time",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "ExerciseSummaryEntity",
            category: "health",
            what: "a workout the Fitbit watch recorded (distance in millimetres, elevation in feet, as the columns name them; start Unix milliseconds)",
            title: &title_of("Fitbit workout", &["sessionId"]),
            fields: &[
                ("sessionId", FactType::Identifier, "session"),
                ("exerciseTypeId", FactType::Text, "exercise type"),
                ("totalDistanceMm", FactType::Count, "distance (mm)"),
                ("steps", FactType::Count, "steps"),
                ("caloriesBurned", FactType::Count, "calories"),
                ("avgHeartRate", FactType::Count, "average heart rate"),
                ("elevationGainFt", FactType::Text, "elevation gain (ft)"),
            ],
            times: &[("time", "Fitbit workout started", unix_millis)],
        },
        &mut no_identity,
    )?;
    track(ctx, l, schema, "ExerciseGpsEntity", &TRACK_WATCH)
}
