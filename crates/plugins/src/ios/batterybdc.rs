//! Battery Data Collection (`/private/var/db/Battery/BDC/BDC_SBC_*.csv`, and a sysdiagnose's
//! `logs/BatteryBDC/` copy), iLEAPP's `batteryBDC` ("Battery Data Collection (BDC)"): samples of
//! the battery's state iOS's power management keeps — charge level shown and raw, charging or
//! not, temperature, current, voltage — each with its time. Read with `read_text` in
//! [`CHUNK`] pieces cut at line ends (there is no CSV tool), the columns by the names the file's
//! first line gives them.
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | `BDC_SBC_*.csv` (a header row, then one sample a line, `,`-separated) | one `device` per sample ("Battery BDC sample <TimeStamp>, <StateOfCharge>% shown, charging") | every column of the row as the header names it, the seven iLEAPP reads labelled: `StateOfCharge` (the level shown to the user, %), `CurrentCapacity` (the raw level, %), `IsCharging`, `Temperature` (hundredths of a degree Celsius), `Amperage` (mA), `Voltage` (mV); the others (`Watts` …) by their header names, meaning not documented; `TimeStamp` as the sample's time |
//!
//! Time: `TimeStamp` as written. A date-time with no zone is read as the device's local time
//! (iLEAPP: "as stored, no zone recorded"), one with a zone as ISO 8601, a number as Unix time
//! (seconds or milliseconds by its size); anything else is kept as text, no time.
//!
//! What it proves: the battery's state at that time. `IsCharging` 1 says the battery was
//! charging, so the phone was on external power; 0 does not say it was unplugged (a full battery
//! on power does not charge). The temperature scale is iLEAPP's (its notes: measured to be
//! hundredths of a degree, rising while charging). Columns by name: iLEAPP reads them by name
//! too, falling back on positions (1, 3, 4, 5, 6, 8, 9, and 19 for watts) — here a file whose
//! header names no `TimeStamp` column is noted, not read by position.
//!
//! Damage: a line whose number of fields differs from the header's is not read (counted and
//! noted once per file); a file whose last line ends without a line break was cut inside that
//! line: it is not read and noted (a cut inside the last field of a line could otherwise not be
//! told apart). A file named so outside a `Battery/BDC` or `BatteryBDC` folder is another app's:
//! neither read nor noted. At most [`ENTRY_CAP`] samples a source (noted beyond), reading at
//! most [`MAX_BYTES`] of a file (noted beyond).
//!
//! Identities: none.

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::{Draft, ENTRY_CAP, Run, file_name};
use crate::drafts::{date_text, unix_by_magnitude};

/// Bytes of a file read per `read_text` call (a sample's facts cite a short output).
pub const CHUNK: u64 = 64 << 10;

/// Bytes of one file read at most.
pub const MAX_BYTES: u64 = 16 << 20;

/// The columns iLEAPP reads, by header name, with what each holds.
const NAMED: [(&str, &str); 6] = [
    ("StateOfCharge", "level shown to the user, %"),
    ("CurrentCapacity", "raw level, %"),
    ("IsCharging", "1 charging, 0 not"),
    ("Temperature", "hundredths of a degree Celsius"),
    ("Amperage", "mA"),
    ("Voltage", "mV"),
];

/// Whether `path` is a Battery Data Collection SBC file (in `Battery/BDC/` or a sysdiagnose's
/// `BatteryBDC/`).
pub fn is_file(path: &str) -> bool {
    let name = file_name(path);
    name.starts_with("BDC_SBC_")
        && name.ends_with(".csv")
        && (path.contains("/Battery/BDC/") || path.contains("/BatteryBDC/"))
}

/// Triage of every BDC_SBC file of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut count = 0u64;
    run.each("BDC_SBC_*.csv", |find, path| {
        if is_file(path) {
            file(run, find, path, &mut count)
        } else {
            Ok(())
        }
    })
}

/// How the end of a file read by [`each_line`] was met.
struct Ended {
    /// The call whose text ends in a line without a line break, when the file ends so (that line
    /// was not passed on).
    cut: Option<String>,
}

/// Calls `f` on every complete line of `path` with the `read_text` call holding it, read in
/// [`CHUNK`] pieces cut at line ends, up to [`MAX_BYTES`] (noted beyond); `f` returns `false` to
/// stop.
fn each_line(
    run: &Run<'_, '_>,
    path: &str,
    mut f: impl FnMut(&Invoked, &str) -> Result<bool, RuntimeError>,
) -> Result<Ended, RuntimeError> {
    let mut offset = 0u64;
    loop {
        let Some(inv) = crate::calls::call_or_note(
            run.ctx,
            path,
            "read_text",
            json!({"path": path, "offset": offset, "length": CHUNK}),
        )?
        else {
            return Ok(Ended { cut: None });
        };
        let s = inv.output.structured.clone().unwrap_or_default();
        let more = s.get("more").and_then(Value::as_bool).unwrap_or(false);
        let length = s.get("length").and_then(Value::as_u64).unwrap_or(0);
        let text = &inv.output.text;
        // complete lines only: in a middle piece up to its last line break; at the file's end,
        // a last line without a line break was cut
        let end = text.rfind('\n').map(|i| i + 1);
        let body = &text[..end.unwrap_or(0)];
        let tail_cut = !more && !text[end.unwrap_or(0)..].trim().is_empty();
        for line in body.lines() {
            if !f(&inv, line)? {
                return Ok(Ended { cut: None });
            }
        }
        if !more || length == 0 {
            return Ok(Ended {
                cut: tail_cut.then(|| inv.record.invocation_id.clone()),
            });
        }
        // a piece with bytes that are not UTF-8 is not cut at a line (its text is longer than
        // its bytes): the next read starts after it
        offset += match end {
            Some(c) if !text.contains('\u{FFFD}') => c as u64,
            _ => length,
        };
        if offset >= MAX_BYTES {
            run.ctx.unparsed(
                path,
                &format!(
                    "the file is larger than {MAX_BYTES} bytes: the samples past them were not read"
                ),
                Some(&inv.record.invocation_id),
            )?;
            return Ok(Ended { cut: None });
        }
    }
}

/// The fields of a line (`,`-separated, each trimmed of blanks and of quotes around it).
fn fields(line: &str) -> Vec<String> {
    line.split(',')
        .map(|f| f.trim().trim_matches('"').to_string())
        .collect()
}

/// How a `TimeStamp` as written is read: a number as Unix time by its size, a date-time text as
/// ISO 8601 (with a zone) or local time (without).
fn stamp_encoding(value: Option<&str>) -> Option<TimeEncoding> {
    let v = value?.trim();
    if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        unix_by_magnitude(Some(v))
    } else {
        date_text(Some(v))
    }
}

/// One BDC_SBC file.
fn file(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    count: &mut u64,
) -> Result<(), RuntimeError> {
    let mut header: Option<Vec<String>> = None;
    let (mut line_no, mut bad, mut foreign, mut capped) = (0usize, 0usize, false, false);
    let mut cite: Option<String> = None;
    let ended = each_line(run, path, |inv, line| {
        line_no += 1;
        if cite.as_deref() != Some(inv.record.invocation_id.as_str()) {
            cite = Some(inv.record.invocation_id.clone());
        }
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            return Ok(true);
        }
        if header.is_none() {
            let names = fields(line.trim_start_matches('\u{feff}'));
            if !names.iter().any(|n| n.eq_ignore_ascii_case("TimeStamp")) {
                foreign = true;
                return Ok(false);
            }
            header = Some(names);
            return Ok(true);
        }
        let Some(names) = header.as_ref() else {
            return Ok(true);
        };
        let values = fields(line);
        if values.len() != names.len() {
            bad += 1;
            return Ok(true);
        }
        if *count >= ENTRY_CAP {
            capped = true;
            return Ok(false);
        }
        *count += 1;
        sample(run, find, inv, path, line_no, names, &values)?;
        Ok(true)
    })?;
    if foreign {
        run.ctx.unparsed(
            path,
            "could not parse the Battery Data Collection (BDC_SBC) file because its first line names no TimeStamp column (its columns are read by the names the first line gives them)",
            cite.as_deref(),
        )?;
        return Ok(());
    }
    if bad > 0 {
        run.ctx.unparsed(
            path,
            &format!(
                "{bad} line{} whose number of fields differs from the header's ({}) {} not read (cut or damaged); the other samples were",
                if bad == 1 { "" } else { "s" },
                header.as_ref().map_or(0, Vec::len),
                if bad == 1 { "was" } else { "were" },
            ),
            cite.as_deref(),
        )?;
    }
    if let Some(call) = &ended.cut {
        run.ctx.unparsed(
            path,
            "its last line ends without a line break (the file was cut inside it) and was not read; the samples before it were",
            Some(call),
        )?;
    }
    if capped {
        run.ctx.unparsed(
            path,
            &format!(
                "more than {ENTRY_CAP} Battery Data Collection samples in the source: those past the first {ENTRY_CAP} were not read"
            ),
            cite.as_deref(),
        )?;
    }
    Ok(())
}

/// One sample: the line `line_no` of `path`, its `values` under the header's `names`.
fn sample(
    run: &Run<'_, '_>,
    find: &Invoked,
    inv: &Invoked,
    path: &str,
    line_no: usize,
    names: &[String],
    values: &[String],
) -> Result<(), RuntimeError> {
    let get = |name: &str| {
        names
            .iter()
            .position(|n| n.eq_ignore_ascii_case(name))
            .and_then(|i| values.get(i))
            .map(String::as_str)
            .filter(|v| !v.is_empty())
    };
    let ts = get("TimeStamp");
    let soc = get("StateOfCharge");
    let charging = get("IsCharging");
    let mut d = Draft::new(
        "device",
        format!(
            "Battery BDC sample {}{}{}",
            ts.unwrap_or("without a time"),
            soc.map(|s| format!(", {s}% shown")).unwrap_or_default(),
            match charging {
                Some("1") => ", charging",
                Some("0") => ", not charging",
                _ => "",
            }
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    let encoding = stamp_encoding(ts);
    d.time(ts, encoding, "Battery sample recorded (BDC)", inv);
    if encoding.is_none() {
        d.fact(FactType::Text, ts, inv);
    }
    let mut said = Vec::new();
    for (i, (name, value)) in names.iter().zip(values).enumerate() {
        if value.is_empty() || name.eq_ignore_ascii_case("TimeStamp") {
            continue;
        }
        d.fact(FactType::Text, Some(value), inv);
        let label = match NAMED.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
            Some((_, what)) => format!("{name} ({what})"),
            None if name.is_empty() => format!("column {}", i + 1),
            None => name.clone(),
        };
        said.push(format!("{label} {value}"));
    }
    let when = match encoding {
        Some(TimeEncoding::LocalText) => {
            " (as written, with no zone: read as the device's local time)"
        }
        Some(TimeEncoding::Iso8601) => " (ISO 8601)",
        Some(TimeEncoding::UnixSeconds) => " (Unix seconds)",
        Some(TimeEncoding::UnixMillis) => " (Unix milliseconds)",
        Some(_) => "",
        None => " (not read as a time: kept as text)",
    };
    d.interpretation = format!(
        "Line {line_no} of {}, a Battery Data Collection (BDC_SBC) file of iOS's power management: the battery's state at {}{when}: {}. IsCharging 1 says the battery was charging, so the phone was on external power (0 does not say it was unplugged); the temperature is in hundredths of a degree Celsius (iLEAPP's reading); columns other than the seven iLEAPP reads are said as the file names them, their meaning not documented.",
        file_name(path),
        ts.unwrap_or("an unrecorded time"),
        said.join("; "),
    );
    run.record(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_fields_and_times() {
        assert!(is_file(
            "/private/var/db/Battery/BDC/BDC_SBC_version3.0_20240314.csv"
        ));
        assert!(is_file("/sysdiagnose/logs/BatteryBDC/BDC_SBC_2.9_1.csv"));
        assert!(!is_file(
            "/private/var/mobile/Containers/Data/Application/X/Documents/BDC_SBC_export.csv"
        ));
        assert!(!is_file("/private/var/db/Battery/BDC/BDC_Daily_1.csv"));
        assert_eq!(fields(" a ,\"b\",,4"), vec!["a", "b", "", "4"]);
        assert_eq!(
            stamp_encoding(Some("2024-03-14 09:26:53")),
            Some(TimeEncoding::LocalText)
        );
        assert_eq!(
            stamp_encoding(Some("1698909300")),
            Some(TimeEncoding::UnixSeconds)
        );
        assert_eq!(
            stamp_encoding(Some("1698909300123")),
            Some(TimeEncoding::UnixMillis)
        );
        assert_eq!(stamp_encoding(Some("soon")), None);
        assert_eq!(stamp_encoding(None), None);
    }
}
