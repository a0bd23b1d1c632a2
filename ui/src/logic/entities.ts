// Entity graph logic: which actor each entity belongs to, edge styling by state, and a
// deterministic layout (clusters are the connected components over ALL same_as links, whatever
// their state, so retracting a link does not move nodes: the split shows as colours and the actor
// list changing at once).
import type { Actor, Entity, SameAs } from "../model/report";
import { linkId } from "../model/report";

export const LINK_STATES = ["live", "approved", "retracted", "dormant", "candidate"] as const;

export function edgeClass(state: string): string {
  const s = (LINK_STATES as readonly string[]).includes(state) ? state : "live";
  return `edge edge-${s}`;
}

export function actorOf(actors: readonly Actor[]): Map<string, Actor> {
  const m = new Map<string, Actor>();
  for (const a of actors) for (const e of a.entity_ids) m.set(e, a);
  return m;
}

export interface NodePos {
  id: string;
  x: number;
  y: number;
}

export interface Layout {
  nodes: Map<string, NodePos>;
  width: number;
  height: number;
}

function components(entities: readonly Entity[], links: readonly SameAs[]): string[][] {
  const parent = new Map<string, string>(entities.map((e) => [e.id, e.id]));
  const find = (x: string): string => {
    let r = x;
    while (parent.get(r) !== r && parent.has(r)) r = parent.get(r) ?? r;
    let c = x;
    while (c !== r) {
      const n = parent.get(c) ?? r;
      parent.set(c, r);
      c = n;
    }
    return r;
  };
  for (const l of links) {
    if (!parent.has(l.a) || !parent.has(l.b)) continue;
    const ra = find(l.a);
    const rb = find(l.b);
    if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  }
  const groups = new Map<string, string[]>();
  for (const e of entities) {
    const r = find(e.id);
    const g = groups.get(r);
    if (g) g.push(e.id);
    else groups.set(r, [e.id]);
  }
  return [...groups.values()]
    .map((g) => g.sort())
    .sort((a, b) => b.length - a.length || ((a[0] ?? "") < (b[0] ?? "") ? -1 : 1));
}

/** Clusters in a grid of `cols` columns; the nodes of a cluster on a circle. */
export function layout(entities: readonly Entity[], links: readonly SameAs[], cols = 4, cell = 230): Layout {
  const comps = components(entities, links);
  const nodes = new Map<string, NodePos>();
  const big = comps.filter((c) => c.length > 1);
  const single = comps.filter((c) => c.length === 1);
  let row = 0;
  big.forEach((c, i) => {
    const cx = (i % cols) * cell + cell / 2;
    const cy = Math.floor(i / cols) * cell + cell / 2;
    row = Math.floor(i / cols);
    const r = Math.min(cell / 2 - 40, 26 + c.length * 10);
    c.forEach((id, k) => {
      const a = (2 * Math.PI * k) / c.length - Math.PI / 2;
      nodes.set(id, { id, x: cx + r * Math.cos(a), y: cy + r * Math.sin(a) });
    });
  });
  const top = big.length > 0 ? (row + 1) * cell : 0;
  const perRow = cols * 2;
  single.forEach((c, i) => {
    const id = c[0] ?? "";
    nodes.set(id, { id, x: (i % perRow) * (cell / 2) + cell / 4, y: top + Math.floor(i / perRow) * 90 + 50 });
  });
  const rowsSingle = Math.ceil(single.length / perRow);
  return { nodes, width: cols * cell, height: top + rowsSingle * 90 + 20 };
}

/** Links with their ids; retracted/dormant last so live ones draw on top. */
export function orderedLinks(links: readonly SameAs[]): (SameAs & { id: string })[] {
  const rank = (s: string) => (s === "retracted" ? 0 : s === "dormant" ? 1 : 2);
  return links.map((l) => ({ ...l, id: linkId(l) })).sort((a, b) => rank(a.state) - rank(b.state));
}

/** The identifiers the two ends of a link share (by type and normalised value). */
export function sharedIdentifiers(a: Entity | undefined, b: Entity | undefined): { type: string; normalized: string }[] {
  if (!a || !b) return [];
  const keys = new Set(b.identifiers.map((i) => `${i.type}\u0000${i.normalized}`));
  const seen = new Set<string>();
  const out: { type: string; normalized: string }[] = [];
  for (const i of a.identifiers) {
    const k = `${i.type}\u0000${i.normalized}`;
    if (keys.has(k) && !seen.has(k)) {
      seen.add(k);
      out.push({ type: i.type, normalized: i.normalized });
    }
  }
  return out;
}

/** A retract reason is required (non-blank); an approve reason is optional. */
export function reasonOk(decision: "approve" | "retract", reason: string): boolean {
  return decision === "approve" || reason.trim().length > 0;
}
