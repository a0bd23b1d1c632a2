// Findings view logic: facets and filters over the report's phenomena, and the link from a
// verified fact to the invocation it cites.
import type { Phenomenon, Report, ReportInvocation } from "../model/report";

export interface FindingFilter {
  source: string; // "" = any
  category: string;
  agent: string;
  text: string; // case-insensitive substring of id / title / interpretation / fact values
}

export const NO_FILTER: FindingFilter = { source: "", category: "", agent: "", text: "" };

export interface Facet {
  value: string;
  count: number;
}

function facet(values: string[]): Facet[] {
  const m = new Map<string, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return [...m.entries()]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

export function facets(ph: readonly Phenomenon[]): { sources: Facet[]; categories: Facet[]; agents: Facet[] } {
  return {
    sources: facet(ph.map((p) => p.source_id)),
    categories: facet(ph.map((p) => p.category)),
    agents: facet(ph.map((p) => p.agent)),
  };
}

export function filterPhenomena(ph: readonly Phenomenon[], f: FindingFilter): Phenomenon[] {
  const needle = f.text.trim().toLowerCase();
  return ph.filter((p) => {
    if (f.source && p.source_id !== f.source) return false;
    if (f.category && p.category !== f.category) return false;
    if (f.agent && p.agent !== f.agent) return false;
    if (needle) {
      const hay = [p.id, p.title, p.interpretation, ...p.verified_facts.map((x) => x.value)].join("\n").toLowerCase();
      if (!hay.includes(needle)) return false;
    }
    return true;
  });
}

/** Index of invocations by id. */
export function invocationIndex(r: Report): Map<string, ReportInvocation> {
  return new Map(r.invocations.map((i) => [i.id, i]));
}

/**
 * A fact is shown as verified only when the invocation it cites is in the report (its output and
 * sha256 are then available); otherwise it is marked unverified.
 */
export function factVerified(invId: string, index: Map<string, ReportInvocation>): boolean {
  return index.has(invId);
}

/** Phenomena grouped by source, in source order of the report. */
export function bySource(r: Report, ph: readonly Phenomenon[]): { sourceId: string; label: string; items: Phenomenon[] }[] {
  const groups = new Map<string, Phenomenon[]>();
  for (const p of ph) {
    const g = groups.get(p.source_id);
    if (g) g.push(p);
    else groups.set(p.source_id, [p]);
  }
  const order = r.sources.map((s) => s.id);
  const extra = [...groups.keys()].filter((k) => !order.includes(k));
  return [...order, ...extra]
    .filter((id) => groups.has(id))
    .map((id) => ({
      sourceId: id,
      label: r.sources.find((s) => s.id === id)?.label ?? id,
      items: groups.get(id) ?? [],
    }));
}
