//! Samsung's own system stores, ALEAPP's `shistorylog` and `samsungSecureFolderHistoryLog`
//! (Secure Folder), `samsungPrivacyDashboard`, `scontextLog`, `samsungWifiDatabases`,
//! `samsungSleepDetection` and `samsungBadgeProvider`: what went into and out of the Secure
//! Folder, which app used the camera, microphone or location and when, which apps were in use
//! and installed or removed, where the phone was when it knew a Wi-Fi network, the networks it
//! saved, when the screen went on and off and the nights it detected, and the apps' badge
//! counts.
//!
//! | store: table | phenomenon | fields |
//! |---|---|---|
//! | Secure Folder `com.samsung.knox.securefolder/databases/history_log_database`: `HistoryLog` | one `files` per entry ("Secure Folder history <time>: user <from> to user <to>", else the message's start) | the message as written (a request names the app and how many items, a result how many were moved and the folder; never the files' names), tag, the Android users it went from and to and, computed in the query, whether into the Secure Folder (from user 0) or out of it (to user 0), id; written (local text) |
//! | Privacy Dashboard `com.samsung.android.privacydashboard/databases/permission_db`: `permissionAccessInformations` | one `apps` per access ("Privacy Dashboard: <package> used <permission group>") | package, permission group, operation code (as stored), in the background, the proxy app and attribution tag, uid; when (Unix ms or s by magnitude) |
//! | `com.samsung.android.providers.context/databases/ContextLog.db`: `use_app` | one `app_usage` per session ("App used (Samsung context log): <app>") | app, activity (`app_sub_id`), duration (ms), time zone; started, stopped, written (Unix ms) |
//! | `ContextLog.db`: `manage_app` | one `apps` per event ("App <event> (Samsung context log): <app>") | app, event (`verification`), time zone; when (Unix ms) |
//! | `data/system/wifigeofence.db`: `geofence_wifi` | one `locations` per network's geofence ("Wi-Fi geofence <SSID>") | the configuration key and the SSID and security in it, BSSID, the position (the base pair, else the `_major` pair: 1000.0 and -1.0 are unset) and which pair it is, the `_major` pair, location and network ids; time, major time (Unix ms or s by magnitude) |
//! | `data/system/WifiConfigStore.db`: `configs` | one `wifi` per saved network ("Saved Wi-Fi network <SSID> (Samsung WifiConfigStore.db)") | the configuration key and the SSID and security in it, score, captive portal, lock-down, no internet expected, disable reason, id; created (Unix ms or s by magnitude) |
//! | `com.samsung.android.mcfds/databases/SleepDetection.db`: `screen_data` | one `device` per screen change ("Screen state <state> (Samsung sleep detection) <local time>") | screen state, user present, keyguard (as stored), the local time text; when (Unix ms or s by magnitude) |
//! | `SleepDetection.db`: `sleep_time` | one `health` per detected sleep ("Sleep detected <start> to <end>") | start, end and record local time texts, ignored; started, ended, recorded (Unix ms or s by magnitude) |
//! | `com.sec.android.provider.badge/databases/badge.db`: `apps` | one `notifications` per app badge ("App badge <package>: <count>") | package, activity, badge count, hidden, extra data |
//!
//! Columns are taken by name (absent ones NULL: older One UI releases lack `UID`,
//! `CREATION_TIME`, `NETWORK_DISABLE_REASON`, `HistoryLog.tag`, `manage_app`); a table without
//! the column it is keyed on is noted, a store with none of its tables too (another app's file
//! of the name). Values computed in the query (the Secure Folder's users and direction, a
//! network's SSID and security, the position chosen) are in its output. The Secure Folder's
//! times are local text (4n6Wizard's parser reads them so; ALEAPP's older `shistorylog` took them
//! as UTC); the operation codes, screen states and flags are as stored (ALEAPP does not decode
//! them either). Identities: none (package names and network ids are not persons).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::{Located, Schema};
use crate::calls::{Tables, column_or_null};
use crate::drafts::{
    RowPhenomena, date_text, headline, no_identity, unix_by_magnitude, unix_millis,
};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::raw;

/// A store read: its file name, the folder the file must lie in (the path ends with
/// `<dir><name>`), the tables it is read for, its name in notes and its category.
struct Store {
    name: &'static str,
    dir: &'static str,
    tables: &'static [&'static str],
    what: &'static str,
    category: &'static str,
}

const STORES: &[Store] = &[
    Store {
        name: "history_log_database",
        dir: "/com.samsung.knox.securefolder/databases/",
        tables: &["HistoryLog"],
        what: "Samsung Secure Folder's history_log_database",
        category: "files",
    },
    Store {
        name: "permission_db",
        dir: "/com.samsung.android.privacydashboard/databases/",
        tables: &["permissionAccessInformations"],
        what: "Samsung Privacy Dashboard's permission_db",
        category: "apps",
    },
    Store {
        name: "ContextLog.db",
        dir: "/com.samsung.android.providers.context/databases/",
        tables: &["use_app", "manage_app"],
        what: "Samsung's ContextLog.db",
        category: "app_usage",
    },
    Store {
        name: "wifigeofence.db",
        dir: "/system/",
        tables: &["geofence_wifi"],
        what: "Samsung's wifigeofence.db",
        category: "locations",
    },
    Store {
        name: "WifiConfigStore.db",
        dir: "/system/",
        tables: &["configs"],
        what: "Samsung's WifiConfigStore.db",
        category: "wifi",
    },
    Store {
        name: "SleepDetection.db",
        dir: "/com.samsung.android.mcfds/databases/",
        tables: &["screen_data", "sleep_time"],
        what: "Samsung's SleepDetection.db",
        category: "device",
    },
    Store {
        name: "badge.db",
        dir: "/com.sec.android.provider.badge/databases/",
        tables: &["apps"],
        what: "Samsung's badge provider badge.db",
        category: "notifications",
    },
];

/// The store `path` is, when it is one of [`STORES`] in its folder.
fn store_of(path: &str) -> Option<&'static Store> {
    let name = path.rsplit('/').next().unwrap_or(path);
    STORES.iter().find(|s| {
        s.name == name
            && path
                .strip_suffix(s.name)
                .is_some_and(|dir| dir.ends_with(s.dir))
    })
}

/// The category of the Samsung store at `path` (`None` for another app's file of the name).
pub fn category(path: &str) -> Option<&'static str> {
    store_of(path).map(|s| s.category)
}

/// Whether `l` is one of Samsung's stores read here.
pub fn is_store(l: &Located) -> bool {
    store_of(&l.path).is_some()
}

/// `<col> AS <col>`, NULL where the table lacks it.
fn col(cols: &std::collections::BTreeSet<String>, c: &str) -> String {
    column_or_null(cols, "", c, c)
}

/// `CASE` expressions of the SSID (between the first two quotes) and the security (after the
/// second quote) of a Wi-Fi configuration key `"<SSID>"<security>`, NULL for a key not so
/// written.
fn key_parts(key: &str) -> String {
    let quoted = format!("{key} LIKE '\"%\"%'");
    let close = format!("instr(substr({key}, 2), '\"')");
    format!(
        "CASE WHEN {quoted} THEN substr({key}, 2, {close} - 1) END AS ssid, \
         CASE WHEN {quoted} AND length({key}) > {close} + 1 THEN substr({key}, {close} + 2) END AS security"
    )
}

/// One of Samsung's stores.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(store) = store_of(&l.path) else {
        return Ok(());
    };
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(tables) = Tables::of(ctx, &name, store.what, &schema, store.tables)? else {
        return Ok(());
    };
    match store.name {
        "history_log_database" => secure_folder(ctx, l, &tables),
        "permission_db" => privacy_dashboard(ctx, l, &schema),
        "ContextLog.db" => context_log(ctx, l, &schema),
        "wifigeofence.db" => geofences(ctx, l, &tables),
        "WifiConfigStore.db" => wifi_configs(ctx, l, &tables),
        "SleepDetection.db" => sleep_detection(ctx, l, &schema),
        _ => badges(ctx, l, &schema),
    }
}

/// The Secure Folder's `HistoryLog`: the Android users a transfer went from and to, read from
/// the `[<from> -> <to>]` that starts its message, and whether that is into or out of the
/// Secure Folder (from or to the personal profile, user 0).
fn secure_folder(
    ctx: &AgentCtx<'_>,
    l: &Located,
    tables: &Tables<'_, '_>,
) -> Result<(), RuntimeError> {
    let Some(c) = tables.need("HistoryLog", &["timestamp", "message"])? else {
        return Ok(());
    };
    let arrow = "message LIKE '[%' AND instr(message, '->') > 2 AND instr(message, ']') > instr(message, '->')";
    let digits = |v: &str| format!("{v} != '' AND {v} NOT GLOB '*[^0-9]*'");
    let sql = format!(
        "SELECT rid, id, timestamp, tag, message, \
         CASE WHEN {src_ok} AND {dst_ok} THEN src END AS from_user, \
         CASE WHEN {src_ok} AND {dst_ok} THEN dst END AS to_user, \
         CASE WHEN {src_ok} AND {dst_ok} AND src = '0' AND dst != '0' THEN 'into the Secure Folder' \
         WHEN {src_ok} AND {dst_ok} AND dst = '0' AND src != '0' THEN 'out of the Secure Folder' END AS direction \
         FROM (SELECT rowid AS rid, {id}, timestamp, {tag}, message, \
         CASE WHEN {arrow} THEN trim(substr(message, 2, instr(message, '->') - 2)) END AS src, \
         CASE WHEN {arrow} THEN trim(substr(message, instr(message, '->') + 2, instr(message, ']') - instr(message, '->') - 2)) END AS dst \
         FROM HistoryLog) ORDER BY rid",
        src_ok = digits("src"),
        dst_ok = digits("dst"),
        id = col(c, "id"),
        tag = col(c, "tag"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "HistoryLog",
            category: "files",
            what: "an entry of Samsung Secure Folder's history log (a request names the app and how many items were to move, a result how many moved and the folder; the files' names are not kept; from user 0, the personal profile, is into the Secure Folder, to user 0 out of it; the time local text as stored)",
            title: &|t, row| {
                let when = t.get(row, "timestamp").unwrap_or("?");
                match (raw(t, row, "from_user"), raw(t, row, "to_user")) {
                    (Some(f), Some(to)) => {
                        format!("Secure Folder history {when}: user {f} to user {to}")
                    }
                    _ => format!(
                        "Secure Folder history {when}: {}",
                        headline(t.get(row, "message").unwrap_or("?"))
                    ),
                }
            },
            fields: &[
                ("message", FactType::Text, "message"),
                ("tag", FactType::Text, "tag"),
                ("from_user", FactType::Identifier, "from Android user"),
                ("to_user", FactType::Identifier, "to Android user"),
                ("direction", FactType::Text, "direction"),
                ("id", FactType::Identifier, "id"),
            ],
            times: &[(
                "timestamp",
                "Secure Folder history entry written",
                date_text,
            )],
        },
        &mut no_identity,
    )
}

/// The Privacy Dashboard's `permissionAccessInformations`.
fn privacy_dashboard(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    super::record_table(
        ctx,
        l,
        schema,
        "PACKAGE_NAME",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "permissionAccessInformations",
            category: "apps",
            what: "an access of an app to a protected permission (camera, microphone, location …) that Samsung's Privacy Dashboard logged (the operation code as stored; BACKGROUND whether the app was in the background)",
            title: &|t, row| {
                let app = raw(t, row, "PACKAGE_NAME").unwrap_or_else(|| "?".into());
                match (
                    raw(t, row, "PERMISSION_GROUP_ID"),
                    raw(t, row, "OPERATION_CODE"),
                ) {
                    (Some(g), _) => format!("Privacy Dashboard: {app} used {g}"),
                    (None, Some(op)) => format!("Privacy Dashboard: {app} used operation {op}"),
                    (None, None) => format!("Privacy Dashboard: {app}"),
                }
            },
            fields: &[
                ("PACKAGE_NAME", FactType::Identifier, "app"),
                ("PERMISSION_GROUP_ID", FactType::Text, "permission group"),
                ("OPERATION_CODE", FactType::Identifier, "operation code"),
                ("BACKGROUND", FactType::Text, "in the background"),
                ("PROXY_NAME", FactType::Identifier, "through the app"),
                (
                    "PROXY_ATTRIBUTION_TAG",
                    FactType::Text,
                    "proxy attribution tag",
                ),
                ("UID", FactType::Identifier, "uid"),
            ],
            times: &[(
                "ACCESS_TIME",
                "Permission used by the app (Privacy Dashboard)",
                unix_by_magnitude,
            )],
        },
        &mut no_identity,
    )
}

/// The context provider's `use_app` and `manage_app`.
fn context_log(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    super::record_table(
        ctx,
        l,
        schema,
        "app_id",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "use_app",
            category: "app_usage",
            what: "a session of an app in use that Samsung's context provider logged (duration in ms; times Unix ms)",
            title: &|t, row| {
                format!(
                    "App used (Samsung context log): {}",
                    t.get(row, "app_id").unwrap_or("?")
                )
            },
            fields: &[
                ("app_id", FactType::Identifier, "app"),
                ("app_sub_id", FactType::Identifier, "activity"),
                ("duration", FactType::Count, "duration (ms)"),
                ("time_zone", FactType::Text, "time zone"),
            ],
            times: &[
                ("starttime", "App use started", unix_millis),
                ("stoptime", "App use stopped", unix_millis),
                (
                    "timestamp",
                    "Samsung context log entry written",
                    unix_millis,
                ),
            ],
        },
        &mut no_identity,
    )?;
    super::record_table(
        ctx,
        l,
        schema,
        "installed_app_id",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "manage_app",
            category: "apps",
            what: "an app installed, updated or removed as Samsung's context provider logged it (the event as stored in verification; time Unix ms)",
            title: &|t, row| {
                format!(
                    "App {} (Samsung context log): {}",
                    t.get(row, "verification").unwrap_or("managed"),
                    t.get(row, "installed_app_id").unwrap_or("?")
                )
            },
            fields: &[
                ("installed_app_id", FactType::Identifier, "app"),
                ("verification", FactType::Text, "event"),
                ("time_zone", FactType::Text, "time zone"),
            ],
            times: &[(
                "timestamp",
                "App installed or removed (Samsung context log)",
                unix_millis,
            )],
        },
        &mut no_identity,
    )
}

/// `wifigeofence.db`'s `geofence_wifi`: the position is the base pair when both are set (1000.0,
/// the column default, and -1.0 are unset), else the `_major` pair, as ALEAPP chooses it.
fn geofences(ctx: &AgentCtx<'_>, l: &Located, tables: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    let Some(c) = tables.need("geofence_wifi", &["config_key", "latitude", "longitude"])? else {
        return Ok(());
    };
    let set = |v: &str| format!("{v} NOT IN (1000.0, -1.0)");
    let base = format!("{} AND {}", set("latitude"), set("longitude"));
    let has_major = c.contains("latitude_major") && c.contains("longitude_major");
    let major = if has_major {
        format!("{} AND {}", set("latitude_major"), set("longitude_major"))
    } else {
        "0".to_string()
    };
    let major_col = |m: &str| {
        if has_major {
            format!("CASE WHEN {} THEN {m} END AS {m}", set(m))
        } else {
            format!("NULL AS {m}")
        }
    };
    let sql = format!(
        "SELECT rowid AS rid, {id}, {time}, {time_major}, config_key, {parts}, {bssid}, \
         CASE WHEN {base} THEN latitude WHEN {major} THEN latitude_major END AS lat, \
         CASE WHEN {base} THEN longitude WHEN {major} THEN longitude_major END AS lon, \
         CASE WHEN {base} THEN 'latitude/longitude' WHEN {major} THEN 'latitude_major/longitude_major' END AS coordinate_source, \
         {lat_major}, {lon_major}, {location_id}, {network_id} FROM geofence_wifi ORDER BY rowid",
        id = col(c, "_id"),
        time = col(c, "time"),
        time_major = col(c, "time_major"),
        parts = key_parts("config_key"),
        bssid = col(c, "bssid"),
        lat_major = major_col("latitude_major"),
        lon_major = major_col("longitude_major"),
        location_id = col(c, "location_id"),
        network_id = col(c, "network_id"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "geofence_wifi",
            category: "locations",
            what: "a Wi-Fi network Samsung's Wi-Fi service keeps a geofence for, with the position recorded for it (the base pair, else the _major pair, as coordinate_source says; times Unix ms or s by magnitude)",
            title: &|t, row| {
                format!(
                    "Wi-Fi geofence {}",
                    t.get(row, "ssid")
                        .or_else(|| t.get(row, "config_key"))
                        .unwrap_or("?")
                )
            },
            fields: &[
                ("config_key", FactType::Text, "configuration key"),
                ("ssid", FactType::Name, "SSID"),
                ("security", FactType::Text, "security"),
                ("bssid", FactType::Identifier, "BSSID"),
                ("lat", FactType::Text, "latitude"),
                ("lon", FactType::Text, "longitude"),
                ("coordinate_source", FactType::Text, "from"),
                ("latitude_major", FactType::Text, "major latitude"),
                ("longitude_major", FactType::Text, "major longitude"),
                ("location_id", FactType::Identifier, "location id"),
                ("network_id", FactType::Identifier, "network id"),
                ("_id", FactType::Identifier, "id"),
            ],
            times: &[
                ("time", "Wi-Fi geofence time", unix_by_magnitude),
                ("time_major", "Wi-Fi geofence major time", unix_by_magnitude),
            ],
        },
        &mut no_identity,
    )
}

/// `WifiConfigStore.db`'s `configs` (the XML store of the same name is `system`'s).
fn wifi_configs(
    ctx: &AgentCtx<'_>,
    l: &Located,
    tables: &Tables<'_, '_>,
) -> Result<(), RuntimeError> {
    let Some(c) = tables.need("configs", &["CONFIG_KEY"])? else {
        return Ok(());
    };
    let sql = format!(
        "SELECT rowid AS rid, CONFIG_KEY, {parts}, {}, {}, {}, {}, {}, {}, {} FROM configs ORDER BY rowid",
        col(c, "_ID"),
        col(c, "NETWORK_SCORE"),
        col(c, "CAPTIVE_PORTAL"),
        col(c, "LOCK_DOWN"),
        col(c, "NO_INTERNET_ACCESS_EXPECTED"),
        col(c, "NETWORK_DISABLE_REASON"),
        col(c, "CREATION_TIME"),
        parts = key_parts("CONFIG_KEY"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "configs",
            category: "wifi",
            what: "a Wi-Fi network saved on the phone, as Samsung's WifiConfigStore.db keeps it (flags and reason as stored; created Unix ms or s by magnitude, 0 none; no key is read)",
            title: &|t, row| {
                format!(
                    "Saved Wi-Fi network {} (Samsung WifiConfigStore.db)",
                    t.get(row, "ssid")
                        .or_else(|| t.get(row, "CONFIG_KEY"))
                        .unwrap_or("?")
                )
            },
            fields: &[
                ("CONFIG_KEY", FactType::Text, "configuration key"),
                ("ssid", FactType::Name, "SSID"),
                ("security", FactType::Text, "security"),
                ("NETWORK_SCORE", FactType::Count, "score"),
                ("CAPTIVE_PORTAL", FactType::Text, "captive portal"),
                ("LOCK_DOWN", FactType::Text, "lock-down"),
                (
                    "NO_INTERNET_ACCESS_EXPECTED",
                    FactType::Text,
                    "no internet access expected",
                ),
                ("NETWORK_DISABLE_REASON", FactType::Text, "disable reason"),
                ("_ID", FactType::Identifier, "id"),
            ],
            times: &[("CREATION_TIME", "Wi-Fi network saved", unix_by_magnitude)],
        },
        &mut no_identity,
    )
}

/// The continuity service's `screen_data` and `sleep_time`.
fn sleep_detection(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    super::record_table(
        ctx,
        l,
        schema,
        "time",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "screen_data",
            category: "device",
            what: "a change of the screen's state that Samsung's sleep detection logged (state and flags as stored; timeText the device's local time as written)",
            title: &|t, row| {
                format!(
                    "Screen state {} (Samsung sleep detection) {}",
                    t.get(row, "screenState").unwrap_or("?"),
                    t.get(row, "timeText")
                        .or_else(|| t.get(row, "time"))
                        .unwrap_or("?")
                )
            },
            fields: &[
                ("screenState", FactType::Text, "screen state"),
                ("userPresent", FactType::Text, "user present"),
                ("useKeyGuard", FactType::Text, "keyguard"),
                ("timeText", FactType::Text, "local time"),
            ],
            times: &[("time", "Screen state changed", unix_by_magnitude)],
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
            table: "sleep_time",
            category: "health",
            what: "a sleep window Samsung's sleep detection computed from the phone's use (the texts the device's local times as written; ignoreSleep as stored)",
            title: &|t, row| {
                let at = |text: &str, ms: &str| t.get(row, text).or_else(|| t.get(row, ms));
                format!(
                    "Sleep detected {} to {}",
                    at("startTimeText", "startTime").unwrap_or("?"),
                    at("endTimeText", "endTime").unwrap_or("?")
                )
            },
            fields: &[
                ("startTimeText", FactType::Text, "start (local)"),
                ("endTimeText", FactType::Text, "end (local)"),
                ("timeText", FactType::Text, "recorded (local)"),
                ("ignoreSleep", FactType::Text, "ignored"),
            ],
            times: &[
                (
                    "startTime",
                    "Sleep started (Samsung sleep detection)",
                    unix_by_magnitude,
                ),
                (
                    "endTime",
                    "Sleep ended (Samsung sleep detection)",
                    unix_by_magnitude,
                ),
                ("time", "Sleep window recorded", unix_by_magnitude),
            ],
        },
        &mut no_identity,
    )
}

/// The badge provider's `apps`.
fn badges(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    super::record_table(
        ctx,
        l,
        schema,
        "package",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "apps",
            category: "notifications",
            what: "the badge (unread count) Samsung's launcher showed on an app's icon when the store was last written",
            title: &|t, row| {
                format!(
                    "App badge {}: {}",
                    t.get(row, "package").unwrap_or("?"),
                    t.get(row, "badgecount").unwrap_or("?")
                )
            },
            fields: &[
                ("package", FactType::Identifier, "app"),
                ("class", FactType::Identifier, "activity"),
                ("badgecount", FactType::Count, "badge count"),
                ("hidden", FactType::Text, "hidden"),
                ("extraData", FactType::Text, "extra data"),
            ],
            times: &[],
        },
        &mut no_identity,
    )
}
