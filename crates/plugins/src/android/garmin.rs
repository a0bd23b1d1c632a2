//! Garmin Connect on Android (`com.garmin.android.apps.connectmobile`), ALEAPP's Garmin modules
//! that read the phone (`GarminUser`, `GarminActivities`, `GarminPolyline`, `GarminDailies`,
//! `GarminSleep`, `GarminWeight`, `GarminSPo2`, `GarminResponse`, `GarminJson`,
//! `GarminGcmJsonActivities`, `garmin`'s devices, weather and activities, `GarminSync`,
//! `GarminNotifications`): who is signed in, the watches and sensors paired with the phone and
//! when they synced, what the wearer did, where, and how they slept, weighed and felt, and the
//! phone's notifications the app passed on to the watch.
//!
//! | file: table | phenomenon | fields |
//! |---|---|---|
//! | `shared_prefs/gcm_user_preferences*.xml` | one `accounts` ("Garmin Connect account <user name>") | user name, user id, Garmin GUID, location, country, time zone, locale, gender, birth date, height, weight, activity level, handedness, picture, level, points, sleep window, running and cycling VO2 max, the primary tracker's and the real-time heart-rate device's ids, pregnancy, ECG and pulse-ox flags; the newsfeed last viewed |
//! | `databases/cache-database`: `activity_details` ⋈ `activity_summaries` | one `health` per activity ("Garmin Connect activity <name> (<id>)"): the summary's JSON first, else the details' column | id, name, type, start (GMT and local as stored), distance, duration, moving duration, elevation gain and loss, speeds, start and end position, place, calories, heart rate, cadence, steps, VO2 max, device maker and id, the owner's id, name, display name and picture; started, began (Unix ms), details and summary updated |
//! | `activity_polyline` | one `locations` per route ("Garmin Connect route of activity <id>") | the activity's id and name, points, first and last position (decoded from the encoded polyline in the query); the activity's start |
//! | `user_daily_summary` | one `health` per day ("Garmin Connect daily summary <day>") | steps, distances, kilocalories, active time, intensity minutes, floors, heart rate, stress, Body Battery, hydration, SpO2 |
//! | `sleep_detail` | one `health` per sleep ("Garmin Connect sleep starting <day>") | the start's day (UTC), sleep, deep, light, REM and awake seconds, SpO2, respiration; start, end, automatic start and end, updated |
//! | `weight` | one `health` per weigh-in ("Garmin Connect weight <weight> on <day>") | weight as stored, sample id, day (UTC); weighed |
//! | `acclimation_pulse_ox_details` | one `health` per reading with a value ("Garmin Connect pulse ox from <start>") | user profile id, start and end as stored, value, average, how many readings its array holds; start, end |
//! | `response_cache` | one `app_usage` per cached answer ("Garmin Connect cached response <URL>") | request URL, the answer's length (never its text); updated |
//! | `databases/gcm_cache.db`: `devices` | one `device` per device ("Garmin device <product> (unit <unit id>)") | unit id, product, Bluetooth name and address, connection type, software version, picture; last connected |
//! | `json` | one `app_usage` per concept cached ("Garmin Connect JSON cache <concept>") | how many entries; first and last saved |
//! | `json_activities` (`ACTIVITY_DETAILS`) | one `health` per activity ("Garmin Connect activity <name> (<id>)") | the fields `garmin` reads from the JSON (id, name, type, start GMT and local, duration, distance, start and end position, heart rate, calories, place, the user's full and display name) and the user profile id where the JSON carries one; started, cached |
//! | `json_activities` (`ACTIVITY_WEATHER`) | one `locations` per row ("Garmin Connect weather of activity <id>") | issued, latitude, longitude, station id and name, temperatures, dew point, humidity, conditions, wind; cached |
//! | `json_activities` (any other type) | one `app_usage` per data type ("Garmin Connect JSON activity cache <type>") | how many entries; first and last saved |
//! | `databases/sync_cache*`: `device_sync_audit` | one `device` per device and UTC day ("Garmin Connect sync audit <device> on <day>") | day, device as the app wrote it, how many audit lines, app versions, the first and last audit text; first and last |
//! | `databases/notification-database`: `notification_info` | one `notifications` per notification ("Garmin Connect notification from <app>: <title>") | app, title, subtitle, message, phone number, type, category, status, actions; posted, its own time, status changed |
//!
//! Times: Unix milliseconds as stored; the API's GMT texts (`2024-06-04 06:00:00`,
//! `2024-06-04T06:00:00.0`) are also written in the query as ISO 8601 UTC
//! (`2024-06-04T06:00:00Z`), the time marked on that form. Columns and JSON members are taken by
//! name (absent ones NULL: the releases differ); a store with none of the tables it is read for
//! is noted, so is a table without the columns it is read by.
//!
//! Identities: the preferences' e-mail (its `userName` when it is one, else the user name as a
//! nickname) and `garmin:<userSettingsUserID>` (qualified by `read_xml`'s `qualify`) are the
//! device's user's (`owner`); each activity's owner is the person `garmin:<owner id>` with its
//! full and display name (a connection's activity can be cached too: the owner id says whose);
//! a pulse-ox reading's user profile id is `garmin:<id>` too. Each device with a unit id is the
//! device `fit-device:<unit id>` — the serial number Garmin's FIT files carry, so a watch seen in
//! a FIT file (`crate::fitfile`) and in Garmin Connect is one device — with its Bluetooth
//! address; a device without a unit id is `bluetooth:<address>`.
//!
//! Left in the stores: the activities' chart samples (`activity_chart_data`), the cached JSON's
//! and answers' texts (summarised), the Facebook SDK's preferences (`com.facebook*`: a token
//! beside a cached profile), Firebase's `PersistedInstallation*` (installation id and tokens),
//! `files/logs/app.log` (ALEAPP reads only OAuth tokens from it) and the preferences'
//! `transactionKey` — secrets, not facts; the `garmin.api/*` files ALEAPP's `*API` modules read
//! are what an extraction tool downloads from Garmin's servers, not files of the phone.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};

use super::{Located, Schema};
use crate::calls::{Tables, column_expr, column_or_null, json_at};
use crate::drafts::{
    Draft, RowPhenomena, date_text, headline, no_identity, record_draft, unix_by_magnitude,
    unix_millis,
};
use crate::identity::{artefact_name, observe, observe_columns, observe_owner_ids, schema_on};
use crate::outputs::Table;

/// The databases read, by file name (`sync_cache*` by its start, never its journals).
fn is_store_name(name: &str) -> bool {
    matches!(
        name,
        "cache-database" | "gcm_cache.db" | "notification-database"
    ) || (name.starts_with("sync_cache")
        && !["-journal", "-wal", "-shm"]
            .iter()
            .any(|s| name.ends_with(s)))
}

/// The user preferences, by file name.
fn is_prefs_name(name: &str) -> bool {
    name.starts_with("gcm_user_preferences") && name.ends_with(".xml")
}

/// Whether a file name is one the `ARTEFACTS` globs give for Garmin Connect (another app's
/// file of the name is none of its: see [`category`]).
pub fn is_garmin_name(name: &str) -> bool {
    is_prefs_name(name)
        || matches!(
            name,
            "cache-database" | "gcm_cache.db" | "notification-database"
        )
        || name.starts_with("sync_cache")
}

/// Whether `path` is one of Garmin Connect's databases.
pub fn is_store_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    path.contains("/com.garmin.android.apps.connectmobile/databases/") && is_store_name(name)
}

/// Whether `path` is Garmin Connect's user preferences.
pub fn is_prefs_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    path.contains("/com.garmin.android.apps.connectmobile/shared_prefs/") && is_prefs_name(name)
}

/// The category of a Garmin Connect file; `None` for another app's file of the name.
pub fn category(path: &str) -> Option<&'static str> {
    if is_prefs_path(path) {
        return Some("accounts");
    }
    if !is_store_path(path) {
        return None;
    }
    Some(match path.rsplit('/').next().unwrap_or(path) {
        "notification-database" => "notifications",
        "cache-database" | "gcm_cache.db" => "health",
        _ => "device",
    })
}

/// Whether `l` is one of Garmin Connect's databases.
pub fn is_store(l: &Located) -> bool {
    is_store_path(&l.path)
}

/// Whether `l` is Garmin Connect's user preferences.
pub fn is_prefs(l: &Located) -> bool {
    is_prefs_path(&l.path)
}

/// Whether `l` is a file this reader reads.
pub fn is_file(l: &Located) -> bool {
    is_store(l) || is_prefs(l)
}

/// The GMT text Garmin's API writes (`2024-06-04 06:00:00`, `2024-06-04T06:00:00.0`) as ISO 8601
/// UTC (`2024-06-04T06:00:00Z`), computed in the query as `alias` so the time grounds in its
/// output; NULL for anything else.
fn gmt(expr: &str, alias: &str) -> String {
    format!(
        "CASE WHEN typeof({expr}) = 'text' AND {expr} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9][ T][0-9][0-9]:[0-9][0-9]:[0-9][0-9]*' THEN substr({expr}, 1, 10) || 'T' || substr({expr}, 12, 8) || 'Z' END AS {alias}"
    )
}

/// `expr` as `alias` when it is a number (a time stored as one), else NULL.
fn number(expr: &str, alias: &str) -> String {
    format!("CASE WHEN typeof({expr}) IN ('integer', 'real') THEN {expr} END AS {alias}")
}

/// `garmin:<expr>` as `alias` (a Garmin user id qualified in the query, so it grounds), NULL
/// where the value is NULL or empty.
fn garmin_id(expr: &str, alias: &str) -> String {
    format!("CASE WHEN {expr} IS NOT NULL AND {expr} != '' THEN 'garmin:' || {expr} END AS {alias}")
}

/// `SELECT rowid AS rid, <each of columns or NULL>, <extra> FROM table<filter> ORDER BY rowid`.
fn table_sql(
    cols: &BTreeSet<String>,
    table: &str,
    columns: &[&str],
    extra: &[String],
    filter: &str,
) -> String {
    let select: Vec<String> = std::iter::once("rowid AS rid".to_string())
        .chain(columns.iter().map(|c| column_or_null(cols, "", c, c)))
        .chain(extra.iter().cloned())
        .collect();
    format!(
        "SELECT {} FROM {table}{filter} ORDER BY rowid",
        select.join(", ")
    )
}

/// The preferences read (ALEAPP's `GarminUser` keys but `userName`, read first, the newsfeed's
/// time, read as one, and `transactionKey`, never read).
const PREFS: &[(&str, FactType, &str)] = &[
    ("userSettingsUserID", FactType::Account, "user id"),
    ("userGarminGUID", FactType::Identifier, "Garmin GUID"),
    ("userLocation", FactType::Text, "location"),
    ("key_user_location_country_code", FactType::Text, "country"),
    ("keyUserTimezone", FactType::Text, "time zone"),
    ("keyUserLocale", FactType::Text, "locale"),
    ("userGender", FactType::Text, "gender"),
    ("userDateOfBirthString", FactType::Text, "born"),
    ("userHeight", FactType::Text, "height"),
    ("userWeightStr", FactType::Text, "weight"),
    ("userActivityLevel", FactType::Text, "activity level"),
    ("userHandednessCapability", FactType::Text, "handedness"),
    ("userIconURL", FactType::Url, "picture"),
    ("userLevel", FactType::Text, "level"),
    ("userPoints", FactType::Count, "points"),
    ("userSleepStartTime", FactType::Text, "sleep start"),
    ("userSleepStopTime", FactType::Text, "sleep stop"),
    ("keyUserRunningVO2Max", FactType::Text, "running VO2 max"),
    ("keyUserCyclingVO2Max", FactType::Text, "cycling VO2 max"),
    (
        "key_primary_activity_tracker_id",
        FactType::Identifier,
        "primary activity tracker",
    ),
    (
        "keyRegisteredRealTimeHeartRateDeviceId",
        FactType::Identifier,
        "real-time heart-rate device",
    ),
    ("keyUserHasCurrentPregnancy", FactType::Text, "pregnancy"),
    ("key_ghs_ecg_enabled", FactType::Text, "ECG enabled"),
    (
        "keyPulseOxSleepCardSupported",
        FactType::Text,
        "pulse-ox sleep card",
    ),
];

/// The user preferences: the account signed in, observed as the owner's.
pub fn prefs(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, prefs)) = super::prefs::prefs_xml(
        ctx,
        l,
        "Garmin Connect",
        Some(serde_json::json!({ "userSettingsUserID": "garmin" })),
    )?
    else {
        return Ok(());
    };
    let get = |k: &str| super::prefs::pref(&prefs, k);
    let user = get("userName");
    let Some(shown) = user
        .clone()
        .or_else(|| get("userSettingsUserID"))
        .or_else(|| get("userGarminGUID"))
    else {
        return Ok(());
    };
    let email = user.as_deref().is_some_and(|u| u.contains('@'));
    let mut d = Draft::new("accounts", format!("Garmin Connect account {shown}"));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(
        if email {
            FactType::Email
        } else {
            FactType::Account
        },
        user.as_deref(),
        &inv,
    );
    let mut said = Vec::new();
    if let Some(u) = &user {
        said.push(format!("user name {u}"));
    }
    for (key, ft, label) in PREFS {
        if let Some(v) = get(key) {
            d.fact(*ft, Some(&v), &inv);
            said.push(format!("{label} {v}"));
        }
    }
    let seen = get("keyNewsfeedLastViewedTimeGMT");
    match unix_by_magnitude(seen.as_deref()) {
        Some(enc) => {
            d.time(
                seen.as_deref(),
                Some(enc),
                "Garmin Connect newsfeed last viewed",
                &inv,
            );
        }
        None => {
            d.fact(FactType::Text, seen.as_deref(), &inv);
        }
    }
    d.interpretation = format!(
        "{}: the Garmin Connect account signed in on the phone: {}; newsfeed last viewed {} (keyNewsfeedLastViewedTimeGMT, Unix time by its size). Values as stored; the transactionKey is not read.",
        l.name(),
        said.join(", "),
        seen.as_deref().unwrap_or("not stored"),
    );
    record_draft(ctx, d)?;
    let qualified = inv
        .output
        .text
        .lines()
        .find_map(|line| line.strip_prefix("# qualified userSettingsUserID: "))
        .map(str::to_string);
    observe_owner_ids(
        ctx,
        &inv,
        vec![
            (
                user.clone().filter(|_| email),
                IdType::Email,
                "e-mail (its user name)",
            ),
            (user.filter(|_| !email), IdType::Nickname, "user name"),
            (qualified, IdType::AccountId, "user id (qualified)"),
        ],
        &|what| {
            format!(
                "The Garmin Connect {what} of the account signed in on the device ({}), the device's user.",
                l.name()
            )
        },
    )
}

/// One Garmin Connect database.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    match l.name() {
        "cache-database" => cache_database(ctx, l, &schema),
        "gcm_cache.db" => gcm_cache(ctx, l, &schema),
        "notification-database" => notifications(ctx, l, &schema),
        _ => sync_cache(ctx, l, &schema),
    }
}

/// An activity's fields in `cache-database`: (alias, the summary's JSON member, the details'
/// column, the summary's column), each taken from the first present: the summary's column, its
/// JSON (as ALEAPP prefers it), the details' column.
type Member = (
    &'static str,
    Option<&'static str>,
    Option<&'static str>,
    Option<&'static str>,
);

const MEMBERS: &[Member] = &[
    ("name", Some("$.activityName"), Some("activityName"), None),
    (
        "kind",
        Some("$.activityType.typeKey"),
        Some("activityTypeKey"),
        None,
    ),
    (
        "start_gmt",
        Some("$.startTimeGMT"),
        Some("startTimeGMT"),
        None,
    ),
    ("start_local", Some("$.startTimeLocal"), None, None),
    ("begin_ms", Some("$.beginTimestamp"), None, None),
    ("distance", Some("$.distance"), Some("distance"), None),
    ("duration", Some("$.duration"), Some("duration"), None),
    (
        "moving",
        Some("$.movingDuration"),
        Some("movingDuration"),
        None,
    ),
    ("gain", Some("$.elevationGain"), Some("elevationGain"), None),
    ("loss", Some("$.elevationLoss"), Some("elevationLoss"), None),
    (
        "avg_speed",
        Some("$.averageSpeed"),
        Some("averageSpeed"),
        None,
    ),
    ("max_speed", Some("$.maxSpeed"), Some("maxSpeed"), None),
    (
        "start_lat",
        Some("$.startLatitude"),
        Some("startLatitude"),
        None,
    ),
    (
        "start_lon",
        Some("$.startLongitude"),
        Some("startLongitude"),
        None,
    ),
    ("end_lat", Some("$.endLatitude"), None, None),
    ("end_lon", Some("$.endLongitude"), None, None),
    ("place", Some("$.locationName"), None, None),
    ("calories", Some("$.calories"), Some("calories"), None),
    ("avg_hr", Some("$.averageHR"), Some("averageHR"), None),
    ("max_hr", Some("$.maxHR"), Some("maxHR"), None),
    (
        "avg_cadence",
        Some("$.averageRunningCadenceInStepsPerMinute"),
        Some("averageRunningCadenceInStepsPerMinute"),
        None,
    ),
    (
        "max_cadence",
        Some("$.maxRunningCadenceInStepsPerMinute"),
        Some("maxRunningCadenceInStepsPerMinute"),
        None,
    ),
    ("steps", Some("$.steps"), Some("steps"), None),
    ("vo2max", Some("$.vO2MaxValue"), None, None),
    ("maker", Some("$.manufacturer"), None, None),
    ("device", Some("$.deviceId"), None, None),
    ("owner_id", Some("$.ownerId"), Some("ownerId"), None),
    ("owner_name", Some("$.ownerFullName"), None, None),
    (
        "owner_display",
        Some("$.ownerDisplayName"),
        None,
        Some("displayName"),
    ),
    (
        "owner_image",
        Some("$.ownerProfileImageUrlLarge"),
        Some("ownerProfileImageUrlLarge"),
        None,
    ),
    ("details_updated", None, Some("lastUpdated"), None),
    ("summary_updated", None, None, Some("lastUpdate")),
];

/// The facts of an activity (the aliases of [`MEMBERS`] and of `json_activities`' query).
const ACTIVITY_FIELDS: &[(&str, FactType, &str)] = &[
    ("activity", FactType::Identifier, "activity id"),
    ("name", FactType::Text, "name"),
    ("kind", FactType::Text, "type"),
    ("start_gmt", FactType::Text, "start (GMT, as stored)"),
    ("start_local", FactType::Text, "start (local, as stored)"),
    ("distance", FactType::Text, "distance"),
    ("duration", FactType::Text, "duration"),
    ("moving", FactType::Text, "moving duration"),
    ("gain", FactType::Text, "elevation gain"),
    ("loss", FactType::Text, "elevation loss"),
    ("avg_speed", FactType::Text, "average speed"),
    ("max_speed", FactType::Text, "maximum speed"),
    ("start_lat", FactType::Text, "start latitude"),
    ("start_lon", FactType::Text, "start longitude"),
    ("end_lat", FactType::Text, "end latitude"),
    ("end_lon", FactType::Text, "end longitude"),
    ("place", FactType::Text, "place"),
    ("calories", FactType::Text, "calories"),
    ("avg_hr", FactType::Text, "average heart rate"),
    ("max_hr", FactType::Text, "maximum heart rate"),
    ("avg_cadence", FactType::Text, "average cadence"),
    ("max_cadence", FactType::Text, "maximum cadence"),
    ("steps", FactType::Count, "steps"),
    ("vo2max", FactType::Text, "VO2 max"),
    ("maker", FactType::Text, "device maker"),
    ("device", FactType::Identifier, "device id"),
    ("owner_id", FactType::Account, "owner id"),
    ("owner_name", FactType::Name, "owner's name"),
    ("owner_display", FactType::Account, "owner's display name"),
    ("owner_image", FactType::Url, "owner's picture"),
];

/// "Garmin Connect activity <name> (<id>)".
fn activity_title(t: &Table, row: &[Option<String>]) -> String {
    match (t.get(row, "name"), t.get(row, "activity")) {
        (Some(n), Some(id)) => format!("Garmin Connect activity {n} ({id})"),
        (Some(x), None) | (None, Some(x)) => format!("Garmin Connect activity {x}"),
        (None, None) => "Garmin Connect activity".to_string(),
    }
}

/// Observes the person `garmin:<id>` of a row's `owner_q` with its `owner_name` and
/// `owner_display`.
fn owner_person(
    ctx: &AgentCtx<'_>,
    inv: &masf_tools::Invoked,
    t: &Table,
    row: &[Option<String>],
    what: &str,
    file: &str,
) -> Result<(), RuntimeError> {
    let Some(context) = t.get(row, "owner_q") else {
        return Ok(());
    };
    let label = t
        .get(row, "owner_name")
        .or(t.get(row, "owner_display"))
        .unwrap_or(context)
        .to_string();
    observe_columns(
        ctx,
        context,
        &label,
        t,
        row,
        inv,
        &[
            (
                "owner_q",
                IdType::AccountId,
                "The Garmin user id (qualified)",
            ),
            ("owner_name", IdType::DisplayName, "The full name"),
            ("owner_display", IdType::Nickname, "The display name"),
        ],
        &|w| format!("{w} of {label}, {what} ({file})."),
    )
}

/// The first cache-database: activities, routes, days, sleep, weight, pulse ox, answers.
fn cache_database(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(t) = Tables::of(
        ctx,
        &name,
        "Garmin Connect's cache-database",
        schema,
        &[
            "activity_details",
            "activity_summaries",
            "activity_polyline",
            "user_daily_summary",
            "sleep_detail",
            "weight",
            "acclimation_pulse_ox_details",
            "response_cache",
        ],
    )?
    else {
        return Ok(());
    };
    activities(ctx, l, &t)?;
    routes(ctx, l, &t)?;
    daily(ctx, l, schema)?;
    sleep(ctx, l, &t)?;
    weight(ctx, l, &t)?;
    pulse_ox(ctx, l, &t)?;
    responses(ctx, l, &t)
}

/// One `health` per activity of `activity_details` and `activity_summaries` (by id).
fn activities(ctx: &AgentCtx<'_>, l: &Located, t: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    let d = t.need("activity_details", &["activityId"])?;
    let s = t.need("activity_summaries", &["activityId"])?;
    let ids = match (d.is_some(), s.is_some()) {
        (true, true) => {
            "SELECT activityId AS id FROM activity_details UNION SELECT activityId FROM activity_summaries"
        }
        (true, false) => "SELECT DISTINCT activityId AS id FROM activity_details",
        (false, true) => "SELECT DISTINCT activityId AS id FROM activity_summaries",
        (false, false) => return Ok(()),
    };
    let json = s.is_some_and(|c| c.contains("json"));
    let members: Vec<String> = MEMBERS
        .iter()
        .map(|(alias, path, details, summary)| {
            let mut parts = Vec::new();
            if let (Some(c), Some(cols)) = (summary, s)
                && cols.contains(*c)
            {
                parts.push(format!("s.{c}"));
            }
            if let Some(p) = path
                && json
            {
                parts.push(json_at("s.json", p));
            }
            if let (Some(c), Some(cols)) = (details, d)
                && cols.contains(*c)
            {
                parts.push(format!("d.{c}"));
            }
            match parts.as_slice() {
                [] => format!("NULL AS {alias}"),
                [one] => format!("{one} AS {alias}"),
                _ => format!("coalesce({}) AS {alias}", parts.join(", ")),
            }
        })
        .collect();
    let mut joins = String::new();
    if d.is_some() {
        joins.push_str(" LEFT JOIN activity_details d ON d.rowid = (SELECT min(x.rowid) FROM activity_details x WHERE x.activityId = a.id)");
    }
    if s.is_some() {
        joins.push_str(" LEFT JOIN activity_summaries s ON s.rowid = (SELECT min(y.rowid) FROM activity_summaries y WHERE y.activityId = a.id)");
    }
    let sql = format!(
        "SELECT *, {}, {} FROM (SELECT a.id AS rid, a.id AS activity, {} FROM ({ids}) a{joins}) ORDER BY rid",
        gmt("start_gmt", "start_utc"),
        garmin_id("owner_id", "owner_q"),
        members.join(", "),
    );
    let file = l.name();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "activity_details and activity_summaries",
            category: "health",
            what: "an activity Garmin Connect cached (its summary's JSON, else the details' columns; values as Garmin's API gives them — distance in metres, durations in seconds, speeds in metres per second —; the start in GMT as stored and as UTC, began and updated Unix milliseconds); the owner id says whose activity it is (a connection's can be cached too)",
            title: &activity_title,
            fields: ACTIVITY_FIELDS,
            times: &[
                ("start_utc", "Garmin Connect activity started", date_text),
                (
                    "begin_ms",
                    "Garmin Connect activity began (beginTimestamp)",
                    unix_millis,
                ),
                (
                    "details_updated",
                    "Garmin Connect activity details updated",
                    unix_millis,
                ),
                (
                    "summary_updated",
                    "Garmin Connect activity summary updated",
                    unix_millis,
                ),
            ],
        },
        &mut |inv, t, row| {
            owner_person(
                ctx,
                inv,
                t,
                row,
                "the owner of an activity Garmin Connect cached",
                file,
            )
        },
    )
}

/// One `locations` per `activity_polyline` row: its route summarised in the query.
fn routes(ctx: &AgentCtx<'_>, l: &Located, t: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    if t.need("activity_polyline", &["activityId", "encodedSamples"])?
        .is_none()
    {
        return Ok(());
    }
    let d = t
        .get("activity_details")
        .filter(|c| c.contains("activityId"));
    let s = t
        .get("activity_summaries")
        .filter(|c| c.contains("activityId") && c.contains("json"));
    let of_activity = |column: &str, path: &str, alias: &str| {
        let mut parts = Vec::new();
        if s.is_some() {
            parts.push(format!(
                "(SELECT {} FROM activity_summaries y WHERE y.activityId = p.activityId ORDER BY y.rowid LIMIT 1)",
                json_at("y.json", path)
            ));
        }
        if d.is_some_and(|c| c.contains(column)) {
            parts.push(format!(
                "(SELECT x.{column} FROM activity_details x WHERE x.activityId = p.activityId ORDER BY x.rowid LIMIT 1)"
            ));
        }
        match parts.as_slice() {
            [] => format!("NULL AS {alias}"),
            [one] => format!("{one} AS {alias}"),
            _ => format!("coalesce({}) AS {alias}", parts.join(", ")),
        }
    };
    let sql = format!(
        "WITH RECURSIVE {} SELECT *, {} FROM (SELECT p.rowid AS rid, p.activityId AS activity, {}, {}, g.points AS points, g.first_lat AS first_lat, g.first_lon AS first_lon, g.last_lat AS last_lat, g.last_lon AS last_lon FROM activity_polyline p LEFT JOIN pl g ON g.rid = p.rowid) ORDER BY rid",
        super::polyline::summary_ctes("activity_polyline", "encodedSamples"),
        gmt("start_gmt", "start_utc"),
        of_activity("activityName", "$.activityName", "name"),
        of_activity("startTimeGMT", "$.startTimeGMT", "start_gmt"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "activity_polyline",
            category: "locations",
            what: "the route of a Garmin Connect activity, its encoded polyline decoded in the query: how many points, where it began and where it ended (decimal degrees); the activity's name and start (GMT as stored, and as UTC) where the store keeps the activity",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "Garmin Connect route of activity {}",
                    t.get(row, "activity").unwrap_or("?")
                )
            },
            fields: &[
                ("activity", FactType::Identifier, "activity id"),
                ("name", FactType::Text, "activity"),
                ("start_gmt", FactType::Text, "start (GMT, as stored)"),
                ("points", FactType::Count, "points"),
                ("first_lat", FactType::Text, "first latitude"),
                ("first_lon", FactType::Text, "first longitude"),
                ("last_lat", FactType::Text, "last latitude"),
                ("last_lon", FactType::Text, "last longitude"),
            ],
            times: &[(
                "start_utc",
                "Garmin Connect route's activity started",
                date_text,
            )],
        },
        &mut no_identity,
    )
}

/// One `health` per `user_daily_summary` row (a day).
fn daily(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    super::record_table(
        ctx,
        l,
        schema,
        "calendarDate",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "user_daily_summary",
            category: "health",
            what: "a day's totals as Garmin Connect summarised them from the wearer's device (values as stored: distances in metres, durations in seconds)",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "Garmin Connect daily summary {}",
                    t.get(row, "calendarDate").unwrap_or("?")
                )
            },
            fields: &[
                ("calendarDate", FactType::Text, "day"),
                ("totalSteps", FactType::Count, "steps"),
                ("totalDistanceMeters", FactType::Text, "distance"),
                (
                    "wellnessDistanceMeters",
                    FactType::Text,
                    "wellness distance",
                ),
                ("totalKilocalories", FactType::Text, "kilocalories"),
                ("activeKilocalories", FactType::Text, "active kilocalories"),
                ("bmrKilocalories", FactType::Text, "resting kilocalories"),
                (
                    "consumedKilocalories",
                    FactType::Text,
                    "kilocalories consumed",
                ),
                (
                    "highlyActiveSeconds",
                    FactType::Text,
                    "highly active seconds",
                ),
                ("activeSeconds", FactType::Text, "active seconds"),
                (
                    "moderateIntensityMinutes",
                    FactType::Text,
                    "moderate-intensity minutes",
                ),
                ("floorsAscendedInMeters", FactType::Text, "floors ascended"),
                (
                    "floorsDescendedInMeters",
                    FactType::Text,
                    "floors descended",
                ),
                ("minHeartRate", FactType::Text, "lowest heart rate"),
                ("maxHeartRate", FactType::Text, "highest heart rate"),
                ("restingHeartRate", FactType::Text, "resting heart rate"),
                (
                    "lastSevenDaysAvgRestingHeartRate",
                    FactType::Text,
                    "seven days' resting heart rate",
                ),
                ("averageStressLevel", FactType::Text, "average stress"),
                ("maxStressLevel", FactType::Text, "highest stress"),
                ("totalStressDuration", FactType::Text, "stress duration"),
                ("highStressDuration", FactType::Text, "high-stress duration"),
                (
                    "bodyBatteryChargedValue",
                    FactType::Text,
                    "Body Battery charged",
                ),
                (
                    "bodyBatteryDrainedValue",
                    FactType::Text,
                    "Body Battery drained",
                ),
                (
                    "bodyBatteryHighestValue",
                    FactType::Text,
                    "Body Battery highest",
                ),
                (
                    "bodyBatteryLowestValue",
                    FactType::Text,
                    "Body Battery lowest",
                ),
                (
                    "bodyBatteryMostRecentValue",
                    FactType::Text,
                    "Body Battery last",
                ),
                ("hydrationValueInML", FactType::Text, "hydration (ml)"),
                ("averageSpo2", FactType::Text, "average SpO2"),
                ("latestSpo2", FactType::Text, "latest SpO2"),
            ],
            times: &[],
        },
        &mut no_identity,
    )
}

/// One `health` per `sleep_detail` row.
fn sleep(ctx: &AgentCtx<'_>, l: &Located, t: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    let Some(cols) = t.need("sleep_detail", &["sleepStartTimeGMT"])? else {
        return Ok(());
    };
    let sql = table_sql(
        cols,
        "sleep_detail",
        &[
            "sleepStartTimeGMT",
            "sleepEndTimeGMT",
            "autoSleepStartTimeGMT",
            "autoSleepEndTimeGMT",
            "sleepTimeInSeconds",
            "deepSleepSeconds",
            "lightSleepSeconds",
            "remSleepSeconds",
            "awakeSleepSeconds",
            "averageSpO2Value",
            "lowestSpO2Value",
            "averageSpO2HRSleep",
            "averageRespirationValue",
            "lowestRespirationValue",
            "highestRespirationValue",
            "lastUpdated",
        ],
        &["CASE WHEN sleepStartTimeGMT > 0 THEN date(sleepStartTimeGMT / 1000, 'unixepoch') END AS start_day".to_string()],
        "",
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "sleep_detail",
            category: "health",
            what: "a sleep the wearer's Garmin device recorded (durations in seconds; times Unix milliseconds, GMT)",
            title: &|t: &Table, row: &[Option<String>]| match t.get(row, "start_day") {
                Some(day) => format!("Garmin Connect sleep starting {day}"),
                None => format!("Garmin Connect sleep {}", t.get(row, "rid").unwrap_or("?")),
            },
            fields: &[
                ("start_day", FactType::Text, "start's day (UTC)"),
                ("sleepTimeInSeconds", FactType::Text, "asleep"),
                ("deepSleepSeconds", FactType::Text, "deep"),
                ("lightSleepSeconds", FactType::Text, "light"),
                ("remSleepSeconds", FactType::Text, "REM"),
                ("awakeSleepSeconds", FactType::Text, "awake"),
                ("averageSpO2Value", FactType::Text, "average SpO2"),
                ("lowestSpO2Value", FactType::Text, "lowest SpO2"),
                (
                    "averageSpO2HRSleep",
                    FactType::Text,
                    "average heart rate (SpO2)",
                ),
                (
                    "averageRespirationValue",
                    FactType::Text,
                    "average breaths per minute",
                ),
                (
                    "lowestRespirationValue",
                    FactType::Text,
                    "lowest breaths per minute",
                ),
                (
                    "highestRespirationValue",
                    FactType::Text,
                    "highest breaths per minute",
                ),
            ],
            times: &[
                (
                    "sleepStartTimeGMT",
                    "Garmin Connect sleep started",
                    unix_millis,
                ),
                ("sleepEndTimeGMT", "Garmin Connect sleep ended", unix_millis),
                (
                    "autoSleepStartTimeGMT",
                    "Garmin Connect automatic sleep start",
                    unix_millis,
                ),
                (
                    "autoSleepEndTimeGMT",
                    "Garmin Connect automatic sleep end",
                    unix_millis,
                ),
                ("lastUpdated", "Garmin Connect sleep updated", unix_millis),
            ],
        },
        &mut no_identity,
    )
}

/// One `health` per `weight` row.
fn weight(ctx: &AgentCtx<'_>, l: &Located, t: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    let Some(cols) = t.need("weight", &["date", "weight"])? else {
        return Ok(());
    };
    let sql = table_sql(
        cols,
        "weight",
        &["samplePk", "date", "weight"],
        &["CASE WHEN \"date\" > 0 THEN date(\"date\" / 1000, 'unixepoch') END AS day".to_string()],
        "",
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "weight",
            category: "health",
            what: "a weigh-in Garmin Connect keeps (the weight as stored: Garmin's API gives grams; weighed Unix milliseconds)",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "Garmin Connect weight {} on {}",
                    t.get(row, "weight").unwrap_or("?"),
                    t.get(row, "day").unwrap_or("an unknown day")
                )
            },
            fields: &[
                ("weight", FactType::Text, "weight"),
                ("samplePk", FactType::Identifier, "sample"),
                ("day", FactType::Text, "day (UTC)"),
            ],
            times: &[("date", "Garmin Connect weigh-in", unix_millis)],
        },
        &mut no_identity,
    )
}

/// One `health` per `acclimation_pulse_ox_details` row with a value.
fn pulse_ox(ctx: &AgentCtx<'_>, l: &Located, t: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    let Some(cols) = t.need(
        "acclimation_pulse_ox_details",
        &["startTimestampGMT", "spo2Value"],
    )?
    else {
        return Ok(());
    };
    let array = column_expr(cols, "", "spo2ValuesArray");
    let end = column_expr(cols, "", "endTimestampGMT");
    let user = column_expr(cols, "", "userProfilePk");
    let sql = table_sql(
        cols,
        "acclimation_pulse_ox_details",
        &[
            "userProfilePk",
            "startTimestampGMT",
            "endTimestampGMT",
            "spo2Value",
            "spo2ValueAverage",
        ],
        &[
            format!(
                "CASE WHEN json_valid({array}) THEN json_array_length({array}) END AS readings"
            ),
            gmt("startTimestampGMT", "start_utc"),
            number("startTimestampGMT", "start_num"),
            gmt(&end, "end_utc"),
            number(&end, "end_num"),
            garmin_id(&user, "owner_q"),
        ],
        " WHERE spo2Value IS NOT NULL",
    );
    let file = l.name();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "acclimation_pulse_ox_details",
            category: "health",
            what: "a pulse-ox (SpO2) reading Garmin Connect keeps for its user: the value, the average and how many readings its array holds (start and end as stored, GMT, and as UTC)",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "Garmin Connect pulse ox from {}",
                    t.get(row, "startTimestampGMT").unwrap_or("?")
                )
            },
            fields: &[
                ("userProfilePk", FactType::Account, "user profile"),
                (
                    "startTimestampGMT",
                    FactType::Text,
                    "start (GMT, as stored)",
                ),
                ("endTimestampGMT", FactType::Text, "end (GMT, as stored)"),
                ("spo2Value", FactType::Text, "SpO2"),
                ("spo2ValueAverage", FactType::Text, "average SpO2"),
                ("readings", FactType::Count, "readings"),
            ],
            times: &[
                (
                    "start_utc",
                    "Garmin Connect pulse-ox reading started",
                    date_text,
                ),
                (
                    "start_num",
                    "Garmin Connect pulse-ox reading started",
                    unix_by_magnitude,
                ),
                (
                    "end_utc",
                    "Garmin Connect pulse-ox reading ended",
                    date_text,
                ),
                (
                    "end_num",
                    "Garmin Connect pulse-ox reading ended",
                    unix_by_magnitude,
                ),
            ],
        },
        &mut |inv, t, row| {
            owner_person(
                ctx,
                inv,
                t,
                row,
                "the user of a pulse-ox reading Garmin Connect keeps",
                file,
            )
        },
    )
}

/// One `app_usage` per `response_cache` row (its URL and the answer's length, never its text).
fn responses(ctx: &AgentCtx<'_>, l: &Located, t: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    let Some(cols) = t.need("response_cache", &["requestUrl"])? else {
        return Ok(());
    };
    let body = column_expr(cols, "", "response");
    let sql = table_sql(
        cols,
        "response_cache",
        &["requestUrl", "lastUpdate"],
        &[format!("length({body}) AS response_chars")],
        "",
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "response_cache",
            category: "app_usage",
            what: "an answer of Garmin's servers the app cached: what it asked for and how long the answer is (its text is left in the store; updated Unix milliseconds)",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "Garmin Connect cached response {}",
                    t.get(row, "requestUrl").unwrap_or("?")
                )
            },
            fields: &[
                ("requestUrl", FactType::Url, "request"),
                ("response_chars", FactType::Count, "answer's characters"),
            ],
            times: &[("lastUpdate", "Garmin Connect response cached", unix_millis)],
        },
        &mut no_identity,
    )
}

/// The newer gcm_cache.db: devices, the JSON caches.
fn gcm_cache(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(t) = Tables::of(
        ctx,
        &name,
        "Garmin Connect's gcm_cache.db",
        schema,
        &["devices", "json", "json_activities"],
    )?
    else {
        return Ok(());
    };
    devices(ctx, l, &t)?;
    json_cache(ctx, l, &t)?;
    json_activities(ctx, l, &t)
}

/// One `device` per `devices` row, each the device `fit-device:<unit id>`.
fn devices(ctx: &AgentCtx<'_>, l: &Located, t: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    let Some(cols) = t.need("devices", &["unit_id"])? else {
        return Ok(());
    };
    let sql = table_sql(
        cols,
        "devices",
        &[
            "unit_id",
            "product_display_name",
            "bt_friendly_name",
            "mac_address",
            "connection_type",
            "software_version",
            "image_url",
            "last_connected_timestamp",
        ],
        &[],
        "",
    );
    let file = l.name();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "devices",
            category: "device",
            what: "a Garmin device (watch, tracker, sensor) paired with Garmin Connect on the phone: its unit id (the serial number its FIT files carry), product, Bluetooth name and address, connection, software (last connected Unix milliseconds)",
            title: &|t: &Table, row: &[Option<String>]| {
                let unit = t.get(row, "unit_id");
                let product = t
                    .get(row, "product_display_name")
                    .or(t.get(row, "bt_friendly_name"))
                    .or(unit)
                    .unwrap_or("?");
                match unit {
                    Some(u) => format!("Garmin device {product} (unit {u})"),
                    None => format!("Garmin device {product}"),
                }
            },
            fields: &[
                ("unit_id", FactType::Serial, "unit id"),
                ("product_display_name", FactType::Name, "product"),
                ("bt_friendly_name", FactType::Name, "Bluetooth name"),
                ("mac_address", FactType::Identifier, "Bluetooth address"),
                ("connection_type", FactType::Text, "connection"),
                ("software_version", FactType::Text, "software"),
                ("image_url", FactType::Url, "picture"),
            ],
            times: &[(
                "last_connected_timestamp",
                "Garmin device last connected to Garmin Connect",
                unix_millis,
            )],
        },
        &mut |inv, t, row| {
            let (unit, mac) = (t.get(row, "unit_id"), t.get(row, "mac_address"));
            let product = t
                .get(row, "product_display_name")
                .or(t.get(row, "bt_friendly_name"))
                .unwrap_or("a Garmin device");
            let (context, label) = match (unit, mac) {
                (Some(u), _) => (format!("fit-device:{u}"), format!("{product} (serial {u})")),
                (None, Some(m)) => (
                    format!("bluetooth:{}", m.to_ascii_uppercase()),
                    product.to_string(),
                ),
                (None, None) => return Ok(()),
            };
            if let Some(u) = unit {
                observe(
                    ctx,
                    &context,
                    EntityKind::Device,
                    &label,
                    IdType::Serial,
                    u,
                    inv,
                    format!(
                        "The unit id {u} of {product}, a Garmin device paired with Garmin Connect (devices of {file}): Garmin's unit id is the serial number its FIT files carry."
                    ),
                )?;
            }
            if let Some(m) = mac {
                observe(
                    ctx,
                    &context,
                    EntityKind::Device,
                    &label,
                    IdType::BluetoothAddress,
                    m,
                    inv,
                    format!(
                        "The Bluetooth address {m} of {product}, a Garmin device paired with Garmin Connect (devices of {file})."
                    ),
                )?;
            }
            Ok(())
        },
    )
}

/// One `app_usage` per concept of the `json` cache: entries, first and last saved.
fn json_cache(ctx: &AgentCtx<'_>, l: &Located, t: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    let Some(cols) = t.need("json", &["concept_name"])? else {
        return Ok(());
    };
    let saved = column_expr(cols, "", "saved_timestamp");
    let sql = format!(
        "SELECT concept_name, count(*) AS entries, min({saved}) AS first_saved, max({saved}) AS last_saved FROM json GROUP BY concept_name ORDER BY concept_name"
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "json",
            category: "app_usage",
            what: "a concept Garmin Connect cached as JSON from Garmin's servers, summarised: how many entries, first and last saved (Unix milliseconds); the JSON is left in the store",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "Garmin Connect JSON cache {}",
                    t.get(row, "concept_name").unwrap_or("without a concept")
                )
            },
            fields: &[
                ("concept_name", FactType::Text, "concept"),
                ("entries", FactType::Count, "entries"),
            ],
            times: &[
                (
                    "first_saved",
                    "Garmin Connect JSON first saved",
                    unix_millis,
                ),
                ("last_saved", "Garmin Connect JSON last saved", unix_millis),
            ],
        },
        &mut no_identity,
    )
}

/// `json_activities`: one per activity's details, one per weather row, one per other data type.
fn json_activities(
    ctx: &AgentCtx<'_>,
    l: &Located,
    t: &Tables<'_, '_>,
) -> Result<(), RuntimeError> {
    let Some(cols) = t.need("json_activities", &["data_type", "cached_val"])? else {
        return Ok(());
    };
    let j = |path: &str, alias: &str| format!("{} AS {alias}", json_at("cached_val", path));
    let concept = column_or_null(cols, "", "concept_id", "concept_id");
    let saved = column_or_null(cols, "", "saved_timestamp", "saved_timestamp");
    let sql = format!(
        "SELECT *, {}, {} FROM (SELECT rowid AS rid, {concept}, {saved}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, coalesce({}, {}) AS owner_id FROM json_activities WHERE data_type = 'ACTIVITY_DETAILS') ORDER BY rid",
        gmt("start_gmt", "start_utc"),
        garmin_id("owner_id", "owner_q"),
        j("$.activityId", "activity"),
        j("$.activityName", "name"),
        j("$.activityTypeDTO.typeKey", "kind"),
        j("$.summaryDTO.startTimeGMT", "start_gmt"),
        j("$.summaryDTO.startTimeLocal", "start_local"),
        j("$.summaryDTO.duration", "duration"),
        j("$.summaryDTO.distance", "distance"),
        j("$.summaryDTO.startLatitude", "start_lat"),
        j("$.summaryDTO.startLongitude", "start_lon"),
        j("$.summaryDTO.endLatitude", "end_lat"),
        j("$.summaryDTO.endLongitude", "end_lon"),
        j("$.summaryDTO.averageHR", "avg_hr"),
        j("$.summaryDTO.calories", "calories"),
        j("$.locationName", "place"),
        j("$.metadataDTO.userInfoDto.fullname", "owner_name"),
        j("$.metadataDTO.userInfoDto.displayname", "owner_display"),
        json_at("cached_val", "$.userProfileId"),
        json_at("cached_val", "$.metadataDTO.userInfoDto.userProfilePk"),
    );
    let file = l.name();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "json_activities",
            category: "health",
            what: "an activity's details Garmin Connect cached as JSON (ACTIVITY_DETAILS: distance in metres, duration in seconds as Garmin's API gives them; the start in GMT as stored and as UTC, cached Unix milliseconds); the user profile id and names say whose activity it is",
            title: &activity_title,
            fields: ACTIVITY_FIELDS,
            times: &[
                ("start_utc", "Garmin Connect activity started", date_text),
                (
                    "saved_timestamp",
                    "Garmin Connect activity details cached",
                    unix_millis,
                ),
            ],
        },
        &mut |inv, t, row| {
            owner_person(
                ctx,
                inv,
                t,
                row,
                "the user of an activity Garmin Connect cached",
                file,
            )
        },
    )?;
    let sql = format!(
        "SELECT rowid AS rid, {concept}, {saved}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM json_activities WHERE data_type = 'ACTIVITY_WEATHER' ORDER BY rowid",
        j("$.issueDate", "issued"),
        j("$.latitude", "lat"),
        j("$.longitude", "lon"),
        j("$.weatherStationDTO.id", "station_id"),
        j("$.weatherStationDTO.name", "station"),
        j("$.temp", "temp"),
        j("$.apparentTemp", "feels_like"),
        j("$.dewPoint", "dew_point"),
        j("$.relativeHumidity", "humidity"),
        j("$.weatherTypeDTO.desc", "conditions"),
        j("$.windDirection", "wind_direction"),
        j("$.windDirectionCompassPoint", "wind_point"),
        j("$.windSpeed", "wind_speed"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "json_activities",
            category: "locations",
            what: "the weather Garmin Connect fetched for an activity (ACTIVITY_WEATHER): the position it was fetched for — the activity's —, the station, temperature, dew point, humidity, conditions and wind as stored (issued as stored; cached Unix milliseconds)",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "Garmin Connect weather of activity {}",
                    t.get(row, "concept_id").unwrap_or("?")
                )
            },
            fields: &[
                ("concept_id", FactType::Identifier, "activity id"),
                ("issued", FactType::Text, "issued"),
                ("lat", FactType::Text, "latitude"),
                ("lon", FactType::Text, "longitude"),
                ("station_id", FactType::Identifier, "station"),
                ("station", FactType::Name, "station name"),
                ("temp", FactType::Text, "temperature"),
                ("feels_like", FactType::Text, "apparent temperature"),
                ("dew_point", FactType::Text, "dew point"),
                ("humidity", FactType::Text, "relative humidity"),
                ("conditions", FactType::Text, "conditions"),
                ("wind_direction", FactType::Text, "wind direction"),
                ("wind_point", FactType::Text, "wind from"),
                ("wind_speed", FactType::Text, "wind speed"),
            ],
            times: &[(
                "saved_timestamp",
                "Garmin Connect activity weather cached",
                unix_millis,
            )],
        },
        &mut no_identity,
    )?;
    let saved = column_expr(cols, "", "saved_timestamp");
    let sql = format!(
        "SELECT data_type, count(*) AS entries, min({saved}) AS first_saved, max({saved}) AS last_saved FROM json_activities WHERE data_type IS NULL OR data_type NOT IN ('ACTIVITY_DETAILS', 'ACTIVITY_WEATHER') GROUP BY data_type ORDER BY data_type"
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "json_activities",
            category: "app_usage",
            what: "a kind of activity data Garmin Connect cached as JSON, summarised: how many entries, first and last saved (Unix milliseconds); the JSON is left in the store",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "Garmin Connect JSON activity cache {}",
                    t.get(row, "data_type").unwrap_or("without a type")
                )
            },
            fields: &[
                ("data_type", FactType::Text, "data type"),
                ("entries", FactType::Count, "entries"),
            ],
            times: &[
                (
                    "first_saved",
                    "Garmin Connect JSON first saved",
                    unix_millis,
                ),
                ("last_saved", "Garmin Connect JSON last saved", unix_millis),
            ],
        },
        &mut no_identity,
    )
}

/// `sync_cache`: one `device` per device and UTC day of `device_sync_audit`.
fn sync_cache(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = Tables::one(
        ctx,
        &name,
        "Garmin Connect's sync_cache",
        schema,
        "device_sync_audit",
        &["device_info", "created_timestamp"],
    )?
    else {
        return Ok(());
    };
    let text = |order: &str| {
        if cols.contains("audit_text") {
            format!(
                "(SELECT x.audit_text FROM device_sync_audit x WHERE x.device_info IS g.device_info AND date(x.created_timestamp / 1000, 'unixepoch') IS g.day ORDER BY x.created_timestamp {order}, x.rowid {order} LIMIT 1)"
            )
        } else {
            "NULL".to_string()
        }
    };
    let versions = if cols.contains("app_version") {
        "group_concat(DISTINCT app_version)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT g.day AS day, g.device_info AS device_info, g.audits AS audits, g.first_at AS first_at, g.last_at AS last_at, g.versions AS versions, {} AS first_text, {} AS last_text FROM (SELECT date(created_timestamp / 1000, 'unixepoch') AS day, device_info, count(*) AS audits, min(created_timestamp) AS first_at, max(created_timestamp) AS last_at, {versions} AS versions FROM device_sync_audit GROUP BY 1, 2) g ORDER BY g.day, g.device_info",
        text("ASC"),
        text("DESC"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "device_sync_audit",
            category: "device",
            what: "a UTC day of a Garmin device's syncs with Garmin Connect on the phone, summarised: the device as the app wrote it, how many audit lines, the app versions, the first and last line's text and time (Unix milliseconds); a sync needs the device near the phone",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "Garmin Connect sync audit {} on {}",
                    t.get(row, "device_info").unwrap_or("an unnamed device"),
                    t.get(row, "day").unwrap_or("an unknown day")
                )
            },
            fields: &[
                ("day", FactType::Text, "day (UTC)"),
                ("device_info", FactType::Name, "device"),
                ("audits", FactType::Count, "audit lines"),
                ("versions", FactType::Text, "app versions"),
                ("first_text", FactType::Text, "first"),
                ("last_text", FactType::Text, "last"),
            ],
            times: &[
                (
                    "first_at",
                    "First Garmin device sync audit of the day",
                    unix_millis,
                ),
                (
                    "last_at",
                    "Last Garmin device sync audit of the day",
                    unix_millis,
                ),
            ],
        },
        &mut no_identity,
    )
}

/// `notification-database`: one `notifications` per `notification_info` row.
fn notifications(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = Tables::one(
        ctx,
        &name,
        "Garmin Connect's notification-database",
        schema,
        "notification_info",
        &["title", "packageName"],
    )?
    else {
        return Ok(());
    };
    let when = if cols.contains("when") {
        "\"when\" AS when_at".to_string()
    } else {
        "NULL AS when_at".to_string()
    };
    let sql = table_sql(
        cols,
        "notification_info",
        &[
            "packageName",
            "title",
            "subTitle",
            "message",
            "phoneNumber",
            "type",
            "category",
            "status",
            "positiveAction",
            "negativeAction",
            "postTime",
            "statusTimestamp",
        ],
        &[when],
        "",
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "notification_info",
            category: "notifications",
            what: "a notification of the phone Garmin Connect passed on to the wearer's device (the app that posted it, its texts, the phone number where it names one, type, category, status and actions as stored; times Unix milliseconds)",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "Garmin Connect notification from {}: {}",
                    t.get(row, "packageName").unwrap_or("an unnamed app"),
                    headline(t.get(row, "title").unwrap_or(""))
                )
            },
            fields: &[
                ("packageName", FactType::Identifier, "app"),
                ("title", FactType::Text, "title"),
                ("subTitle", FactType::Text, "subtitle"),
                ("message", FactType::Text, "message"),
                ("phoneNumber", FactType::Phone, "phone number"),
                ("type", FactType::Text, "type"),
                ("category", FactType::Text, "category"),
                ("status", FactType::Text, "status"),
                ("positiveAction", FactType::Text, "positive action"),
                ("negativeAction", FactType::Text, "negative action"),
            ],
            times: &[
                (
                    "postTime",
                    "Notification posted (Garmin Connect)",
                    unix_millis,
                ),
                (
                    "when_at",
                    "Notification's own time (Garmin Connect)",
                    unix_millis,
                ),
                (
                    "statusTimestamp",
                    "Garmin Connect notification status changed",
                    unix_millis,
                ),
            ],
        },
        &mut no_identity,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_files_are_told_by_folder_and_name() {
        let db = "/data/data/com.garmin.android.apps.connectmobile/databases/";
        for n in [
            "cache-database",
            "gcm_cache.db",
            "notification-database",
            "sync_cache",
            "sync_cache.db",
        ] {
            assert!(is_store_path(&format!("{db}{n}")), "{n}");
            assert!(is_garmin_name(n), "{n}");
        }
        assert!(!is_store_path(&format!("{db}sync_cache-journal")));
        assert_eq!(category(&format!("{db}sync_cache-journal")), None);
        assert!(!is_store_path(
            "/data/data/com.other.app/databases/cache-database"
        ));
        assert_eq!(
            category("/data/data/com.other.app/databases/cache-database"),
            None
        );
        let prefs = "/data/data/com.garmin.android.apps.connectmobile/shared_prefs/gcm_user_preferences.xml";
        assert!(is_prefs_path(prefs));
        assert_eq!(category(prefs), Some("accounts"));
        assert_eq!(
            category(&format!("{db}notification-database")),
            Some("notifications")
        );
    }

    #[test]
    fn gmt_text_becomes_iso_utc_in_the_query() {
        let s = gmt("start_gmt", "start_utc");
        assert!(s.starts_with("CASE WHEN typeof(start_gmt) = 'text'"));
        assert!(s.ends_with("|| 'Z' END AS start_utc"));
    }
}
