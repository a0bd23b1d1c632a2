//! Renderers of the report model: [`html`] (self-contained, offline, printable) and
//! [`markdown`]. Evidence strings are data: every value is escaped for its target, never
//! interpreted as markup.

pub mod html;
pub mod markdown;

use std::collections::BTreeMap;

use crate::model::{PhenomenonRow, Report};

/// Phenomena grouped by source, in source order then id.
pub(crate) fn by_source(r: &Report) -> Vec<(String, Vec<&PhenomenonRow>)> {
    let mut groups: BTreeMap<&str, Vec<&PhenomenonRow>> = BTreeMap::new();
    for p in &r.phenomena {
        groups.entry(p.source_id.as_str()).or_default().push(p);
    }
    let mut out: Vec<(String, Vec<&PhenomenonRow>)> = Vec::new();
    for s in &r.sources {
        if let Some(ps) = groups.remove(s.id.as_str()) {
            out.push((s.id.clone(), ps));
        }
    }
    out.extend(groups.into_iter().map(|(k, v)| (k.to_string(), v)));
    out
}

/// Columns of the actors table, in both renderers.
pub(crate) const ACTOR_COLUMNS: [&str; 6] = [
    "actor",
    "label",
    "entities",
    "also mentioned in",
    "sources",
    "identifiers",
];

/// The log chain heads the report was written at (`generated.log_chain`), in words: "events:
/// 1,234 rows, head seq 1234, sha256 …".
pub(crate) fn log_chain(r: &Report) -> Vec<String> {
    let Some(heads) = r.generated.get("log_chain").and_then(|v| v.as_array()) else {
        return Vec::new();
    };
    heads
        .iter()
        .map(|h| {
            let text = |k: &str| {
                h.get(k).map_or_else(String::new, |v| match v.as_str() {
                    Some(s) => s.to_owned(),
                    None => v.to_string(),
                })
            };
            format!(
                "{}: {} rows, head seq {}, sha256 {}",
                text("table"),
                text("count"),
                text("seq"),
                text("hash")
            )
        })
        .collect()
}

/// The sentence after the log chain heads.
pub(crate) const LOG_CHAIN_NOTE: &str = "Every row of the case store's two logs carries the \
    hash of the row before it: `masf verify --against report.json` checks that the store still \
    holds these rows unchanged, so a later edit, deletion or insertion is seen.";

/// A count line shared by both renderers.
pub(crate) fn summary(r: &Report) -> Vec<(&'static str, usize)> {
    vec![
        ("sources", r.sources.len()),
        ("tool invocations", r.invocations.len()),
        ("phenomena", r.phenomena.len()),
        (
            "verified facts",
            r.phenomena.iter().map(|p| p.verified_facts.len()).sum(),
        ),
        ("hypotheses", r.hypotheses.len()),
        ("entities", r.entities.len()),
        ("actors", r.actors.len()),
        ("timeline entries", r.timeline.len()),
        ("not read", r.not_read.len()),
    ]
}
