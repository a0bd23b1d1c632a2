//! The corroborating worker: runs a strategist lead "search source S for the identifiers of
//! hypothesis H" with the generic `search_text` tool, and records each file where one of them
//! appears as a `corroboration` phenomenon. It does not link what it finds: whether a hit bears
//! on the hypothesis is judged by the hypothesis planners when edges are re-judged, or by the
//! examiner.

use std::collections::{BTreeMap, BTreeSet};

use masf_graph::{FactClaim, FactType, GraphState};
use serde_json::json;

use crate::context::{AgentCtx, PhenomenonDraft};
use crate::session::RuntimeError;

/// Most patterns one search takes.
const MAX_PATTERNS: usize = 32;
/// Most files recorded per lead.
const MAX_FILES: usize = 50;

fn searchable(t: FactType) -> bool {
    matches!(
        t,
        FactType::Phone
            | FactType::Email
            | FactType::Account
            | FactType::Wallet
            | FactType::Imei
            | FactType::Imsi
            | FactType::Iccid
            | FactType::Serial
    )
}

/// The identifier values a hypothesis's evidence holds, each with its fact type: the verified
/// facts of its phenomena, and the normalised forms of identifiers those phenomena observed.
pub fn identifiers_of(state: &GraphState, hypothesis_id: &str) -> BTreeMap<String, FactType> {
    let mut out = BTreeMap::new();
    let Some(h) = state.hypotheses().get(hypothesis_id) else {
        return out;
    };
    let linked: BTreeSet<&str> = h.edges.iter().map(|e| e.phenomenon_id.as_str()).collect();
    for id in &linked {
        if let Some(p) = state.phenomena().get(*id) {
            for f in p.verified_facts.iter().filter(|f| searchable(f.fact_type)) {
                out.entry(f.value.clone()).or_insert(f.fact_type);
            }
        }
    }
    for e in state.entities().values() {
        for i in e
            .identifiers
            .iter()
            .filter(|i| linked.contains(i.phenomenon_id.as_str()))
        {
            let t = i.id_type.fact_type();
            if searchable(t) {
                out.entry(i.normalized.clone()).or_insert(t);
            }
        }
    }
    out.retain(|v, _| (3..=256).contains(&v.len()));
    out
}

/// Runs one corroboration lead on `ctx`'s source; returns the phenomena recorded.
pub fn corroborate(
    ctx: &AgentCtx<'_>,
    hypothesis_id: &str,
    values: &BTreeMap<String, FactType>,
) -> Result<usize, RuntimeError> {
    if values.is_empty() {
        return Ok(0);
    }
    let patterns: Vec<&String> = values.keys().take(MAX_PATTERNS).collect();
    let search = ctx.call("search_text", json!({"patterns": patterns}))?;
    if !matches!(
        search.record.status,
        masf_store::InvocationStatus::Ok | masf_store::InvocationStatus::Cached
    ) {
        let reason = search.record.reason.clone().unwrap_or_default();
        ctx.unparsed(
            &format!("search for the identifiers of {hypothesis_id}"),
            &reason,
            Some(&search.record.invocation_id),
        )?;
        return Ok(0);
    }
    // path -> patterns found in it
    let mut by_path: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in search.output.text.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.splitn(5, '\t').collect();
        if cols.len() == 5 {
            by_path
                .entry(cols[0].to_string())
                .or_default()
                .insert(cols[3].to_string());
        }
    }
    let mut recorded = 0;
    for (path, found) in by_path.into_iter().take(MAX_FILES) {
        let cite = |fact_type, value: &str| FactClaim {
            fact_type,
            value: value.to_string(),
            invocation_id: search.record.invocation_id.clone(),
        };
        let mut facts = vec![cite(FactType::Path, &path)];
        facts.extend(
            found
                .iter()
                .map(|v| cite(values.get(v).copied().unwrap_or(FactType::Text), v)),
        );
        let list = found.iter().cloned().collect::<Vec<_>>().join(", ");
        let verdict = ctx.record(PhenomenonDraft {
            category: "corroboration".to_string(),
            title: format!("{list} found in {path}"),
            facts,
            interpretation: format!(
                "Searching {} for the identifiers behind {hypothesis_id} found them in this \
                 file. Whether this bears on the hypothesis is for the examiner (or a planner) \
                 to judge; it is not linked automatically.",
                ctx.source().id
            ),
            times: Vec::new(),
        })?;
        if verdict.is_accepted() && !verdict.events().is_empty() {
            recorded += 1;
        }
    }
    Ok(recorded)
}
