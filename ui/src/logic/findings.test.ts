import { describe, expect, it } from "vitest";
import { demoReport } from "../test/fixture";
import { bySource, facets, factVerified, filterPhenomena, invocationIndex, NO_FILTER } from "./findings";

const r = demoReport();

describe("findings filters on the demo report", () => {
  it("facets count every phenomenon once per dimension", () => {
    const f = facets(r.phenomena);
    for (const dim of [f.sources, f.categories, f.agents])
      expect(dim.reduce((n, x) => n + x.count, 0)).toBe(r.phenomena.length);
    expect(f.sources.map((s) => s.value)).toEqual(["src-android", "src-iphone", "src-screens", "src-usb"]);
    expect(f.agents.map((s) => s.value)).toContain("ios-triage");
  });
  it("no filter keeps everything; each dimension narrows to matching rows only", () => {
    expect(filterPhenomena(r.phenomena, NO_FILTER)).toHaveLength(117);
    const ios = filterPhenomena(r.phenomena, { ...NO_FILTER, source: "src-iphone" });
    expect(ios.length).toBeGreaterThan(0);
    expect(ios.length).toBeLessThan(117);
    expect(ios.every((p) => p.source_id === "src-iphone")).toBe(true);
    const idn = filterPhenomena(r.phenomena, { ...NO_FILTER, source: "src-iphone", category: "identity" });
    expect(idn.every((p) => p.category === "identity" && p.source_id === "src-iphone")).toBe(true);
    expect(idn.length).toBeLessThan(ios.length);
    const ag = filterPhenomena(r.phenomena, { ...NO_FILTER, agent: "disk-triage" });
    expect(ag.every((p) => p.agent === "disk-triage")).toBe(true);
    expect(filterPhenomena(r.phenomena, { ...NO_FILTER, agent: "nobody" })).toHaveLength(0);
  });
  it("text search looks into fact values case-insensitively", () => {
    const hit = filterPhenomena(r.phenomena, { ...NO_FILTER, text: "chan.mh@EXAMPLE.net" });
    expect(hit.map((p) => p.id)).toContain("ph-000006");
  });
  it("every fact of the demo cites an invocation present in the report", () => {
    const idx = invocationIndex(r);
    for (const p of r.phenomena) for (const f of p.verified_facts) expect(factVerified(f.invocation_id, idx)).toBe(true);
    expect(factVerified("inv-999999", idx)).toBe(false);
  });
  it("groups by source in the report's source order", () => {
    const g = bySource(r, r.phenomena);
    expect(g.map((x) => x.sourceId)).toEqual(r.sources.map((s) => s.id).filter((id) => g.some((x) => x.sourceId === id)));
    expect(g.reduce((n, x) => n + x.items.length, 0)).toBe(117);
  });
});

describe("search by id", () => {
  it("finds a phenomenon by its id (cross-view links use it)", () => {
    const hit = filterPhenomena(r.phenomena, { ...NO_FILTER, text: "ph-000046" });
    expect(hit.map((p) => p.id)).toEqual(["ph-000046"]);
  });
});
