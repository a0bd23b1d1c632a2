//! Samsung's Digital Wellbeing (`com.samsung.android.forest/databases/dwbCommon.db`), ALEAPP's
//! `swellbeing` (`samsung_wellbeing`, `samsung_wellbeing_timezone`): the app-usage events
//! Samsung's own Digital Wellbeing recorded — which app came to the front or went to the
//! background, the screen turned on and off, the phone unlocked, started or shut down — and
//! the time-zone changes it logged. (Google's Digital Wellbeing is read by
//! [`super::wellbeing`] and the system's usage statistics by [`super::usagestats`].)
//!
//! | file: table | phenomenon | fields |
//! |---|---|---|
//! | `dwbCommon.db`: `usageEvents` ⟕ `foundPackages` (`pkgId`) | one `app_usage` per event ("Samsung Digital Wellbeing event <event id>: <package> <type name>") | event id, package (from `foundPackages`), package id, event type as stored, AOSP's name for the code (`UsageEvents.Event`: MOVE_TO_FOREGROUND, SCREEN_INTERACTIVE, KEYGUARD_HIDDEN, DEVICE_STARTUP …, computed in the query; none for a code AOSP does not name); when (`timeStamp`, Unix ms) |
//! | `Logging` (`key` like `%timeZoneChanged%`) | one `device` per time-zone change ("Samsung Digital Wellbeing time zone change <previous> to <new>") | previous and new zone (from `prevTimezone( <zone>), newTimezone( <zone>)`, cut out in the query), the key and the line as stored; when (`timeStamp`, read by its size: Unix ms, else s) |
//!
//! An event type is Samsung's code as stored; its name is AOSP's for that code, and Samsung's
//! implementation is not documented to follow AOSP's numbering (said in every interpretation),
//! so the code is the fact and the name a reading of it. An event records a transition the
//! system reported (an app to the foreground, the keyguard hidden), not by itself something the
//! user did. Schema drift: tables and columns are found
//! in any case; an event whose package id is not in `foundPackages` (or a store without it) is
//! read with its id and no package; a store with neither `usageEvents` nor `Logging` is noted,
//! and so is a table without the columns read (`timeStamp`, `pkgId`, `eventType`; `timeStamp`,
//! `key`, `value`). Not read: the other `Logging` lines (the app's own diagnostics), the daily
//! summaries and goals. Secrets: none kept. Identities: none.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::{column_any_case, table_any_case};
use crate::drafts::{RowPhenomena, unix_by_magnitude, unix_millis};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::raw;

/// Whether `l` is Samsung Digital Wellbeing's store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "dwbCommon.db" && l.path.contains("/com.samsung.android.forest/databases/")
}

/// What the notes call the store.
const WHAT: &str = "Samsung Digital Wellbeing's dwbCommon.db";

/// The column of `cols` named `want` in any case, as it is spelled there (`want` when absent).
fn named<'a>(cols: &'a std::collections::BTreeSet<String>, want: &'a str) -> &'a str {
    column_any_case(cols, want).unwrap_or(want)
}

/// AOSP's name of each usage-event code, as an SQL `CASE` over `expr` (NULL for a code AOSP
/// does not name).
fn event_names(expr: &str) -> String {
    let arms: String = (0..=31)
        .map(|t| format!(" WHEN {t} THEN '{}'", super::usagestats::event_name(t)))
        .collect();
    format!("CASE {expr}{arms} END")
}

/// The events query over `table` (columns `cols`), joined to the packages table `packages`
/// (name and columns) where it has `pkgId` and `name`.
pub(crate) fn events_sql(
    table: &str,
    cols: &std::collections::BTreeSet<String>,
    packages: Option<(&str, &std::collections::BTreeSet<String>)>,
) -> String {
    let (ts, pkg, ty) = (
        named(cols, "timeStamp"),
        named(cols, "pkgId"),
        named(cols, "eventType"),
    );
    let id = match column_any_case(cols, "eventId") {
        Some(c) => format!("e.\"{c}\" AS event_id"),
        None => "NULL AS event_id".to_string(),
    };
    let joined = packages.and_then(|(pt, pc)| {
        Some((
            pt,
            column_any_case(pc, "pkgId")?,
            column_any_case(pc, "name")?,
        ))
    });
    let (package, join) = match joined {
        Some((pt, pid, pname)) => (
            format!("p.\"{pname}\" AS package"),
            format!("LEFT JOIN \"{pt}\" p ON p.\"{pid}\" = e.\"{pkg}\""),
        ),
        None => ("NULL AS package".to_string(), String::new()),
    };
    format!(
        "SELECT e.rowid AS rid, {id}, e.\"{ts}\" AS time_stamp, e.\"{pkg}\" AS pkg_id, {package}, e.\"{ty}\" AS event_type, {} AS event_name FROM \"{table}\" e {join} ORDER BY e.rowid",
        event_names(&format!("e.\"{ty}\""))
    )
}

/// The time-zone changes query over the log `table` (columns `cols`): the previous and new zone
/// cut out of `prevTimezone( <zone>), newTimezone( <zone>)`.
pub(crate) fn zones_sql(table: &str, cols: &std::collections::BTreeSet<String>) -> String {
    let (ts, key, value) = (
        named(cols, "timeStamp"),
        named(cols, "key"),
        named(cols, "value"),
    );
    let v = format!("\"{value}\"");
    format!(
        "WITH z AS (SELECT rowid AS rid, \"{ts}\" AS time_stamp, \"{key}\" AS log_key, {v} AS log_value, instr({v}, 'prevTimezone(') AS prev_at, substr({v}, instr({v}, 'prevTimezone(') + 13) AS prev_rest, instr({v}, 'newTimezone(') AS new_at, substr({v}, instr({v}, 'newTimezone(') + 12) AS new_rest FROM \"{table}\" WHERE \"{key}\" LIKE '%timeZoneChanged%') SELECT rid, time_stamp, log_key, log_value, CASE WHEN prev_at > 0 AND instr(prev_rest, ')') > 0 THEN trim(substr(prev_rest, 1, instr(prev_rest, ')') - 1)) END AS previous_zone, CASE WHEN new_at > 0 AND instr(new_rest, ')') > 0 THEN trim(substr(new_rest, 1, instr(new_rest, ')') - 1)) END AS new_zone FROM z ORDER BY rid"
    )
}

/// One `dwbCommon.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let events = table_any_case(&schema, "usageEvents");
    let logging = table_any_case(&schema, "Logging");
    if events.is_none() && logging.is_none() {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            &format!(
                "could not parse {WHAT} because it has neither a usageEvents nor a Logging table (another layout)"
            ),
            None,
        )?;
        return Ok(());
    }
    if let Some((table, cols)) = events
        && super::require_all(
            ctx,
            l,
            None,
            &["timeStamp", "pkgId", "eventType"],
            |c| column_any_case(cols, c).is_some(),
            |missing| {
                format!(
                    "could not parse {WHAT} because table {table} lacks {missing} (unexpected schema)"
                )
            },
        )?
    {
        let packages = table_any_case(&schema, "foundPackages");
        super::record_query(
            ctx,
            l,
            &events_sql(table, cols, packages),
            &RowPhenomena {
                table: "usageEvents",
                category: "app_usage",
                what: "an app-usage event Samsung's Digital Wellbeing recorded (the event type is Samsung's code as stored, its name AOSP's for that code: Samsung's numbering is not documented to follow AOSP's; a transition the system reported, not by itself a user's action; timeStamp Unix ms)",
                title: &|t, row| {
                    format!(
                        "Samsung Digital Wellbeing event {}: {} {}",
                        t.get(row, "event_id")
                            .or_else(|| t.get(row, "rid"))
                            .unwrap_or("?"),
                        raw(t, row, "package").unwrap_or_else(|| format!(
                            "package id {}",
                            t.get(row, "pkg_id").unwrap_or("?")
                        )),
                        t.get(row, "event_name")
                            .map(str::to_string)
                            .unwrap_or_else(|| format!(
                                "event type {}",
                                t.get(row, "event_type").unwrap_or("?")
                            ))
                    )
                },
                fields: &[
                    ("event_id", FactType::Identifier, "event id"),
                    ("package", FactType::Identifier, "package"),
                    ("pkg_id", FactType::Identifier, "package id"),
                    ("event_type", FactType::Text, "event type"),
                    ("event_name", FactType::Text, "AOSP's name for the type"),
                ],
                times: &[(
                    "time_stamp",
                    "Samsung Digital Wellbeing usage event",
                    unix_millis,
                )],
            },
            &mut |_, _, _| Ok(()),
        )?;
    }
    if let Some((table, cols)) = logging
        && super::require_all(
            ctx,
            l,
            None,
            &["timeStamp", "key", "value"],
            |c| column_any_case(cols, c).is_some(),
            |missing| {
                format!(
                    "could not parse {WHAT} because table {table} lacks {missing} (unexpected schema)"
                )
            },
        )?
    {
        super::record_query(
            ctx,
            l,
            &zones_sql(table, cols),
            &RowPhenomena {
                table: "Logging",
                category: "device",
                what: "a time-zone change Samsung's Digital Wellbeing logged (UsageDataManager::timeZoneChanged(): the previous and new zone cut out of the line; timeStamp read by its size, Unix ms)",
                title: &|t, row| {
                    format!(
                        "Samsung Digital Wellbeing time zone change {} to {}",
                        raw(t, row, "previous_zone").unwrap_or_else(|| "?".into()),
                        raw(t, row, "new_zone").unwrap_or_else(|| "?".into())
                    )
                },
                fields: &[
                    ("previous_zone", FactType::Text, "previous time zone"),
                    ("new_zone", FactType::Text, "new time zone"),
                    ("log_key", FactType::Text, "log key"),
                    ("log_value", FactType::Text, "log line"),
                ],
                times: &[(
                    "time_stamp",
                    "Samsung Digital Wellbeing time zone changed",
                    unix_by_magnitude,
                )],
            },
            &mut |_, _, _| Ok(()),
        )?;
    }
    Ok(())
}
