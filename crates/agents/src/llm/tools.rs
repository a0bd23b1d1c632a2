//! The tools an LLM agent or strategist is offered: the catalog's evidence tools (schemas
//! generated from the catalog itself, so the model sees exactly the arguments the invoker
//! validates) and the graph tools, whose arguments are parsed here into gateway requests. The
//! enumerations in the graph tools' schemas (fact types, identifier types, edge types, …) are
//! generated from the graph's own types.

use std::collections::BTreeSet;

use masf_graph::{EdgeType, EntityKind, FactClaim, FactType, HypothesisKind, IdType};
use masf_tools::Catalog;
use serde::Deserialize;
use serde_json::{Value, json};

use super::wire::ToolSpec;

/// Graph and workflow tool names. A catalog tool with one of these names is never offered.
pub mod names {
    /// Records a phenomenon (RECORD).
    pub const RECORD_PHENOMENON: &str = "record_phenomenon";
    /// Observes an identifier (RECORD).
    pub const OBSERVE_IDENTITY: &str = "observe_identity";
    /// Lists the agent's own invocations (read-only).
    pub const MY_INVOCATIONS: &str = "my_invocations";
    /// Shows again the output of one of the agent's invocations (read-only).
    pub const READ_INVOCATION: &str = "read_invocation";
    /// Lists hypotheses (read-only).
    pub const LIST_HYPOTHESES: &str = "list_hypotheses";
    /// Links a phenomenon to a hypothesis (LINK).
    pub const LINK: &str = "link";
    /// Proposes a hypothesis (LINK).
    pub const ADD_HYPOTHESIS: &str = "add_hypothesis";
    /// Ends INVESTIGATE.
    pub const DONE_INVESTIGATING: &str = "done_investigating";
    /// Ends RECORD.
    pub const DONE_RECORDING: &str = "done_recording";
    /// Ends LINK.
    pub const DONE_LINKING: &str = "done_linking";
    /// ANSWER.
    pub const ANSWER: &str = "answer";
    /// Strategist view.
    pub const GRAPH_OVERVIEW: &str = "graph_overview";
    /// Strategist view.
    pub const SOURCE_COVERAGE: &str = "source_coverage";
    /// Strategist view.
    pub const MARGINAL_YIELD: &str = "marginal_yield";
    /// Strategist view.
    pub const BUDGET_STATUS: &str = "budget_status";
    /// Strategist record tool.
    pub const PROPOSE_LEAD: &str = "propose_lead";
    /// Strategist record tool.
    pub const DECLARE_COMPLETE: &str = "declare_investigation_complete";
    /// Strategist: ends the round's proposals.
    pub const END_ROUND: &str = "end_round";

    /// Every reserved name.
    pub const ALL: &[&str] = &[
        RECORD_PHENOMENON,
        OBSERVE_IDENTITY,
        MY_INVOCATIONS,
        READ_INVOCATION,
        LIST_HYPOTHESES,
        LINK,
        ADD_HYPOTHESIS,
        DONE_INVESTIGATING,
        DONE_RECORDING,
        DONE_LINKING,
        ANSWER,
        GRAPH_OVERVIEW,
        SOURCE_COVERAGE,
        MARGINAL_YIELD,
        BUDGET_STATUS,
        PROPOSE_LEAD,
        DECLARE_COMPLETE,
        END_ROUND,
    ];
}

/// The serde names of an enum's values.
fn enum_names<T: serde::Serialize>(values: impl IntoIterator<Item = T>) -> Vec<String> {
    values
        .into_iter()
        .filter_map(|v| serde_json::to_value(v).ok())
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect()
}

/// Fact types as the schema lists them.
pub fn fact_types() -> Vec<String> {
    use FactType::*;
    enum_names([
        Path, Timestamp, Inode, Hash, Identifier, Phone, Email, Account, Wallet, Imei, Imsi, Iccid,
        Serial, Url, Amount, Count, Name, Text,
    ])
}

/// Edge types as the schema lists them.
pub fn edge_types() -> Vec<String> {
    enum_names(EdgeType::ALL)
}

fn spec(name: &str, description: &str, parameters: Value) -> ToolSpec {
    ToolSpec {
        name: name.to_string(),
        description: description.to_string(),
        parameters,
    }
}

fn object(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required, "additionalProperties": false})
}

/// The evidence tools of the catalog, in name order (`only`: restrict to these names).
pub fn catalog_specs(catalog: &Catalog, only: Option<&BTreeSet<String>>) -> Vec<ToolSpec> {
    let mut out: Vec<ToolSpec> = catalog
        .tools()
        .filter(|t| !names::ALL.contains(&t.name()))
        .filter(|t| only.is_none_or(|o| o.contains(t.name())))
        .map(|t| spec(t.name(), t.description(), t.args_schema()))
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// One graph or workflow tool's spec.
pub fn graph_spec(name: &str) -> Option<ToolSpec> {
    use names::*;
    let fact = json!({
        "type": "object",
        "properties": {
            "type": {"type": "string", "enum": fact_types()},
            "value": {"type": "string", "description": "copied exactly from the cited output"},
            "invocation_id": {"type": "string", "description": "the id in the header of the output that contains the value"}
        },
        "required": ["type", "value", "invocation_id"],
        "additionalProperties": false
    });
    Some(match name {
        RECORD_PHENOMENON => spec(
            name,
            "Record a finding: verified facts (each checked against the output it cites) and your interpretation (shown as unverified analysis).",
            object(
                json!({
                    "category": {"type": "string", "description": "artefact category, e.g. messages, contacts, documents"},
                    "title": {"type": "string"},
                    "facts": {"type": "array", "items": fact, "minItems": 1},
                    "interpretation": {"type": "string"}
                }),
                &["category", "title", "facts"],
            ),
        ),
        OBSERVE_IDENTITY => spec(
            name,
            "Record one identifier of a person, device, account or wallet seen in an output (grounded like a fact).",
            object(
                json!({
                    "context": {"type": "string", "description": "what scopes the entity in this source: device-owner, contact:<row id>, account:<id>"},
                    "entity_kind": {"type": "string", "enum": enum_names([EntityKind::Person, EntityKind::Device, EntityKind::Account, EntityKind::Wallet])},
                    "label": {"type": "string"},
                    "id_type": {"type": "string", "enum": enum_names(IdType::ALL)},
                    "value": {"type": "string"},
                    "invocation_id": {"type": "string"},
                    "interpretation": {"type": "string"}
                }),
                &[
                    "context",
                    "entity_kind",
                    "id_type",
                    "value",
                    "invocation_id",
                ],
            ),
        ),
        MY_INVOCATIONS => spec(
            name,
            "List your tool calls in this task: invocation id, tool, arguments, status.",
            object(json!({}), &[]),
        ),
        READ_INVOCATION => spec(
            name,
            "Show again the output of one of your own invocations in this task (no new tool call).",
            object(
                json!({"invocation_id": {"type": "string"}, "offset": {"type": "integer", "minimum": 0}}),
                &["invocation_id"],
            ),
        ),
        LIST_HYPOTHESES => spec(
            name,
            "List the case's hypotheses: id, kind, statement, status, confidence.",
            object(json!({}), &[]),
        ),
        LINK => spec(
            name,
            "Link one of the phenomena you recorded in this task to a hypothesis with an edge type (its weight comes from a fixed table).",
            object(
                json!({
                    "phenomenon_id": {"type": "string"},
                    "hypothesis_id": {"type": "string"},
                    "edge_type": {"type": "string", "enum": edge_types()}
                }),
                &["phenomenon_id", "hypothesis_id", "edge_type"],
            ),
        ),
        ADD_HYPOTHESIS => spec(
            name,
            "Propose a hypothesis (scored only from the edges linked to it).",
            object(
                json!({
                    "statement": {"type": "string"},
                    "kind": {"type": "string", "enum": enum_names([HypothesisKind::Ownership, HypothesisKind::Activity, HypothesisKind::Other])}
                }),
                &["statement", "kind"],
            ),
        ),
        DONE_INVESTIGATING => spec(
            name,
            "End INVESTIGATE and go on to RECORD.",
            object(json!({}), &[]),
        ),
        DONE_RECORDING => spec(
            name,
            "End RECORD. With nothing recorded, set found_nothing and give the reason.",
            object(
                json!({"found_nothing": {"type": "boolean"}, "reason": {"type": "string"}}),
                &[],
            ),
        ),
        DONE_LINKING => spec(name, "End LINK.", object(json!({}), &[])),
        ANSWER => spec(
            name,
            "Give the examiner a short summary of what you did and found.",
            object(json!({"summary": {"type": "string"}}), &["summary"]),
        ),
        _ => return None,
    })
}

/// Specs of several graph tools.
pub fn graph_specs(tools: &[&str]) -> Vec<ToolSpec> {
    tools.iter().filter_map(|t| graph_spec(t)).collect()
}

/// A fact as the model writes it.
#[derive(Debug, Deserialize)]
pub struct FactArg {
    /// Its type.
    #[serde(rename = "type")]
    pub fact_type: FactType,
    /// Its value.
    pub value: String,
    /// The cited invocation.
    pub invocation_id: String,
}

impl From<FactArg> for FactClaim {
    fn from(f: FactArg) -> Self {
        FactClaim {
            fact_type: f.fact_type,
            value: f.value,
            invocation_id: f.invocation_id,
        }
    }
}

/// `record_phenomenon` arguments.
#[derive(Debug, Deserialize)]
pub struct RecordArgs {
    /// Category.
    pub category: String,
    /// Title.
    pub title: String,
    /// Facts.
    pub facts: Vec<FactArg>,
    /// Interpretation.
    #[serde(default)]
    pub interpretation: String,
}

/// `observe_identity` arguments.
#[derive(Debug, Deserialize)]
pub struct ObserveArgs {
    /// Context.
    pub context: String,
    /// Entity kind.
    pub entity_kind: EntityKind,
    /// Label.
    #[serde(default)]
    pub label: String,
    /// Identifier type.
    pub id_type: IdType,
    /// Value.
    pub value: String,
    /// Cited invocation.
    pub invocation_id: String,
    /// Note.
    #[serde(default)]
    pub interpretation: String,
}

/// `link` arguments.
#[derive(Debug, Deserialize)]
pub struct LinkArgs {
    /// Phenomenon.
    pub phenomenon_id: String,
    /// Hypothesis.
    pub hypothesis_id: String,
    /// Edge type.
    pub edge_type: EdgeType,
}

/// `add_hypothesis` arguments.
#[derive(Debug, Deserialize)]
pub struct HypothesisArgs {
    /// Statement.
    pub statement: String,
    /// Kind.
    pub kind: HypothesisKind,
}

/// `read_invocation` arguments.
#[derive(Debug, Deserialize)]
pub struct ReadArgs {
    /// Invocation.
    pub invocation_id: String,
    /// Byte offset.
    #[serde(default)]
    pub offset: usize,
}

/// `done_recording` arguments.
#[derive(Debug, Default, Deserialize)]
pub struct DoneRecordingArgs {
    /// Nothing relevant was found.
    #[serde(default)]
    pub found_nothing: bool,
    /// Why.
    #[serde(default)]
    pub reason: String,
}

/// `answer` arguments.
#[derive(Debug, Deserialize)]
pub struct AnswerArgs {
    /// The summary.
    pub summary: String,
}

/// Parses a tool call's raw JSON arguments (empty text counts as `{}`).
pub fn parse_args<T: serde::de::DeserializeOwned>(raw: &str) -> Result<T, String> {
    let raw = if raw.trim().is_empty() { "{}" } else { raw };
    serde_json::from_str(raw)
        .map_err(|e| format!("the arguments do not fit the tool's schema: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalog_specs_mirror_the_catalog_schemas() {
        let catalog = Catalog::standard();
        let specs = catalog_specs(&catalog, None);
        assert_eq!(specs.len(), catalog.names().len());
        for s in &specs {
            let tool = catalog.get(&s.name).expect("tool in catalog");
            assert_eq!(s.parameters, tool.args_schema());
            assert_eq!(s.description, tool.description());
        }
        let only: BTreeSet<String> = ["read_text".to_string()].into();
        let one = catalog_specs(&catalog, Some(&only));
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].name, "read_text");
    }

    #[test]
    fn graph_specs_enumerate_the_graph_types() {
        let rec = graph_spec(names::RECORD_PHENOMENON).expect("spec");
        let types = &rec.parameters["properties"]["facts"]["items"]["properties"]["type"]["enum"];
        assert!(
            types
                .as_array()
                .expect("enum")
                .iter()
                .any(|t| t == "wallet")
        );
        assert_eq!(types.as_array().map(Vec::len), Some(18));
        let obs = graph_spec(names::OBSERVE_IDENTITY).expect("spec");
        assert_eq!(
            obs.parameters["properties"]["id_type"]["enum"]
                .as_array()
                .map(Vec::len),
            Some(IdType::ALL.len())
        );
        for n in names::ALL {
            // every agent-side name has a spec; strategist names are built by the strategist
            let _ = graph_spec(n);
        }
        let args: RecordArgs = parse_args(
            r#"{"category":"c","title":"t","facts":[{"type":"phone","value":"+852","invocation_id":"inv-000001"}]}"#,
        )
        .expect("parses");
        assert_eq!(args.facts[0].fact_type, FactType::Phone);
        assert!(parse_args::<RecordArgs>("{not json").is_err());
        assert!(parse_args::<RecordArgs>(r#"{"category":"c","title":"t","facts":[{"type":"bogus","value":"v","invocation_id":"i"}]}"#).is_err());
        let done: DoneRecordingArgs = parse_args("").expect("empty is {}");
        assert!(!done.found_nothing);
    }
}
