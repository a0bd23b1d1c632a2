//! The report model (DESIGN §13): one structure, rendered to `report.json` (the contract in
//! `schemas/report.schema.json`, `schema: masforensics.report/1`), `report.html` and
//! `report.md`. It is assembled from the graph, the store and the case by [`build`]; it adds no
//! finding of its own: every value is copied from what was recorded.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use masf_graph::views::evidence_matrix;
use masf_graph::{GraphState, Phenomenon};
use serde::Serialize;
use serde_json::Value;

use crate::timeline::Timeline;

/// The schema id written into `report.json`.
pub const SCHEMA: &str = "masforensics.report/1";

/// The case as the report shows it.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct CaseInfo {
    pub id: String,
    pub title: String,
    pub timezone: String,
    pub examiner: String,
    pub persons: Vec<Person>,
}

/// A person of the case.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct Person {
    pub id: String,
    pub name: String,
    /// Other spellings of the name (case.yaml `aliases`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub aliases: Vec<String>,
}

/// One evidence source: as declared, as registered at intake, and as re-checked now.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct SourceSection {
    pub id: String,
    pub label: String,
    pub path: String,
    pub owner: Option<String>,
    pub timezone: String,
    pub detected_type: Option<String>,
    pub detection_reasons: Vec<String>,
    /// Total size of its files.
    pub size: u64,
    /// SHA-256 / MD5 of the evidence when it is one file (several files: see `integrity`).
    pub sha256: Option<String>,
    pub md5: Option<String>,
    /// The layer stack (`masf inspect`'s layers).
    pub layers: Vec<Value>,
    /// Hashes at intake and now, per file; EWF stored-hash checks.
    pub integrity: Integrity,
    /// The plugin and agent that triaged it.
    pub triaged_by: Option<String>,
    /// What came of each artefact the examining plugins look for (parsed, could not parse,
    /// not present, …), one table per plugin.
    pub coverage: Vec<ArtefactCoverage>,
}

/// A source's coverage by one plugin's catalogue (`masf coverage`).
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct ArtefactCoverage {
    /// The plugin.
    pub plugin: String,
    /// Whether its triage ran to its end on the source.
    pub searched: bool,
    /// One row per artefact of its catalogue.
    #[ts(as = "Vec<crate::ts_shapes::CoverageItem>")]
    pub items: Vec<masf_graph::views::CoverageItem>,
}

/// A source's integrity: every evidence file's hashes at intake and now, and the EWF media
/// check. Typed rather than a JSON value: a folder source can hold hundreds of thousands of
/// files.
#[derive(Debug, Clone, Default, Serialize, ts_rs::TS)]
pub struct Integrity {
    pub files: Vec<FileCheck>,
    /// The EWF media hashes against the stored ones (`null` for other evidence).
    pub media: Value,
}

impl Integrity {
    /// Whether every file was re-hashed and found unchanged (`None` when any was not
    /// re-hashed).
    pub fn unchanged(&self) -> Option<bool> {
        let mut all = true;
        for f in &self.files {
            all &= f.unchanged?;
        }
        Some(all)
    }
}

/// One evidence file: its hashes at intake, and now.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct FileCheck {
    pub path: String,
    pub size: u64,
    pub sha256: String,
    pub md5: String,
    /// The SHA-256 when the report was written (absent when not re-hashed).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub sha256_now: Option<String>,
    /// Whether both digests are as at intake (absent when not re-hashed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unchanged: Option<bool>,
    /// Why it was not re-hashed.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub note: Option<String>,
}

/// Something that could not be read.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct NotRead {
    pub source_id: String,
    /// A partition, an artefact path, a whole source.
    pub what: String,
    pub reason: String,
    pub invocation_id: Option<String>,
}

/// One logged tool call, with the file its exact output is published in.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct InvocationRow {
    pub id: String,
    pub source_id: String,
    pub tool: String,
    pub args: Value,
    pub agent: String,
    pub task_id: String,
    pub status: String,
    pub output_sha256: String,
    /// When the call was made (RFC 3339, UTC).
    pub ts: String,
    /// The versions it ran with (`tool`, `masf_tools`, the engines it used).
    pub versions: std::collections::BTreeMap<String, String>,
    /// Relative to the folder of report.json.
    pub output_path: String,
    /// The command that re-derives it.
    pub rerun: String,
}

/// One verified fact.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct FactRow {
    #[serde(rename = "type")]
    pub fact_type: String,
    pub value: String,
    pub invocation_id: String,
    /// `verbatim`, `structured_field` or `normalised`.
    pub match_method: String,
    pub normalisation: Option<String>,
}

/// One phenomenon: verified facts apart from the (unverified) interpretation.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct PhenomenonRow {
    pub id: String,
    pub source_id: String,
    pub agent: String,
    pub category: String,
    pub title: String,
    pub verified_facts: Vec<FactRow>,
    /// Unverified analysis.
    pub interpretation: String,
    pub warnings: Vec<String>,
    /// The model that produced it, when an LLM agent did.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub model: Option<String>,
    /// The prompt version the LLM agent ran with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_version: Option<String>,
}

impl PhenomenonRow {
    /// The agent, and the model and prompt when an LLM agent produced it.
    pub fn produced_by(&self) -> String {
        match (&self.model, &self.prompt_version) {
            (Some(m), Some(p)) => format!("{} (model {m}, prompt {p})", self.agent),
            (Some(m), None) => format!("{} (model {m})", self.agent),
            _ => self.agent.clone(),
        }
    }
}

/// One hypothesis with its scored edges.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct HypothesisRow {
    pub id: String,
    pub kind: String,
    pub statement: String,
    pub proposed_by: String,
    pub prior: f64,
    /// The prior as log-odds (base 10): where the confidence log starts.
    pub prior_log_odds: f64,
    pub log_odds: f64,
    pub confidence: f64,
    pub status: String,
    pub distinct_sources: usize,
    /// In rank order.
    pub edges: Vec<EdgeRow>,
}

/// One edge of a hypothesis.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct EdgeRow {
    pub phenomenon_id: String,
    pub edge_type: String,
    pub rank: u32,
    pub log10_lr: f64,
    /// What it adds after the harmonic decay (`graph::scoring`).
    pub contribution: f64,
    /// The hypothesis's log-odds and confidence once this edge and every edge ranked before it
    /// are added to the prior: the confidence log the Hypotheses view shows, computed here with
    /// the graph's own scoring so no face recomputes it.
    pub log_odds_after: f64,
    pub confidence_after: f64,
}

/// One tentative entity.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct EntityRow {
    pub id: String,
    pub kind: String,
    pub label: String,
    pub source_ids: Vec<String>,
    pub context: String,
    pub identifiers: Vec<IdentifierRow>,
}

/// One identifier of an entity.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct IdentifierRow {
    #[serde(rename = "type")]
    pub id_type: String,
    pub value: String,
    pub normalized: String,
    pub strength: String,
    pub phenomenon_id: String,
}

/// One `same_as` edge between two entities.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct SameAsRow {
    pub id: String,
    /// `coreference` (a and b are one actor) or `control` (the wallet is controlled by the
    /// person).
    pub relation: String,
    pub a: String,
    pub b: String,
    pub hypothesis_id: String,
    pub confidence: f64,
    /// `live`, `dormant`, `approved`, `retracted`.
    pub state: String,
    /// The examiner's decisions on it, in order.
    #[ts(as = "Vec<crate::ts_shapes::SameAsDecision>")]
    pub decisions: Vec<Value>,
}

/// One actor: a connected component of live `same_as` edges.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct ActorRow {
    pub id: String,
    pub label: String,
    pub entity_ids: Vec<String>,
    pub source_ids: Vec<String>,
    pub identifiers: Vec<ActorIdentifier>,
    /// The `same_as` edges that join it.
    pub edges: Vec<String>,
    /// Mention entities (a person named in a document or a screenshot) linked by live edges to
    /// this actor and to another one: listed under each, members of none.
    pub mentioned_in: Vec<String>,
    /// Wallet entities this actor and another both hold live control edges on (they join
    /// neither; the examiner decides).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub contested: Vec<String>,
}

/// One identifier of an actor.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[ts(rename = "ReportActorIdentifier")]
pub struct ActorIdentifier {
    #[serde(rename = "type")]
    pub id_type: String,
    pub normalized: String,
    /// The entities that wrote it as their own ("my new number is …"): a contact claim.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub claimed_by: Vec<String>,
}

/// One timeline entry, in the report's contract.
// Its strings are the timeline entry's own, shared (`Arc<str>`), not copied: a million-row
// timeline is held once.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct TimelineRow {
    pub utc: Option<Arc<str>>,
    pub case_time: Option<Arc<str>>,
    pub source_id: Arc<str>,
    pub raw: Arc<str>,
    pub encoding: Arc<str>,
    pub zone: Arc<str>,
    pub description: Arc<str>,
    pub phenomenon_id: Arc<str>,
    pub message: Arc<str>,
    /// The message or event text the phenomenon recorded (its `text` facts), when it has any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub text: Option<Arc<str>>,
    pub flag: Option<&'static str>,
    pub note: Option<Arc<str>>,
}

/// The whole report.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct Report {
    pub schema: &'static str,
    /// Tool version and the run's state when the report was written.
    pub generated: Value,
    pub case: CaseInfo,
    /// The answer first: case summary, people, transactions and communications, hypotheses
    /// in words, limitations (assembled from the rows below by [`crate::build`]).
    pub answer: crate::answer::Answer,
    pub sources: Vec<SourceSection>,
    pub not_read: Vec<NotRead>,
    pub invocations: Vec<InvocationRow>,
    pub phenomena: Vec<PhenomenonRow>,
    pub hypotheses: Vec<HypothesisRow>,
    /// The hypothesis × evidence matrix.
    #[ts(as = "crate::ts_shapes::EvidenceMatrix")]
    pub matrix: Value,
    pub entities: Vec<EntityRow>,
    pub same_as: Vec<SameAsRow>,
    pub actors: Vec<ActorRow>,
    pub timeline: Vec<TimelineRow>,
    /// Leads and strategist rounds.
    pub investigation: Value,
    /// The items the examiner tagged, bookmarked or wrote a note on, with who and when.
    pub tagged: Vec<crate::tagged::TaggedRow>,
}

/// What the report is built from (assembled by the API from the case, store and graph).
pub struct ReportInput<'a> {
    pub case: CaseInfo,
    pub sources: Vec<SourceSection>,
    pub not_read: Vec<NotRead>,
    pub invocations: Vec<InvocationRow>,
    pub state: &'a GraphState,
    pub timeline: &'a Timeline,
    pub generated: Value,
    /// Phenomenon id → (model, prompt version) for the phenomena an LLM agent recorded (from
    /// the `versions` of their events).
    pub llm_provenance: BTreeMap<String, (String, String)>,
    /// The examiner's marked items ([`crate::tagged::rows`]).
    pub tagged: Vec<crate::tagged::TaggedRow>,
    /// Restrict the report to the marked items and what they cite (`masf report --tagged-only`).
    pub tagged_only: bool,
}

fn snake<T: Serialize>(v: &T) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

fn phenomenon_row(p: &Phenomenon, llm: &BTreeMap<String, (String, String)>) -> PhenomenonRow {
    let provenance = llm.get(&p.id);
    PhenomenonRow {
        model: provenance.map(|(m, _)| m.clone()),
        prompt_version: provenance.map(|(_, v)| v.clone()),
        id: p.id.clone(),
        source_id: p.source_id.clone(),
        agent: p.agent.clone(),
        category: p.category.clone(),
        title: p.title.clone(),
        verified_facts: p
            .verified_facts
            .iter()
            .map(|f| FactRow {
                fact_type: f.fact_type.as_str().to_string(),
                value: f.value.clone(),
                invocation_id: f.invocation_id.clone(),
                match_method: snake(&f.matched.method),
                normalisation: f.matched.normalisation.map(|n| n.as_str().to_string()),
            })
            .collect(),
        interpretation: p.interpretation.clone(),
        warnings: p.warnings.iter().map(|w| w.message.clone()).collect(),
    }
}

/// The `same_as` edges that exist (live, approved or retracted), with the examiner's decisions.
pub fn same_as_rows(state: &GraphState) -> Vec<SameAsRow> {
    masf_graph::resolution::links(state)
        .into_iter()
        .filter(|l| l.exists)
        .map(|l| SameAsRow {
            id: l.id,
            relation: l.relation.as_str().to_owned(),
            a: l.a.id,
            b: l.b.id,
            hypothesis_id: l.hypothesis_id,
            confidence: l.confidence,
            state: l.state,
            decisions: l
                .decisions
                .iter()
                .map(|d| serde_json::to_value(d).unwrap_or(Value::Null))
                .collect(),
        })
        .collect()
}

/// The actors worth a row: those joining two entities or more, or mentioned across actors.
pub fn actor_rows(state: &GraphState) -> Vec<ActorRow> {
    masf_graph::resolution::actors(state)
        .into_iter()
        .filter(|a| a.entities.len() > 1 || !a.mentioned_in.is_empty())
        .map(|a| ActorRow {
            id: a.id,
            label: a.label,
            entity_ids: a.entities,
            source_ids: a.sources,
            identifiers: a
                .identifiers
                .iter()
                .map(|i| ActorIdentifier {
                    id_type: i.id_type.as_str().to_string(),
                    normalized: i.normalized.clone(),
                    claimed_by: i.claimed_by.clone(),
                })
                .collect(),
            edges: a.joined_by,
            mentioned_in: a.mentioned_in,
            contested: a.contested,
        })
        .collect()
}

/// Every logged tool call of the store, with the file its output is published in and the
/// command that re-derives it against `case_file`.
pub fn invocation_rows(
    store: &masf_store::Store,
    case_file: &str,
) -> Result<Vec<InvocationRow>, masf_store::StoreError> {
    let mut rows = Vec::new();
    store.for_each_invocation(|i| {
        rows.push(InvocationRow {
            rerun: format!("masf rerun {case_file} {}", i.invocation_id),
            output_path: format!("outputs/{}.out", i.invocation_id),
            args: serde_json::from_str(&i.args).unwrap_or(Value::String(i.args.clone())),
            id: i.invocation_id,
            source_id: i.source_id,
            tool: i.tool,
            agent: i.agent,
            task_id: i.task_id,
            status: i.status.as_str().to_string(),
            output_sha256: i.output_sha256,
            ts: i.ts.to_string(),
            versions: i.versions,
        });
        Ok::<(), masf_store::StoreError>(())
    })?;
    Ok(rows)
}

/// What could not be read, sorted by source, item and reason; the same item noted twice (by
/// the layer scan and by an agent) is listed once, with the agent's invocation.
fn not_read_list(mut not_read: Vec<NotRead>) -> Vec<NotRead> {
    not_read.sort_by(|a, b| {
        (&a.source_id, &a.what, &a.reason, a.invocation_id.is_none()).cmp(&(
            &b.source_id,
            &b.what,
            &b.reason,
            b.invocation_id.is_none(),
        ))
    });
    not_read.dedup_by(|later, first| {
        later.source_id == first.source_id
            && later.what == first.what
            && later.reason == first.reason
    });
    not_read
}

/// The report's rows, its answer left empty for [`crate::build`] to assemble (no finding is
/// computed here: rows copy the recorded values).
pub fn rows(input: ReportInput<'_>) -> Report {
    let state = input.state;
    let mut entity_sources: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for e in state.entities().values() {
        entity_sources
            .entry(e.id.as_str())
            .or_default()
            .insert(e.source_id.clone());
    }
    let leads: Vec<Value> = state
        .leads()
        .values()
        .map(|l| serde_json::to_value(l).unwrap_or(Value::Null))
        .collect();
    let rounds: Vec<Value> = state
        .rounds()
        .values()
        .map(|r| {
            serde_json::json!({
                "number": r.number,
                "new_phenomena": r.new_phenomena,
                "new_edges": r.new_edges,
                "status_flips": r.status_flips,
                "rationale": r.rationale,
            })
        })
        .collect();
    let texts: BTreeMap<&str, Arc<str>> = state
        .phenomena()
        .values()
        .filter_map(|p| {
            let t: Vec<&str> = p
                .verified_facts
                .iter()
                .filter(|f| f.fact_type.as_str() == "text")
                .map(|f| f.value.as_str())
                .collect();
            (!t.is_empty()).then(|| (p.id.as_str(), t.join(" / ").into()))
        })
        .collect();
    Report {
        schema: SCHEMA,
        generated: input.generated,
        case: input.case,
        answer: crate::answer::Answer::default(),
        sources: input.sources,
        not_read: not_read_list(input.not_read),
        invocations: input.invocations,
        phenomena: state
            .phenomena()
            .values()
            .map(|p| phenomenon_row(p, &input.llm_provenance))
            .collect(),
        hypotheses: state
            .hypotheses()
            .values()
            .map(|h| {
                let start = masf_graph::scoring::prior_log_odds(h.prior);
                let mut ranked: Vec<_> = h.edges.iter().collect();
                ranked.sort_by_key(|e| e.rank);
                let mut acc = start;
                HypothesisRow {
                    id: h.id.clone(),
                    kind: snake(&h.kind),
                    statement: h.statement.clone(),
                    proposed_by: h.proposed_by.clone(),
                    prior: h.prior,
                    prior_log_odds: start,
                    log_odds: h.log_odds,
                    confidence: h.confidence,
                    status: snake(&h.status),
                    distinct_sources: h.distinct_sources,
                    edges: ranked
                        .into_iter()
                        .map(|e| {
                            acc += e.contribution;
                            EdgeRow {
                                phenomenon_id: e.phenomenon_id.clone(),
                                edge_type: e.edge_type.as_str().to_string(),
                                rank: e.rank,
                                log10_lr: e.base,
                                contribution: e.contribution,
                                log_odds_after: acc,
                                confidence_after: masf_graph::scoring::confidence(acc),
                            }
                        })
                        .collect(),
                }
            })
            .collect(),
        matrix: serde_json::to_value(evidence_matrix(state)).unwrap_or(Value::Null),
        entities: state
            .entities()
            .values()
            .map(|e| EntityRow {
                id: e.id.clone(),
                kind: snake(&e.kind),
                label: e.label.clone(),
                source_ids: entity_sources
                    .get(e.id.as_str())
                    .map(|s| s.iter().cloned().collect())
                    .unwrap_or_default(),
                context: e.context.clone(),
                identifiers: e
                    .identifiers
                    .iter()
                    .map(|i| IdentifierRow {
                        id_type: i.id_type.as_str().to_string(),
                        value: i.value.clone(),
                        normalized: i.normalized.clone(),
                        strength: snake(&i.strength),
                        phenomenon_id: i.phenomenon_id.clone(),
                    })
                    .collect(),
            })
            .collect(),
        same_as: same_as_rows(state),
        actors: actor_rows(state),
        timeline: input
            .timeline
            .entries
            .iter()
            .map(|e| TimelineRow {
                utc: e.utc.clone(),
                case_time: e.case_time.clone(),
                source_id: e.source_id.clone(),
                raw: e.raw_value.clone(),
                encoding: e.raw_encoding.clone(),
                zone: e.zone.clone(),
                description: e.timestamp_desc.clone(),
                phenomenon_id: e.phenomenon_id.clone(),
                message: e.message.clone(),
                text: texts.get(&*e.phenomenon_id).cloned(),
                flag: e.flag.map(|f| f.as_str()),
                note: e.note.clone(),
            })
            .collect(),
        investigation: serde_json::json!({"leads": leads, "rounds": rounds}),
        tagged: input.tagged,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nr(source: &str, what: &str, inv: Option<&str>) -> NotRead {
        NotRead {
            source_id: source.into(),
            what: what.into(),
            reason: "encrypted".into(),
            invocation_id: inv.map(str::to_string),
        }
    }

    #[test]
    fn not_read_is_sorted_and_an_item_noted_twice_keeps_the_agents_invocation() {
        let list = not_read_list(vec![
            nr("src-b", "userdata", None),
            nr("src-a", "sms.db", None),
            nr("src-a", "sms.db", Some("inv-000007")),
        ]);
        let got: Vec<_> = list
            .iter()
            .map(|n| {
                (
                    n.source_id.as_str(),
                    n.what.as_str(),
                    n.invocation_id.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("src-a", "sms.db", Some("inv-000007")),
                ("src-b", "userdata", None)
            ]
        );
    }
}
