//! Raw time values to UTC instants (DESIGN §12): one function, [`convert`], for every
//! [`TimeEncoding`].
//!
//! Epoch encodings are read as exact decimals (no floating point): `761578800000000000`
//! Apple nanoseconds, `752221247.1` Core Data seconds and `7.6157880e+17` as the sqlite3 shell
//! prints a large REAL all give the instant to the nanosecond (finer fractions are cut off,
//! towards the past). Naive encodings (`fat_local`, `local_text`) are read in the source's time
//! zone; a wall-clock time that falls in a DST gap (never shown on a clock) or fold (shown
//! twice) is converted with the RFC 5545 / Temporal "compatible" rule — the offset before a
//! gap, the earlier of two fold instants — and always flagged with the other candidate, never
//! chosen silently. Values that cannot be read or lie outside the years -9999..=9999 are
//! [`Unconvertible`] with the reason; nothing here panics on any input.

use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::tz::{AmbiguousOffset, Offset, TimeZone};
use masf_graph::TimeEncoding;

/// 1970-01-01 to 2001-01-01 (Apple absolute time's epoch), in seconds.
const APPLE_EPOCH_UNIX: i128 = 978_307_200;
/// 1601-01-01 (FILETIME's and WebKit's epoch) to 1970-01-01, in seconds.
const WINDOWS_EPOCH_TO_UNIX: i128 = 11_644_473_600;
const NANOS_PER_SECOND: i128 = 1_000_000_000;

/// A value read as an instant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Converted {
    /// The UTC instant.
    pub instant: Timestamp,
    /// The zone the value was read in: `UTC` for epoch counts and `Z`, the value's own offset
    /// (`+08:00`) for ISO 8601 text with one, the IANA zone for naive values.
    pub zone: String,
    /// Set when a naive value fell in a DST gap or fold.
    pub ambiguity: Option<Ambiguity>,
}

/// A naive wall-clock time that did not name one instant in its zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ambiguity {
    /// The clock jumped over this time (spring forward): it never existed. `instant` used the
    /// offset in force before the gap (`later`); `earlier` used the offset after it.
    Gap {
        /// Read with the offset after the transition.
        earlier: Timestamp,
        /// Read with the offset before the transition (the chosen instant).
        later: Timestamp,
    },
    /// The clock went back over this time (fall back): it happened twice. `instant` is the
    /// first (`earlier`).
    Fold {
        /// The first occurrence (the chosen instant).
        earlier: Timestamp,
        /// The second occurrence.
        later: Timestamp,
    },
}

impl Ambiguity {
    /// The candidate instant that was not chosen.
    pub fn alternative(&self) -> Timestamp {
        match *self {
            Ambiguity::Gap { earlier, .. } => earlier,
            Ambiguity::Fold { later, .. } => later,
        }
    }
}

/// A value that could not be read as an instant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unconvertible {
    /// The zone it would have been read in, where that is known before reading it.
    pub zone: String,
    /// Why, for the examiner.
    pub reason: String,
}

/// Converts `raw`, encoded as `encoding`, to a UTC instant. `source_zone` is the IANA zone
/// naive encodings are read in (the source's `timezone` in case.yaml); epoch and ISO 8601
/// values ignore it.
pub fn convert(
    raw: &str,
    encoding: TimeEncoding,
    source_zone: Option<&str>,
) -> Result<Converted, Unconvertible> {
    convert_in(raw, encoding, source_zone.map(SourceZone::new).as_ref())
}

/// A source's zone, looked up once for all of its values.
#[derive(Debug, Clone)]
pub struct SourceZone {
    name: String,
    tz: Option<TimeZone>,
}

impl SourceZone {
    /// The IANA zone `name` (unknown names are kept and reported when a naive value needs
    /// them).
    pub fn new(name: &str) -> Self {
        SourceZone {
            name: name.to_string(),
            tz: TimeZone::get(name).ok(),
        }
    }
}

/// [`convert`] with the source's zone already looked up.
pub fn convert_in(
    raw: &str,
    encoding: TimeEncoding,
    source_zone: Option<&SourceZone>,
) -> Result<Converted, Unconvertible> {
    let value = raw.trim();
    let epoch = |epoch_unix_seconds: i128, unit_exp10: i32, unit: &str| {
        epoch_count(value, epoch_unix_seconds, unit_exp10, unit).map(|instant| Converted {
            instant,
            zone: "UTC".into(),
            ambiguity: None,
        })
    };
    let fail = |zone: &str| {
        let zone = zone.to_string();
        move |reason: String| Unconvertible { zone, reason }
    };
    match encoding {
        TimeEncoding::UnixSeconds => epoch(0, 9, "seconds").map_err(fail("UTC")),
        TimeEncoding::UnixMillis => epoch(0, 6, "milliseconds").map_err(fail("UTC")),
        TimeEncoding::UnixMillisHex => {
            let digits = value.strip_prefix("0x").unwrap_or(value);
            let count = i128::from_str_radix(digits, 16)
                .map_err(|e| format!("{value:?} is not a hexadecimal number of milliseconds: {e}"))
                .map_err(fail("UTC"))?;
            epoch_count(&count.to_string(), 0, 6, "milliseconds")
                .map_err(fail("UTC"))
                .map(|instant| Converted {
                    instant,
                    zone: "UTC".into(),
                    ambiguity: None,
                })
        }
        TimeEncoding::UnixMicros => epoch(0, 3, "microseconds").map_err(fail("UTC")),
        TimeEncoding::UnixNanos => epoch(0, 0, "nanoseconds").map_err(fail("UTC")),
        TimeEncoding::AppleSeconds => epoch(APPLE_EPOCH_UNIX, 9, "seconds").map_err(fail("UTC")),
        TimeEncoding::AppleNanos => epoch(APPLE_EPOCH_UNIX, 0, "nanoseconds").map_err(fail("UTC")),
        TimeEncoding::WindowsFiletime => {
            epoch(-WINDOWS_EPOCH_TO_UNIX, 2, "100-ns intervals").map_err(fail("UTC"))
        }
        TimeEncoding::Webkit => {
            epoch(-WINDOWS_EPOCH_TO_UNIX, 3, "microseconds").map_err(fail("UTC"))
        }
        TimeEncoding::Iso8601 => iso8601(value),
        TimeEncoding::FatLocal => {
            let zone = source_zone.map_or("", |z| z.name.as_str());
            if value == "unset" {
                return Err(fail(zone)(
                    "the FAT date is unset (date word 0): no time was recorded".into(),
                ));
            }
            let text = value.strip_suffix("(local)").map_or(value, str::trim_end);
            naive(text, source_zone)
        }
        TimeEncoding::LocalText => naive(value, source_zone),
        TimeEncoding::UsLocalText => {
            let iso = month_first(value).map_err(|why| Unconvertible {
                zone: source_zone.map_or("", |z| z.name.as_str()).to_string(),
                reason: format!("{value:?}: {why}"),
            })?;
            naive(&iso, source_zone).map_err(|mut e| {
                e.reason = format!("{value:?} (read as {iso}): {}", e.reason);
                e
            })
        }
    }
}

/// `MM/DD/YY HH:MM:SS[.f]` (or a four-digit year) rewritten `YYYY-MM-DD HH:MM:SS[.f]` for
/// [`parse_civil`]'s checks; a two-digit year 69–99 is 19xx, 00–68 20xx (POSIX `%y`).
fn month_first(value: &str) -> Result<String, String> {
    let expect = "expected MM/DD/YY HH:MM:SS (or a four-digit year, a fraction)";
    let (date, time) = value.trim().split_once(' ').ok_or(expect)?;
    let parts: Vec<&str> = date.split('/').collect();
    let [m, d, y] = parts.as_slice() else {
        return Err(expect.into());
    };
    let digits =
        |p: &str, n: &[usize]| n.contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit());
    if !digits(m, &[2]) || !digits(d, &[2]) || !digits(y, &[2, 4]) {
        return Err(expect.into());
    }
    let year = match (y.len(), y.parse::<u16>().map_err(|_| expect)?) {
        (2, yy) if yy >= 69 => 1900 + yy,
        (2, yy) => 2000 + yy,
        (_, yyyy) => yyyy,
    };
    Ok(format!("{year:04}-{m}-{d} {}", time.trim_start()))
}

/// `value` counted in units of `10^unit_exp10` ns since `epoch_unix_seconds`.
fn epoch_count(
    value: &str,
    epoch_unix_seconds: i128,
    unit_exp10: i32,
    unit: &str,
) -> Result<Timestamp, String> {
    let (mantissa, exp10) = parse_decimal(value)
        .map_err(|why| format!("{value:?} is not a number of {unit}: {why}"))?;
    let out_of_range =
        || format!("{value} {unit} is outside the representable years -9999..=9999 (wrong unit?)");
    let exp = exp10 + unit_exp10;
    let nanos = if mantissa == 0 {
        0
    } else if exp >= 0 {
        10i128
            .checked_pow(exp.unsigned_abs())
            .and_then(|p| mantissa.checked_mul(p))
            .ok_or_else(out_of_range)?
    } else {
        // Finer than a nanosecond: cut towards the past, so an instant never moves later.
        match 10i128.checked_pow(exp.unsigned_abs()) {
            Some(p) => mantissa.div_euclid(p),
            None => {
                if mantissa < 0 {
                    -1
                } else {
                    0
                }
            }
        }
    };
    let total = epoch_unix_seconds
        .checked_mul(NANOS_PER_SECOND)
        .and_then(|e| e.checked_add(nanos))
        .ok_or_else(out_of_range)?;
    Timestamp::from_nanosecond(total).map_err(|_| out_of_range())
}

/// An exact decimal `[+-]digits[.digits][e[+-]digits]` as `mantissa × 10^exp10`.
fn parse_decimal(text: &str) -> Result<(i128, i32), &'static str> {
    let bytes = text.as_bytes();
    let mut i = 0;
    let negative = match bytes.first() {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        Some(_) => false,
        None => return Err("empty"),
    };
    let mut mantissa: i128 = 0;
    let mut digits = 0usize;
    let mut significant = 0usize;
    let mut exp10: i32 = 0;
    let mut seen_point = false;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'0'..=b'9' => {
                digits += 1;
                if mantissa != 0 || b != b'0' {
                    significant += 1;
                }
                if significant > 36 {
                    return Err("too many digits");
                }
                mantissa = mantissa * 10 + i128::from(b - b'0');
                if seen_point {
                    exp10 -= 1;
                }
            }
            b'.' if !seen_point => seen_point = true,
            b'e' | b'E' => break,
            _ => return Err("unexpected character"),
        }
        i += 1;
    }
    if digits == 0 {
        return Err("no digits");
    }
    if let Some(b'e' | b'E') = bytes.get(i) {
        let exp_text = text.get(i + 1..).unwrap_or("");
        let exp: i32 = exp_text
            .parse()
            .ok()
            .filter(|e: &i32| e.abs() <= 40)
            .ok_or("bad or too large exponent")?;
        exp10 += exp;
    }
    Ok((if negative { -mantissa } else { mantissa }, exp10))
}

/// ISO 8601 / RFC 3339 text that carries its zone: `Z`, an offset, or an IANA annotation.
fn iso8601(value: &str) -> Result<Converted, Unconvertible> {
    let fail = |reason: String| Unconvertible {
        zone: String::new(),
        reason,
    };
    let (dt, rest) = parse_civil(value).map_err(|why| fail(format!("{value:?}: {why}")))?;
    let (offset, rest) = parse_offset(rest).map_err(|why| fail(format!("{value:?}: {why}")))?;
    let annotation = match rest {
        "" => None,
        r => Some(
            r.strip_prefix('[')
                .and_then(|r| r.strip_suffix(']'))
                .map(|r| r.trim_start_matches('!'))
                .ok_or_else(|| fail(format!("{value:?}: unexpected text {r:?} after the time")))?,
        ),
    };
    match (offset, annotation) {
        (Some((offset, zone)), _) => offset
            .to_timestamp(dt)
            .map(|instant| Converted {
                instant,
                zone,
                ambiguity: None,
            })
            .map_err(|e| fail(format!("{value:?} is out of range: {e}"))),
        (None, Some(zone)) => match TimeZone::get(zone) {
            Ok(tz) => naive_in(dt, zone, &tz),
            Err(_) => Err(Unconvertible {
                zone: zone.to_string(),
                reason: format!("{value:?}: unknown time zone {zone:?}"),
            }),
        },
        (None, None) => Err(fail(format!(
            "{value:?} has no zone or offset; a naive time must be marked local_text"
        ))),
    }
}

/// A naive value read in the source's zone.
fn naive(value: &str, zone: Option<&SourceZone>) -> Result<Converted, Unconvertible> {
    let zone_name = zone.map_or("", |z| z.name.as_str());
    let fail = |reason: String| Unconvertible {
        zone: zone_name.to_string(),
        reason,
    };
    // a date written with slashes, year first (`2022/01/24 14:11:57`: Samsung's recovery
    // history): the same civil time with dashes
    let dashed;
    let value = if value.as_bytes().get(4) == Some(&b'/') && value.as_bytes().get(7) == Some(&b'/')
    {
        dashed = format!("{}-{}-{}", &value[..4], &value[5..7], &value[8..]);
        dashed.as_str()
    } else {
        value
    };
    let (dt, rest) = match parse_civil(value) {
        Ok(parsed) => parsed,
        // C's ctime/asctime layout (`Wed Jan 15 10:30:00 2024`), as iOS's installation logs
        // write their lines
        Err(why) => match parse_ctime(value) {
            Some(dt) => (dt, ""),
            None => {
                return Err(fail(format!(
                    "{value:?}: {why}, or Www Mmm DD HH:MM:SS YYYY"
                )));
            }
        },
    };
    if !rest.is_empty() {
        return Err(fail(match parse_offset(rest) {
            Ok((Some(_), _)) => format!(
                "{value:?} carries a zone offset, so it is not naive: it must be marked iso8601"
            ),
            _ => format!("{value:?}: unexpected text {rest:?} after the time"),
        }));
    }
    match zone {
        Some(z) if !z.name.is_empty() => match &z.tz {
            Some(tz) => naive_in(dt, &z.name, tz),
            None => Err(fail(format!("unknown time zone {:?}", z.name))),
        },
        _ => Err(fail(format!(
            "{value:?} is a naive local time and its source has no time zone"
        ))),
    }
}

/// `dt` read as wall-clock time in the IANA zone `zone`, flagging gaps and folds.
fn naive_in(dt: DateTime, zone: &str, tz: &TimeZone) -> Result<Converted, Unconvertible> {
    let fail = |reason: String| Unconvertible {
        zone: zone.to_string(),
        reason,
    };
    let amb = tz.to_ambiguous_timestamp(dt);
    let range = |e: jiff::Error| fail(format!("{dt} in {zone} is out of range: {e}"));
    let ambiguity = match amb.offset() {
        AmbiguousOffset::Unambiguous { .. } => None,
        AmbiguousOffset::Gap { .. } => Some(Ambiguity::Gap {
            earlier: amb.earlier().map_err(range)?,
            later: amb.later().map_err(range)?,
        }),
        AmbiguousOffset::Fold { .. } => Some(Ambiguity::Fold {
            earlier: amb.earlier().map_err(range)?,
            later: amb.later().map_err(range)?,
        }),
    };
    let instant = amb.compatible().map_err(range)?;
    Ok(Converted {
        instant,
        zone: zone.to_string(),
        ambiguity,
    })
}

/// C's `ctime`/`asctime` layout: weekday, month name, day (space- or zero-padded), `HH:MM:SS`,
/// year, separated by whitespace (`Wed Jan  5 10:30:00 2024`). The weekday must be the date's.
fn parse_ctime(text: &str) -> Option<DateTime> {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
    let parts: Vec<&str> = text.split_ascii_whitespace().collect();
    let [weekday, month, day, time, year] = parts.as_slice() else {
        return None;
    };
    let month = MONTHS.iter().position(|m| m == month)? as i8 + 1;
    let day: i8 = day.parse().ok()?;
    let year: i16 = year.parse().ok()?;
    let hms: Vec<i8> = time
        .split(':')
        .map(|p| (p.len() == 2).then(|| p.parse().ok()).flatten())
        .collect::<Option<_>>()?;
    let [h, m, s] = hms.as_slice() else {
        return None;
    };
    let dt = DateTime::new(year, month, day, *h, *m, *s, 0).ok()?;
    let named = DAYS[dt.weekday().to_monday_zero_offset() as usize];
    (named == *weekday).then_some(dt)
}

/// A strict civil date-time at the start of `text`: `YYYY-MM-DD` or EXIF `YYYY:MM:DD`, `T` or a
/// space, `HH:MM[:SS[.fraction]]` (fraction 1–9 digits, `.` or `,`). Returns the rest. Every
/// field is checked (no leap-second or month-overflow clamping).
fn parse_civil(text: &str) -> Result<(DateTime, &str), String> {
    let b = text.as_bytes();
    let num = |at: usize, len: usize| -> Option<i32> {
        let s = b.get(at..at + len)?;
        s.iter()
            .all(u8::is_ascii_digit)
            .then(|| s.iter().fold(0i32, |n, d| n * 10 + i32::from(d - b'0')))
    };
    let expect = "expected YYYY-MM-DD HH:MM:SS (or YYYY:MM:DD HH:MM:SS, T separator, fraction)";
    let year = num(0, 4).ok_or(expect)?;
    let sep = *b.get(4).ok_or(expect)?;
    if sep != b'-' && sep != b':' {
        return Err(expect.into());
    }
    let month = num(5, 2).ok_or(expect)?;
    if b.get(7) != Some(&sep) {
        return Err(expect.into());
    }
    let day = num(8, 2).ok_or(expect)?;
    if !matches!(b.get(10), Some(b'T' | b't' | b' ')) {
        return Err(format!("{expect}; a date alone is not a time"));
    }
    let hour = num(11, 2).ok_or(expect)?;
    if b.get(13) != Some(&b':') {
        return Err(expect.into());
    }
    let minute = num(14, 2).ok_or(expect)?;
    let mut at = 16;
    let mut second = 0;
    let mut nanos = 0i32;
    if b.get(at) == Some(&b':') {
        second = num(at + 1, 2).ok_or(expect)?;
        at += 3;
        if matches!(b.get(at), Some(b'.' | b',')) {
            at += 1;
            let start = at;
            while b.get(at).is_some_and(u8::is_ascii_digit) {
                at += 1;
            }
            let len = at - start;
            if len == 0 || len > 9 {
                return Err("the fraction of a second needs 1 to 9 digits".into());
            }
            let frac = num(start, len).ok_or(expect)?;
            nanos = frac * 10i32.pow(9 - len as u32);
        }
    }
    if year == 0 && month == 0 && day == 0 {
        return Err("an all-zero date: the value is unset".into());
    }
    let dt = i16::try_from(year)
        .ok()
        .and_then(|y| {
            DateTime::new(
                y,
                month as i8,
                day as i8,
                hour as i8,
                minute as i8,
                second as i8,
                nanos,
            )
            .ok()
        })
        .ok_or_else(|| {
            format!(
                "not a valid date-time (year {year}, month {month}, day {day}, {hour:02}:{minute:02}:{second:02})"
            )
        })?;
    Ok((dt, text.get(at..).unwrap_or("")))
}

/// `Z`, `+HH:MM`, `+HHMM` or `+HH` at the start of `text`: the offset and how to name it.
type ParsedOffset<'t> = (Option<(Offset, String)>, &'t str);

fn parse_offset(text: &str) -> Result<ParsedOffset<'_>, String> {
    let b = text.as_bytes();
    match b.first() {
        Some(b'Z' | b'z') => Ok((
            Some((Offset::UTC, "UTC".into())),
            text.get(1..).unwrap_or(""),
        )),
        Some(&sign @ (b'+' | b'-')) => {
            let two = |at: usize| -> Option<i32> {
                let s = b.get(at..at + 2)?;
                s.iter()
                    .all(u8::is_ascii_digit)
                    .then(|| i32::from(s[0] - b'0') * 10 + i32::from(s[1] - b'0'))
            };
            let bad = || format!("bad zone offset {text:?}");
            let hours = two(1).ok_or_else(bad)?;
            let (minutes, end) = match b.get(3) {
                Some(b':') => (two(4).ok_or_else(bad)?, 6),
                Some(c) if c.is_ascii_digit() => (two(3).ok_or_else(bad)?, 5),
                _ => (0, 3),
            };
            if hours > 25 || minutes > 59 {
                return Err(bad());
            }
            let mut secs = hours * 3600 + minutes * 60;
            if sign == b'-' {
                secs = -secs;
            }
            let offset = Offset::from_seconds(secs).map_err(|_| bad())?;
            let name = format!(
                "{}{hours:02}:{minutes:02}",
                if sign == b'-' { '-' } else { '+' }
            );
            Ok((Some((offset, name)), text.get(end..).unwrap_or("")))
        }
        _ => Ok((None, text)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(raw: &str, enc: TimeEncoding, zone: Option<&str>, expect: &str) {
        let got = match convert(raw, enc, zone) {
            Ok(c) => format!("{} {}", c.instant, c.zone),
            Err(u) => format!("ERR {}", u.reason),
        };
        assert!(
            got.starts_with(expect),
            "{raw:?} as {}: got {got:?}, expected {expect:?}",
            enc.as_str()
        );
    }

    #[test]
    fn decimals_are_exact() {
        assert_eq!(parse_decimal("752221247.1"), Ok((7_522_212_471, -1)));
        assert_eq!(parse_decimal("-0.5"), Ok((-5, -1)));
        assert_eq!(parse_decimal("7.6157880e+17"), Ok((76_157_880, 10)));
        assert_eq!(parse_decimal("1e3"), Ok((1, 3)));
        assert!(parse_decimal("").is_err());
        assert!(parse_decimal(".").is_err());
        assert!(parse_decimal("1.2.3").is_err());
        assert!(parse_decimal("12 34").is_err());
        assert!(parse_decimal("1e999").is_err());
        assert!(parse_decimal(&"9".repeat(40)).is_err());
    }

    #[test]
    fn hostile_values_are_reasons_not_panics() {
        for enc in TimeEncoding::ALL {
            for raw in [
                "",
                "-",
                "+",
                "e5",
                "1e",
                "999999999999999999999999999999999999",
                "-999999999999999999999999999999999999",
                "1e40",
                "1e-40",
                "9999-12-31T23:59:59.999999999+25:59",
                "2024-02-30 10:00:00",
                "2024-13-01T00:00:00Z",
                "2024-01-01T24:00:00Z",
                "2024-01-01T10:00:60Z",
                "2024-01-01T10:00:00.1234567890Z",
                "２０２４-01-01 10:00:00",
                "2024-01-01T10:00:00+",
                "2024-01-01T10:00:00[",
                "0000:00:00 00:00:00",
            ] {
                // Must return, whatever the verdict.
                let _ = convert(raw, enc, Some("Asia/Hong_Kong"));
            }
        }
        check(
            "1e40",
            TimeEncoding::UnixSeconds,
            None,
            "ERR 1e40 seconds is outside",
        );
        check(
            "1e-40",
            TimeEncoding::UnixSeconds,
            None,
            "1970-01-01T00:00:00Z UTC",
        );
        check(
            "-1e-40",
            TimeEncoding::UnixSeconds,
            None,
            "1969-12-31T23:59:59.999999999Z",
        );
        check(
            "2024-01-01T10:00:60Z",
            TimeEncoding::Iso8601,
            None,
            "ERR \"2024-01-01T10:00:60Z\": not a valid date-time",
        );
        check(
            "2024-01-01 10:00:00",
            TimeEncoding::LocalText,
            None,
            "ERR \"2024-01-01 10:00:00\" is a naive local time and its source has no time zone",
        );
        check(
            "2024-01-01 10:00:00",
            TimeEncoding::LocalText,
            Some("Mars/Olympus"),
            "ERR unknown time zone \"Mars/Olympus\"",
        );
    }
    #[test]
    fn year_first_local_text_with_slashes() {
        check(
            "2022/01/24 14:11:57",
            TimeEncoding::LocalText,
            Some("Europe/Zurich"),
            "2022-01-24T13:11:57Z",
        );
        // month and day are still checked
        check(
            "2022/13/24 14:11:57",
            TimeEncoding::LocalText,
            Some("UTC"),
            "ERR",
        );
    }

    #[test]
    fn month_first_local_text() {
        // lockdownd's lines: two-digit year, microseconds, read in the source's zone
        check(
            "10/13/21 07:57:42.865446",
            TimeEncoding::UsLocalText,
            Some("America/New_York"),
            "2021-10-13T11:57:42.865446Z",
        );
        check(
            "12/31/1999 23:59:59",
            TimeEncoding::UsLocalText,
            Some("UTC"),
            "1999-12-31T23:59:59Z",
        );
        check(
            "01/02/69 00:00:00",
            TimeEncoding::UsLocalText,
            Some("UTC"),
            "1969-01-02T00:00:00Z",
        );
        // day first is not month first: month 13 is refused, not swapped
        check(
            "13/10/21 07:57:42",
            TimeEncoding::UsLocalText,
            Some("UTC"),
            "ERR \"13/10/21 07:57:42\" (read as 2021-13-10 07:57:42)",
        );
        check(
            "2021-10-13 07:57:42",
            TimeEncoding::UsLocalText,
            Some("UTC"),
            "ERR \"2021-10-13 07:57:42\": expected MM/DD/YY",
        );
        check(
            "10/13/21 07:57:42",
            TimeEncoding::UsLocalText,
            None,
            "ERR \"10/13/21 07:57:42\" (read as 2021-10-13 07:57:42): \"2021-10-13 07:57:42\" is a naive local time and its source has no time zone",
        );
    }
}
