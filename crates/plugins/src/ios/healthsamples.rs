//! Apple Health's samples (`healthdb_secure.sqlite`): what the watch, the phone and paired
//! devices measured, when — the fields of iLEAPP's `Health - Steps`, `Heart Rate`, `Resting
//! Heart Rate`, `Height Samples`, `Weight Samples`, `Headphone Audio Levels`, `Wrist
//! Temperature`, the watch's sleep states, `Watch Worn Data` and `Achievements`:
//!
//! - one `health` phenomenon per sample of each kind read ([`KINDS`]: HealthKit's data types as
//!   Health stores them in `samples.data_type`) — start and end (Core Data seconds), the value
//!   as stored (`quantity_samples.quantity`: steps, beats per second for the heart rate — per
//!   minute computed by the query —, beats per minute at rest, metres, kilograms, dB(A), °C;
//!   `category_samples.value` for sleep, named: in bed, asleep, awake, core, deep, REM), every
//!   metadata key and value of the sample (the heart rate's `_HKPrivateHeartRateContext` named
//!   as iLEAPP names it: background, streaming, sedentary, walking, breathe, workout, ECG, blood
//!   oxygen; a headphone sample's app), when it was added to Health, the time zone, the source
//!   version, and the device and app that recorded it (named from `healthdb.sqlite`, as the
//!   workouts are);
//! - one per measurement of a sample's series (iOS 15 on: `quantity_sample_series` names the
//!   series of `quantity_series_data`, whose points are the heart rate's individual readings,
//!   as iLEAPP lists them): the time and the value;
//! - one per period the watch was worn (iLEAPP's `Watch Worn Data`, data type 70: hourly
//!   samples, a new period after a gap of more than an hour): start, end, hours, the hours off
//!   before the next period — computed by the query;
//! - one per earned achievement (`ACHAchievementsPlugin_earned_instances`: created — Core Data
//!   seconds, or text on later releases —, earned date, template, value and unit, creator
//!   device).
//!
//! Each kind is one paged read (at most [`crate::calls::ROW_CAP`] rows, the rest noted). A
//! store without `samples` or its quantity and category tables reads what it has; a kind with
//! no sample records nothing.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::health::Names;
use super::photos::{fields, times};
use super::{Draft, Run, raw};

/// Where a kind's value is.
#[derive(Clone, Copy, PartialEq)]
enum Value {
    Quantity,
    Category,
}

/// A kind of sample: data type, name, where its value is, the unit said.
struct Kind {
    data_type: u32,
    name: &'static str,
    value: Value,
    unit: &'static str,
}

/// The kinds read, in HealthKit's data-type numbers as Health stores them.
const KINDS: [Kind; 8] = [
    Kind {
        data_type: 7,
        name: "Steps",
        value: Value::Quantity,
        unit: "steps",
    },
    Kind {
        data_type: 5,
        name: "Heart rate",
        value: Value::Quantity,
        unit: "beats per second",
    },
    Kind {
        data_type: 118,
        name: "Resting heart rate",
        value: Value::Quantity,
        unit: "beats per minute",
    },
    Kind {
        data_type: 2,
        name: "Height",
        value: Value::Quantity,
        unit: "m",
    },
    Kind {
        data_type: 3,
        name: "Body mass",
        value: Value::Quantity,
        unit: "kg",
    },
    Kind {
        data_type: 173,
        name: "Headphone audio level",
        value: Value::Quantity,
        unit: "dB(A)",
    },
    Kind {
        data_type: 256,
        name: "Wrist temperature",
        value: Value::Quantity,
        unit: "°C",
    },
    Kind {
        data_type: 63,
        name: "Sleep",
        value: Value::Category,
        unit: "",
    },
];

/// The tables of `healthdb_secure.sqlite` these readers use, besides the workouts'.
pub(super) const TABLES: [&str; 5] = [
    "quantity_samples",
    "category_samples",
    "quantity_sample_series",
    "quantity_series_data",
    "ACHAchievementsPlugin_earned_instances",
];

/// A number for a title: a REAL that is whole without its `.0` (the facts keep it as stored).
fn whole(v: &str) -> &str {
    v.strip_suffix(".0").unwrap_or(v)
}

/// A sleep-analysis value (HealthKit's `HKCategoryValueSleepAnalysis`).
fn sleep(v: &str) -> Option<&'static str> {
    Some(match v {
        "0" => "in bed",
        "1" => "asleep",
        "2" => "awake",
        "3" => "asleep, core",
        "4" => "asleep, deep",
        "5" => "asleep, REM",
        _ => return None,
    })
}

/// A heart-rate context (`_HKPrivateHeartRateContext`), as iLEAPP names it.
fn heart_context(v: &str) -> Option<&'static str> {
    Some(match v.trim_end_matches(".0") {
        "1" | "8" => "background",
        "2" => "streaming",
        "3" => "sedentary",
        "4" => "walking",
        "5" => "breathe",
        "6" => "workout",
        "9" => "ECG",
        "10" => "blood oxygen saturation",
        _ => return None,
    })
}

/// Triage of the samples, series, worn periods and achievements of one store.
pub(super) fn triage(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    names: &Names,
    schema: &super::Schema,
) -> Result<(), RuntimeError> {
    // a store without samples has none to read; one whose samples lack a column is noted
    if !schema.columns("samples").is_empty()
        && schema.require(
            run,
            "samples",
            &["data_id", "start_date", "end_date", "data_type"],
        )?
    {
        for kind in &KINDS {
            samples(run, find, path, names, schema, kind)?;
            if kind.value == Value::Quantity {
                series(run, find, path, schema, kind)?;
            }
        }
        worn(run, find, path)?;
    }
    achievements(run, find, path, schema)
}

/// The provenance columns of a sample (`o.data_id = s.data_id`), where the store has them.
fn provenance(schema: &super::Schema) -> Vec<String> {
    let o = schema.columns("objects");
    let p = schema.columns("data_provenances");
    let prov = o.contains("data_id") && o.contains("provenance");
    let mut cols = Vec::new();
    for c in [
        "device_id",
        "source_id",
        "source_version",
        "tz_name",
        "origin_product_type",
    ] {
        cols.push(if prov && p.contains(c) {
            format!(
                "(SELECT p.{c} FROM objects o JOIN data_provenances p ON p.ROWID = o.provenance WHERE o.data_id = s.data_id) AS {c}"
            )
        } else {
            format!("NULL AS {c}")
        });
    }
    cols.push(if prov && o.contains("creation_date") {
        "(SELECT o.creation_date FROM objects o WHERE o.data_id = s.data_id) AS added".into()
    } else {
        "NULL AS added".into()
    });
    cols
}

/// Every metadata key and value of a sample in one cell (`key=value; …`), where the store has
/// the metadata tables.
fn metadata(schema: &super::Schema) -> String {
    let v = schema.columns("metadata_values");
    let k = schema.columns("metadata_keys");
    if !(v.contains("object_id") && v.contains("key_id") && k.contains("key")) {
        return "NULL AS metadata".into();
    }
    let value = ["numerical_value", "string_value", "date_value"]
        .iter()
        .filter(|c| v.contains(**c))
        .map(|c| format!("v.{c}"))
        .collect::<Vec<_>>();
    let value = match value.len() {
        0 => "NULL".to_string(),
        1 => value[0].clone(),
        _ => format!("COALESCE({})", value.join(", ")),
    };
    format!(
        "(SELECT GROUP_CONCAT(k.key || '=' || {value}, '; ') FROM metadata_values v JOIN metadata_keys k ON k.ROWID = v.key_id WHERE v.object_id = s.data_id) AS metadata"
    )
}

fn samples(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    names: &Names,
    schema: &super::Schema,
    kind: &Kind,
) -> Result<(), RuntimeError> {
    let (table, column) = match kind.value {
        Value::Quantity => ("quantity_samples", "quantity"),
        Value::Category => ("category_samples", "value"),
    };
    if !schema.columns(table).contains(column) || !schema.columns(table).contains("data_id") {
        return Ok(());
    }
    let mut cols = vec![
        "s.data_id AS id".to_string(),
        "s.start_date AS start".into(),
        "s.end_date AS end".into(),
        format!("x.{column} AS value"),
    ];
    if kind.data_type == 5 {
        cols.push(format!("ROUND(x.{column} * 60, 1) AS per_minute"));
    }
    let series = schema.columns("quantity_sample_series");
    cols.push(
        if kind.value == Value::Quantity && series.contains("data_id") && series.contains("count") {
            "(SELECT q.count FROM quantity_sample_series q WHERE q.data_id = s.data_id) AS points"
                .into()
        } else {
            "NULL AS points".into()
        },
    );
    cols.push(metadata(schema));
    cols.extend(provenance(schema));
    let sql = format!(
        "SELECT * FROM (SELECT {} FROM samples s JOIN {table} x ON x.data_id = s.data_id WHERE s.data_type = {})",
        cols.join(", "),
        kind.data_type
    );
    let Some(pages) = run.paged(path, &sql, "id")? else {
        return Ok(());
    };
    crate::calls::note_pages_cap(
        run.ctx,
        path,
        &pages,
        &format!("Health {} samples", kind.name),
    )?;
    for (inv, t, row) in pages.rows() {
        let id = raw(t, row, "id").unwrap_or_default();
        let value = raw(t, row, "value").unwrap_or_default();
        let shown = match (kind.value, kind.data_type) {
            (Value::Category, _) => sleep(&value).unwrap_or(&value).to_string(),
            (_, 5) => format!(
                "{} per minute",
                whole(&raw(t, row, "per_minute").unwrap_or_default())
            ),
            _ => format!("{} {}", whole(&value), kind.unit),
        };
        let mut d = Draft::new("health", format!("{}: {shown}", kind.name));
        d.fact(FactType::Path, Some(path), find);
        let mut said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("value", FactType::Text, "value as stored"),
                ("per_minute", FactType::Text, "per minute"),
                ("points", FactType::Count, "measurements in its series"),
                ("source_version", FactType::Text, "source version"),
                ("tz_name", FactType::Text, "time zone"),
                ("origin_product_type", FactType::Identifier, "recorded on"),
            ],
        );
        if let Some(m) = raw(t, row, "metadata") {
            d.fact(FactType::Text, Some(&m), inv);
            let words: Vec<String> = m
                .split("; ")
                .filter_map(|kv| {
                    let v = kv.strip_prefix("_HKPrivateHeartRateContext=")?;
                    heart_context(v).map(|w| format!("heart rate context {w}"))
                })
                .collect();
            said.push(format!("metadata {m}"));
            said.extend(words);
        }
        times(
            &mut d,
            t,
            row,
            inv,
            &[
                ("start", &format!("{} sample started", kind.name)),
                ("end", &format!("{} sample ended", kind.name)),
                ("added", &format!("{} sample added to Health", kind.name)),
            ],
        );
        let from = names.recorded_by(&mut d, t, row);
        d.interpretation = format!(
            "samples row {id} of {path} (data type {}): {} of {shown}{}; {}{}. Times are Core Data seconds since 2001.",
            kind.data_type,
            kind.name.to_lowercase(),
            if kind.unit.is_empty() || kind.data_type == 5 {
                String::new()
            } else {
                format!(" (stored in {})", kind.unit)
            },
            said.join("; "),
            super::health::recorded_said(&from)
        );
        run.record(d)?;
    }
    Ok(())
}

/// The measurements of the series of a kind's samples.
fn series(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &super::Schema,
    kind: &Kind,
) -> Result<(), RuntimeError> {
    let q = schema.columns("quantity_sample_series");
    let d = schema.columns("quantity_series_data");
    if !(q.contains("data_id")
        && q.contains("hfd_key")
        && ["series_identifier", "timestamp", "value"]
            .iter()
            .all(|c| d.contains(*c)))
    {
        return Ok(());
    }
    // quantity_series_data is keyed by (series, timestamp): a row number pages it
    let sql = format!(
        "SELECT * FROM (SELECT ROW_NUMBER() OVER (ORDER BY d.series_identifier, d.timestamp) AS k, q.data_id AS sample, d.timestamp AS time, d.value AS value{} FROM quantity_series_data d JOIN quantity_sample_series q ON q.hfd_key = d.series_identifier JOIN samples s ON s.data_id = q.data_id WHERE s.data_type = {})",
        if kind.data_type == 5 {
            ", ROUND(d.value * 60, 1) AS per_minute"
        } else {
            ", NULL AS per_minute"
        },
        kind.data_type
    );
    let Some(pages) = run.paged(path, &sql, "k")? else {
        return Ok(());
    };
    crate::calls::note_pages_cap(
        run.ctx,
        path,
        &pages,
        &format!("Health {} measurements", kind.name),
    )?;
    for (inv, t, row) in pages.rows() {
        let sample = raw(t, row, "sample").unwrap_or_default();
        let value = raw(t, row, "value").unwrap_or_default();
        let shown = match raw(t, row, "per_minute") {
            Some(p) => format!("{} per minute", whole(&p)),
            None => format!("{} {}", whole(&value), kind.unit),
        };
        let mut dr = Draft::new("health", format!("{} measurement: {shown}", kind.name));
        dr.fact(FactType::Path, Some(path), find);
        let said = fields(
            &mut dr,
            t,
            row,
            inv,
            &[
                ("value", FactType::Text, "value as stored"),
                ("per_minute", FactType::Text, "per minute"),
            ],
        );
        times(
            &mut dr,
            t,
            row,
            inv,
            &[("time", &format!("{} measured", kind.name))],
        );
        dr.interpretation = format!(
            "quantity_series_data of {path}: one measurement of the series of sample {sample} ({}, stored in {}); {}. The time is Core Data seconds since 2001.",
            kind.name.to_lowercase(),
            kind.unit,
            said.join("; ")
        );
        run.record(dr)?;
    }
    Ok(())
}

/// The periods the watch was worn: data type 70's hourly samples, a new period after a gap of
/// more than an hour (iLEAPP's `Watch Worn Data`), computed by the query.
fn worn(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let sql = "WITH h AS (SELECT start_date, end_date, CASE WHEN start_date - LAG(end_date) OVER (ORDER BY start_date) > 3600 THEN 1 ELSE 0 END AS gap FROM samples WHERE data_type = 70), \
g AS (SELECT start_date, end_date, SUM(gap) OVER (ORDER BY start_date ROWS UNBOUNDED PRECEDING) AS period FROM h), \
p AS (SELECT period, MIN(start_date) AS start, MAX(end_date) AS end, COUNT(*) AS samples FROM g GROUP BY period) \
SELECT p.period AS period, p.start AS start, p.end AS end, p.samples AS samples, ROUND((p.end - p.start) / 3600.0, 2) AS hours, ROUND((n.start - p.end) / 3600.0, 2) AS hours_off FROM p LEFT JOIN p n ON n.period = p.period + 1 ORDER BY p.period";
    let Some((inv, t)) = run.query(path, sql, super::ENTRY_CAP)? else {
        return Ok(());
    };
    if t.truncated {
        run.ctx.unparsed(
            path,
            &format!(
                "more than {} periods the watch was worn; the first were recorded",
                super::ENTRY_CAP
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    for row in &t.rows {
        let period = raw(&t, row, "period").unwrap_or_default();
        let hours = raw(&t, row, "hours").unwrap_or_default();
        let mut d = Draft::new("health", format!("Watch worn for {hours} hours"));
        d.fact(FactType::Path, Some(path), find);
        let said = fields(
            &mut d,
            &t,
            row,
            &inv,
            &[
                ("hours", FactType::Text, "hours worn"),
                ("samples", FactType::Count, "hourly samples"),
                (
                    "hours_off",
                    FactType::Text,
                    "hours off before it was worn again",
                ),
            ],
        );
        times(
            &mut d,
            &t,
            row,
            &inv,
            &[("start", "Watch worn from"), ("end", "Watch worn until")],
        );
        d.interpretation = format!(
            "samples of data type 70 in {path} (period {period}): the hourly samples the watch records while it is worn, grouped into one period until a gap of more than an hour (iLEAPP's reading); {}. Times are Core Data seconds since 2001.",
            said.join("; ")
        );
        run.record(d)?;
    }
    Ok(())
}

/// The achievements earned (`ACHAchievementsPlugin_earned_instances`).
fn achievements(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &super::Schema,
) -> Result<(), RuntimeError> {
    const TABLE: &str = "ACHAchievementsPlugin_earned_instances";
    let c = schema.columns(TABLE);
    if c.is_empty() || !schema.require(run, TABLE, &["template_unique_name"])? {
        return Ok(());
    }
    let col = |name: &str| crate::calls::column_or_null(&c, "", name, name);
    let sql = format!(
        "SELECT ROWID AS rid, template_unique_name, {} FROM {TABLE}",
        [
            "created_date",
            "earned_date",
            "value_in_canonical_unit",
            "value_canonical_unit",
            "creator_device",
        ]
        .map(col)
        .join(", ")
    );
    let Some(pages) = run.paged(path, &sql, "ROWID")? else {
        return Ok(());
    };
    crate::calls::note_pages_cap(run.ctx, path, &pages, "Health achievements")?;
    for (inv, t, row) in pages.rows() {
        let rid = raw(t, row, "rid").unwrap_or_default();
        let name = raw(t, row, "template_unique_name").unwrap_or_default();
        let mut d = Draft::new("health", format!("Achievement earned: {name}"));
        d.fact(FactType::Path, Some(path), find);
        let mut said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("template_unique_name", FactType::Name, "achievement"),
                ("earned_date", FactType::Text, "earned on"),
                ("value_in_canonical_unit", FactType::Text, "value"),
                ("value_canonical_unit", FactType::Text, "unit"),
                ("creator_device", FactType::Text, "creator device"),
            ],
        );
        // REAL Core Data seconds on older releases, text on later ones: a time only when a number
        let created = raw(t, row, "created_date");
        match super::core_data_encoding(created.as_deref()) {
            Some(e) => {
                d.time(created.as_deref(), Some(e), "Achievement created", inv);
            }
            None => {
                if let Some(c) = &created {
                    d.fact(FactType::Text, Some(c), inv);
                    said.push(format!("created {c}"));
                }
            }
        }
        d.interpretation = format!(
            "{TABLE} row {rid} of {path}: the Activity achievement {name} was earned; {}.",
            said.join("; ")
        );
        run.record(d)?;
    }
    Ok(())
}
