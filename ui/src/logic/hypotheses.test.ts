import { describe, expect, it } from "vitest";
import { demoReport, fixtureText } from "../test/fixture";
import type { Hypothesis } from "../model/report";
import { buildMatrix, cellKey, confidenceLog, edgePolarity, filterHypotheses, sortHypotheses } from "./hypotheses";

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
  // The hypotheses of report.json from a real run of the demo case (fixtures/FIXTURES.md):
  // each edge carries the log-odds and confidence after it, computed in Rust.
  const hypotheses = JSON.parse(fixtureText("demo-hypotheses.json")) as Hypothesis[];
  it("starts at the prior and ends at the hypothesis's log-odds and confidence", () => {
    expect(hypotheses.length).toBeGreaterThan(0);
    for (const h of hypotheses) {
      const log = confidenceLog(h);
      expect(log).toHaveLength(h.edges.length + 1);
      const last = log[log.length - 1];
      expect(last?.logOdds).toBeCloseTo(h.log_odds, 6);
      expect(last?.confidence).toBeCloseTo(h.confidence, 6);
      expect(log[0]?.confidence).toBeCloseTo(h.prior ?? 0.5, 9);
      // each step adds its edge's contribution (after decay) to the one before, in rank order
      for (let i = 1; i < log.length; i++) {
        expect(log[i]!.logOdds).toBeCloseTo(log[i - 1]!.logOdds + log[i]!.contribution, 9);
        expect(log[i]!.rank! >= (log[i - 1]!.rank ?? 0)).toBe(true);
      }
    }
  });
  it("shows a decayed contribution, not the edge's base", () => {
    // the demo has hypotheses with several edges of one type: the later ones add less
    const decayed = hypotheses.flatMap((h) => h.edges).filter((e) => e.contribution < e.log10_lr - 1e-9);
    expect(decayed.length).toBeGreaterThan(0);
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
