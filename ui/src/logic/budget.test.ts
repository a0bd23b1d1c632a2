import { describe, expect, it } from "vitest";
import type { StatusView } from "../api";
import { budgetLine, caseStatus } from "../test/fixture";
import { gaugesFromStatus } from "./budget";

// the status view: the case status with Rust's budget lines
const withLines = (lines: ReturnType<typeof budgetLine>[]): StatusView => ({
  ...caseStatus(),
  case_file: "case.yaml",
  work_dir: "w",
  budget: { lines, exhausted: false },
  tallies: [],
  running: false,
});

describe("gauges from the case status", () => {
  it("reads budget lines", () => {
    const g = gaugesFromStatus(withLines([budgetLine("tool_calls", 75, 100), budgetLine("rounds", 1, 10), budgetLine("tokens", 5, 0)]), null);
    expect(g.map((x) => [x.name, x.level])).toEqual([["tool_calls", "warn"], ["rounds", "ok"]]);
  });
  it("falls back to the latest warning per counter", () => {
    const g = gaugesFromStatus(
      caseStatus([], { warnings: [{ counter: "tool_calls", level: 0.7, used: 70, cap: 100 }] }),
      { warnings: [{ counter: "tool_calls", level: 0.9, used: 91, cap: 100 }] },
    );
    expect(g).toHaveLength(1);
    expect(g[0]?.level).toBe("critical");
    expect(g[0]?.used).toBe(91);
  });
  it("shows nothing when nothing is known", () => {
    expect(gaugesFromStatus(null, null)).toEqual([]);
  });
});
