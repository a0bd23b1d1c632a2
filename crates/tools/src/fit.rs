//! `read_fit`: a FIT file of the evidence (the Flexible and Interoperable Data Transfer format
//! Garmin devices, Strava, Wahoo, Coros and most fitness apps write activities, workouts and
//! monitoring data in) as one JSON line per message.
//!
//! Decoded by the maintained `fitparser` crate (the FIT profile's messages, fields, units,
//! scale and offset, components and compressed timestamps), driven message by message so that
//! what precedes a damaged or truncated part is kept and the part is named by its byte offset.
//! A checksum that does not match is said and the file read again without checking it. Times
//! are printed in UTC (`fitparser` gives them in the machine's zone), a `local_date_time`
//! field (`local_timestamp`) as the device's wall-clock time without a zone, the same on every
//! machine; positions, stored in
//! semicircles, are printed as stored with their degrees beside (`<field>_degrees`, the stored
//! value × 180 / 2³¹). The decoder runs under a panic guard: crafted input that trips it is an
//! error naming the file, never a crash.

use std::collections::{BTreeMap, HashSet};

use fitparser::de::{DecodeOption, FitObject, FitStreamProcessor};
use fitparser::{ErrorKind, FitDataRecord, Value as FitValue};
use serde_json::{Map, Value, json};

use crate::{Applicability, SourceCtx, Tool, ToolError, ToolOutput, args};

/// Largest file read.
pub const FILE_MAX: u64 = 64 << 20;
/// Most bytes of message lines printed (the rest counted, not shown).
pub const OUTPUT_MAX: usize = 4 << 20;
/// Most message names in a `messages` filter.
const FILTER_MAX: usize = 32;

/// What decoding met: the messages read, and where and why it stopped early.
pub struct Decoded {
    pub messages: Vec<FitDataRecord>,
    pub problem: Option<String>,
}

/// Decodes `data` message by message; `checked` validates the header and data checksums.
fn decode_with(data: &[u8], checked: bool) -> Result<Decoded, Box<ErrorKind>> {
    let mut p = FitStreamProcessor::new();
    if !checked {
        p.add_option(DecodeOption::SkipHeaderCrcValidation);
        p.add_option(DecodeOption::SkipDataCrcValidation);
    }
    let mut messages = Vec::new();
    let mut rest = data;
    while !rest.is_empty() {
        let at = data.len() - rest.len();
        let (next, obj) = match p.deserialize_next(rest) {
            Ok(v) => v,
            Err(e) if matches!(*e, ErrorKind::InvalidCrc(..)) => return Err(e),
            Err(e) => {
                return Ok(Decoded {
                    messages,
                    problem: Some(format!("decoding stopped at byte offset {at}: {e}")),
                });
            }
        };
        match obj {
            FitObject::Crc(..) => p.reset(),
            FitObject::DataMessage(m) => match p.decode_message(m) {
                Ok(r) => messages.push(r),
                Err(e) => {
                    return Ok(Decoded {
                        messages,
                        problem: Some(format!(
                            "decoding stopped at the message at byte offset {at}: {e}"
                        )),
                    });
                }
            },
            FitObject::Header(..) | FitObject::DefinitionMessage(..) => {}
        }
        rest = next;
    }
    Ok(Decoded {
        messages,
        problem: None,
    })
}

/// Decodes a FIT file: with its checksums checked, else (a checksum does not match) again
/// without, saying so. `Err` for input the decoder cannot start on or that makes it panic.
pub fn decode(data: &[u8]) -> Result<Decoded, String> {
    let guarded = |checked: bool| {
        std::panic::catch_unwind(|| decode_with(data, checked))
            .map_err(|_| "the FIT decoder failed on this input".to_string())
    };
    match guarded(true)? {
        Ok(d) => Ok(d),
        Err(crc) => match guarded(false)? {
            Ok(mut d) => {
                let said = format!("{crc}; read without checking the checksums");
                d.problem = Some(match d.problem {
                    Some(p) => format!("{said}; {p}"),
                    None => said,
                });
                Ok(d)
            }
            Err(e) => Err(e.to_string()),
        },
    }
    .and_then(|d| {
        if d.messages.is_empty() {
            Err(d
                .problem
                .unwrap_or_else(|| "no FIT message in the file".to_string()))
        } else {
            Ok(d)
        }
    })
}

/// The FIT profile's fields of type `local_date_time`: the device's wall-clock time, no zone.
const LOCAL_FIELDS: &[&str] = &["local_timestamp", "scheduled_time"];

/// A `local_date_time` field as the device's wall-clock time (`YYYY-MM-DDTHH:MM:SS`, no zone).
/// `fitparser` places such a value in the examining machine's zone; the seconds stored are
/// recovered from that (the same zone's FIT epoch subtracted) so the text printed is the same
/// on every machine.
fn local_wall_time(t: &chrono::DateTime<chrono::Local>) -> Option<String> {
    use chrono::TimeZone;
    let epoch = chrono::NaiveDate::from_ymd_opt(1989, 12, 31)?.and_hms_opt(0, 0, 0)?;
    let here = chrono::Local.from_local_datetime(&epoch).earliest()?;
    let stored = t.timestamp() - here.timestamp();
    let wall = epoch.checked_add_signed(chrono::Duration::seconds(stored))?;
    Some(wall.format("%Y-%m-%dT%H:%M:%S").to_string())
}

/// A field value as JSON: numbers as numbers, times as RFC 3339 UTC text (a `local_date_time`
/// field as the device's wall-clock time, no zone), arrays as arrays.
fn field_json(name: &str, v: &FitValue) -> Value {
    match v {
        FitValue::Timestamp(t) if LOCAL_FIELDS.contains(&name) => {
            local_wall_time(t).map_or(Value::Null, Value::String)
        }
        _ => value_json(v),
    }
}

/// A value as JSON: numbers as numbers, times as RFC 3339 UTC text, arrays as arrays.
fn value_json(v: &FitValue) -> Value {
    match v {
        FitValue::Timestamp(t) => json!(t.naive_utc().format("%Y-%m-%dT%H:%M:%SZ").to_string()),
        FitValue::Byte(x) | FitValue::Enum(x) | FitValue::UInt8(x) | FitValue::UInt8z(x) => {
            json!(x)
        }
        FitValue::SInt8(x) => json!(x),
        FitValue::SInt16(x) => json!(x),
        FitValue::UInt16(x) | FitValue::UInt16z(x) => json!(x),
        FitValue::SInt32(x) => json!(x),
        FitValue::UInt32(x) | FitValue::UInt32z(x) => json!(x),
        FitValue::SInt64(x) => json!(x),
        FitValue::UInt64(x) | FitValue::UInt64z(x) => json!(x),
        FitValue::Float32(x) => json!(x),
        FitValue::Float64(x) => json!(x),
        FitValue::String(s) => json!(s),
        FitValue::Array(a) => Value::Array(a.iter().map(value_json).collect()),
        FitValue::Invalid => Value::Null,
    }
}

/// One message as JSON: its index, name, fields (and each position's degrees) and units.
pub fn message_json(i: usize, r: &FitDataRecord) -> Value {
    let mut fields = Map::new();
    let mut units = Map::new();
    for f in r.fields() {
        let v = field_json(f.name(), f.value());
        if f.units() == "semicircles"
            && let Some(n) = v.as_f64()
        {
            let deg = n * 180.0 / 2f64.powi(31);
            fields.insert(
                format!("{}_degrees", f.name()),
                json!((deg * 1e7).round() / 1e7),
            );
        }
        if !f.units().is_empty() {
            units.insert(f.name().to_string(), json!(f.units()));
        }
        fields.insert(f.name().to_string(), v);
    }
    let mut m = Map::new();
    m.insert("i".into(), json!(i));
    m.insert("message".into(), json!(r.kind().to_string()));
    m.insert("fields".into(), Value::Object(fields));
    if !units.is_empty() {
        m.insert("units".into(), Value::Object(units));
    }
    Value::Object(m)
}

/// The tool.
pub struct ReadFit;

impl Tool for ReadFit {
    fn name(&self) -> &str {
        "read_fit"
    }
    fn description(&self) -> &str {
        "Decode a FIT file of the evidence (up to 64 MiB): the activity, workout, course and monitoring files Garmin devices, Strava, Wahoo, Coros and most fitness apps write (.fit). After a `# FIT <path>: <size> bytes, <n> messages (<name> <count>, …)` line (and a `# problem` line when a checksum does not match — the file is then read without checking — or decoding stopped early: the byte offset and why, the messages before it kept), one JSON line per message: {\"i\", \"message\" (file_id, device_info, user_profile, session, lap, record, activity, event, …), \"fields\" (name → value; times RFC 3339 UTC, a local_date_time field such as local_timestamp as the device's wall-clock time without a zone; positions in semicircles as stored, with `<field>_degrees` beside), \"units\"}. `messages` keeps only those messages; `skip`/`limit` page what is kept (a `# page` line then says which were shown of how many): a long activity's `record` track points are read in pages."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {
            "partition": {"type": "string", "description": "The file system to use when the source holds several (1-based index or partition name)."},
            "path": {"type": "string", "description": "Absolute path of the .fit file."},
            "messages": {"type": "array", "items": {"type": "string"}, "maxItems": FILTER_MAX, "description": "Message names to show (file_id, device_info, user_profile, session, lap, record, activity, event, …); default all."},
            "skip": {"type": "integer", "minimum": 0, "description": "Messages (of those kept) passed over before the first shown."},
            "limit": {"type": "integer", "minimum": 1, "description": "Most messages shown."}
        }, "required": ["path"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        Applicability::TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let _ = args::str(a, "path")?;
        let filter: Option<HashSet<&str>> =
            args::opt_str_list(a, "messages", FILTER_MAX)?.map(|l| l.into_iter().collect());
        let skip = args::opt_u64(a, "skip")?.unwrap_or(0) as usize;
        let limit = args::opt_u64(a, "limit")?.unwrap_or(u64::MAX) as usize;
        let (path, data) = crate::fs_tools::whole_file(ctx, a, FILE_MAX, "read_fit")?;
        let d = decode(&data)
            .map_err(|e| ToolError::Other(format!("{path}: not a FIT file it can read: {e}")))?;
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for r in &d.messages {
            *counts.entry(r.kind().to_string()).or_default() += 1;
        }
        let mut text = format!(
            "# FIT {path}: {} bytes, {} messages ({})\n",
            data.len(),
            d.messages.len(),
            counts
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        if let Some(p) = &d.problem {
            text.push_str(&format!("# problem: {p}\n"));
        }
        let kept: Vec<(usize, &FitDataRecord)> = d
            .messages
            .iter()
            .enumerate()
            .filter(|(_, r)| {
                filter
                    .as_ref()
                    .is_none_or(|f| f.contains(r.kind().to_string().as_str()))
            })
            .collect();
        let mut body = String::new();
        let mut shown = 0usize;
        let mut cut = 0usize;
        for (i, r) in kept.iter().skip(skip).take(limit) {
            let line = message_json(*i, r).to_string();
            if body.len() + line.len() + 1 > OUTPUT_MAX {
                cut += 1;
                continue;
            }
            body.push_str(&line);
            body.push('\n');
            shown += 1;
        }
        if skip > 0 || shown + cut < kept.len() {
            text.push_str(&format!(
                "# page: messages {} to {} of {} shown\n",
                skip + 1,
                skip + shown,
                kept.len()
            ));
        }
        text.push_str(&body);
        if cut > 0 {
            text.push_str(&format!(
                "# truncated: {cut} messages not shown (output limit {OUTPUT_MAX} bytes)\n"
            ));
        }
        Ok(ToolOutput {
            text,
            structured: Some(json!({
                "path": path,
                "size": data.len(),
                "messages": d.messages.len(),
                "counts": counts,
                "matched": kept.len(),
                "shown": shown,
                "problem": d.problem,
            })),
        })
    }
}
