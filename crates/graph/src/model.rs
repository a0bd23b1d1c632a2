//! The graph's nodes and their parts (DESIGN §6–§8, §10): phenomena with verified facts,
//! hypotheses with scored edges, entities with typed identifiers, leads and investigation rounds.
//!
//! Everything here is plain data: it is built by [`crate::GraphState::apply`] from events, and
//! read by the views and the report. Derived fields (ranks, contributions, log-odds, confidence,
//! status, distinct sources, round deltas) are recomputed by the reducer, never taken from a
//! caller.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::identifiers::{IdType, Strength};
pub use crate::scoring::HypothesisKind;
use crate::scoring::{EdgeType, Status};

/// What kind of value a verified fact holds (DESIGN §6). The type selects which normalisations
/// grounding may try (see [`Normalisation`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FactType {
    /// A file-system path.
    Path,
    /// A time as written in the output (its raw encoding; the timeline converts it).
    Timestamp,
    /// An inode or MFT entry number.
    Inode,
    /// A hash (MD5, SHA-1, SHA-256, a transaction hash, …).
    Hash,
    /// Any other identifier (a UUID, a package name, a MAC address, …).
    Identifier,
    /// A phone number.
    Phone,
    /// An e-mail address.
    Email,
    /// An account name or id (an Apple ID, a Google account, a user name, …).
    Account,
    /// A cryptocurrency wallet address.
    Wallet,
    /// An IMEI.
    Imei,
    /// An IMSI.
    Imsi,
    /// An ICCID (SIM serial).
    Iccid,
    /// A device or hardware serial number.
    Serial,
    /// A URL.
    Url,
    /// An amount of money, with or without its currency.
    Amount,
    /// A count of things.
    Count,
    /// A person's, device's or file's name.
    Name,
    /// Free text quoted from the output.
    Text,
}

impl FactType {
    /// The stable snake-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Path => "path",
            Self::Timestamp => "timestamp",
            Self::Inode => "inode",
            Self::Hash => "hash",
            Self::Identifier => "identifier",
            Self::Phone => "phone",
            Self::Email => "email",
            Self::Account => "account",
            Self::Wallet => "wallet",
            Self::Imei => "imei",
            Self::Imsi => "imsi",
            Self::Iccid => "iccid",
            Self::Serial => "serial",
            Self::Url => "url",
            Self::Amount => "amount",
            Self::Count => "count",
            Self::Name => "name",
            Self::Text => "text",
        }
    }
}

/// A fact as an agent claims it: a typed value and the invocation whose output contains it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FactClaim {
    /// What kind of value it is.
    pub fact_type: FactType,
    /// The value, as the agent read it.
    pub value: String,
    /// The invocation the agent cites.
    pub invocation_id: String,
}

/// A verified fact: a claim that grounding accepted, with the invocation that really contains
/// it (after any rescue) and how it matched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fact {
    /// What kind of value it is.
    pub fact_type: FactType,
    /// The value, exactly as the agent gave it.
    pub value: String,
    /// The invocation whose output contains the value.
    pub invocation_id: String,
    /// How the value was found in that output.
    #[serde(rename = "match")]
    pub matched: MatchInfo,
}

/// How a fact's value was found in its invocation's output (DESIGN §6, points 2–4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchInfo {
    /// Verbatim, as a structured field, or after a normalisation.
    pub method: MatchMethod,
    /// The normalisation used, when `method` is `normalised`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub normalisation: Option<Normalisation>,
    /// The JSON pointer (RFC 6901) of the structured field that holds the value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// Where the value is in the text output (bytes), for highlighting.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub span: Option<Span>,
    /// Set when the cited invocation did not hold the value and the gateway rewrote the citation
    /// to the agent's only invocation that does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rescued_from: Option<Rescue>,
}

/// The way a value matched an output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchMethod {
    /// A verbatim substring of the text output.
    Verbatim,
    /// Equal to a scalar field of the structured (JSON) output.
    StructuredField,
    /// Found after one of the explicit normalisations.
    Normalised,
}

/// The explicit normalisations grounding may try, in this order, each only for the fact types
/// it applies to (DESIGN §6, point 2). The one that matched is recorded in the fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Normalisation {
    /// Runs of white space count as one space; leading and trailing space is ignored. Any value
    /// that contains white space.
    WhitespaceCollapse,
    /// ASCII case is ignored for hexadecimal strings (hashes, ETH addresses, MACs, UUIDs).
    HexCase,
    /// ASCII case is ignored for e-mail addresses (e-mail, account and identifier facts).
    EmailCase,
    /// Phone numbers compare as E.164 under the caller's region default (phone facts).
    PhoneE164,
    /// Digits compare without their separators: `35-209900-176148-1` (IMEI, IMSI, ICCID facts).
    DigitSeparators,
    /// OCR look-alikes (`O`/`0`, `l`/`I`/`1`, case of `c o s u v w x z`) and spaces inside the
    /// token are repaired: wallet facts only, and only when the claimed value is itself a valid
    /// address (format and checksum, EIP-55 where mixed case; see
    /// [`crate::identifiers::look_alike`]).
    LookAlikeRepair,
}

impl Normalisation {
    /// Every normalisation, in the order grounding tries them.
    pub const ORDER: [Normalisation; 6] = [
        Self::WhitespaceCollapse,
        Self::HexCase,
        Self::EmailCase,
        Self::PhoneE164,
        Self::DigitSeparators,
        Self::LookAlikeRepair,
    ];

    /// The stable snake-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::WhitespaceCollapse => "whitespace_collapse",
            Self::HexCase => "hex_case",
            Self::EmailCase => "email_case",
            Self::PhoneE164 => "phone_e164",
            Self::DigitSeparators => "digit_separators",
            Self::LookAlikeRepair => "look_alike_repair",
        }
    }
}

/// A byte range `[start, end)` in an invocation's text output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

/// A rescued citation: what the agent cited and why it did not ground the value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rescue {
    /// The invocation id the agent cited.
    pub cited: String,
    /// Why that citation failed.
    pub problem: CitationProblem,
}

/// Why a cited invocation does not ground a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CitationProblem {
    /// No invocation has that id.
    UnknownInvocation,
    /// The invocation was made by another agent.
    OtherAgent,
    /// The invocation was made by this agent in another task.
    OtherTask,
    /// The invocation's output does not contain the value (verbatim, as a field, or after any
    /// applicable normalisation).
    ValueAbsent,
    /// The value is empty.
    EmptyValue,
}

impl CitationProblem {
    /// A short explanation for a rejection message.
    pub fn describe(self) -> &'static str {
        match self {
            Self::UnknownInvocation => "no invocation has this id",
            Self::OtherAgent => "the invocation was made by another agent",
            Self::OtherTask => "the invocation was made in another task",
            Self::ValueAbsent => "the invocation's output does not contain the value",
            Self::EmptyValue => "the value is empty",
        }
    }
}

/// A warning attached to an accepted change (never a reason to reject).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Warning {
    /// What kind of warning.
    pub kind: WarningKind,
    /// The text it is about (a string found by the lint, a fact value, an id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// A sentence for the agent and the examiner.
    pub message: String,
}

/// Kinds of [`Warning`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WarningKind {
    /// The interpretation names a path that no cited output contains.
    UnverifiedPath,
    /// The interpretation names a time that no cited output contains.
    UnverifiedTimestamp,
    /// The interpretation names a hash that no cited output contains.
    UnverifiedHash,
    /// The interpretation names an identifier (e-mail, phone, wallet, IMEI) that no cited
    /// output contains.
    UnverifiedIdentifier,
    /// A fact's citation was rewritten to the only invocation that contains its value.
    RescuedCitation,
    /// A fact cites an invocation bound to another source than the phenomenon's.
    OtherSource,
    /// The same change was already recorded; nothing new is written.
    Duplicate,
}

/// A finding: verified facts, each grounded in a logged tool invocation, and an interpretation
/// that is always shown as unverified analysis (DESIGN §6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Phenomenon {
    /// `ph-000001`, …: assigned by the gateway in recording order.
    pub id: String,
    /// The evidence source it was found in.
    pub source_id: String,
    /// The agent that recorded it.
    pub agent: String,
    /// The task the agent was working on.
    pub task_id: String,
    /// The artefact category (`messages`, `contacts`, `accounts`, `identity`, …), from plugins.
    pub category: String,
    /// A one-line title.
    pub title: String,
    /// The grounded facts.
    pub verified_facts: Vec<Fact>,
    /// The agent's analysis; never verified.
    pub interpretation: String,
    /// Lint and rescue warnings found when it was recorded.
    pub warnings: Vec<Warning>,
    /// Which of its timestamp facts are times of events, with their raw encoding (DESIGN §12);
    /// the timeline is built from these.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub times: Vec<TimeMark>,
}

/// How a time-bearing value is encoded where it was read (DESIGN §12). Naive encodings (no
/// zone in the value) are read in the source's time zone by the timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeEncoding {
    /// Seconds since 1970-01-01 UTC (may carry a fraction).
    UnixSeconds,
    /// Milliseconds since 1970-01-01 UTC.
    UnixMillis,
    /// Milliseconds since 1970-01-01 UTC written in hexadecimal, as Android's `packages.xml`
    /// writes install times (`it="18c8e2b1c2f"`).
    UnixMillisHex,
    /// Microseconds since 1970-01-01 UTC.
    UnixMicros,
    /// Nanoseconds since 1970-01-01 UTC.
    UnixNanos,
    /// Apple absolute time: seconds since 2001-01-01 UTC (Core Data, `CallHistory`; may carry a
    /// fraction).
    AppleSeconds,
    /// Apple absolute time in nanoseconds since 2001-01-01 UTC (`sms.db` since iOS 11).
    AppleNanos,
    /// Windows FILETIME: 100-ns intervals since 1601-01-01 UTC.
    WindowsFiletime,
    /// WebKit/Chrome time: microseconds since 1601-01-01 UTC.
    Webkit,
    /// A FAT/DOS local date-time (naive), as the file-system tools print it
    /// (`2024-03-01T10:22:14.00 (local)`).
    FatLocal,
    /// ISO 8601 / RFC 3339 text with a zone or offset (`2024-03-01T02:22:14Z`).
    Iso8601,
    /// A naive local date-time as text (`2024-03-01 10:22:14`, EXIF `2024:03:01 10:22:14`,
    /// `2024/03/01 10:22:14`).
    LocalText,
    /// A naive local date-time written month first, `MM/DD/YY HH:MM:SS[.f]` or with a
    /// four-digit year (`10/13/21 07:57:42.865446`, as iOS's lockdownd log writes its lines);
    /// a two-digit year 69–99 is 19xx, 00–68 is 20xx (POSIX `%y`).
    UsLocalText,
}

impl TimeEncoding {
    /// Every encoding.
    pub const ALL: [TimeEncoding; 13] = [
        Self::UnixSeconds,
        Self::UnixMillis,
        Self::UnixMillisHex,
        Self::UnixMicros,
        Self::UnixNanos,
        Self::AppleSeconds,
        Self::AppleNanos,
        Self::WindowsFiletime,
        Self::Webkit,
        Self::FatLocal,
        Self::Iso8601,
        Self::LocalText,
        Self::UsLocalText,
    ];

    /// The stable snake-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::UnixSeconds => "unix_seconds",
            Self::UnixMillis => "unix_millis",
            Self::UnixMillisHex => "unix_millis_hex",
            Self::UnixMicros => "unix_micros",
            Self::UnixNanos => "unix_nanos",
            Self::AppleSeconds => "apple_seconds",
            Self::AppleNanos => "apple_nanos",
            Self::WindowsFiletime => "windows_filetime",
            Self::Webkit => "webkit",
            Self::FatLocal => "fat_local",
            Self::Iso8601 => "iso8601",
            Self::LocalText => "local_text",
            Self::UsLocalText => "us_local_text",
        }
    }

    /// Whether the value carries no zone, so it is read in the source's time zone.
    pub fn is_naive(self) -> bool {
        matches!(self, Self::FatLocal | Self::LocalText | Self::UsLocalText)
    }
}

/// A timestamp fact of a phenomenon marked as the time of an event.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TimeMark {
    /// Index of the timestamp fact in the phenomenon's facts.
    pub fact: usize,
    /// How the fact's value is encoded.
    pub encoding: TimeEncoding,
    /// What happened at that time, in plaso's `timestamp_desc` sense (`Message sent`,
    /// `Content Modification Time`, `Call started`).
    pub description: String,
}

/// A hypothesis scored by log-odds from its edges (DESIGN §7).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hypothesis {
    /// `hyp-000001`, …
    pub id: String,
    /// What is claimed.
    pub statement: String,
    /// What it is about.
    pub kind: HypothesisKind,
    /// The ids it is about, when the hypothesis names them: a coreference hypothesis names
    /// its two entities (in id order).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subjects: Vec<String>,
    /// Who proposed it.
    pub proposed_by: String,
    /// Prior probability, in (0, 1).
    pub prior: f64,
    /// Edges from phenomena, in canonical order: by edge type, then by rank.
    pub edges: Vec<Edge>,
    /// `log10(prior odds) + Σ contributions`.
    pub log_odds: f64,
    /// `1 / (1 + 10^(−log_odds))`.
    pub confidence: f64,
    /// From the confidence and the thresholds.
    pub status: Status,
    /// How many distinct evidence sources the linked phenomena come from.
    pub distinct_sources: usize,
    /// One entry per edge, in the order the edges were linked.
    pub confidence_log: Vec<ConfidenceLogEntry>,
}

/// A phenomenon → hypothesis edge and its scored weight.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Edge {
    /// The phenomenon.
    pub phenomenon_id: String,
    /// Its discrete type; the weight comes from the table.
    pub edge_type: EdgeType,
    /// Position `k` (from 1) among this hypothesis's edges of this type, by phenomenon id.
    pub rank: u32,
    /// The table's log10 likelihood ratio for the edge type.
    pub base: f64,
    /// `base / rank` (harmonic decay).
    pub contribution: f64,
    /// Who linked it.
    pub linked_by: String,
}

/// One update of a hypothesis's score, logged when an edge is linked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConfidenceLogEntry {
    /// The phenomenon whose edge was linked.
    pub phenomenon_id: String,
    /// The edge type.
    pub edge_type: EdgeType,
    /// The new edge's rank among the edges of its type present at that moment.
    pub rank: u32,
    /// The table's weight for the edge type.
    pub base: f64,
    /// `base / rank`.
    pub contribution: f64,
    /// The hypothesis's log-odds after the update.
    pub log_odds: f64,
    /// The hypothesis's confidence after the update.
    pub confidence: f64,
    /// The hypothesis's status after the update.
    pub status: Status,
}

/// What an entity is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntityKind {
    /// A person.
    Person,
    /// A device (phone, computer, SIM).
    Device,
    /// An account with a service.
    Account,
    /// A cryptocurrency wallet.
    Wallet,
}

/// A tentative entity: one per (source, context), holding the identifiers observed for it
/// (DESIGN §8). Entities are never merged; coreference is a hypothesis between them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entity {
    /// `ent-000001`, …
    pub id: String,
    /// What it is.
    pub kind: EntityKind,
    /// A display label (e.g. the contact's name): the first non-empty label observed.
    pub label: String,
    /// The source it was observed in.
    pub source_id: String,
    /// The observing agent's context that scopes it (`device-owner`, `contact:12`, …).
    pub context: String,
    /// Its identifiers, in observation order, each once per (type, normalised value).
    pub identifiers: Vec<Identifier>,
}

/// A `same_as` edge between two entities (DESIGN §8), derived by the reducer from the
/// coreference hypotheses about the pair and the examiner's decisions on it. It exists from
/// the moment one of its hypotheses was supported and is never removed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SameAs {
    /// `sa-000003-000007`: the numbers of its two entities, lower first.
    pub id: String,
    /// The entity with the lower id.
    pub a: String,
    /// The entity with the higher id.
    pub b: String,
    /// What it says: the two are one actor (coreference), or the first is controlled by the
    /// second, a person (control). Old logs without the field read as coreference.
    #[serde(default)]
    pub relation: Relation,
    /// The hypothesis that backs it: the newest revision about the pair.
    pub hypothesis_id: String,
    /// Every coreference hypothesis about the pair, oldest first (earlier revisions are kept
    /// for the audit).
    pub hypotheses: Vec<String>,
    /// Where it stands: from the backing hypothesis's status and the last decision.
    pub state: SameAsState,
    /// The examiner's decisions, in order.
    pub decisions: Vec<SameAsDecision>,
}

impl SameAs {
    /// Whether the edge joins its entities into one actor: approved, or supported and not
    /// retracted.
    pub fn is_live(&self) -> bool {
        matches!(self.state, SameAsState::Live | SameAsState::Approved)
    }
}

/// What a [`SameAs`] edge says about its two entities.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Relation {
    /// The two entities are one actor (a [`HypothesisKind::Coreference`] hypothesis).
    #[default]
    Coreference,
    /// The first is controlled by the second, a person (a [`HypothesisKind::Control`]
    /// hypothesis): the controlled entity joins that person's actor.
    Control,
}

impl Relation {
    /// The relation a `same_as` edge backed by a hypothesis of `kind` says.
    pub fn of(kind: HypothesisKind) -> Self {
        match kind {
            HypothesisKind::Control => Self::Control,
            _ => Self::Coreference,
        }
    }

    /// The stable snake-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Coreference => "coreference",
            Self::Control => "control",
        }
    }
}

/// Where a [`SameAs`] edge stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SameAsState {
    /// Its hypothesis is supported and no examiner decided otherwise: it joins its entities.
    Live,
    /// Its hypothesis fell below the threshold: kept and shown, but it joins nothing.
    Dormant,
    /// Pinned live by the examiner, whatever its hypothesis says.
    Approved,
    /// Vetoed by the examiner, whatever its hypothesis says.
    Retracted,
}

impl SameAsState {
    /// The stable snake-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Live => "live",
            Self::Dormant => "dormant",
            Self::Approved => "approved",
            Self::Retracted => "retracted",
        }
    }
}

/// What the examiner decided about a `same_as` edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Pin it live.
    Approve,
    /// Veto it.
    Retract,
}

/// One examiner decision on a `same_as` edge: who, when, why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SameAsDecision {
    /// Approve or retract.
    pub decision: Decision,
    /// The examiner.
    pub by: String,
    /// When, as given by the caller (RFC 3339).
    pub at: String,
    /// Why.
    pub reason: String,
}

/// A typed, normalised identifier of an entity, grounded through the phenomenon that observed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identifier {
    /// Its type.
    pub id_type: IdType,
    /// The value as observed.
    pub value: String,
    /// The canonical form identifiers are compared by (see [`crate::identifiers`]).
    pub normalized: String,
    /// Strong or weak (from the type).
    pub strength: Strength,
    /// The phenomenon whose verified fact grounds it.
    pub phenomenon_id: String,
    /// For a wallet address held by a person (a control claim): the word before the address
    /// that named this person its holder (`my`, `sent`); none when nothing did. A claim with a
    /// cue weighs twice a bare one against competing claims
    /// (`masf_graph::resolution::wanted_control`). For a phone number or e-mail address: the
    /// word that made it a contact claim ([`Identifier::is_claim`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cue: Option<String>,
}

impl Identifier {
    /// Whether this is a *contact claim*: a phone number, e-mail address or app account id
    /// the person wrote as their own ("my new number is …", "email me at …", "my WeChat is
    /// …"), observed with the cue that said
    /// so. A claim is evidence that the person uses the value, weighed by resolution as one
    /// `direct_evidence` edge from the claim alone ([`crate::resolution`]), never as a shared
    /// key of its own: the same value held as the person's own identifier is a separate
    /// identifier, and wins.
    pub fn is_claim(&self) -> bool {
        self.cue.is_some() && is_claimable(self.id_type)
    }
}

/// The identifier types a person can claim in words ([`Identifier::is_claim`]): phone
/// numbers, e-mail addresses and app account ids ("my WeChat is …",
/// [`crate::identifiers::IdType::APP_ACCOUNTS`]).
pub fn is_claimable(id_type: crate::identifiers::IdType) -> bool {
    matches!(
        id_type,
        crate::identifiers::IdType::Phone | crate::identifiers::IdType::Email
    ) || crate::identifiers::IdType::APP_ACCOUNTS.contains(&id_type)
}

/// Where a lead stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LeadStatus {
    /// Proposed, not yet taken.
    Pending,
    /// A worker is on it.
    Running,
    /// Done.
    Done,
    /// The worker gave up or failed.
    Failed,
    /// Dropped before it ran.
    Cancelled,
}

impl LeadStatus {
    /// Whether a lead may move from `self` to `to`: pending → running | cancelled,
    /// running → done | failed.
    pub fn can_become(self, to: LeadStatus) -> bool {
        matches!(
            (self, to),
            (Self::Pending, Self::Running | Self::Cancelled)
                | (Self::Running, Self::Done | Self::Failed)
        )
    }

    /// The stable snake-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Running => "running",
            Self::Done => "done",
            Self::Failed => "failed",
            Self::Cancelled => "cancelled",
        }
    }
}

/// A lead: work proposed to corroborate or refute a hypothesis (DESIGN §10). Deduplicated on
/// `(motivating_hypothesis, expected_evidence_type, target_agent, source_id)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lead {
    /// `lead-000001`, …
    pub id: String,
    /// The agent that proposed it (`strategist`, a triage agent, …).
    pub proposed_by: String,
    /// The hypothesis it is meant to corroborate or refute (none for phase-1 leads).
    pub motivating_hypothesis: Option<String>,
    /// The edge type the lead's worker is expected to produce.
    pub expected_evidence_type: EdgeType,
    /// The agent meant to run it.
    pub target_agent: String,
    /// The source it is about.
    pub source_id: String,
    /// 0 for phase-1 leads, the strategist round otherwise.
    pub round_number: u32,
    /// Where it stands.
    pub status: LeadStatus,
    /// Why it was proposed.
    pub rationale: String,
}

/// The four parts leads are deduplicated on (DESIGN §10): motivating hypothesis, expected
/// evidence type, target agent, source.
pub type LeadKey = (Option<String>, EdgeType, String, String);

impl Lead {
    /// Its deduplication key.
    pub fn key(&self) -> LeadKey {
        (
            self.motivating_hypothesis.clone(),
            self.expected_evidence_type,
            self.target_agent.clone(),
            self.source_id.clone(),
        )
    }
}

/// The graph counts and hypothesis statuses at the start or end of a round.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RoundSnapshot {
    /// Number of phenomena.
    pub phenomena: usize,
    /// Number of phenomenon → hypothesis edges.
    pub edges: usize,
    /// Each hypothesis's status and log-odds.
    pub hypotheses: BTreeMap<String, HypothesisSnapshot>,
}

/// A hypothesis in a [`RoundSnapshot`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HypothesisSnapshot {
    /// Its status.
    pub status: Status,
    /// Its log-odds.
    pub log_odds: f64,
}

/// A hypothesis whose status changed during a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusFlip {
    /// The hypothesis.
    pub hypothesis_id: String,
    /// Its status at the start of the round (none if it did not exist yet).
    pub from: Option<Status>,
    /// Its status at the end.
    pub to: Status,
}

/// One strategist round with its provenance (DESIGN §10).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InvestigationRound {
    /// 1, 2, …
    pub number: u32,
    /// Who started it.
    pub started_by: String,
    /// The graph when it started.
    pub before: RoundSnapshot,
    /// The graph when it was completed; none while it is open.
    pub after: Option<RoundSnapshot>,
    /// The strategist's decision rationale, given at completion.
    pub rationale: String,
    /// Derived: phenomena recorded during the round.
    pub new_phenomena: usize,
    /// Derived: edges linked during the round.
    pub new_edges: usize,
    /// Derived: hypotheses whose status changed during the round.
    pub status_flips: Vec<StatusFlip>,
}

impl InvestigationRound {
    /// True until the round is completed.
    pub fn is_open(&self) -> bool {
        self.after.is_none()
    }

    /// True for a completed round that produced no phenomenon, edge or status flip.
    pub fn is_zero_yield(&self) -> bool {
        !self.is_open()
            && self.new_phenomena == 0
            && self.new_edges == 0
            && self.status_flips.is_empty()
    }
}

/// Derives a round's deltas from its two snapshots.
pub(crate) fn round_deltas(
    before: &RoundSnapshot,
    after: &RoundSnapshot,
) -> (usize, usize, Vec<StatusFlip>) {
    let flips = after
        .hypotheses
        .iter()
        .filter_map(|(id, now)| {
            let from = before.hypotheses.get(id).map(|h| h.status);
            let flipped = match from {
                Some(from) => from != now.status,
                None => now.status != Status::Active,
            };
            flipped.then(|| StatusFlip {
                hypothesis_id: id.clone(),
                from,
                to: now.status,
            })
        })
        .collect();
    (
        after.phenomena.saturating_sub(before.phenomena),
        after.edges.saturating_sub(before.edges),
        flips,
    )
}

impl IdType {
    /// The fact type an observation of this identifier is grounded as.
    pub fn fact_type(self) -> FactType {
        match self {
            Self::Phone => FactType::Phone,
            Self::Email => FactType::Email,
            Self::AppleId
            | Self::GoogleAccount
            | Self::AccountId
            | Self::WhatsappLid
            | Self::Dsid
            | Self::Wechat
            | Self::Qq
            | Self::Line
            | Self::TelegramUsername
            | Self::SignalUsername => FactType::Account,
            Self::ContactGuid
            | Self::AndroidId
            | Self::Udid
            | Self::PairingHost
            | Self::BluetoothAddress
            | Self::AdbKey => FactType::Identifier,
            Self::Imei => FactType::Imei,
            Self::Imsi => FactType::Imsi,
            Self::Iccid => FactType::Iccid,
            Self::Serial => FactType::Serial,
            Self::Wallet => FactType::Wallet,
            Self::DisplayName | Self::Nickname | Self::DeviceName => FactType::Name,
        }
    }
}
