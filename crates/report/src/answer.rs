//! The answer to the case, first (issue 20): the case summary, the people, the transactions and
//! key communications, the hypotheses in words and the limitations. Every row is assembled from
//! the report's own rows (entities, actors, `same_as` edges, phenomena, hypotheses, timeline,
//! what could not be read); nothing here is a new finding, only the same record regrouped and
//! named so a reader does not have to look ids up.

use serde::Serialize;

/// The sections that open the report, in their order.
#[derive(Debug, Clone, Default, Serialize, ts_rs::TS)]
#[ts(rename = "ReportAnswer")]
pub struct Answer {
    pub summary: CaseSummary,
    pub people: Vec<PersonBlock>,
    pub transactions: Vec<TransactionRow>,
    pub communications: Vec<MessageRow>,
    pub hypotheses: Vec<HypothesisWords>,
    pub limitations: Vec<Limitation>,
}

/// The case in a few lines: the question, what was examined, how it was run.
#[derive(Debug, Clone, Default, Serialize, ts_rs::TS)]
#[ts(rename = "ReportCaseSummary")]
pub struct CaseSummary {
    /// The question the case asks (its title).
    pub question: String,
    pub examiner: String,
    pub sources: Vec<SourceVerdict>,
    /// How many things could not be read (listed under limitations).
    pub not_read: usize,
    /// The tool and its version.
    pub tool: String,
    /// When the report was written (RFC 3339, UTC).
    pub generated_at: String,
    /// `completed`, `paused`, … and why the run ended.
    pub run_state: String,
    pub run_reason: String,
    /// The agents that recorded phenomena, each with its model when an LLM agent did.
    pub agents: Vec<String>,
    /// What the run used of each budget, in words (`tool calls 895 of 20000 (4%)`;
    /// report.json's `generated.budgets` has the numbers).
    pub budgets: Vec<String>,
}

/// One source and its integrity verdict.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[ts(rename = "ReportSourceVerdict")]
pub struct SourceVerdict {
    pub id: String,
    pub label: String,
    pub detected_type: String,
    /// The case person declared as its owner, by name.
    pub owner: Option<String>,
    /// `unchanged since intake`, `CHANGED since intake` or `not re-checked`.
    pub integrity: String,
}

/// One actor as a person of the case.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[ts(rename = "ReportPersonBlock")]
pub struct PersonBlock {
    pub actor_id: String,
    /// A readable name: the case person it is, else the actor's label, else its best
    /// identifier.
    pub label: String,
    /// The case person (case.yaml `persons`) it was matched to, and how.
    pub case_person: Option<String>,
    pub matched_by: Option<String>,
    pub identifiers: Vec<PersonIdentifier>,
    pub devices: Vec<DeviceUse>,
    pub wallets: Vec<Attribution>,
    /// Links touching it that no examiner has decided yet, and coreference hypotheses about
    /// its entities still below the threshold.
    pub pending: Vec<String>,
    /// The examiner's approvals and retractions on its links, with reasons.
    pub decisions: Vec<String>,
}

/// An identifier of a person and the sources it was seen in.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[ts(rename = "ReportPersonIdentifier")]
pub struct PersonIdentifier {
    #[serde(rename = "type")]
    pub id_type: String,
    pub value: String,
    pub sources: Vec<String>,
}

/// A device (an evidence source) a person used: the ownership hypothesis about it.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[ts(rename = "ReportDeviceUse")]
pub struct DeviceUse {
    pub source_id: String,
    pub label: String,
    /// The devices recorded in it (model, serials).
    pub devices: Vec<String>,
    pub hypothesis_id: Option<String>,
    pub confidence: Option<f64>,
    pub status: Option<String>,
}

/// A wallet or account attributed to a person by a control edge.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[ts(rename = "ReportAttribution")]
pub struct Attribution {
    pub value: String,
    pub link_id: String,
    pub hypothesis_id: String,
    pub confidence: f64,
    pub state: String,
    /// The facts the hypothesis cites: `ph-… (source): title`.
    pub citing: Vec<String>,
}

/// An amount, wallet or transaction hash seen in a screenshot, a message or a document.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[ts(rename = "ReportTransactionRow")]
pub struct TransactionRow {
    pub time: Option<String>,
    pub utc: Option<String>,
    pub source_id: String,
    pub phenomenon_id: String,
    pub title: String,
    pub amounts: Vec<String>,
    pub wallets: Vec<String>,
    pub tx_hashes: Vec<String>,
    /// The people its wallets or identifiers are attributed to.
    pub people: Vec<String>,
}

/// A message between people of the case.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[ts(rename = "ReportMessageRow")]
pub struct MessageRow {
    pub time: Option<String>,
    pub utc: Option<String>,
    pub source_id: String,
    pub phenomenon_id: String,
    /// The person whose device holds it (the source's owner), when known.
    pub holder: Option<String>,
    /// `sent`, `received` or empty.
    pub direction: String,
    /// The other party: its identifier and, when attributed, the person.
    pub counterpart: String,
    pub counterpart_person: Option<String>,
    pub text: String,
}

/// A hypothesis put in words.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[ts(rename = "ReportHypothesisWords")]
pub struct HypothesisWords {
    pub id: String,
    pub kind: String,
    /// The statement with every entity named (person, identifier, source).
    pub statement: String,
    pub confidence: f64,
    pub status: String,
    pub supporting: Vec<String>,
    pub contradicting: Vec<String>,
    /// What evidence would change it.
    pub would_change: String,
}

/// One limitation of the examination.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[ts(rename = "ReportLimitation")]
pub struct Limitation {
    /// `unread`, `encrypted`, `unparsed`, `not_examined`, `time_zone`, `time`.
    pub kind: String,
    pub source_id: String,
    pub text: String,
}
