import { describe, expect, it } from "vitest";
import { gaugesFromStatus } from "./budget";

describe("gauges from the case status", () => {
  it("reads budget lines", () => {
    const g = gaugesFromStatus({ budget: { lines: [{ name: "tool_calls", used: 75, cap: 100 }, { name: "rounds", used: 1, cap: 10 }, { name: "tokens", used: 5, cap: 0 }] } }, null);
    expect(g.map((x) => [x.name, x.level])).toEqual([["tool_calls", "warn"], ["rounds", "ok"]]);
  });
  it("falls back to the latest warning per counter", () => {
    const g = gaugesFromStatus(
      { run: { warnings: [{ counter: "tool_calls", level: 0.7, used: 70, cap: 100 }] } },
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
