//! Samsung's Device Health Manager Service battery history
//! (`com.sec.android.sdhms/databases/sec_batterystats_history*`), ALEAPP's `samsungBatteryStats`
//! (`sdhmsBatteryAppHistory`, `sdhmsBatteryDeviceHistory`, `sdhmsBatteryEventHistory`,
//! `sdhmsBatterySystemHistory`): which apps (by uid) drew battery, ran in the foreground or
//! background, used the CPU, wakelocks, network, GPS and audio, and how long the screen was on,
//! over time. The service writes one row per app per time window (ALEAPP reports every window);
//! here the rows are summarised in the query, one phenomenon per app and UTC day (of the
//! window's start), never one per window.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `APP_HISTORY` | one `app_usage` per uid and UTC day ("Samsung battery use of uid <uid> on <day>") | uid, day, windows; sums of power and screen power (as stored, unit not documented), foreground, background, CPU, wakelock, GPS and audio time (ms), mobile and Wi-Fi packets, wakeup alarms, mobile active, Bluetooth scans; the first window's start and the last window's end (Unix ms) |
//! | `DEVICE_HISTORY` | one `device` per UTC day ("Samsung device battery history on <day>") | day, windows; sums of all power, screen power, screen-on and screen-off time (ms), screen-on and screen-off discharge, screen-on count, high-brightness and high-refresh time (ms); first start, last end |
//! | `BATTERY_EVENT_HISTORY` | one `device` per event type and UTC day ("Samsung battery events of type <type> on <day>") | event type (as stored), day, events, the lowest and highest value and how many distinct values (as stored); first and last update (Unix ms) |
//! | `SYSTEM_HISTORY` | one `device` per drain type and UTC day ("Samsung system battery drain type <type> on <day>") | drain type (as stored), day, windows, sums of power and used time (ms); first start, last end |
//!
//! What it proves: an app's uid drew battery and ran on the phone in those windows as the
//! service measured it — use of the phone, not who used it. The uid is the app's Android uid
//! (10000 and up an installed app, 1000 the system): `packages.xml` or `packages.list` of the
//! same phone names its package (the examiner links them; the store keeps no package name).
//! Event and drain types are raw numbers whose meaning differs between One UI versions (ALEAPP
//! reports them as stored, so does this); days are UTC days of Unix-ms times computed in the
//! query. Schema drift: columns are taken by name, an absent one summed as NULL (older One UI
//! lacks `bluetooth_scan`, `screen_on_count`, `high_brightness_time`, `high_refresh_time`, the
//! event `id`, `SYSTEM_HISTORY`); a table without the columns it is grouped by is noted, a
//! store with none of the four tables too (another app's file of the name); `-wal`, `-shm`
//! and `-journal` files are not stores. Identities: none (uids are apps').

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::{Tables, column_expr};
use crate::drafts::{RowPhenomena, no_identity, unix_millis};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::raw;

/// The folder the store lies in.
const DIR: &str = "/com.sec.android.sdhms/databases/";

/// The tables read.
const TABLES: &[&str] = &[
    "APP_HISTORY",
    "DEVICE_HISTORY",
    "BATTERY_EVENT_HISTORY",
    "SYSTEM_HISTORY",
];

/// The summed columns of `APP_HISTORY`.
const APP_SUMS: &[&str] = &[
    "power",
    "screen_power",
    "fg_time",
    "bg_time",
    "cpu_time",
    "wakelock_time",
    "mobile_packet",
    "wifi_packet",
    "wakeup_alarm",
    "gps_time",
    "audio_time",
    "mobile_active",
    "bluetooth_scan",
];

/// The summed columns of `DEVICE_HISTORY`.
const DEVICE_SUMS: &[&str] = &[
    "all_power",
    "screen_power",
    "screen_on_time",
    "screen_off_time",
    "screen_on_discharge",
    "screen_off_discharge",
    "screen_on_count",
    "high_brightness_time",
    "high_refresh_time",
];

/// Whether `l` is the service's battery history (not its `-wal`, `-shm` or `-journal`).
pub fn is_store(l: &Located) -> bool {
    let name = l.name();
    name.starts_with("sec_batterystats_history")
        && !["-wal", "-shm", "-journal"]
            .iter()
            .any(|x| name.ends_with(x))
        && l.path
            .strip_suffix(name)
            .is_some_and(|dir| dir.ends_with(DIR))
}

/// `sum(<col>) AS <col>` of each of `cols` (`sum(NULL)` where the table lacks it).
fn sums(cols: &std::collections::BTreeSet<String>, summed: &[&str]) -> String {
    summed
        .iter()
        .map(|c| format!("sum({}) AS {c}", column_expr(cols, "", c)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A summary's title: `what` and its group's values (`?` where NULL).
fn grouped(t: &crate::outputs::Table, row: &[Option<String>], what: &str, by: &str) -> String {
    format!(
        "{what} {} on {}",
        raw(t, row, by).unwrap_or_else(|| "?".into()),
        raw(t, row, "day").unwrap_or_else(|| "?".into())
    )
}

/// One `sec_batterystats_history`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(tables) = Tables::of(
        ctx,
        &name,
        "Samsung's sec_batterystats_history",
        &schema,
        TABLES,
    )?
    else {
        return Ok(());
    };
    if let Some(c) = tables.need("APP_HISTORY", &["uid", "start_time"])? {
        let sql = format!(
            "SELECT uid, date(start_time / 1000, 'unixepoch') AS day, count(*) AS windows, min(start_time) AS first_start, max({}) AS last_end, {} FROM APP_HISTORY GROUP BY uid, day ORDER BY day, uid",
            column_expr(c, "", "end_time"),
            sums(c, APP_SUMS),
        );
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table: "APP_HISTORY",
                category: "app_usage",
                what: "an app's (its Android uid's) battery use on one UTC day as Samsung's Device Health Manager Service measured it, summed over the day's windows (power as stored, times in ms; the package is named by the uid in packages.xml)",
                title: &|t, row| grouped(t, row, "Samsung battery use of uid", "uid"),
                fields: &[
                    ("uid", FactType::Identifier, "uid"),
                    ("day", FactType::Text, "UTC day"),
                    ("windows", FactType::Count, "windows"),
                    ("power", FactType::Text, "power"),
                    ("screen_power", FactType::Text, "screen power"),
                    ("fg_time", FactType::Count, "foreground (ms)"),
                    ("bg_time", FactType::Count, "background (ms)"),
                    ("cpu_time", FactType::Count, "CPU (ms)"),
                    ("wakelock_time", FactType::Count, "wakelocks (ms)"),
                    ("mobile_packet", FactType::Count, "mobile packets"),
                    ("wifi_packet", FactType::Count, "Wi-Fi packets"),
                    ("wakeup_alarm", FactType::Count, "wakeup alarms"),
                    ("gps_time", FactType::Count, "GPS (ms)"),
                    ("audio_time", FactType::Count, "audio (ms)"),
                    ("mobile_active", FactType::Count, "mobile active"),
                    ("bluetooth_scan", FactType::Count, "Bluetooth scans"),
                ],
                times: &[
                    (
                        "first_start",
                        "First battery window of the app that day",
                        unix_millis,
                    ),
                    (
                        "last_end",
                        "Last battery window of the app that day ended",
                        unix_millis,
                    ),
                ],
            },
            &mut no_identity,
        )?;
    }
    if let Some(c) = tables.need("DEVICE_HISTORY", &["start_time"])? {
        let sql = format!(
            "SELECT date(start_time / 1000, 'unixepoch') AS day, count(*) AS windows, min(start_time) AS first_start, max({}) AS last_end, {} FROM DEVICE_HISTORY GROUP BY day ORDER BY day",
            column_expr(c, "", "end_time"),
            sums(c, DEVICE_SUMS),
        );
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table: "DEVICE_HISTORY",
                category: "device",
                what: "the phone's screen and discharge figures on one UTC day as Samsung's Device Health Manager Service measured them, summed over the day's windows (power and discharge as stored, times in ms)",
                title: &|t, row| {
                    format!(
                        "Samsung device battery history on {}",
                        raw(t, row, "day").unwrap_or_else(|| "?".into())
                    )
                },
                fields: &[
                    ("day", FactType::Text, "UTC day"),
                    ("windows", FactType::Count, "windows"),
                    ("all_power", FactType::Text, "all power"),
                    ("screen_power", FactType::Text, "screen power"),
                    ("screen_on_time", FactType::Count, "screen on (ms)"),
                    ("screen_off_time", FactType::Count, "screen off (ms)"),
                    ("screen_on_discharge", FactType::Text, "screen-on discharge"),
                    (
                        "screen_off_discharge",
                        FactType::Text,
                        "screen-off discharge",
                    ),
                    ("screen_on_count", FactType::Count, "screen turned on"),
                    (
                        "high_brightness_time",
                        FactType::Count,
                        "high brightness (ms)",
                    ),
                    (
                        "high_refresh_time",
                        FactType::Count,
                        "high refresh rate (ms)",
                    ),
                ],
                times: &[
                    (
                        "first_start",
                        "First device battery window that day",
                        unix_millis,
                    ),
                    (
                        "last_end",
                        "Last device battery window that day ended",
                        unix_millis,
                    ),
                ],
            },
            &mut no_identity,
        )?;
    }
    if let Some(c) = tables.need("BATTERY_EVENT_HISTORY", &["update_time", "event_type"])? {
        let value = column_expr(c, "", "event_value");
        let sql = format!(
            "SELECT event_type, date(update_time / 1000, 'unixepoch') AS day, count(*) AS events, min(update_time) AS first_update, max(update_time) AS last_update, min({value}) AS min_value, max({value}) AS max_value, count(DISTINCT {value}) AS distinct_values FROM BATTERY_EVENT_HISTORY GROUP BY event_type, day ORDER BY day, event_type"
        );
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table: "BATTERY_EVENT_HISTORY",
                category: "device",
                what: "the battery events of one type on one UTC day that Samsung's Device Health Manager Service recorded (type and values as stored: their meaning differs between One UI versions)",
                title: &|t, row| grouped(t, row, "Samsung battery events of type", "event_type"),
                fields: &[
                    ("event_type", FactType::Text, "event type"),
                    ("day", FactType::Text, "UTC day"),
                    ("events", FactType::Count, "events"),
                    ("min_value", FactType::Text, "lowest value"),
                    ("max_value", FactType::Text, "highest value"),
                    ("distinct_values", FactType::Count, "distinct values"),
                ],
                times: &[
                    (
                        "first_update",
                        "First battery event of the type that day",
                        unix_millis,
                    ),
                    (
                        "last_update",
                        "Last battery event of the type that day",
                        unix_millis,
                    ),
                ],
            },
            &mut no_identity,
        )?;
    }
    if let Some(c) = tables.need("SYSTEM_HISTORY", &["start_time", "drain_type"])? {
        let sql = format!(
            "SELECT drain_type, date(start_time / 1000, 'unixepoch') AS day, count(*) AS windows, min(start_time) AS first_start, max({}) AS last_end, {} FROM SYSTEM_HISTORY GROUP BY drain_type, day ORDER BY day, drain_type",
            column_expr(c, "", "end_time"),
            sums(c, &["power", "used_time"]),
        );
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table: "SYSTEM_HISTORY",
                category: "device",
                what: "the system's battery drain of one type on one UTC day as Samsung's Device Health Manager Service measured it, summed over the day's windows (the type and power as stored, time in ms)",
                title: &|t, row| grouped(t, row, "Samsung system battery drain type", "drain_type"),
                fields: &[
                    ("drain_type", FactType::Text, "drain type"),
                    ("day", FactType::Text, "UTC day"),
                    ("windows", FactType::Count, "windows"),
                    ("power", FactType::Text, "power"),
                    ("used_time", FactType::Count, "used (ms)"),
                ],
                times: &[
                    (
                        "first_start",
                        "First system drain window that day",
                        unix_millis,
                    ),
                    (
                        "last_end",
                        "Last system drain window that day ended",
                        unix_millis,
                    ),
                ],
            },
            &mut no_identity,
        )?;
    }
    Ok(())
}
