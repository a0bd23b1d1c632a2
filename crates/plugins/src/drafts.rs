//! Drafting phenomena: fact claims citing an invocation, a draft whose facts are added only
//! when their value is present, the time encodings of stored numbers, and recording it.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactClaim, FactType, TimeEncoding, TimeMark};
use masf_tools::Invoked;

/// A fact claim citing `invoked`.
pub fn fact(fact_type: FactType, value: impl Into<String>, invoked: &Invoked) -> FactClaim {
    FactClaim {
        fact_type,
        value: value.into(),
        invocation_id: invoked.record.invocation_id.clone(),
    }
}

/// A phenomenon being drafted: facts are added only when their value is present.
pub struct Draft {
    category: &'static str,
    title: String,
    facts: Vec<masf_graph::FactClaim>,
    times: Vec<TimeMark>,
    /// The templated interpretation.
    pub interpretation: String,
}

impl Draft {
    /// The phenomenon request it drafts (`None` when no fact was found: nothing to record).
    pub fn into_request(self) -> Option<masf_agents::PhenomenonDraft> {
        (!self.facts.is_empty()).then(|| masf_agents::PhenomenonDraft {
            category: self.category.to_string(),
            title: self.title,
            facts: self.facts,
            interpretation: self.interpretation,
            times: self.times,
        })
    }

    /// A draft in `category` titled `title`.
    pub fn new(category: &'static str, title: impl Into<String>) -> Self {
        Self {
            category,
            title: title.into(),
            facts: Vec::new(),
            times: Vec::new(),
            interpretation: String::new(),
        }
    }

    /// Adds a fact when `value` is present and non-empty.
    pub fn fact(&mut self, t: FactType, value: Option<&str>, inv: &Invoked) -> &mut Self {
        if let Some(v) = value.filter(|v| !v.trim().is_empty()) {
            self.facts.push(fact(t, v, inv));
        }
        self
    }

    /// Adds a fact per present, non-blank `(column, type, label)` of `spec` in a row (its value
    /// as the output prints it) and returns `"label value"` of each, for the interpretation.
    pub fn fields(
        &mut self,
        t: &crate::outputs::Table,
        row: &[Option<String>],
        inv: &Invoked,
        spec: &[(&str, FactType, &str)],
    ) -> Vec<String> {
        let mut said = Vec::new();
        for (col, ft, label) in spec {
            if let Some(v) = crate::outputs::raw(t, row, col).filter(|v| !v.trim().is_empty()) {
                self.facts.push(fact(*ft, v.as_str(), inv));
                said.push(format!("{label} {v}"));
            }
        }
        said
    }

    /// [`Draft::fields`] of a JSON object (a decoded record, a tool's JSON line): a fact per
    /// present, non-blank scalar member `(key, type, label)` of `spec` (as the output prints
    /// it, [`crate::outputs::json_scalar`]) and `"label value"` of each, for the interpretation.
    pub fn json_fields(
        &mut self,
        obj: &serde_json::Value,
        inv: &Invoked,
        spec: &[(&str, FactType, &str)],
    ) -> Vec<String> {
        let mut said = Vec::new();
        for (key, ft, label) in spec {
            if let Some(v) =
                crate::outputs::json_scalar(obj.get(key)).filter(|v| !v.trim().is_empty())
            {
                self.facts.push(fact(*ft, v.as_str(), inv));
                said.push(format!("{label} {v}"));
            }
        }
        said
    }

    /// Adds a fact already made (a value whose fact type depends on it, as a party's number).
    pub fn claim(&mut self, f: FactClaim) -> &mut Self {
        self.facts.push(f);
        self
    }

    /// Adds a timestamp fact marked as the time of `description`, when `value` is a time.
    pub fn time(
        &mut self,
        value: Option<&str>,
        encoding: Option<TimeEncoding>,
        description: &str,
        inv: &Invoked,
    ) -> &mut Self {
        if let (Some(v), Some(enc)) = (value, encoding) {
            self.times.push(TimeMark {
                fact: self.facts.len(),
                encoding: enc,
                description: description.to_string(),
            });
            self.facts.push(fact(FactType::Timestamp, v, inv));
        }
        self
    }

    /// [`Draft::time`] of each `(column, description)` of `spec` in a row, each value read by
    /// `encoding` (a value it reads as no time is left out).
    pub fn times_of(
        &mut self,
        t: &crate::outputs::Table,
        row: &[Option<String>],
        inv: &Invoked,
        encoding: fn(Option<&str>) -> Option<TimeEncoding>,
        spec: &[(&str, &str)],
    ) -> &mut Self {
        for (col, what) in spec {
            let v = t.get(row, col);
            self.time(v, encoding(v), what, inv);
        }
        self
    }

    /// [`Draft::time`] of a message: "Message sent" when the device's user sent it, else
    /// "Message received".
    pub fn message_time(
        &mut self,
        value: Option<&str>,
        encoding: Option<TimeEncoding>,
        sent: bool,
        inv: &Invoked,
    ) -> &mut Self {
        let what = if sent {
            "Message sent"
        } else {
            "Message received"
        };
        self.time(value, encoding, what, inv)
    }
}

/// `encoding` when `value` is a positive number (0, negative or missing: no time recorded).
fn positive(value: Option<&str>, encoding: TimeEncoding) -> Option<TimeEncoding> {
    value
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|v| v.is_finite() && *v > 0.0)
        .map(|_| encoding)
}

/// Core Data (Apple) seconds since 2001, when the value is one (see [`positive`]).
pub fn apple_seconds(value: Option<&str>) -> Option<TimeEncoding> {
    positive(value, TimeEncoding::AppleSeconds)
}

/// Unix seconds, when the value is one (see [`positive`]).
pub fn unix_seconds(value: Option<&str>) -> Option<TimeEncoding> {
    positive(value, TimeEncoding::UnixSeconds)
}

/// A Unix time whose unit the store does not say, read by its size: from 10¹² milliseconds,
/// else seconds (as iLEAPP's and ALEAPP's converters read such values).
pub fn unix_by_magnitude(value: Option<&str>) -> Option<TimeEncoding> {
    let v: f64 = value?.trim().parse().ok()?;
    if !v.is_finite() || v <= 0.0 {
        return None;
    }
    Some(if v >= 1e12 {
        TimeEncoding::UnixMillis
    } else {
        TimeEncoding::UnixSeconds
    })
}

/// Unix milliseconds (Java time), when the value is one.
pub fn unix_millis(value: Option<&str>) -> Option<TimeEncoding> {
    positive(value, TimeEncoding::UnixMillis)
}

/// Unix nanoseconds, when the value is one.
pub fn unix_nanos(value: Option<&str>) -> Option<TimeEncoding> {
    positive(value, TimeEncoding::UnixNanos)
}

/// Unix microseconds, when the value is one.
pub fn unix_micros(value: Option<&str>) -> Option<TimeEncoding> {
    positive(value, TimeEncoding::UnixMicros)
}

/// Unix milliseconds in hexadecimal (Android `packages.xml`), when the value is one (hex
/// digits, not all zero).
pub fn unix_millis_hex(value: Option<&str>) -> Option<TimeEncoding> {
    value
        .map(str::trim)
        .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_hexdigit()))
        .filter(|v| v.bytes().any(|b| b != b'0'))
        .map(|_| TimeEncoding::UnixMillisHex)
}

/// A date-time written as text (`2024-03-01T10:22:14.5Z`, `2024-03-01 10:22:14`): ISO 8601
/// when it carries a zone (`Z` or an offset after the time), else a naive local time; `None`
/// for a value too short to be one.
pub fn date_text(value: Option<&str>) -> Option<TimeEncoding> {
    let v = value?.trim();
    let (date, time) = (v.get(..10)?, v.get(10..)?);
    if !date
        .bytes()
        .all(|b| b.is_ascii_digit() || b == b'-' || b == b':')
        || time.is_empty()
    {
        return None;
    }
    Some(
        if time.ends_with('Z') || time.contains('+') || time.contains('-') {
            TimeEncoding::Iso8601
        } else {
            TimeEncoding::LocalText
        },
    )
}

/// WebKit/Chrome microseconds since 1601, when the value is one.
pub fn webkit(value: Option<&str>) -> Option<TimeEncoding> {
    positive(value, TimeEncoding::Webkit)
}

/// A stored boolean flag: `1` true, `0` false, anything else (or nothing) unknown.
pub fn stored_flag(value: Option<&str>) -> Option<bool> {
    match value {
        Some("1") => Some(true),
        Some("0") => Some(false),
        _ => None,
    }
}

/// Records a drafted phenomenon (nothing when it has no fact); a rejection is logged.
pub fn record_draft(ctx: &AgentCtx<'_>, d: Draft) -> Result<(), RuntimeError> {
    if let Some(r) = d.into_request() {
        crate::identity::record(ctx, r)?;
    }
    Ok(())
}

/// How a stored number is read as a time ([`unix_seconds`], [`unix_millis`], …).
pub type Encoding = fn(Option<&str>) -> Option<TimeEncoding>;

/// How [`record_rows`] makes one phenomenon of a table's row.
pub struct RowPhenomena<'a> {
    /// The table the rows are of (named in each interpretation).
    pub table: &'a str,
    pub category: &'static str,
    /// What one row is ("a member of a Life360 circle").
    pub what: &'a str,
    /// The title of a row's phenomenon.
    pub title: &'a dyn Fn(&crate::outputs::Table, &[Option<String>]) -> String,
    /// The facts: `(column, type, label)` (see [`Draft::fields`]).
    pub fields: &'a [(&'a str, FactType, &'a str)],
    /// The times: `(column, description, encoding)`.
    pub times: &'a [(&'a str, &'a str, Encoding)],
}

/// What is done after a row's phenomenon is recorded (its identities), with the row's call.
pub type AfterRow<'a> =
    dyn FnMut(&Invoked, &crate::outputs::Table, &[Option<String>]) -> Result<(), RuntimeError> + 'a;

/// Records one phenomenon per row of `pages` (a store at `path`, listed by `found`) as `spec`
/// says — its path, fields and times, and an interpretation naming the row (`rid` when the query
/// selects it) and its fields — then runs `after` on the row.
pub fn record_rows(
    ctx: &AgentCtx<'_>,
    path: &str,
    found: &Invoked,
    pages: &crate::calls::Paged,
    spec: &RowPhenomena<'_>,
    after: &mut AfterRow<'_>,
) -> Result<(), RuntimeError> {
    let file = path.rsplit('/').next().unwrap_or(path);
    for (inv, t, row) in pages.rows() {
        let mut d = Draft::new(spec.category, (spec.title)(t, row));
        d.fact(FactType::Path, Some(path), found);
        let said = d.fields(t, row, inv, spec.fields);
        for (col, desc, enc) in spec.times {
            let v = t.get(row, col);
            d.time(v, enc(v), desc, inv);
        }
        d.interpretation = format!(
            "{} row{} of {file}: {}: {}.",
            spec.table,
            t.get(row, "rid")
                .map(|r| format!(" {r}"))
                .unwrap_or_default(),
            spec.what,
            said.join(", ")
        );
        record_draft(ctx, d)?;
        after(inv, t, row)?;
    }
    Ok(())
}

/// A row's title: `prefix` and the first of `cols` the row holds (as stored, blanks passed
/// over), else the row's `rid`.
pub fn title_of<'a>(
    prefix: &'a str,
    cols: &'a [&'a str],
) -> impl Fn(&crate::outputs::Table, &[Option<String>]) -> String + 'a {
    move |t, row| {
        let shown = cols
            .iter()
            .find_map(|c| crate::outputs::raw(t, row, c).filter(|v| !v.trim().is_empty()))
            .unwrap_or_else(|| t.get(row, "rid").unwrap_or("?").to_string());
        format!("{prefix} {shown}")
    }
}

/// The [`AfterRow`] of rows that observe no identity.
pub fn no_identity(
    _: &Invoked,
    _: &crate::outputs::Table,
    _: &[Option<String>],
) -> Result<(), RuntimeError> {
    Ok(())
}

/// The first 60 characters of `s` (with `…` when cut), for a title quoting a text.
pub fn headline(s: &str) -> String {
    let mut h: String = s.chars().take(60).collect();
    if h.len() < s.len() {
        h.push('…');
    }
    h
}
