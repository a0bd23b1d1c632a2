// Hypotheses view logic: the hypothesis × evidence matrix and a hypothesis's confidence log
// (log-odds, base 10, from the prior through each edge in rank order, as the report gives it).
import type { Hypothesis, Phenomenon, Report } from "../model/report";

export interface MatrixModel {
  rows: Hypothesis[];
  cols: Phenomenon[];
  /** `${hypothesis_id}|${phenomenon_id}` → cell */
  cells: Map<string, { edgeType: string; contribution: number }>;
}

export function cellKey(h: string, p: string): string {
  return `${h}|${p}`;
}

/**
 * Rows in the report's matrix order; columns grouped by source (report order), then by id.
 */
export function buildMatrix(r: Report, onlyHypotheses?: ReadonlySet<string>): MatrixModel {
  const hById = new Map(r.hypotheses.map((h) => [h.id, h]));
  const pById = new Map(r.phenomena.map((p) => [p.id, p]));
  const cells = new Map<string, { edgeType: string; contribution: number }>();
  const rowIds = r.matrix.hypotheses;
  for (const c of r.matrix.cells)
    cells.set(cellKey(c.hypothesis_id, c.phenomenon_id), { edgeType: c.edge_type, contribution: c.contribution });
  const rows = rowIds
    .filter((id) => !onlyHypotheses || onlyHypotheses.has(id))
    .map((id) => hById.get(id))
    .filter((h): h is Hypothesis => h !== undefined);
  const used = new Set<string>();
  for (const h of rows) for (const p of pById.keys()) if (cells.has(cellKey(h.id, p))) used.add(p);
  const srcOrder = new Map(r.sources.map((s, i) => [s.id, i]));
  const cols = [...used]
    .map((id) => pById.get(id))
    .filter((p): p is Phenomenon => p !== undefined)
    .sort((a, b) => {
      const sa = srcOrder.get(a.source_id) ?? 1e9;
      const sb = srcOrder.get(b.source_id) ?? 1e9;
      return sa !== sb ? sa - sb : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    });
  return { rows, cols, cells };
}

/** Sign class of an edge for colouring: support (+), refute (−) or neutral. */
export function edgePolarity(edgeType: string, contribution: number): "support" | "refute" | "neutral" {
  if (/refut|contradict|against/.test(edgeType) || contribution < 0) return "refute";
  if (contribution > 0 || /support|direct|prerequisite/.test(edgeType)) return "support";
  return "neutral";
}

export interface LogStep {
  label: string; // "prior" or the phenomenon id
  edgeType: string | null;
  rank: number | null;
  contribution: number;
  logOdds: number;
  confidence: number;
}

/**
 * The confidence log of a hypothesis as the report gives it (computed in Rust with the graph's
 * scoring, harmonic decay included): the prior, then each edge in rank order with the log-odds
 * and confidence once it is added. Nothing is recomputed here.
 */
export function confidenceLog(h: Hypothesis): LogStep[] {
  return [
    { label: "prior", edgeType: null, rank: null, contribution: 0, logOdds: h.prior_log_odds, confidence: h.prior },
    ...h.edges.map((e) => ({
      label: e.phenomenon_id,
      edgeType: e.edge_type,
      rank: e.rank,
      contribution: e.contribution,
      logOdds: e.log_odds_after,
      confidence: e.confidence_after,
    })),
  ];
}

export type HypSort = "confidence" | "log_odds" | "id" | "sources";

export function sortHypotheses(hs: readonly Hypothesis[], by: HypSort): Hypothesis[] {
  const out = [...hs];
  switch (by) {
    case "confidence":
      return out.sort((a, b) => b.confidence - a.confidence || (a.id < b.id ? -1 : 1));
    case "log_odds":
      return out.sort((a, b) => b.log_odds - a.log_odds || (a.id < b.id ? -1 : 1));
    case "sources":
      return out.sort((a, b) => b.distinct_sources - a.distinct_sources || (a.id < b.id ? -1 : 1));
    case "id":
      return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
}

/** Hypotheses of a kind and a status ("" = any). */
export function filterHypotheses(hs: readonly Hypothesis[], kind: string, status: string): Hypothesis[] {
  return hs.filter((h) => (!kind || h.kind === kind) && (!status || h.status === status));
}
