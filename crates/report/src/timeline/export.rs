//! Timeline exports with the plaso/Timesketch conventions: `datetime` (ISO 8601 UTC),
//! `timestamp` (microseconds since 1970), `timestamp_desc` and `message` first, then the
//! MASForensics columns. JSONL is one entry object per line (Timesketch's JSONL import); JSON
//! is one document with the counts; CSV has one header row and RFC 4180 quoting, with the
//! context facts as a JSON array in one cell; a cell starting with `=`, `+`, `-`, `@`, a tab or
//! a carriage return is prefixed with `'` by default so a spreadsheet shows it as text. An unconvertible entry keeps its row, with empty
//! `datetime`/`timestamp` and `flag` = `unconvertible` (Timesketch refuses such rows on import:
//! filter them out there, they are never hidden here).

use std::io::Write;

use serde::Serialize;

use super::{Entry, Timeline};

/// The CSV columns, in order.
pub const CSV_COLUMNS: [&str; 20] = [
    "datetime",
    "timestamp",
    "timestamp_desc",
    "message",
    "source",
    "source_id",
    "phenomenon_id",
    "entry",
    "agent",
    "category",
    "raw_value",
    "raw_encoding",
    "zone",
    "utc",
    "case_time",
    "case_zone",
    "flag",
    "note",
    "alternative",
    "context",
];

/// Why an export could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// Writing failed.
    #[error("writing the timeline: {0}")]
    Io(#[from] std::io::Error),
    /// CSV encoding failed.
    #[error("writing the timeline as CSV: {0}")]
    Csv(#[from] csv::Error),
    /// JSON encoding failed.
    #[error("writing the timeline as JSON: {0}")]
    Json(#[from] serde_json::Error),
}

#[derive(Serialize)]
struct Document<'t> {
    case_zone: &'t str,
    count: usize,
    unconvertible: usize,
    ambiguous: usize,
    entries: &'t [Entry],
}

/// The timeline as one JSON document: `{case_zone, count, unconvertible, ambiguous, entries}`.
pub fn write_json(out: &mut dyn Write, t: &Timeline) -> Result<(), ExportError> {
    serde_json::to_writer_pretty(
        &mut *out,
        &Document {
            case_zone: &t.case_zone,
            count: t.entries.len(),
            unconvertible: t.unconvertible,
            ambiguous: t.ambiguous,
            entries: &t.entries,
        },
    )?;
    writeln!(out)?;
    Ok(())
}

/// One JSON object per entry and line.
pub fn write_jsonl(out: &mut dyn Write, t: &Timeline) -> Result<(), ExportError> {
    for e in &t.entries {
        serde_json::to_writer(&mut *out, e)?;
        writeln!(out)?;
    }
    Ok(())
}

/// A cell a spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a
/// carriage return) prefixed with `'`, so it is shown as the text it is (OWASP's CSV
/// injection advice). Evidence strings — a message, a file name — reach every cell.
pub fn neutralise(cell: String) -> String {
    if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{cell}")
    } else {
        cell
    }
}

/// Whether CSV cells are neutralised against formula injection ([`neutralise`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CsvCells {
    /// Cells a spreadsheet would run are prefixed with `'` (the default).
    Neutralised,
    /// Cells exactly as recorded (for tools that read the CSV as data, not a spreadsheet).
    Raw,
}

/// CSV with [`CSV_COLUMNS`] as the header, every cell neutralised against formula injection
/// ([`neutralise`]) except `timestamp`, a number the export writes itself.
pub fn write_csv(out: &mut dyn Write, t: &Timeline) -> Result<(), ExportError> {
    write_csv_with(out, t, CsvCells::Neutralised)
}

/// [`write_csv`], choosing whether cells are neutralised.
pub fn write_csv_with(
    out: &mut dyn Write,
    t: &Timeline,
    cells: CsvCells,
) -> Result<(), ExportError> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(CSV_COLUMNS)?;
    let timestamp = CSV_COLUMNS.iter().position(|c| *c == "timestamp");
    for e in &t.entries {
        let record = [
            opt(&e.datetime),
            e.timestamp.map(|t| t.to_string()).unwrap_or_default(),
            e.timestamp_desc.to_string(),
            e.message.to_string(),
            e.source.to_string(),
            e.source_id.to_string(),
            e.phenomenon_id.to_string(),
            e.entry.clone(),
            e.agent.to_string(),
            e.category.to_string(),
            e.raw_value.to_string(),
            e.raw_encoding.to_string(),
            e.zone.to_string(),
            opt(&e.utc),
            opt(&e.case_time),
            e.case_zone.to_string(),
            e.flag.map(|f| f.as_str().to_string()).unwrap_or_default(),
            opt(&e.note),
            opt(&e.alternative),
            serde_json::to_string(&e.context)?,
        ];
        w.write_record(record.into_iter().enumerate().map(|(i, c)| {
            if cells == CsvCells::Raw || Some(i) == timestamp {
                c
            } else {
                neutralise(c)
            }
        }))?;
    }
    w.flush()?;
    Ok(())
}

/// A readable table for a terminal: the time in the case zone, source, what happened, the
/// message, and the raw value with its encoding; flags and their notes on a second line.
pub fn render_table(t: &Timeline) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "{:<25}  {:<14}  {:<26}  {:<40}  raw\n",
        format!("time ({})", t.case_zone),
        "source",
        "what",
        "message"
    ));
    for e in &t.entries {
        let time = e.case_time.as_deref().or(e.utc.as_deref()).unwrap_or("?");
        s.push_str(&format!(
            "{:<25}  {:<14}  {:<26}  {:<40}  {} ({}{})\n",
            time,
            e.source_id,
            clip(&e.timestamp_desc, 26),
            clip(&e.message, 40),
            clip(&e.raw_value, 48),
            e.raw_encoding,
            if e.zone.is_empty() || &*e.zone == "UTC" {
                String::new()
            } else {
                format!(", read in {}", e.zone)
            }
        ));
        if let Some(flag) = e.flag {
            s.push_str(&format!(
                "{:<25}  ! {}: {}{}\n",
                "",
                flag.as_str(),
                clip(e.note.as_deref().unwrap_or(""), 400),
                e.alternative
                    .as_deref()
                    .map(|a| format!(" (other reading {a})"))
                    .unwrap_or_default()
            ));
        }
    }
    s.push_str(&format!(
        "{} entries, {} unconvertible, {} in a DST gap or fold\n",
        t.entries.len(),
        t.unconvertible,
        t.ambiguous
    ));
    s
}

/// `text` cut to `width` characters (with `…`), on one line, control characters (newlines,
/// terminal escapes from evidence) shown as spaces.
fn clip(text: &str, width: usize) -> String {
    let one_line: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if one_line.chars().count() <= width {
        one_line
    } else {
        let mut cut: String = one_line.chars().take(width.saturating_sub(1)).collect();
        cut.push('…');
        cut
    }
}

/// The columns of plaso's `l2tcsv` output (log2timeline's CSV), in order.
pub const L2TCSV_COLUMNS: [&str; 17] = [
    "date",
    "time",
    "timezone",
    "MACB",
    "source",
    "sourcetype",
    "type",
    "user",
    "host",
    "short",
    "desc",
    "version",
    "filename",
    "inode",
    "notes",
    "format",
    "extra",
];

/// The MACB flags of a time's description, as plaso writes them: `M` modified, `A` accessed,
/// `C` metadata changed, `B` born; `.` where it is not that time.
fn macb(desc: &str) -> String {
    let d = desc.to_lowercase();
    let metadata = d.contains("metadata") || d.contains("change");
    let m = d.contains("modif") && !metadata;
    let a = d.contains("access");
    let b = d.contains("creat") || d.contains("birth") || d.contains("born");
    [(m, 'M'), (a, 'A'), (metadata, 'C'), (b, 'B')]
        .iter()
        .map(|&(on, c)| if on { c } else { '.' })
        .collect()
}

/// The timeline as plaso's `l2tcsv`: one row per placed entry with its UTC date
/// (`MM/DD/YYYY`) and time (`HH:MM:SS`), `timezone` `UTC`, the MACB flags of its description,
/// `source` the source id, `sourcetype` the artefact category, `type` the description, `host`
/// the source's label, `short`/`desc` the message, `version` 2, `filename` the phenomenon,
/// `notes` the flag and note, `format` the agent, `extra` the raw value with its encoding and
/// zone. An unconvertible entry has no date: it is left out (l2tcsv has no row without one;
/// the JSON, JSONL and CSV exports keep it). Cells are neutralised as in [`write_csv`].
pub fn write_l2tcsv(out: &mut dyn Write, t: &Timeline) -> Result<(), ExportError> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(L2TCSV_COLUMNS)?;
    for e in &t.entries {
        let Some(utc) = e.utc.as_deref() else {
            continue;
        };
        // `utc` is RFC 3339: YYYY-MM-DDTHH:MM:SS[.frac]Z.
        let (Some(date), Some(time)) = (utc.get(..10), utc.get(11..19)) else {
            continue;
        };
        let date = format!("{}/{}/{}", &date[5..7], &date[8..10], &date[..4]);
        let notes = match (&e.flag, &e.note) {
            (Some(f), Some(n)) => format!("{}: {n}", f.as_str()),
            (Some(f), None) => f.as_str().to_string(),
            (None, Some(n)) => n.to_string(),
            (None, None) => "-".to_string(),
        };
        let record = [
            date,
            time.to_string(),
            "UTC".to_string(),
            macb(&e.timestamp_desc),
            e.source_id.to_string(),
            e.category.to_string(),
            e.timestamp_desc.to_string(),
            "-".to_string(),
            e.source.to_string(),
            e.message.chars().take(80).collect(),
            e.message.to_string(),
            "2".to_string(),
            e.phenomenon_id.to_string(),
            "-".to_string(),
            notes,
            e.agent.to_string(),
            format!(
                "raw_value: {}; raw_encoding: {}; zone: {}",
                e.raw_value, e.raw_encoding, e.zone
            ),
        ];
        w.write_record(record.into_iter().map(neutralise))?;
    }
    w.flush()?;
    Ok(())
}

/// An optional cell: its text, or empty.
fn opt<S: AsRef<str>>(v: &Option<S>) -> String {
    v.as_ref()
        .map_or_else(String::new, |s| s.as_ref().to_string())
}
