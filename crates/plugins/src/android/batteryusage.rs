//! Android's battery-usage history: Settings Intelligence's `battery-usage-db-v4`
//! (`com.google.android.settings.intelligence/databases/`, Android 12 and 13) and the Settings
//! app's `battery-usage-db-v9` (`user_de/<user>/com.android.settings/databases/`, Android 14 and
//! later), ALEAPP's `battery_usage_v4` and `battery_usage_v9` (`get_battery_usage_v9`,
//! `get_app_usage_events`): which apps drew battery in each of the hourly snapshots the system
//! keeps for its battery-usage screen — how long each ran in the foreground and background —,
//! and when each app's activity came to the front or left it.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `BatteryState` (v4's flat layout) | one `app_usage` per app in a snapshot ("Battery use of <label or package>") | package, app label, uid, user, hidden, time zone, total and consumed power, percent of total, foreground and background use (ms), drain and consumer type, battery level, status (as stored, and named: 2 charging, 3 discharging, 4 not charging, 5 full), health; when (`timestamp`, Unix ms) and the boot it counts from (`timestamp - bootTimestamp`) |
//! | `BatteryState` (v9's layout) | one `app_usage` per app in a snapshot (same title) | package, uid, user, consumer type, full-charge cycle start; from `batteryInformationDebug` (the `batteryInformation` message written out as `key: value` lines): app label, time zone, total and consumed power, foreground and background use (ms), battery level; when (`timestamp`, Unix ms) and the boot (`timestamp - boot_timestamp`) |
//! | `AppUsageEventEntity` (v9) | one `app_usage` per event ("<package> activity resumed") | package, task root package, uid, user, instance id, event type (as stored, and named: 1 activity resumed, 2 activity stopped, 3 device shutdown); when (`timestamp`, Unix ms) |
//!
//! The base64 Protocol Buffers `batteryInformation` itself is not decoded: its debug text gives
//! the same fields by name, each NULL where the text lacks it. A snapshot's figures are the
//! system's estimates since the last full charge, not a measurement of use; a row says the app
//! was installed and used (or drew power) on the phone, not who used it. No identity is observed
//! (packages and uids are apps'). Columns are taken by name (absent ones NULL); a `BatteryState`
//! or `AppUsageEventEntity` without `packageName` or `timestamp` is noted, a store with neither
//! table too.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::column_or_null;
use crate::drafts::{RowPhenomena, unix_millis};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::raw;

/// The packages whose `databases/` hold a battery-usage store.
const PACKAGES: &[&str] = &[
    "/com.google.android.settings.intelligence/databases/",
    "/com.android.settings/databases/",
];

/// Whether `name` is a battery-usage store's file name.
pub fn is_name(name: &str) -> bool {
    matches!(name, "battery-usage-db-v4" | "battery-usage-db-v9")
}

/// Whether `l` is a battery-usage store of the Settings app or Settings Intelligence.
pub fn is_store(l: &Located) -> bool {
    is_name(l.name()) && PACKAGES.iter().any(|p| l.path.contains(p))
}

/// v4's flat `BatteryState` columns read besides `packageName` and `timestamp` (absent ones NULL).
const FLAT: &[&str] = &[
    "uid",
    "userId",
    "isHidden",
    "zoneId",
    "totalPower",
    "consumePower",
    "percentOfTotal",
    "foregroundUsageTimeInMs",
    "backgroundUsageTimeInMs",
    "drainType",
    "consumerType",
    "batteryLevel",
    "batteryStatus",
    "batteryHealth",
];

/// v9's `BatteryState` columns read besides `packageName` and `timestamp`.
const PLAIN9: &[&str] = &["uid", "userId", "consumerType", "isFullChargeCycleStart"];

/// v9's `AppUsageEventEntity` columns read besides `packageName` and `timestamp`.
const EVENT_COLUMNS: &[&str] = &[
    "taskRootPackageName",
    "uid",
    "userId",
    "instanceId",
    "appUsageEventType",
];

/// The keys taken from v9's `batteryInformationDebug` (a nested message's keys too: its
/// indentation is removed first).
const DEBUG_KEYS: &[&str] = &[
    "app_label",
    "zone_id",
    "total_power",
    "consume_power",
    "foreground_usage_time_in_ms",
    "background_usage_time_in_ms",
    "battery_level",
    "boot_timestamp",
];

/// The value of the line `<key>: <value>` of `dbg` (the debug text with a newline before and
/// after it), its quotes trimmed; NULL when no line starts with the key.
fn debug_value(key: &str) -> String {
    let at = format!("instr(dbg, char(10) || '{key}: ')");
    let rest = format!("substr(dbg, {at} + {})", key.len() + 3);
    format!(
        "CASE WHEN {at} > 0 THEN trim(substr({rest}, 1, instr({rest}, char(10)) - 1), '\"') END AS {key}"
    )
}

/// "Battery use of <label or package>".
fn state_title(t: &crate::outputs::Table, row: &[Option<String>]) -> String {
    match raw(t, row, "label").or_else(|| raw(t, row, "packageName")) {
        Some(v) => format!("Battery use of {v}"),
        None => "Battery use".to_string(),
    }
}

/// One `battery-usage-db-v4` or `battery-usage-db-v9`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    if !schema.contains_key("BatteryState") && !schema.contains_key("AppUsageEventEntity") {
        ctx.unparsed(
            &name,
            "not a battery-usage database: neither BatteryState nor AppUsageEventEntity",
            None,
        )?;
        return Ok(());
    }
    if let Some(cols) = schema.get("BatteryState")
        && crate::calls::require_columns(
            ctx,
            &name,
            &format!("{}'s BatteryState", l.name()),
            "BatteryState",
            cols,
            &["packageName", "timestamp"],
        )?
    {
        let flat = cols.contains("appLabel") || cols.contains("consumePower");
        let sql = if flat {
            let booted = if cols.contains("bootTimestamp") {
                "CASE WHEN bootTimestamp > 0 AND timestamp > bootTimestamp THEN timestamp - bootTimestamp END AS booted"
            } else {
                "NULL AS booted"
            };
            let status = if cols.contains("batteryStatus") {
                "CASE batteryStatus WHEN 1 THEN 'unknown' WHEN 2 THEN 'charging' WHEN 3 THEN 'discharging' WHEN 4 THEN 'not charging' WHEN 5 THEN 'full' END AS status"
            } else {
                "NULL AS status"
            };
            format!(
                "SELECT rowid AS rid, packageName, timestamp, {}, {}, {booted}, {status} FROM BatteryState ORDER BY rowid",
                column_or_null(cols, "", "appLabel", "label"),
                FLAT.iter()
                    .map(|c| column_or_null(cols, "", c, c))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        } else {
            format!(
                "WITH s AS (SELECT rowid AS rid, packageName, timestamp, {}, char(10) || replace(replace({}, char(10) || '    ', char(10)), char(10) || '  ', char(10)) || char(10) AS dbg FROM BatteryState), \
                 t AS (SELECT s.*, {} FROM s) \
                 SELECT rid, packageName, timestamp, {}, app_label AS label, zone_id AS zoneId, total_power AS totalPower, consume_power AS consumePower, \
                 foreground_usage_time_in_ms AS foregroundUsageTimeInMs, background_usage_time_in_ms AS backgroundUsageTimeInMs, battery_level AS batteryLevel, \
                 CASE WHEN CAST(boot_timestamp AS INTEGER) > 0 AND timestamp > CAST(boot_timestamp AS INTEGER) THEN timestamp - CAST(boot_timestamp AS INTEGER) END AS booted \
                 FROM t ORDER BY rid",
                PLAIN9
                    .iter()
                    .map(|c| column_or_null(cols, "", c, c))
                    .collect::<Vec<_>>()
                    .join(", "),
                if cols.contains("batteryInformationDebug") {
                    "batteryInformationDebug"
                } else {
                    "NULL"
                },
                DEBUG_KEYS
                    .iter()
                    .map(|k| debug_value(k))
                    .collect::<Vec<_>>()
                    .join(", "),
                PLAIN9.join(", "),
            )
        };
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table: "BatteryState",
                category: "app_usage",
                what: "an app's (or a system consumer's) share of the battery in one of the hourly snapshots Android keeps for its battery-usage screen: foreground and background use in ms and power as the system estimates them since the last full charge, the battery's level then",
                title: &state_title,
                fields: &[
                    ("packageName", FactType::Identifier, "package"),
                    ("label", FactType::Text, "app label"),
                    ("uid", FactType::Identifier, "uid"),
                    ("userId", FactType::Identifier, "Android user"),
                    ("isHidden", FactType::Text, "hidden"),
                    ("zoneId", FactType::Text, "time zone"),
                    ("totalPower", FactType::Text, "total power"),
                    ("consumePower", FactType::Text, "power consumed"),
                    ("percentOfTotal", FactType::Text, "percent of total"),
                    (
                        "foregroundUsageTimeInMs",
                        FactType::Count,
                        "foreground use (ms)",
                    ),
                    (
                        "backgroundUsageTimeInMs",
                        FactType::Count,
                        "background use (ms)",
                    ),
                    ("drainType", FactType::Text, "drain type"),
                    ("consumerType", FactType::Text, "consumer type"),
                    (
                        "isFullChargeCycleStart",
                        FactType::Text,
                        "full-charge cycle start",
                    ),
                    ("batteryLevel", FactType::Count, "battery %"),
                    ("batteryStatus", FactType::Text, "battery status code"),
                    ("status", FactType::Text, "battery status"),
                    ("batteryHealth", FactType::Text, "battery health code"),
                ],
                times: &[
                    ("timestamp", "battery-usage snapshot", unix_millis),
                    (
                        "booted",
                        "device booted (snapshot time less uptime)",
                        unix_millis,
                    ),
                ],
            },
            &mut |_, _, _| Ok(()),
        )?;
    }
    let Some(cols) = schema.get("AppUsageEventEntity") else {
        return Ok(());
    };
    if !crate::calls::require_columns(
        ctx,
        &name,
        &format!("{}'s AppUsageEventEntity", l.name()),
        "AppUsageEventEntity",
        cols,
        &["packageName", "timestamp"],
    )? {
        return Ok(());
    }
    let event = if cols.contains("appUsageEventType") {
        "CASE appUsageEventType WHEN 0 THEN 'unknown' WHEN 1 THEN 'activity resumed' WHEN 2 THEN 'activity stopped' WHEN 3 THEN 'device shutdown' END AS event"
    } else {
        "NULL AS event"
    };
    let sql = format!(
        "SELECT rowid AS rid, packageName, timestamp, {}, {event} FROM AppUsageEventEntity ORDER BY rowid",
        EVENT_COLUMNS
            .iter()
            .map(|c| column_or_null(cols, "", c, c))
            .collect::<Vec<_>>()
            .join(", ")
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "AppUsageEventEntity",
            category: "app_usage",
            what: "an app's activity coming to the front or leaving it (or the device shutting down), as the Settings app records it for battery usage",
            title: &|t, row| {
                let pkg = raw(t, row, "packageName").unwrap_or_else(|| "app".into());
                match raw(t, row, "event") {
                    Some(e) => format!("{pkg} {e}"),
                    None => format!("{pkg} usage event"),
                }
            },
            fields: &[
                ("packageName", FactType::Identifier, "package"),
                (
                    "taskRootPackageName",
                    FactType::Identifier,
                    "task root package",
                ),
                ("uid", FactType::Identifier, "uid"),
                ("userId", FactType::Identifier, "Android user"),
                ("instanceId", FactType::Identifier, "instance"),
                ("appUsageEventType", FactType::Text, "event type code"),
                ("event", FactType::Text, "event"),
            ],
            times: &[("timestamp", "app usage event", unix_millis)],
        },
        &mut |_, _, _| Ok(()),
    )
}
