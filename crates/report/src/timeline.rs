//! The cross-source timeline (DESIGN §12): every time mark of every phenomenon becomes an
//! [`Entry`] with its source, raw value, raw encoding, the zone it was read in and the UTC
//! instant; entries of all sources are merged into one order; [`Filter`] narrows them by
//! source, time range and actor; [`export`] writes them with the plaso/Timesketch columns.
//!
//! Nothing is dropped: a value that cannot be converted stays in the timeline, flagged
//! [`Flag::Unconvertible`] with the reason, after every placed entry; a naive time in a DST gap
//! or fold is placed by the compatible rule and flagged with the other candidate instant.

pub mod bodyfile;
pub mod convert;
pub mod export;

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use jiff::Timestamp;
use jiff::tz::TimeZone;
use masf_graph::identifiers::normalize;
use masf_graph::{FactType, GraphState, IdType, Phenomenon, Region, TimeEncoding, TimeMark};
use serde::Serialize;

pub use convert::{Ambiguity, Converted, SourceZone, Unconvertible, convert, convert_in};

/// What the timeline needs to know of a case source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceMeta {
    /// The case's source id.
    pub id: String,
    /// Its label (the `source` column).
    pub label: String,
    /// The IANA zone its naive times are read in (case.yaml `timezone`).
    pub timezone: String,
    /// How its local phone numbers are read, for the actor filter.
    pub phone_region: Option<Region>,
}

/// Why an entry needs the examiner's attention.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Flag {
    /// A naive time that never occurred in its zone (spring forward); placed with the offset
    /// before the gap, `alternative` holds the reading with the offset after it.
    DstGap,
    /// A naive time that occurred twice in its zone (fall back); placed at the first,
    /// `alternative` holds the second.
    DstFold,
    /// The raw value could not be read as an instant; `note` says why. It has no place in
    /// the order and comes after every placed entry.
    Unconvertible,
}

impl Flag {
    /// The stable snake-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Flag::DstGap => "dst_gap",
            Flag::DstFold => "dst_fold",
            Flag::Unconvertible => "unconvertible",
        }
    }
}

/// Another fact of the entry's phenomenon, shown for context.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct ContextFact {
    /// Its type (`phone`, `text`, `path`, …).
    pub fact_type: String,
    /// Its value as verified.
    pub value: String,
}

/// The other facts of an entry's phenomenon: every fact but the entry's own time. The facts are
/// shared by all the entries of one phenomenon (a phenomenon with ten times holds one list, not
/// ten copies); it serialises as the list without the entry's own fact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Context {
    facts: Arc<[ContextFact]>,
    own: usize,
}

impl Context {
    /// The facts, the entry's own left out.
    pub fn iter(&self) -> impl Iterator<Item = &ContextFact> {
        self.facts
            .iter()
            .enumerate()
            .filter(move |(i, _)| *i != self.own)
            .map(|(_, f)| f)
    }
}

impl Serialize for Context {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// One event on the timeline. Field names follow plaso/Timesketch where they have one
/// (`datetime`, `timestamp`, `timestamp_desc`, `message`, `source`).
//
// A case's timeline can hold millions of entries, most of them repeating their phenomenon's
// title, source, agent and category and a handful of descriptions, encodings and zones: those
// strings are shared (`Arc<str>`, one allocation per phenomenon or per distinct value), and so
// are the per-entry ones the report's timeline rows copy (raw value, instants, note), so a row
// is a handful of pointers rather than a second copy of the text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
#[ts(rename = "TimelineEntry")]
pub struct Entry {
    /// ISO 8601 in UTC with microseconds (`2025-02-18T13:40:00.000000+00:00`); none when
    /// unconvertible.
    pub datetime: Option<String>,
    /// Microseconds since 1970-01-01 UTC; none when unconvertible.
    pub timestamp: Option<i64>,
    /// What happened at that time (`Message sent`, `Content Modification Time`).
    pub timestamp_desc: Arc<str>,
    /// The phenomenon's title.
    pub message: Arc<str>,
    /// The source's label.
    pub source: Arc<str>,
    /// The source's id in the case.
    pub source_id: Arc<str>,
    /// The phenomenon the time belongs to.
    pub phenomenon_id: Arc<str>,
    /// The entry's id as `masf tag` takes it: the phenomenon and the mark's position among its
    /// time marks, from 1 (`ph-000012#time1`).
    pub entry: String,
    /// The agent that recorded it.
    pub agent: Arc<str>,
    /// Its artefact category.
    pub category: Arc<str>,
    /// The value exactly as the tool printed it.
    pub raw_value: Arc<str>,
    /// Its encoding (`apple_nanos`, `fat_local`, …).
    pub raw_encoding: Arc<str>,
    /// The zone the value was read in (`UTC`, `+08:00`, `Asia/Hong_Kong`).
    pub zone: Arc<str>,
    /// The UTC instant, RFC 3339 at full precision.
    pub utc: Option<Arc<str>>,
    /// The instant in the case's display zone, RFC 3339 with that zone's offset.
    pub case_time: Option<Arc<str>>,
    /// The case's display zone.
    pub case_zone: Arc<str>,
    /// Set when the examiner must look (DST gap or fold, unconvertible).
    pub flag: Option<Flag>,
    /// Why the flag is set, in words.
    pub note: Option<Arc<str>>,
    /// For a DST gap or fold: the other possible UTC instant.
    pub alternative: Option<String>,
    /// The phenomenon's other facts.
    #[ts(as = "Vec<ContextFact>")]
    pub context: Context,
    #[serde(skip)]
    instant: Option<Timestamp>,
    #[serde(skip)]
    mark: usize,
    /// The normalised identifiers its facts carry, for the actor filter (shared by the entries
    /// of one phenomenon).
    #[serde(skip)]
    identifiers: Arc<BTreeSet<String>>,
}

impl Entry {
    /// The UTC instant, when the value was converted.
    pub fn instant(&self) -> Option<Timestamp> {
        self.instant
    }

    /// The normalised identifiers (E.164 phones, lower-case e-mails, canonical wallets, …) the
    /// phenomenon's typed facts carry.
    pub fn identifiers(&self) -> &BTreeSet<String> {
        &self.identifiers
    }

    /// The order of the merged timeline: placed entries by instant, then unconvertible ones;
    /// ties by source id, phenomenon id and mark position, so the order never depends on how
    /// the graph was iterated.
    fn order(&self, other: &Entry) -> Ordering {
        let key = |e: &Entry| (e.instant.is_none(), e.instant);
        key(self)
            .cmp(&key(other))
            .then_with(|| self.source_id.cmp(&other.source_id))
            .then_with(|| self.phenomenon_id.cmp(&other.phenomenon_id))
            .then_with(|| self.mark.cmp(&other.mark))
    }
}

/// The merged timeline of a case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct Timeline {
    /// The display zone (case.yaml `case.timezone`).
    pub case_zone: String,
    /// The entries, in timeline order.
    pub entries: Vec<Entry>,
    /// How many entries could not be converted.
    pub unconvertible: usize,
    /// How many naive times fell in a DST gap or fold.
    pub ambiguous: usize,
}

/// Which entries to keep. Every part that is set must match.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// Keep entries of these sources (empty: all sources).
    pub sources: BTreeSet<String>,
    /// Keep entries at or after this instant.
    pub from: Option<Timestamp>,
    /// Keep entries before this instant (half-open range).
    pub to: Option<Timestamp>,
    /// Keep entries that concern this actor.
    pub actor: Option<ActorFilter>,
    /// Keep entries the examiner's tag selects.
    pub tagged: Option<TagScope>,
}

/// The entries one of the examiner's tags selects (`masf timeline --tag`): the tagged entries,
/// the entries of tagged phenomena (or of phenomena one of whose facts is tagged, or that
/// observed an identifier of a tagged entity), and the entries concerning a tagged actor.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TagScope {
    /// Entry ids (`ph-000012#time1`).
    pub entries: BTreeSet<String>,
    /// Phenomenon ids.
    pub phenomena: BTreeSet<String>,
    /// Tagged actors, as the actor filter sees them.
    pub actors: Vec<ActorFilter>,
}

impl TagScope {
    fn matches(&self, e: &Entry) -> bool {
        self.entries.contains(&e.entry)
            || self.phenomena.contains(&*e.phenomenon_id)
            || self.actors.iter().any(|a| a.matches(e))
    }
}

/// An actor, as the timeline filters by it: the sources whose every entry is the actor's (the
/// sources where the actor is the device owner or the device), the actor's normalised
/// identifier values (as `masf_graph::identifiers::normalize` gives them: `+85261234567`,
/// `yl.leung@example.com`, a canonical wallet) and the phenomena that observed them. An entry
/// concerns the actor when it comes from one of the sources, belongs to one of the phenomena,
/// or one of its phenomenon's typed facts normalises to one of the identifiers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ActorFilter {
    /// Sources whose entries all concern the actor.
    pub sources: BTreeSet<String>,
    /// Normalised identifier values.
    pub identifiers: BTreeSet<String>,
    /// Phenomenon ids (the observations of the actor's identifiers).
    pub phenomena: BTreeSet<String>,
}

impl ActorFilter {
    fn matches(&self, e: &Entry) -> bool {
        self.sources.contains(&*e.source_id)
            || self.phenomena.contains(&*e.phenomenon_id)
            || e.identifiers.iter().any(|i| self.identifiers.contains(i))
    }
}

impl Filter {
    /// Whether `e` passes. An unconvertible entry has no instant to compare, so a time range
    /// keeps it (flagged, at the end) rather than hide it.
    pub fn matches(&self, e: &Entry) -> bool {
        if !self.sources.is_empty() && !self.sources.contains(&*e.source_id) {
            return false;
        }
        if let Some(t) = e.instant
            && (self.from.is_some_and(|from| t < from) || self.to.is_some_and(|to| t >= to))
        {
            return false;
        }
        self.actor.as_ref().is_none_or(|a| a.matches(e))
            && self.tagged.as_ref().is_none_or(|t| t.matches(e))
    }
}

impl Timeline {
    /// The entries `filter` keeps, with the counts recomputed.
    pub fn filtered(self, filter: &Filter) -> Timeline {
        let entries: Vec<Entry> = self
            .entries
            .into_iter()
            .filter(|e| filter.matches(e))
            .collect();
        Timeline::from_sorted(self.case_zone, entries)
    }

    fn from_sorted(case_zone: String, entries: Vec<Entry>) -> Timeline {
        Timeline {
            unconvertible: entries
                .iter()
                .filter(|e| e.flag == Some(Flag::Unconvertible))
                .count(),
            ambiguous: entries
                .iter()
                .filter(|e| matches!(e.flag, Some(Flag::DstGap | Flag::DstFold)))
                .count(),
            case_zone,
            entries,
        }
    }
}

/// Builds the merged timeline from every time mark of every phenomenon in `state`. Naive
/// values are read in their source's zone from `sources`; `case_zone` is the display zone.
pub fn build(state: &GraphState, sources: &[SourceMeta], case_zone: &str) -> Timeline {
    let by_id: BTreeMap<&str, &SourceMeta> = sources.iter().map(|s| (s.id.as_str(), s)).collect();
    let zones: BTreeMap<&str, SourceZone> = sources
        .iter()
        .map(|s| (s.id.as_str(), SourceZone::new(&s.timezone)))
        .collect();
    let case_tz = TimeZone::get(case_zone).ok();
    let mut pool = Pool::default();
    let case_zone_shared = pool.get(case_zone);
    // sized once: a million entries grown by doubling would hold twice their size at the end
    let mut entries = Vec::with_capacity(state.phenomena().values().map(|p| p.times.len()).sum());
    for ph in state.phenomena().values() {
        let source = by_id.get(ph.source_id.as_str()).copied();
        let zone = zones.get(ph.source_id.as_str());
        let identifiers = Arc::new(identifiers_of(
            ph,
            source.and_then(|s| s.phone_region.as_ref()),
        ));
        let facts: Arc<[ContextFact]> = ph
            .verified_facts
            .iter()
            .map(|f| ContextFact {
                fact_type: f.fact_type.as_str().to_string(),
                value: f.value.clone(),
            })
            .collect();
        let shared = PerPhenomenon {
            message: ph.title.as_str().into(),
            source: pool.get(source.map_or(ph.source_id.as_str(), |s| s.label.as_str())),
            source_id: pool.get(&ph.source_id),
            phenomenon_id: ph.id.as_str().into(),
            agent: pool.get(&ph.agent),
            category: pool.get(&ph.category),
            case_zone: case_zone_shared.clone(),
            identifiers,
            facts,
        };
        for (mark_index, mark) in ph.times.iter().enumerate() {
            entries.push(entry(
                ph,
                (mark_index, mark),
                source.zip(zone),
                case_tz.as_ref(),
                &shared,
                &mut pool,
            ));
        }
    }
    entries.sort_by(Entry::order);
    Timeline::from_sorted(case_zone.to_string(), entries)
}

/// One shared copy of each distinct short string the entries repeat (sources, agents,
/// categories, descriptions, encodings, zones).
#[derive(Default)]
struct Pool(std::collections::HashMap<Box<str>, Arc<str>>);

impl Pool {
    fn get(&mut self, s: &str) -> Arc<str> {
        if let Some(a) = self.0.get(s) {
            return a.clone();
        }
        let a: Arc<str> = s.into();
        self.0.insert(s.into(), a.clone());
        a
    }
}

/// What every entry of one phenomenon shares.
struct PerPhenomenon {
    message: Arc<str>,
    source: Arc<str>,
    source_id: Arc<str>,
    phenomenon_id: Arc<str>,
    agent: Arc<str>,
    category: Arc<str>,
    case_zone: Arc<str>,
    identifiers: Arc<BTreeSet<String>>,
    facts: Arc<[ContextFact]>,
}

fn entry(
    ph: &Phenomenon,
    (mark_index, mark): (usize, &TimeMark),
    source: Option<(&SourceMeta, &SourceZone)>,
    case_tz: Option<&TimeZone>,
    shared: &PerPhenomenon,
    pool: &mut Pool,
) -> Entry {
    let fact = ph.verified_facts.get(mark.fact);
    let raw = fact.map_or("", |f| f.value.as_str());
    let result = match fact {
        Some(_) => convert_in(raw, mark.encoding, source.map(|(_, z)| z)),
        None => Err(Unconvertible {
            zone: String::new(),
            reason: format!(
                "the time mark points at fact {} but the phenomenon has {} facts",
                mark.fact,
                ph.verified_facts.len()
            ),
        }),
    };
    let result = match (result, source) {
        (Err(mut u), None) if mark.encoding.is_naive() => {
            u.reason = format!(
                "source {:?} is not in the case, so its zone is unknown ({})",
                ph.source_id, u.reason
            );
            Err(u)
        }
        (r, _) => r,
    };
    let context = Context {
        facts: shared.facts.clone(),
        own: mark.fact,
    };
    let mut e = Entry {
        datetime: None,
        timestamp: None,
        timestamp_desc: pool.get(&mark.description),
        message: shared.message.clone(),
        source: shared.source.clone(),
        source_id: shared.source_id.clone(),
        phenomenon_id: shared.phenomenon_id.clone(),
        entry: format!("{}#time{}", ph.id, mark_index + 1),
        agent: shared.agent.clone(),
        category: shared.category.clone(),
        raw_value: raw.into(),
        raw_encoding: pool.get(mark.encoding.as_str()),
        zone: pool.get(""),
        utc: None,
        case_time: None,
        case_zone: shared.case_zone.clone(),
        flag: None,
        note: None,
        alternative: None,
        context,
        instant: None,
        mark: mark_index,
        identifiers: shared.identifiers.clone(),
    };
    match result {
        Ok(c) => {
            e.zone = pool.get(&c.zone);
            e.instant = Some(c.instant);
            e.datetime = Some(plaso_datetime(c.instant));
            e.timestamp = Some(c.instant.as_microsecond());
            e.utc = Some(c.instant.to_string().into());
            e.case_time = case_tz.map(|tz| {
                c.instant
                    .display_with_offset(tz.to_offset(c.instant))
                    .to_string()
                    .into()
            });
            if let Some(a) = c.ambiguity {
                let (flag, what) = match a {
                    Ambiguity::Gap { .. } => (
                        Flag::DstGap,
                        "falls in a daylight-saving gap (this wall-clock time never occurred); \
                         placed with the offset before the change",
                    ),
                    Ambiguity::Fold { .. } => (
                        Flag::DstFold,
                        "falls in a daylight-saving fold (this wall-clock time occurred twice); \
                         placed at the first occurrence",
                    ),
                };
                e.flag = Some(flag);
                e.note = Some(format!("{raw} in {} {what}", e.zone).into());
                e.alternative = Some(a.alternative().to_string());
            }
        }
        Err(u) => {
            e.zone = pool.get(&u.zone);
            e.flag = Some(Flag::Unconvertible);
            e.note = Some(u.reason.into());
        }
    }
    e
}

/// ISO 8601 in UTC with microseconds, as plaso writes `datetime`.
fn plaso_datetime(t: Timestamp) -> String {
    format!("{}+00:00", t.strftime("%Y-%m-%dT%H:%M:%S%.6f"))
}

/// The normalised identifier values a phenomenon's typed facts carry.
fn identifiers_of(ph: &Phenomenon, region: Option<&Region>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for f in &ph.verified_facts {
        let types: &[IdType] = match f.fact_type {
            FactType::Phone => &[IdType::Phone],
            FactType::Email => &[IdType::Email],
            FactType::Account => &[IdType::AppleId, IdType::AccountId],
            FactType::Imei => &[IdType::Imei],
            FactType::Imsi => &[IdType::Imsi],
            FactType::Iccid => &[IdType::Iccid],
            FactType::Serial => &[IdType::Serial],
            FactType::Wallet => &[IdType::Wallet],
            _ => &[],
        };
        for t in types {
            if let Ok(n) = normalize(*t, &f.value, region) {
                out.insert(n);
            }
        }
    }
    out
}

/// Reads a `--from`/`--to` bound: RFC 3339 / ISO 8601 with an offset or `Z`, or a naive
/// `YYYY-MM-DD[ HH:MM[:SS]]` read in `zone` (the case's display zone). A naive bound in a DST
/// gap or fold is refused, so that a range never silently shifts by an hour.
pub fn parse_bound(text: &str, zone: &str) -> Result<Timestamp, String> {
    let text = text.trim();
    if let Ok(c) = convert(text, TimeEncoding::Iso8601, None) {
        return Ok(c.instant);
    }
    let with_time = if text.len() == 10 {
        format!("{text} 00:00:00")
    } else {
        text.to_string()
    };
    match convert(&with_time, TimeEncoding::LocalText, Some(zone)) {
        Ok(Converted {
            ambiguity: None,
            instant,
            ..
        }) => Ok(instant),
        Ok(Converted { .. }) => Err(format!(
            "{text:?} is ambiguous in {zone} (a daylight-saving change); give an offset, e.g. {text}+01:00"
        )),
        Err(u) => Err(format!(
            "{text:?} is not a time bound (RFC 3339 with an offset, or YYYY-MM-DD[ HH:MM[:SS]] in {zone}): {}",
            u.reason
        )),
    }
}
