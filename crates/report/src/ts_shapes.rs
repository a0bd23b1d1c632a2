//! The TypeScript shapes of the graph's and the evidence layer's types that cross the desktop
//! app's IPC inside the API's own types (links, actors, explanations, budget and coverage rows,
//! a layer's partition). Those crates carry no TypeScript derive, so each shape here copies one
//! of their types for `ts-rs` only (`#[ts(as = "…")]` on the API field that holds it); the
//! values that cross are still the original types.
//!
//! A shape cannot drift silently: `shape!` destructures the original exhaustively (a field
//! added or removed there fails to compile here) and requires each field's shape type to
//! [`Mirrors`] the original field's type (a changed type fails to compile); `unit_shape!`
//! matches every variant, and the unit test below compares the JSON of every variant.

use serde::Serialize;
use ts_rs::TS;

/// `Self` is the TypeScript shape of `F`: the same serde JSON.
pub trait Mirrors<F> {}

macro_rules! plain {
    ($($t:ty),*) => { $(impl Mirrors<$t> for $t {})* };
}
plain!(String, bool, f64, usize, u64, u32, i64);

impl<F, S: Mirrors<F>> Mirrors<Vec<F>> for Vec<S> {}
impl<F, S: Mirrors<F>> Mirrors<Option<F>> for Option<S> {}

/// Checks at compile time that a field's shape type mirrors its original type.
pub fn fits<F, S: Mirrors<F>>(_: &F) {}

/// A struct shape: the same fields (with the same serde attributes) as the original.
macro_rules! shape {
    (
        $(#[$meta:meta])*
        $name:ident mirrors $($path:ident)::+ {
            $( $(#[$fmeta:meta])* $field:ident : $ty:ty ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Serialize, TS)]
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
        }
        impl Mirrors<$($path)::+> for $name {}
        impl $name {
            /// Compile-time check: the original has exactly these fields, of mirrored types.
            #[allow(dead_code)]
            fn mirrors(original: $($path)::+) {
                let $($path)::+ { $($field),* } = original;
                $( fits::<_, $ty>(&$field); )*
            }
        }
    };
}

/// A unit-variant enum shape, serialised in snake_case like the original.
macro_rules! unit_shape {
    (
        $(#[$meta:meta])*
        $name:ident mirrors $($path:ident)::+ { $($variant:ident),* $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
        #[serde(rename_all = "snake_case")]
        pub enum $name { $($variant),* }
        impl Mirrors<$($path)::+> for $name {}
        impl From<$($path)::+> for $name {
            fn from(original: $($path)::+) -> Self {
                use $($path)::+ as O;
                match original { $( O::$variant => Self::$variant ),* }
            }
        }
        impl $name {
            /// Every variant of the original with its shape.
            #[cfg(test)]
            fn pairs() -> Vec<(serde_json::Value, serde_json::Value)> {
                use $($path)::+ as O;
                vec![$((
                    serde_json::to_value(O::$variant).unwrap_or_default(),
                    serde_json::to_value($name::$variant).unwrap_or_default(),
                )),*]
            }
        }
    };
}

unit_shape! {
    /// What an entity is.
    EntityKind mirrors masf_graph::EntityKind { Person, Device, Account, Wallet }
}
unit_shape! {
    /// `coreference` (the two are one actor) or `control` (the first is controlled by the
    /// second, a person).
    Relation mirrors masf_graph::Relation { Coreference, Control }
}
unit_shape! {
    /// What the examiner decided about a `same_as` edge.
    Decision mirrors masf_graph::Decision { Approve, Retract }
}
unit_shape! {
    /// A hypothesis's status.
    HypothesisStatus mirrors masf_graph::scoring::Status { Active, Supported, Refuted }
}
unit_shape! {
    /// The discrete type of a phenomenon → hypothesis edge.
    EdgeType mirrors masf_graph::scoring::EdgeType {
        DirectEvidence, Supports, ConsequenceObserved, PrerequisiteMet, Weakens, Contradicts,
    }
}
unit_shape! {
    /// The type of an identifier.
    IdType mirrors masf_graph::identifiers::IdType {
        Phone, Email, AppleId, GoogleAccount, AccountId, WhatsappLid, ContactGuid, Dsid,
        AndroidId, Imei, Imsi, Iccid, Serial, Wallet, DisplayName, Nickname, DeviceName, Wechat,
        Qq, Line, TelegramUsername, SignalUsername, Udid, PairingHost, BluetoothAddress, AdbKey,
    }
}
unit_shape! {
    /// Strong (unique by construction) or weak (names).
    Strength mirrors masf_graph::identifiers::Strength { Strong, Weak }
}
unit_shape! {
    /// What kind of value a fact is.
    FactType mirrors masf_graph::model::FactType {
        Path, Timestamp, Inode, Hash, Identifier, Phone, Email, Account, Wallet, Imei, Imsi,
        Iccid, Serial, Url, Amount, Count, Name, Text,
    }
}
unit_shape! {
    /// How a fact's value matched its invocation's output.
    MatchMethod mirrors masf_graph::model::MatchMethod { Verbatim, StructuredField, Normalised }
}
unit_shape! {
    /// The normalisation a match used.
    Normalisation mirrors masf_graph::model::Normalisation {
        WhitespaceCollapse, HexCase, EmailCase, PhoneE164, DigitSeparators, LookAlikeRepair,
    }
}
unit_shape! {
    /// Why a cited invocation did not ground a value.
    CitationProblem mirrors masf_graph::model::CitationProblem {
        UnknownInvocation, OtherAgent, OtherTask, ValueAbsent, EmptyValue,
    }
}
unit_shape! {
    /// What came of one expected artefact on a source.
    ArtefactStatus mirrors masf_graph::views::ArtefactStatus {
        Parsed, CouldNotParse, Examined, NotFound, NotExamined,
    }
}

shape! {
    /// A byte range `[start, end)` in an invocation's text output.
    Span mirrors masf_graph::model::Span { start: usize, end: usize }
}
shape! {
    /// A rescued citation: what the agent cited and why it did not ground the value.
    Rescue mirrors masf_graph::model::Rescue { cited: String, problem: CitationProblem }
}
shape! {
    /// How a fact's value was found in its invocation's output.
    MatchInfo mirrors masf_graph::model::MatchInfo {
        method: MatchMethod,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        normalisation: Option<Normalisation>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        field: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        span: Option<Span>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        rescued_from: Option<Rescue>,
    }
}
shape! {
    /// A verified fact with the invocation whose output holds it.
    Fact mirrors masf_graph::model::Fact {
        fact_type: FactType,
        value: String,
        invocation_id: String,
        #[serde(rename = "match")]
        matched: MatchInfo,
    }
}
shape! {
    /// One examiner decision on a `same_as` edge.
    SameAsDecision mirrors masf_graph::SameAsDecision {
        decision: Decision,
        by: String,
        at: String,
        reason: String,
    }
}
shape! {
    /// An entity, briefly.
    EntityRef mirrors masf_graph::resolution::EntityRef {
        id: String,
        label: String,
        source_id: String,
        context: String,
        kind: Option<EntityKind>,
    }
}
shape! {
    /// One edge of a coreference hypothesis.
    EvidenceView mirrors masf_graph::resolution::EvidenceView {
        phenomenon_id: String,
        edge_type: EdgeType,
        contribution: f64,
        entity_id: String,
        id_type: Option<IdType>,
        normalized: String,
    }
}
shape! {
    /// A `same_as` edge or a candidate pair, as `masf links` shows it.
    LinkView mirrors masf_graph::resolution::LinkView {
        id: String,
        exists: bool,
        /// `live`, `dormant`, `approved`, `retracted`, or `candidate` when no edge exists.
        state: String,
        relation: Relation,
        a: EntityRef,
        b: EntityRef,
        hypothesis_id: String,
        confidence: f64,
        status: HypothesisStatus,
        revisions: Vec<String>,
        evidence: Vec<EvidenceView>,
        decisions: Vec<SameAsDecision>,
    }
}
shape! {
    /// An identifier of an actor.
    ActorIdentifier mirrors masf_graph::resolution::ActorIdentifier {
        id_type: IdType,
        normalized: String,
        strength: Strength,
        entities: Vec<String>,
        /// Why resolution does not use it: `placeholder: …` or `demoted: …`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        not_used: Option<String>,
        /// The entities that hold it as a contact claim.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[ts(as = "Option<Vec<String>>", optional)]
        claimed_by: Vec<String>,
    }
}
shape! {
    /// An actor: entities joined by live `same_as` edges.
    Actor mirrors masf_graph::resolution::Actor {
        id: String,
        label: String,
        entities: Vec<String>,
        mentioned_in: Vec<String>,
        sources: Vec<String>,
        identifiers: Vec<ActorIdentifier>,
        joined_by: Vec<String>,
        /// Wallet entities this actor and another both control (they join neither).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[ts(as = "Option<Vec<String>>", optional)]
        contested: Vec<String>,
    }
}
shape! {
    /// One evidence edge explained.
    ExplainedEvidence mirrors masf_graph::resolution::ExplainedEvidence {
        edge: EvidenceView,
        source_id: String,
        title: String,
        interpretation: String,
        facts: Vec<Fact>,
    }
}
shape! {
    /// Why an edge (or candidate pair) stands as it does.
    Explanation mirrors masf_graph::resolution::Explanation {
        link: LinkView,
        evidence: Vec<ExplainedEvidence>,
    }
}
shape! {
    /// One budget counter's status.
    BudgetLine mirrors masf_graph::views::BudgetLine {
        /// `tool_calls`, `rounds`, `wall_clock_s`, `tokens`.
        name: String,
        used: u64,
        /// 0 = no cap.
        cap: u64,
        fraction: f64,
        /// The highest warning level reached (0.7, 0.9), if any.
        warning_at: Option<f64>,
        exhausted: bool,
    }
}
shape! {
    /// Each budget counter with its level.
    BudgetStatus mirrors masf_graph::views::BudgetStatus {
        lines: Vec<BudgetLine>,
        exhausted: bool,
    }
}
shape! {
    /// One expected artefact's coverage on a source.
    CoverageItem mirrors masf_graph::views::CoverageItem {
        name: String,
        value_for: String,
        examined: bool,
        by: Vec<String>,
        status: ArtefactStatus,
        records: usize,
        problems: Vec<String>,
    }
}
shape! {
    /// The partition a layer stands for.
    PartitionInfo mirrors masf_evidence::scan::PartitionInfo {
        index: usize,
        name: String,
        type_name: String,
        offset: u64,
        size: u64,
    }
}

shape! {
    /// One edge in the hypothesis × evidence matrix.
    MatrixCell mirrors masf_graph::views::MatrixCell {
        hypothesis_id: String,
        phenomenon_id: String,
        edge_type: EdgeType,
        /// Its decayed contribution to the hypothesis's log-odds.
        contribution: f64,
    }
}
shape! {
    /// The hypothesis × evidence matrix: which phenomenon bears on which hypothesis, how, and
    /// with what weight.
    EvidenceMatrix mirrors masf_graph::views::EvidenceMatrix {
        hypotheses: Vec<String>,
        phenomena: Vec<String>,
        cells: Vec<MatrixCell>,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_enum_shape_serialises_like_its_original() {
        let all = [
            EntityKind::pairs(),
            Relation::pairs(),
            Decision::pairs(),
            HypothesisStatus::pairs(),
            EdgeType::pairs(),
            IdType::pairs(),
            Strength::pairs(),
            FactType::pairs(),
            MatchMethod::pairs(),
            Normalisation::pairs(),
            CitationProblem::pairs(),
            ArtefactStatus::pairs(),
        ];
        for (original, shape) in all.into_iter().flatten() {
            assert_eq!(original, shape);
        }
    }
}
