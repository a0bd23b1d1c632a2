// Entity graph logic: which actor each entity belongs to, edge styling by state, and a
// deterministic layout. Clusters are the current actors (an actor is a group of at least two
// entities), so after an approve / retract the ends of the decided link move to the actor they
// now belong to. Given the previous layout, an actor whose members did not change keeps its slot
// (the nodes of untouched actors do not move) and a changed actor takes the freed slot that held
// most of its members when it fits; anything else flows into new rows below.
import type { Actor, Entity, SameAs } from "../model/report";

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

/** A cluster's box on the canvas. `ids` are the entities drawn in it now (empty when its actor
 * went away); `last` the ones it held most recently, so a returning actor finds its old place. */
export interface Slot {
  x: number;
  y: number;
  w: number;
  h: number;
  ids: string[];
  last: string[];
}

/** An actor's ring: its members sit on the circle of radius `r` around (cx, cy). */
export interface Ring {
  ids: string[];
  cx: number;
  cy: number;
  r: number;
}

export interface Layout {
  nodes: Map<string, NodePos>;
  width: number;
  height: number;
  slots: Slot[];
  rings: Ring[];
}

const LABEL = 130; // room for labels either side of a ring
const ringRadius = (n: number) => Math.max(40, n * 15);
const boxOf = (n: number) => ({ w: 2 * ringRadius(n) + 2 * LABEL, h: 2 * ringRadius(n) + 70 });

/** The groups as clusters: known entities only, each entity in one group, at least two each. */
function clustersOf(entities: readonly Entity[], groups: readonly (readonly string[])[]): string[][] {
  const known = new Set(entities.map((e) => e.id));
  const taken = new Set<string>();
  const out: string[][] = [];
  for (const g of groups) {
    const ids = [...new Set(g)].filter((id) => known.has(id) && !taken.has(id)).sort();
    if (ids.length < 2) continue;
    for (const id of ids) taken.add(id);
    out.push(ids);
  }
  return out.sort((a, b) => b.length - a.length || ((a[0] ?? "") < (b[0] ?? "") ? -1 : 1));
}

const overlap = (a: readonly string[], b: readonly string[]) => {
  const s = new Set(b);
  return a.filter((x) => s.has(x)).length;
};

/**
 * Clusters (the `groups`, usually the actors' entity ids) flow left to right, largest first, and
 * wrap at `maxWidth`; a cluster's nodes sit on a circle sized to their number; entities in no
 * cluster follow in a grid. With `prev`, clusters keep or reuse its slots (see the file header).
 */
export function layout(entities: readonly Entity[], groups: readonly (readonly string[])[], prev?: Layout, maxWidth = 960): Layout {
  const clusters = clustersOf(entities, groups);
  const slots: Slot[] = (prev?.slots ?? []).map((s) => ({ ...s, ids: [], last: s.ids.length ? s.ids : s.last }));
  const key = (ids: readonly string[]) => ids.join("\u0000");
  const placed = new Set<string[]>();
  // 1. unchanged clusters keep their slot
  for (const c of clusters) {
    const s = slots.find((s) => s.ids.length === 0 && key(s.last) === key(c));
    if (s) {
      s.ids = c;
      placed.add(c);
    }
  }
  // 2. changed clusters take the free slot that held most of their members, if it fits
  const fits = (s: Slot, c: readonly string[]) => s.ids.length === 0 && boxOf(c.length).w <= s.w && boxOf(c.length).h <= s.h;
  const bestFor = (c: readonly string[]): { slot: Slot | null; n: number } => {
    let slot: Slot | null = null;
    let n = 0;
    for (const s of slots) {
      const k = fits(s, c) ? overlap(s.last, c) : 0;
      if (k > n) {
        slot = s;
        n = k;
      }
    }
    return { slot, n };
  };
  const changed = clusters.filter((c) => !placed.has(c)).sort((a, b) => bestFor(b).n - bestFor(a).n);
  for (const c of changed) {
    const { slot } = bestFor(c);
    if (slot) {
      slot.ids = c;
      placed.add(c);
    }
  }
  // 3. the rest flow into new rows below the kept slots
  let x = 0;
  let y = slots.reduce((m, s) => Math.max(m, s.y + s.h), 0);
  let rowH = 0;
  for (const c of clusters) {
    if (placed.has(c)) continue;
    const { w, h } = boxOf(c.length);
    if (x > 0 && x + w > maxWidth) {
      x = 0;
      y += rowH;
      rowH = 0;
    }
    slots.push({ x, y, w, h, ids: c, last: c });
    x += w;
    rowH = Math.max(rowH, h);
  }
  const nodes = new Map<string, NodePos>();
  const rings: Ring[] = [];
  let width = 0;
  let bottom = 0;
  for (const s of slots) {
    width = Math.max(width, s.x + s.w);
    bottom = Math.max(bottom, s.y + s.h);
    if (s.ids.length === 0) continue;
    const r = ringRadius(s.ids.length);
    const cx = s.x + s.w / 2;
    const cy = s.y + r + 30;
    rings.push({ ids: s.ids, cx, cy, r });
    s.ids.forEach((id, k) => {
      const a = (2 * Math.PI * k) / s.ids.length - Math.PI / 2;
      nodes.set(id, { id, x: cx + r * Math.cos(a), y: cy + r * Math.sin(a) });
    });
  }
  const single = entities.map((e) => e.id).filter((id) => !nodes.has(id)).sort();
  const top = bottom + (slots.length > 0 ? 10 : 0);
  const CELL = 150;
  const perRow = Math.max(1, Math.floor(Math.max(width, maxWidth) / CELL));
  single.forEach((id, i) => {
    nodes.set(id, { id, x: (i % perRow) * CELL + CELL / 2, y: top + Math.floor(i / perRow) * 70 + 30 });
  });
  const rowsSingle = Math.ceil(single.length / perRow);
  width = Math.max(width, Math.min(single.length, perRow) * CELL);
  return { nodes, width, height: top + rowsSingle * 70 + 10, slots, rings };
}

/** Where a node's label goes: outward from its cluster's centre (below for single nodes). */
export function labelAnchor(n: NodePos, centre: { x: number; y: number } | null): { dx: number; dy: number; anchor: "start" | "middle" | "end" } {
  if (!centre) return { dx: 0, dy: 26, anchor: "middle" };
  const vx = n.x - centre.x;
  const vy = n.y - centre.y;
  if (Math.abs(vx) < 8) return { dx: 0, dy: vy < 0 ? -18 : 28, anchor: "middle" };
  return { dx: vx > 0 ? 18 : -18, dy: 4, anchor: vx > 0 ? "start" : "end" };
}

/** Centre of the ring each clustered entity sits on, keyed by entity id. */
export function ringCentres(lay: Layout): Map<string, { x: number; y: number }> {
  const out = new Map<string, { x: number; y: number }>();
  for (const r of lay.rings) for (const id of r.ids) out.set(id, { x: r.cx, y: r.cy });
  return out;
}

/** Links, retracted/dormant last so live ones draw on top. */
export function orderedLinks(links: readonly SameAs[]): SameAs[] {
  const rank = (s: string) => (s === "retracted" ? 0 : s === "dormant" ? 1 : 2);
  return [...links].sort((a, b) => rank(a.state) - rank(b.state));
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
