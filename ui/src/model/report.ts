// The report model as the UI reads it: `schemas/report.schema.json` (masforensics.report/1).
// Fields the schema requires are required here; fields the real tool writes beyond the schema
// are optional so an older or trimmed report still type-checks and renders.

export interface ReportCase {
  id: string;
  title: string;
  timezone: string;
  examiner?: string;
  persons?: { id: string; name: string }[];
}

export interface ReportLayer {
  depth?: number;
  id?: string;
  kind?: string;
  size?: number;
  format?: string | null;
  readable?: boolean;
  label?: string | null;
  problem?: string | null;
  [k: string]: unknown;
}

export interface ReportSource {
  id: string;
  label: string;
  path: string;
  owner?: string | null;
  timezone?: string | null;
  detected_type: string | null;
  detection_reasons?: string[];
  size: number;
  sha256: string | null;
  md5: string | null;
  layers: ReportLayer[];
  integrity: Record<string, unknown>;
  triaged_by?: string | null;
  coverage?: ArtefactCoverage[];
}

// What came of one expected artefact on a source (`masf coverage`).
export type ArtefactStatus = "parsed" | "could_not_parse" | "examined" | "not_found" | "not_examined";

export interface CoverageItem {
  name: string;
  value_for: string;
  examined: boolean;
  by: string[];
  status: ArtefactStatus;
  records: number;
  problems: string[];
}

// A source's coverage by one plugin's catalogue; `searched`: its triage ran to its end.
export interface ArtefactCoverage {
  plugin: string;
  searched: boolean;
  items: CoverageItem[];
}

export interface ReportInvocation {
  id: string;
  source_id: string;
  tool: string;
  args: unknown;
  agent: string;
  task_id: string;
  status?: string;
  output_sha256: string;
  output_path: string;
  rerun?: string;
}

export interface VerifiedFact {
  type: string;
  value: string;
  invocation_id: string;
  match_method?: string;
  normalisation?: string | null;
}

export interface Phenomenon {
  id: string;
  source_id: string;
  agent: string;
  category: string;
  title: string;
  verified_facts: VerifiedFact[];
  interpretation: string;
  warnings?: string[];
  model?: string | null;
  prompt_version?: string | null;
}

export interface HypothesisEdge {
  phenomenon_id: string;
  edge_type: string;
  rank: number;
  log10_lr: number;
  contribution?: number;
}

export type HypothesisStatus = "active" | "supported" | "refuted";

export interface Hypothesis {
  id: string;
  kind: string;
  statement: string;
  proposed_by?: string;
  prior?: number;
  log_odds: number;
  confidence: number;
  status: HypothesisStatus;
  distinct_sources: number;
  edges: HypothesisEdge[];
}

export interface MatrixCell {
  hypothesis_id: string;
  phenomenon_id: string;
  edge_type: string;
  contribution?: number;
}

export interface ReportMatrix {
  hypotheses: string[];
  phenomena: string[];
  cells: MatrixCell[];
}

export interface Identifier {
  type: string;
  value: string;
  normalized: string;
  strength: "strong" | "weak";
  phenomenon_id?: string;
}

export interface Entity {
  id: string;
  kind: string;
  label: string;
  source_ids: string[];
  context?: string;
  identifiers: Identifier[];
}

export interface SameAsDecision {
  decision: string;
  by: string;
  at: string;
  reason: string;
}

export type LinkState = "live" | "approved" | "retracted" | "dormant";

export interface SameAs {
  id?: string;
  /** `coreference` (one actor) or `control` (a wallet and the person controlling it); absent in older reports. */
  relation?: "coreference" | "control";
  a: string;
  b: string;
  hypothesis_id: string;
  confidence: number;
  state: string;
  decisions?: unknown[];
}

export interface Actor {
  id: string;
  label: string;
  entity_ids: string[];
  source_ids?: string[];
  /** `claimed_by`: the entities that wrote it as their own ("my new number is …"). */
  identifiers: { type: string; normalized: string; claimed_by?: string[] }[];
  edges?: string[];
  /** Mentions (a person named in a document or screenshot) linked to this actor and another. */
  mentioned_in?: string[];
}

export interface TimelineEntry {
  utc: string | null;
  case_time?: string | null;
  source_id: string;
  raw: string;
  encoding: string;
  zone: string | null;
  description: string;
  phenomenon_id: string;
  message?: string;
  flag?: string | null;
  note?: string | null;
}

export interface Lead {
  id: string;
  proposed_by?: string;
  motivating_hypothesis?: string;
  target_agent?: string;
  source_id?: string;
  round_number?: number;
  status?: string;
  rationale?: string;
}

export interface Round {
  number: number;
  new_phenomena?: number;
  new_edges?: number;
  status_flips?: unknown[];
  rationale?: string;
}

export interface NotRead {
  source_id: string;
  what: string;
  reason: string;
  invocation_id?: string;
}

export interface Report {
  schema: "masforensics.report/1";
  generated?: {
    tool?: string;
    generated_at?: string;
    run_state?: string;
    run_reason?: string;
    run_segments?: number;
  };
  case: ReportCase;
  sources: ReportSource[];
  not_read?: NotRead[];
  invocations: ReportInvocation[];
  phenomena: Phenomenon[];
  hypotheses: Hypothesis[];
  matrix?: ReportMatrix;
  entities: Entity[];
  same_as: SameAs[];
  actors: Actor[];
  timeline: TimelineEntry[];
  investigation?: { leads?: Lead[]; rounds?: Round[] };
}

/** A same_as link's id as the backend names it (`sa-<a>-<b>` digits), derived when absent. */
export function linkId(l: SameAs): string {
  if (l.id) return l.id;
  const num = (s: string) => s.replace(/^ent-/, "");
  return `sa-${num(l.a)}-${num(l.b)}`;
}
