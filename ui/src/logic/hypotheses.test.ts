import { describe, expect, it } from "vitest";
import { demoReport } from "../test/fixture";
import { buildMatrix, cellKey, confidenceLog, edgePolarity, filterHypotheses, sortHypotheses, toConfidence } from "./hypotheses";

const r = demoReport();

describe("hypothesis × evidence matrix", () => {
  it("has one row per matrix hypothesis, one column per cited phenomenon, and every cell", () => {
    const m = buildMatrix(r);
    expect(m.rows).toHaveLength(r.matrix?.hypotheses.length ?? -1);
    expect(m.cols).toHaveLength(r.matrix?.phenomena.length ?? -1);
    expect(m.cells.size).toBe(r.matrix?.cells.length ?? -1);
    const c = m.cells.get(cellKey("hyp-000001", "ph-000005"));
    expect(c).toEqual({ edgeType: "direct_evidence", contribution: 2 });
    // columns grouped by source in report order
    const order = r.sources.map((s) => s.id);
    const idx = m.cols.map((p) => order.indexOf(p.source_id));
    expect([...idx].sort((a, b) => a - b)).toEqual(idx);
  });
  it("restricting rows drops the columns no kept row cites", () => {
    const m = buildMatrix(r, new Set(["hyp-000001"]));
    expect(m.rows.map((h) => h.id)).toEqual(["hyp-000001"]);
    expect(m.cols.map((p) => p.id).sort()).toEqual(["ph-000005", "ph-000006", "ph-000046", "ph-000048"]);
  });
  it("colours by polarity", () => {
    expect(edgePolarity("supports", 1)).toBe("support");
    expect(edgePolarity("refutes", -1)).toBe("refute");
    expect(edgePolarity("unknown", 0)).toBe("neutral");
  });
});

describe("confidence log", () => {
  it("starts at the prior and ends at the hypothesis's log-odds and confidence", () => {
    for (const h of r.hypotheses) {
      const log = confidenceLog(h);
      expect(log).toHaveLength(h.edges.length + 1);
      const last = log[log.length - 1];
      expect(last?.logOdds).toBeCloseTo(h.log_odds, 6);
      expect(last?.confidence).toBeCloseTo(h.confidence, 6);
      expect(log[0]?.confidence).toBeCloseTo(h.prior ?? 0.5, 9);
    }
    expect(toConfidence(0)).toBe(0.5);
  });
  it("sorts by confidence descending", () => {
    const s = sortHypotheses(r.hypotheses, "confidence");
    for (let i = 1; i < s.length; i++) expect((s[i - 1]?.confidence ?? 0) >= (s[i]?.confidence ?? 0)).toBe(true);
  });
});

describe("hypothesis filters", () => {
  it("narrow by kind and status", () => {
    const co = filterHypotheses(r.hypotheses, "coreference", "");
    expect(co.length).toBeGreaterThan(0);
    expect(co.every((h) => h.kind === "coreference")).toBe(true);
    const own = filterHypotheses(r.hypotheses, "ownership", "");
    expect(co.length + own.length).toBe(r.hypotheses.length);
    const act = filterHypotheses(r.hypotheses, "", "active");
    expect(act.every((h) => h.status === "active")).toBe(true);
    expect(act.length).toBeLessThan(r.hypotheses.length);
    expect(filterHypotheses(r.hypotheses, "", "refuted")).toEqual([]);
  });
});
