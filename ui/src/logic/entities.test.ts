import { describe, expect, it } from "vitest";
import { demoReport } from "../test/fixture";
import { actorOf, edgeClass, layout, orderedLinks, reasonOk, sharedIdentifiers } from "./entities";

const r = demoReport();

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
    const l = layout(r.entities, r.same_as);
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
  it("keeps node positions when a link is retracted (layout over all links)", () => {
    const before = layout(r.entities, r.same_as);
    const retracted = r.same_as.map((l, i) => (i === 0 ? { ...l, state: "retracted" } : l));
    const after = layout(r.entities, retracted);
    expect([...after.nodes.entries()]).toEqual([...before.nodes.entries()]);
  });
  it("derives link ids and draws retracted links first", () => {
    const o = orderedLinks([{ ...r.same_as[0]!, state: "live" }, { ...r.same_as[1]!, state: "retracted" }]);
    expect(o[0]?.state).toBe("retracted");
    const { id: _id, ...noId } = r.same_as[0]!;
    expect(orderedLinks([noId])[0]?.id).toBe("sa-000001-000010");
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
