// The backend's live link and actor views (graph LinkView / Actor, as approve/retract return
// them) in the report's shapes, so the Entities and Timeline views draw one model.
import type { Actor, SameAs } from "../model/report";

export interface EntityRefLike {
  id: string;
  label?: string;
  source_id?: string;
  context?: string;
}

export interface LinkViewLike {
  id: string;
  state: string;
  a: EntityRefLike | string;
  b: EntityRefLike | string;
  hypothesis_id: string;
  confidence: number;
  relation?: string;
  revisions?: unknown[];
  decisions?: unknown[];
}

export interface ActorLike {
  id: string;
  label: string;
  entities?: string[];
  entity_ids?: string[];
  sources?: string[];
  source_ids?: string[];
  identifiers?: { type?: string; id_type?: string; normalized?: string; value?: string }[];
  mentioned_in?: string[];
  edges?: string[];
  joined_by?: string[];
}

const refId = (r: EntityRefLike | string): string => (typeof r === "string" ? r : r.id);

export function linksFromViews(views: readonly LinkViewLike[]): SameAs[] {
  return views.map((v) => ({
    id: v.id,
    a: refId(v.a),
    b: refId(v.b),
    hypothesis_id: v.hypothesis_id,
    confidence: v.confidence,
    state: v.state,
    ...(v.relation === "control" || v.relation === "coreference" ? { relation: v.relation } : {}),
    decisions: v.decisions ?? v.revisions ?? [],
  }));
}

export function actorsFromViews(views: readonly ActorLike[]): Actor[] {
  return views
    .map((a) => ({
      id: a.id,
      label: a.label,
      entity_ids: a.entity_ids ?? a.entities ?? [],
      source_ids: a.source_ids ?? a.sources ?? [],
      identifiers: (a.identifiers ?? []).map((i) => ({ type: i.type ?? i.id_type ?? "", normalized: i.normalized ?? i.value ?? "" })),
      mentioned_in: a.mentioned_in ?? [],
      edges: a.edges ?? a.joined_by ?? [],
    }))
    // as in the report (api::report): an actor is a group of at least two entities, or one
    // entity that documents or screenshots mentioning several actors point at
    .filter((a) => a.entity_ids.length > 1 || a.mentioned_in.length > 0);
}

export interface DecisionView {
  decision: string;
  by: string;
  at: string;
  reason: string;
}

/** The examiner's decisions on a link, whatever shape they came in (graph SameAsDecision). */
export function decisionsOf(ds: readonly unknown[] | undefined): DecisionView[] {
  const s = (v: unknown) => (typeof v === "string" ? v : "");
  return (ds ?? [])
    .filter((d): d is Record<string, unknown> => d !== null && typeof d === "object")
    .map((d) => ({ decision: s(d.decision), by: s(d.by), at: s(d.at), reason: s(d.reason) }))
    .filter((d) => d.decision !== "");
}
