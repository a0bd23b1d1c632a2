//! Renderers of the report model: [`html`] (self-contained, offline, printable) and
//! [`markdown`]. Evidence strings are data: every value is escaped for its target, never
//! interpreted as markup.

pub(crate) mod answer;
pub mod html;
pub mod markdown;

use std::collections::BTreeMap;

use crate::model::{PhenomenonRow, Report};

/// The report's entities by id, built once per rendering, to put hypothesis statements in
/// words ([`Names::in_words`]).
pub(crate) struct Names<'a>(std::collections::HashMap<&'a str, &'a crate::model::EntityRow>);

impl<'a> Names<'a> {
    /// The index of `r`'s entities.
    pub(crate) fn of(r: &'a Report) -> Self {
        Self(r.entities.iter().map(|e| (e.id.as_str(), e)).collect())
    }

    /// A hypothesis statement in words: each entity id it names (`ent-000006`) followed by
    /// who or what the entity is — its label and sources (`ent-000006 (CHAN MH, src-iphone)`)
    /// — so the reader need not look ids up. The statement itself (the report's contract) is
    /// unchanged.
    pub(crate) fn in_words(&self, statement: &str) -> String {
        in_words(&self.0, statement)
    }
}

fn in_words(
    by_id: &std::collections::HashMap<&str, &crate::model::EntityRow>,
    statement: &str,
) -> String {
    let mut out = String::with_capacity(statement.len() + 32);
    let mut rest = statement;
    while let Some(i) = rest.find("ent-") {
        out.push_str(&rest[..i]);
        let tail = &rest[i + 4..];
        let digits = tail.bytes().take_while(u8::is_ascii_digit).count();
        let id = &rest[i..i + 4 + digits];
        out.push_str(id);
        if digits > 0
            && let Some(e) = by_id.get(id)
        {
            let label = e.label.trim();
            let what = if label.is_empty() { &e.context } else { label };
            out.push_str(&format!(" ({what}, {})", e.source_ids.join(", ")));
        }
        rest = &rest[i + 4 + digits..];
    }
    out.push_str(rest);
    out
}

/// A layer of the source's stack as an examiner names it: a partition by its index, its name in
/// the partition table and its type (`partition 10 userdata (Linux filesystem)`), another layer
/// by its id; a file system's volume label after it. `l` is one of `SourceRow::layers`.
pub(crate) fn layer_label(l: &serde_json::Value) -> String {
    let text = |v: Option<&serde_json::Value>| {
        v.and_then(serde_json::Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    let kind = text(l.get("kind")).unwrap_or_else(|| "layer".into());
    let mut out = match l.get("partition").filter(|p| p.is_object()) {
        Some(p) => {
            let mut s = kind;
            if let Some(i) = p.get("index").and_then(serde_json::Value::as_u64) {
                s.push_str(&format!(" {i}"));
            }
            if let Some(name) = text(p.get("name")) {
                s.push_str(&format!(" {name}"));
            }
            if let Some(t) = text(p.get("type_name")) {
                s.push_str(&format!(" ({t})"));
            }
            s
        }
        None => match text(l.get("id")) {
            Some(id) => format!("{kind} {id}"),
            None => kind,
        },
    };
    if let Some(label) = text(l.get("label")) {
        out.push_str(&format!(", label {label}"));
    }
    out
}

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

/// A source's phenomena by category (the artefact type a plugin gave them), in order of first
/// appearance: one findings section per artefact type with its count.
pub(crate) fn by_category<'a>(ps: &[&'a PhenomenonRow]) -> Vec<(String, Vec<&'a PhenomenonRow>)> {
    let mut out: Vec<(String, Vec<&PhenomenonRow>)> = Vec::new();
    for p in ps {
        match out.iter_mut().find(|(c, _)| *c == p.category) {
            Some((_, v)) => v.push(p),
            None => out.push((p.category.clone(), vec![p])),
        }
    }
    out
}

/// Columns of a coverage table, in both renderers.
pub(crate) const COVERAGE_COLUMNS: [&str; 5] = [
    "artefact",
    "what it holds",
    "result",
    "phenomena",
    "why / calls",
];

/// The coverage tables of the report: (source, plugin, whether its triage finished, rows of
/// [`COVERAGE_COLUMNS`] as plain text).
pub(crate) fn coverage_tables(r: &Report) -> Vec<(&str, &str, bool, Vec<[String; 5]>)> {
    let mut out = Vec::new();
    for s in &r.sources {
        for c in &s.coverage {
            let rows = c
                .items
                .iter()
                .map(|i| {
                    let why = if i.problems.is_empty() {
                        match i.by.len() {
                            0 => String::new(),
                            1 => "1 call".to_string(),
                            n => format!("{n} calls"),
                        }
                    } else {
                        i.problems.join("; ")
                    };
                    [
                        i.name.clone(),
                        i.value_for.clone(),
                        i.status.as_words().to_string(),
                        i.records.to_string(),
                        why,
                    ]
                })
                .collect();
            out.push((s.id.as_str(), c.plugin.as_str(), c.searched, rows));
        }
    }
    out
}

/// The sentence under a coverage table.
pub(crate) fn coverage_note(searched: bool) -> &'static str {
    if searched {
        "The plugin's triage ran to its end: an artefact it did not read is not present in the \
         source. Phenomena are those citing a call that read the artefact."
    } else {
        "The plugin's triage did not run to its end (paused, out of budget or failed): an \
         artefact it did not read was not examined."
    }
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

/// Columns of the "Tagged items" table, in both renderers.
pub(crate) const TAGGED_COLUMNS: [&str; 5] = ["item", "what it is", "tags", "bookmark", "notes"];

/// The "Tagged items" section's sentence (none when the report has no marked item and is not
/// restricted to them).
pub(crate) fn tagged_note(r: &Report) -> Option<String> {
    let only = r
        .generated
        .get("tagged_only")
        .and_then(serde_json::Value::as_bool)
        .unwrap_or(false);
    if r.tagged.is_empty() && !only {
        return None;
    }
    let mut note = String::from(
        "What the examiner tagged, bookmarked or wrote notes on, each with who and when. These \
         are the examiner's marks, not findings: each is an event in the case log, undone only \
         by a later one.",
    );
    if only {
        note.push_str(
            " This report is restricted to these items and what they cite (their phenomena \
             with the tool calls those cite, their entities and actors, the hypotheses the \
             phenomena bear on, their timeline entries); the sources are shown whole.",
        );
    }
    if r.tagged.is_empty() {
        note.push_str(" Nothing is tagged.");
    }
    Some(note)
}

/// The rows of the "Tagged items" table ([`TAGGED_COLUMNS`]) as plain text.
pub(crate) fn tagged_rows(r: &Report) -> Vec<[String; 5]> {
    let act = |by: &str, at: &str, reason: &str| {
        if reason.is_empty() {
            format!("{by}, {at}")
        } else {
            format!("{by}, {at}: {reason}")
        }
    };
    r.tagged
        .iter()
        .map(|t| {
            let gone = if t.present {
                String::new()
            } else {
                " (no longer in the graph; as recorded)".to_owned()
            };
            [
                format!("{} ({})", t.target, t.kind.replace('_', " ")),
                format!("{}{gone}", t.what),
                t.tags
                    .iter()
                    .map(|g| format!("{} ({})", g.tag, act(&g.by, &g.at, &g.reason)))
                    .collect::<Vec<_>>()
                    .join("; "),
                t.bookmark
                    .as_ref()
                    .map_or_else(String::new, |b| act(&b.by, &b.at, &b.reason)),
                t.notes
                    .iter()
                    .map(|n| format!("{} — {} ({})", n.text, n.id, act(&n.by, &n.at, "")))
                    .collect::<Vec<_>>()
                    .join("; "),
            ]
        })
        .collect()
}

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
        ("tagged items", r.tagged.len()),
    ]
}

#[cfg(test)]
mod layer_tests {
    use super::layer_label;
    use serde_json::json;

    #[test]
    fn partitions_are_named_by_their_table_and_file_systems_by_their_label() {
        assert_eq!(
            layer_label(&json!({"kind": "partition", "id": "9502796656b3b528",
                "partition": {"index": 10, "name": "userdata", "type_name": "Linux filesystem", "offset": 0, "size": 1},
                "label": null})),
            "partition 10 userdata (Linux filesystem)"
        );
        assert_eq!(
            layer_label(&json!({"kind": "partition", "id": "x",
                "partition": {"index": 1, "name": "", "type_name": "FAT32 (LBA)"}, "label": "USB"})),
            "partition 1 (FAT32 (LBA)), label USB"
        );
        assert_eq!(layer_label(&json!({"kind": "ewf", "id": "e01"})), "ewf e01");
    }
}
