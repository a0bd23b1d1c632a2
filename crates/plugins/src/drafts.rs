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
