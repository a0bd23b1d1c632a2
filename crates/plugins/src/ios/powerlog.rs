//! PowerLog (`Library/BatteryLife/CurrentPowerlog.PLSQL` and any other `*.PLSQL`), the tables
//! of iLEAPP's `PowerLog -` modules that say what the phone and its user did, one phenomenon
//! per row:
//!
//! | table (or its first `<table>_…` variant) | what a row is |
//! |---|---|
//! | `PLAppTimeService_Aggregate_AppRunTime` | an app's screen-on and background time over a window (seconds; in-call times where the release has them) |
//! | `PLApplicationAgent_EventForward_Application` | an app's state change (identifier, pid, state and reason as stored) |
//! | `PLSpringBoardAgent_EventForward_SBLock` | the device locked or unlocked |
//! | `PLSpringBoardAgent_EventPoint_SBAutoLock` | an auto-lock (type as stored) |
//! | `PLSleepWakeAgent_EventForward_PowerState` | a sleep/wake transition (event, state, reason, UUID) |
//! | `PLBatteryAgent_EventBackward_BatteryUI` | the battery level shown, charging or not |
//! | `PLBatteryAgent_EventBackward_Adapter` | the power adapter's input (voltage, current, power, load, loss) |
//! | `PLDisplayAgent_EventForward_Display` | the display's brightness (slider, lux, nits) |
//! | `PLAudioAgent_EventForward_Routing` | the audio route (speaker, headphones, a Bluetooth endpoint; output category; the app) |
//! | `PLCameraAgent_EventForward_Camera` | a camera in use (app, camera type, state) |
//! | `PLCameraAgent_EventForward_Torch` | the torch (app, level) |
//!
//! Times: PowerLog's `timestamp` is Unix seconds on the log's own clock, which can drift from
//! wall-clock time by minutes or weeks; `PLStorageOperator_EventForward_TimeOffset` records the
//! correction (`system`, seconds) in effect from each of its rows on. As iLEAPP does, a row takes
//! the offset of the last correction at or before it (the oldest for a row before them all); the
//! query computes the corrected time, so the corrected value is a cited fact beside the raw one,
//! and the timeline places the row at the corrected time. A log without the table is read raw,
//! and said to be.
//!
//! Rotated logs compressed in `Archives/*.PLSQL.gz` (the days before the current log's) are read
//! the same way: `sqlite_query` inflates a gzip-compressed database into its working copy and
//! says so; a damaged archive is noted with the offset where its stream broke. Schema
//! drift: a table without `timestamp` is noted; a missing table is passed over (releases differ);
//! every other column is read where present. Identities: none observed.

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;

use super::{Draft, Run, raw};
use crate::calls::column_or_null;

/// One PowerLog table: its name (or the prefix of its release's variant), the phenomena's
/// category and what a row is, its columns (column, type, what), and which columns title a row.
struct Spec {
    table: &'static str,
    category: &'static str,
    what: &'static str,
    cols: &'static [(&'static str, FactType, &'static str)],
    title: &'static [&'static str],
}

const SPECS: &[Spec] = &[
    Spec {
        table: "PLAppTimeService_Aggregate_AppRunTime",
        category: "app_usage",
        what: "app runtime",
        cols: &[
            ("BundleID", FactType::Identifier, "app"),
            ("ScreenOnTime", FactType::Text, "screen-on time (s)"),
            ("BackgroundTime", FactType::Text, "background time (s)"),
            (
                "InCallScreenOnTime",
                FactType::Text,
                "in-call screen-on time (s)",
            ),
            (
                "InCallBackgroundTime",
                FactType::Text,
                "in-call background time (s)",
            ),
            ("timeInterval", FactType::Text, "window (s)"),
        ],
        title: &["BundleID"],
    },
    Spec {
        table: "PLApplicationAgent_EventForward_Application",
        category: "app_usage",
        what: "app state",
        cols: &[
            ("Identifier", FactType::Identifier, "app"),
            ("pid", FactType::Text, "pid"),
            ("State", FactType::Text, "state (as stored)"),
            ("Reason", FactType::Text, "reason (as stored)"),
        ],
        title: &["Identifier", "State"],
    },
    Spec {
        table: "PLSpringBoardAgent_EventForward_SBLock",
        category: "device",
        what: "device lock",
        cols: &[("Locked", FactType::Text, "locked (1 yes, 0 no)")],
        title: &[],
    },
    Spec {
        table: "PLSpringBoardAgent_EventPoint_SBAutoLock",
        category: "device",
        what: "auto-lock",
        cols: &[("AutoLockType", FactType::Text, "auto-lock type (as stored)")],
        title: &["AutoLockType"],
    },
    Spec {
        table: "PLSleepWakeAgent_EventForward_PowerState",
        category: "device",
        what: "power state",
        cols: &[
            ("Event", FactType::Text, "event (as stored)"),
            ("State", FactType::Text, "state (as stored)"),
            ("Reason", FactType::Text, "reason (as stored)"),
            ("UUID", FactType::Identifier, "UUID"),
        ],
        title: &["Event", "State"],
    },
    Spec {
        table: "PLBatteryAgent_EventBackward_BatteryUI",
        category: "device",
        what: "battery level",
        cols: &[
            ("Level", FactType::Text, "battery level (%)"),
            ("IsCharging", FactType::Text, "charging (1 yes, 0 no)"),
        ],
        title: &["Level"],
    },
    Spec {
        table: "PLBatteryAgent_EventBackward_Adapter",
        category: "device",
        what: "power adapter",
        cols: &[
            (
                "SystemInputVoltage",
                FactType::Text,
                "input voltage (as stored)",
            ),
            (
                "SystemInputCurrent",
                FactType::Text,
                "input current (as stored)",
            ),
            ("SystemPowerIn", FactType::Text, "power in (as stored)"),
            ("SystemLoad", FactType::Text, "load (as stored)"),
            (
                "AdapterEfficiencyLoss",
                FactType::Text,
                "adapter loss (as stored)",
            ),
        ],
        title: &["SystemPowerIn"],
    },
    Spec {
        table: "PLDisplayAgent_EventForward_Display",
        category: "device",
        what: "display",
        cols: &[
            ("Brightness", FactType::Text, "brightness"),
            ("SliderValue", FactType::Text, "slider (as stored)"),
            ("lux", FactType::Text, "lux (as stored)"),
            ("mNits", FactType::Text, "mNits (as stored)"),
        ],
        title: &["Brightness"],
    },
    Spec {
        table: "PLAudioAgent_EventForward_Routing",
        category: "device",
        what: "audio route",
        cols: &[
            ("Active", FactType::Text, "active (1 yes, 0 no)"),
            ("ActiveRoute", FactType::Name, "route"),
            ("OutputCategory", FactType::Text, "output category"),
            (
                "HeadphonesConnected",
                FactType::Text,
                "headphones connected (1 yes, 0 no)",
            ),
            ("BTEndpointType", FactType::Text, "Bluetooth endpoint type"),
            ("ActivePID", FactType::Text, "active pid"),
        ],
        title: &["ActiveRoute", "OutputCategory"],
    },
    Spec {
        table: "PLCameraAgent_EventForward_Camera",
        category: "app_usage",
        what: "camera",
        cols: &[
            ("BundleId", FactType::Identifier, "app"),
            ("CameraType", FactType::Text, "camera type (as stored)"),
            ("State", FactType::Text, "state (as stored)"),
        ],
        title: &["BundleId", "State"],
    },
    Spec {
        table: "PLCameraAgent_EventForward_Torch",
        category: "app_usage",
        what: "torch",
        cols: &[
            ("BundleId", FactType::Identifier, "app"),
            ("Level", FactType::Text, "level (as stored)"),
        ],
        title: &["BundleId", "Level"],
    },
];

/// The clock-correction table.
const OFFSETS: &str = "PLStorageOperator_EventForward_TimeOffset";

/// Triage of every PowerLog of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("*.PLSQL", |find, path| one(run, find, path))?;
    run.each("*.PLSQL.gz", |find, path| one(run, find, path))
}

/// The table of `tables` named `prefix`, else its first variant `prefix_…` (not an `_Array_`
/// side table), as iLEAPP resolves the retention suffixes releases add.
fn resolve<'a>(tables: &'a [String], prefix: &str) -> Option<&'a str> {
    tables
        .iter()
        .find(|t| *t == prefix)
        .or_else(|| {
            let mut v: Vec<&String> = tables
                .iter()
                .filter(|t| t.starts_with(&format!("{prefix}_")) && !t.contains("_Array_"))
                .collect();
            v.sort();
            v.first().copied()
        })
        .map(String::as_str)
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((_, t)) = run.query(
        path,
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'PL%'",
        100_000,
    )?
    else {
        return Ok(());
    };
    let tables: Vec<String> = t
        .rows
        .iter()
        .filter_map(|r| t.get(r, "name").map(str::to_string))
        .collect();
    let wanted: Vec<(&Spec, &str)> = SPECS
        .iter()
        .filter_map(|s| resolve(&tables, s.table).map(|t| (s, t)))
        .collect();
    let offsets = resolve(&tables, OFFSETS);
    let mut names: Vec<&str> = wanted.iter().map(|(_, t)| *t).collect();
    names.extend(offsets);
    let Some(schema) = run.schema(path, &names)? else {
        return Ok(());
    };
    let offsets = offsets.filter(|o| {
        let c = schema.columns(o);
        c.contains("timestamp") && c.contains("system")
    });
    let offset = offsets.map(|o| {
        format!(
            "COALESCE((SELECT o.system FROM \"{o}\" o WHERE o.timestamp <= t.timestamp AND o.system IS NOT NULL ORDER BY o.timestamp DESC LIMIT 1), (SELECT o.system FROM \"{o}\" o WHERE o.timestamp IS NOT NULL AND o.system IS NOT NULL ORDER BY o.timestamp LIMIT 1))"
        )
    });
    for (spec, table) in wanted {
        if !schema.require(run, table, &["timestamp"])? {
            continue;
        }
        let c = schema.columns(table);
        let mut cols = vec![
            "t.rowid AS rid".to_string(),
            "t.timestamp AS raw".to_string(),
        ];
        match &offset {
            Some(o) => {
                cols.push(format!("{o} AS offset"));
                cols.push(format!("t.timestamp + {o} AS corrected"));
            }
            None => cols.extend([
                "NULL AS offset".to_string(),
                "NULL AS corrected".to_string(),
            ]),
        }
        cols.extend(
            spec.cols
                .iter()
                .map(|(n, _, _)| column_or_null(&c, "t.", n, n)),
        );
        let sql = format!("SELECT {} FROM \"{table}\" t", cols.join(", "));
        let Some(pages) = run.paged(path, &sql, "t.rowid")? else {
            continue;
        };
        crate::calls::note_pages_cap(run.ctx, path, &pages, &format!("{table} rows"))?;
        for (inv, t, row) in pages.rows() {
            let rid = raw(t, row, "rid").unwrap_or_default();
            let shown: Vec<&str> = spec.title.iter().filter_map(|c| t.get(row, c)).collect();
            let title = if spec.table == "PLSpringBoardAgent_EventForward_SBLock" {
                match t.get(row, "Locked") {
                    Some("1") => "PowerLog device locked".to_string(),
                    Some("0") => "PowerLog device unlocked".to_string(),
                    v => format!("PowerLog device lock {}", v.unwrap_or("?")),
                }
            } else if shown.is_empty() {
                format!("PowerLog {}", spec.what)
            } else {
                format!("PowerLog {}: {}", spec.what, shown.join(" "))
            };
            let mut d = Draft::new(spec.category, title);
            d.fact(FactType::Path, Some(path), find);
            let mut said = d.fields(t, row, inv, spec.cols);
            let corrected = raw(t, row, "corrected");
            let raw_ts = raw(t, row, "raw");
            let (corrected, raw_ts) = (corrected.as_deref(), raw_ts.as_deref());
            match corrected {
                Some(c) => {
                    d.fact(FactType::Timestamp, raw_ts, inv);
                    d.fact(FactType::Text, raw(t, row, "offset").as_deref(), inv);
                    d.time(
                        Some(c),
                        Some(TimeEncoding::UnixSeconds),
                        &format!("PowerLog {} (corrected)", spec.what),
                        inv,
                    );
                    said.push(format!(
                        "raw timestamp {} on the log's clock, corrected by {} s",
                        raw_ts.unwrap_or("?"),
                        t.get(row, "offset").unwrap_or("?")
                    ));
                }
                None => {
                    d.time(
                        raw_ts,
                        Some(TimeEncoding::UnixSeconds),
                        &format!("PowerLog {} (log clock)", spec.what),
                        inv,
                    );
                    said.push(
                        "no clock correction recorded: the time is the log's own clock".to_string(),
                    );
                }
            }
            d.interpretation = format!(
                "{table} row {rid} of {path}: an event of PowerLog's {} table; {}. Timestamps are Unix seconds.",
                spec.what,
                said.join("; ")
            );
            run.record(d)?;
        }
    }
    Ok(())
}
