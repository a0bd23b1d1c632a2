import { describe, expect, it } from "vitest";
import { demoReport } from "../test/fixture";
import { actorOf, edgeClass, layout, orderedLinks, reasonOk, sharedIdentifiers } from "./entities";

const r = demoReport();
const groups = r.actors.map((a) => a.entity_ids);

describe("entity graph", () => {
  it("styles edges by state, unknown states as live", () => {
    expect(edgeClass("retracted")).toBe("edge edge-retracted");
    expect(edgeClass("approved")).toBe("edge edge-approved");
    expect(edgeClass("dormant")).toBe("edge edge-dormant");
    expect(edgeClass("weird")).toBe("edge edge-live");
  });
  it("maps entities to their actor", () => {
    const m = actorOf(r.actors);
    expect(m.size).toBe(r.actors.reduce((n, a) => n + a.entity_ids.length, 0));
    const leung = r.actors.find((a) => a.label === "Leung YL");
    expect(leung && leung.entity_ids.every((e) => m.get(e)?.id === leung.id)).toBe(true);
  });
  it("lays every entity out inside the canvas, no two at the same spot", () => {
    const l = layout(r.entities, groups);
    expect(l.nodes.size).toBe(r.entities.length);
    const seen = new Set<string>();
    for (const n of l.nodes.values()) {
      expect(n.x).toBeGreaterThanOrEqual(0);
      expect(n.y).toBeGreaterThanOrEqual(0);
      expect(n.x).toBeLessThanOrEqual(l.width);
      expect(n.y).toBeLessThanOrEqual(l.height);
      const k = `${Math.round(n.x)},${Math.round(n.y)}`;
      expect(seen.has(k)).toBe(false);
      seen.add(k);
    }
  });
  it("puts each actor's entities on its own ring, and nobody else", () => {
    const l = layout(r.entities, groups);
    expect(l.rings.map((g) => g.ids.join())).toEqual(expect.arrayContaining(groups.map((g) => [...g].sort().join())));
    expect(l.rings).toHaveLength(r.actors.length);
    for (const g of l.rings) {
      for (const [id, p] of l.nodes) {
        const d = Math.hypot(p.x - g.cx, p.y - g.cy);
        if (g.ids.includes(id)) expect(d).toBeCloseTo(g.r, 6);
        else expect(d, id).toBeGreaterThan(g.r + 14);
      }
    }
  });
  it("after a split, keeps untouched actors in place and the changed one in its old slot", () => {
    const before = layout(r.entities, groups);
    const leung = r.actors.find((a) => a.label === "Leung YL")!;
    const out = "ent-000023";
    const split = groups.map((g) => g.filter((id) => id !== out));
    const after = layout(r.entities, split, before);
    for (const a of r.actors) {
      if (a.id === leung.id) continue;
      for (const id of a.entity_ids) expect(after.nodes.get(id), id).toEqual(before.nodes.get(id));
    }
    const ring = after.rings.find((g) => g.ids.includes("ent-000005"))!;
    const old = before.rings.find((g) => g.ids.includes("ent-000005"))!;
    expect(ring.ids).toEqual(leung.entity_ids.filter((id) => id !== out).sort());
    expect(ring.cx).toBe(old.cx); // the same slot, a smaller ring
    expect(ring.r).toBeLessThan(old.r);
    expect(after.rings.some((g) => g.ids.includes(out))).toBe(false);
    // joined again: back on the full ring, exactly where it was
    const again = layout(r.entities, groups, after);
    expect([...again.nodes.entries()]).toEqual([...before.nodes.entries()]);
  });
  it("an actor that went away and came back finds its old slot", () => {
    const before = layout(r.entities, groups);
    const chan = r.actors.find((a) => a.label === "Man Ho CHAN")!;
    const gone = layout(r.entities, r.actors.filter((a) => a.id !== chan.id).map((a) => a.entity_ids), before);
    expect(gone.rings).toHaveLength(r.actors.length - 1);
    const back = layout(r.entities, groups, gone);
    for (const id of chan.entity_ids) expect(back.nodes.get(id)).toEqual(before.nodes.get(id));
  });
  it("ignores unknown entities and an entity claimed twice", () => {
    const l = layout(r.entities, [["ent-000001", "ent-999999"], ["ent-000002", "ent-000003"], ["ent-000003", "ent-000004"]]);
    expect(l.rings.map((g) => g.ids)).toEqual([["ent-000002", "ent-000003"]]);
    expect(l.nodes.size).toBe(r.entities.length);
  });
  it("draws retracted links first", () => {
    const o = orderedLinks([{ ...r.same_as[0]!, state: "live" }, { ...r.same_as[1]!, state: "retracted" }]);
    expect(o[0]?.state).toBe("retracted");
  });
  it("finds the identifiers behind a link", () => {
    const link = r.same_as.find((l) => l.id === "sa-000001-000010")!;
    const a = r.entities.find((e) => e.id === link.a);
    const b = r.entities.find((e) => e.id === link.b);
    const shared = sharedIdentifiers(a, b);
    expect(shared.length).toBeGreaterThan(0);
    for (const s of shared) {
      expect(a?.identifiers.some((i) => i.normalized === s.normalized)).toBe(true);
      expect(b?.identifiers.some((i) => i.normalized === s.normalized)).toBe(true);
    }
  });
  it("requires a reason to retract but not to approve", () => {
    expect(reasonOk("retract", "   ")).toBe(false);
    expect(reasonOk("retract", "different person")).toBe(true);
    expect(reasonOk("approve", "")).toBe(true);
  });
});

describe("labels", () => {
  it("point away from the cluster centre", async () => {
    const { labelAnchor } = await import("./entities");
    expect(labelAnchor({ id: "a", x: 10, y: 0 }, { x: 0, y: 0 }).anchor).toBe("start");
    expect(labelAnchor({ id: "a", x: -10, y: 0 }, { x: 0, y: 0 }).anchor).toBe("end");
    expect(labelAnchor({ id: "a", x: 0, y: -10 }, { x: 0, y: 0 })).toEqual({ dx: 0, dy: -18, anchor: "middle" });
    expect(labelAnchor({ id: "a", x: 5, y: 5 }, null).dy).toBe(26);
  });
});
