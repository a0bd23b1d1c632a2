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

/**
 * Clusters flow left to right (largest first) and wrap at `maxWidth`; a cluster's nodes sit on a
 * circle sized to their number; single entities follow in a grid.
 */
export function layout(entities: readonly Entity[], links: readonly SameAs[], maxWidth = 960): Layout {
  const comps = components(entities, links);
  const nodes = new Map<string, NodePos>();
  const big = comps.filter((c) => c.length > 1);
  const single = comps.filter((c) => c.length === 1);
  const LABEL = 130; // room for labels either side
  let x = 0;
  let y = 0;
  let rowH = 0;
  let width = 0;
  for (const c of big) {
    const r = Math.max(40, c.length * 15);
    const w = 2 * r + 2 * LABEL;
    const h = 2 * r + 70;
    if (x > 0 && x + w > maxWidth) {
      x = 0;
      y += rowH;
      rowH = 0;
    }
    const cx = x + w / 2;
    const cy = y + r + 30;
    c.forEach((id, k) => {
      const a = (2 * Math.PI * k) / c.length - Math.PI / 2;
      nodes.set(id, { id, x: cx + r * Math.cos(a), y: cy + r * Math.sin(a) });
    });
    x += w;
    width = Math.max(width, x);
    rowH = Math.max(rowH, h);
  }
  const top = y + rowH + (big.length > 0 ? 10 : 0);
  const CELL = 150;
  const perRow = Math.max(1, Math.floor(Math.max(width, maxWidth) / CELL));
  single.forEach((c, i) => {
    const id = c[0] ?? "";
    nodes.set(id, { id, x: (i % perRow) * CELL + CELL / 2, y: top + Math.floor(i / perRow) * 70 + 30 });
  });
  const rowsSingle = Math.ceil(single.length / perRow);
  width = Math.max(width, Math.min(single.length, perRow) * CELL);
  return { nodes, width, height: top + rowsSingle * 70 + 10 };
}

/** Where a node's label goes: outward from its cluster's centre (below for single nodes). */
export function labelAnchor(n: NodePos, centre: { x: number; y: number } | null): { dx: number; dy: number; anchor: "start" | "middle" | "end" } {
  if (!centre) return { dx: 0, dy: 26, anchor: "middle" };
  const vx = n.x - centre.x;
  const vy = n.y - centre.y;
  if (Math.abs(vx) < 8) return { dx: 0, dy: vy < 0 ? -18 : 28, anchor: "middle" };
  return { dx: vx > 0 ? 18 : -18, dy: 4, anchor: vx > 0 ? "start" : "end" };
}

/** Centre of each multi-entity cluster, keyed by entity id. */
export function clusterCentres(entities: readonly Entity[], links: readonly SameAs[], lay: Layout): Map<string, { x: number; y: number }> {
  const out = new Map<string, { x: number; y: number }>();
  for (const c of components(entities, links)) {
    if (c.length < 2) continue;
    let sx = 0;
    let sy = 0;
    for (const id of c) {
      const p = lay.nodes.get(id);
      sx += p?.x ?? 0;
      sy += p?.y ?? 0;
    }
    const centre = { x: sx / c.length, y: sy / c.length };
    for (const id of c) out.set(id, centre);
  }
  return out;
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
