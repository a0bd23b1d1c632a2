import { describe, expect, it } from "vitest";
import { gauge } from "./gauges";

describe("budget gauges", () => {
  it("warns at 70 % and 90 %, exhausted at the cap", () => {
    expect(gauge("tool_calls", 69, 100).level).toBe("ok");
    expect(gauge("tool_calls", 70, 100).level).toBe("warn");
    expect(gauge("tool_calls", 89, 100).level).toBe("warn");
    expect(gauge("tool_calls", 90, 100).level).toBe("critical");
    expect(gauge("tool_calls", 100, 100).level).toBe("exhausted");
    expect(gauge("tool_calls", 150, 100).percent).toBe(150);
    expect(gauge("tool_calls", 150, 100).fraction).toBe(1);
  });
  it("honours custom thresholds and a zero cap", () => {
    expect(gauge("t", 50, 100, [0.5, 0.8]).level).toBe("warn");
    expect(gauge("t", 0, 0).level).toBe("ok");
    expect(gauge("t", 1, 0).level).toBe("exhausted");
  });
});

describe("run state badge", () => {
  it("prefers how the run ended, then the stream, then the status", async () => {
    const { runStateOf } = await import("../views/RunView");
    expect(runStateOf(false, "paused", "active", "active")).toBe("paused");
    expect(runStateOf(true, "completed", "", null)).toBe("active");
    expect(runStateOf(true, "", "halted_budget", null)).toBe("halted_budget");
    expect(runStateOf(false, "", "", "completed")).toBe("completed");
    expect(runStateOf(false, "", "", null)).toBe("");
  });
});
