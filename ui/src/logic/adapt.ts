// The backend's live link and actor views (the graph's LinkView / Actor, as approve/retract
// return them) in the report's rows, so the Entities and Timeline views draw one model. The
// conversion is the one `api::report` makes (crates/api/src/report.rs): both shapes are the
// generated Rust types.
import type { Actor as LiveActor, LinkView } from "../generated/ipc";
import type { Actor, SameAs } from "../model/report";

export function linksFromViews(views: readonly LinkView[]): SameAs[] {
  return views
    .filter((v) => v.exists)
    .map((v) => ({
      id: v.id,
      relation: v.relation,
      a: v.a.id,
      b: v.b.id,
      hypothesis_id: v.hypothesis_id,
      confidence: v.confidence,
      state: v.state,
      decisions: v.decisions,
    }));
}

export function actorsFromViews(views: readonly LiveActor[]): Actor[] {
  return (
    views
      // as in the report: an actor is a group of at least two entities, or one entity that
      // documents or screenshots mentioning several actors point at
      .filter((a) => a.entities.length > 1 || a.mentioned_in.length > 0)
      .map((a) => ({
        id: a.id,
        label: a.label,
        entity_ids: a.entities,
        source_ids: a.sources,
        identifiers: a.identifiers.map((i) => ({
          type: i.id_type,
          normalized: i.normalized,
          ...(i.claimed_by && i.claimed_by.length > 0 ? { claimed_by: i.claimed_by } : {}),
        })),
        edges: a.joined_by,
        mentioned_in: a.mentioned_in,
        ...(a.contested && a.contested.length > 0 ? { contested: a.contested } : {}),
      }))
  );
}
