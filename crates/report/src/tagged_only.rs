//! The report restricted to the items the examiner tagged, bookmarked or wrote notes on, and
//! what they cite (`masf report --tagged-only`). Apart from `model` and `tagged` so that
//! neither of those imports the other.

use std::collections::BTreeSet;

use crate::model::Report;

/// The report restricted to its tagged items (`masf report --tagged-only`): the items the
/// examiner tagged, bookmarked or wrote a note on, and what they cite. A phenomenon is kept
/// when it, one of its facts or one of its timeline entries is marked, or when it observed an
/// identifier of a marked entity or actor; an entity when it is marked or of a marked actor;
/// then the invocations those phenomena cite, the hypotheses they bear on (whole: their
/// confidence is that of all their edges), the `same_as` edges between kept entities, the
/// marked actors and the timeline entries of the kept phenomena. Sources and their integrity
/// are kept whole; leads and rounds are left out.
pub(crate) fn restrict(mut report: Report) -> Report {
    let marked: Vec<&crate::tagged::TaggedRow> =
        report.tagged.iter().filter(|r| r.present).collect();
    let mut actors: BTreeSet<String> = BTreeSet::new();
    let mut entities: BTreeSet<String> = BTreeSet::new();
    let mut phenomena: BTreeSet<String> = BTreeSet::new();
    for row in &marked {
        match row.kind.as_str() {
            "actor" => {
                actors.insert(row.target.clone());
            }
            "entity" => {
                entities.insert(row.target.clone());
            }
            _ => {}
        }
        if let Some(p) = &row.phenomenon_id {
            phenomena.insert(p.clone());
        }
    }
    for a in report.actors.iter().filter(|a| actors.contains(&a.id)) {
        entities.extend(a.entity_ids.iter().cloned());
    }
    for e in report.entities.iter().filter(|e| entities.contains(&e.id)) {
        phenomena.extend(e.identifiers.iter().map(|i| i.phenomenon_id.clone()));
    }
    report.phenomena.retain(|p| phenomena.contains(&p.id));
    let cited: BTreeSet<&str> = report
        .phenomena
        .iter()
        .flat_map(|p| p.verified_facts.iter().map(|f| f.invocation_id.as_str()))
        .collect();
    report.invocations.retain(|i| cited.contains(i.id.as_str()));
    report.entities.retain(|e| entities.contains(&e.id));
    report
        .same_as
        .retain(|s| entities.contains(&s.a) && entities.contains(&s.b));
    report.actors.retain(|a| actors.contains(&a.id));
    report
        .timeline
        .retain(|t| phenomena.contains(&*t.phenomenon_id));
    report
        .hypotheses
        .retain(|h| h.edges.iter().any(|e| phenomena.contains(&e.phenomenon_id)));
    let kept: BTreeSet<&str> = report.hypotheses.iter().map(|h| h.id.as_str()).collect();
    let keep_in = |v: &mut serde_json::Value, key: &str, field: Option<&str>| {
        if let Some(list) = v.get_mut(key).and_then(|l| l.as_array_mut()) {
            list.retain(|item| {
                let id = match field {
                    Some(f) => item.get(f),
                    None => Some(item),
                };
                id.and_then(|i| i.as_str())
                    .is_some_and(|i| kept.contains(i))
            });
        }
    };
    keep_in(&mut report.matrix, "hypotheses", None);
    keep_in(&mut report.matrix, "cells", Some("hypothesis_id"));
    report.investigation = serde_json::json!({"leads": [], "rounds": []});
    if let Some(g) = report.generated.as_object_mut() {
        g.insert("tagged_only".to_owned(), serde_json::Value::Bool(true));
    }
    report
}
