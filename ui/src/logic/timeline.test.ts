import { describe, expect, it } from "vitest";
import type { Timeline } from "../generated/ipc";
import { fixtureText } from "../test/fixture";
import {
  density, extent, formatInZone, formatUtc, NO_TL_FILTER, pan, parseUtc, tickLabel, ticks, tickStep, timelineRequest,
  timelineRows, utcBound, xOf, zoom,
} from "./timeline";

// the real `masf timeline --json` of the demo case: what the `timeline` command serves
const tl = JSON.parse(fixtureText("demo-timeline.json")) as Timeline;

describe("timeline rows", () => {
  it("keeps Rust's order, each row with its instant", () => {
    const rows = timelineRows(tl);
    expect(rows).toHaveLength(tl.entries.length);
    expect(rows.map((x) => x.entry)).toEqual(tl.entries);
    const ms = rows.map((x) => x.ms).filter((m): m is number => m !== null);
    expect([...ms].sort((a, b) => a - b)).toEqual(ms);
    for (const r of rows) expect(r.ms).toBe(parseUtc(r.entry.utc));
    expect(new Set(rows.map((x) => x.entry.source_id)).size).toBeGreaterThan(1);
  });
  it("asks Rust for the toolbar's filter", () => {
    expect(timelineRequest(NO_TL_FILTER)).toEqual({ sources: [], actor: null, tag: null, from: null, to: null });
    expect(
      timelineRequest({ actor: "actor-000005", source: "src-iphone", tag: "Follow up", from: "2024-05-21T00:00", to: "2024-05-22T09:30:05" }),
    ).toEqual({
      sources: ["src-iphone"],
      actor: "actor-000005",
      tag: "Follow up",
      from: "2024-05-21T00:00:00.000Z",
      to: "2024-05-22T09:30:05.000Z",
    });
    expect(utcBound("")).toBeNull();
    expect(utcBound("not a time")).toBeNull();
  });
});

describe("zoom and ticks", () => {
  const b = { start: 0, end: 1_000_000 };
  it("zooming in keeps the anchor in place and halves the span", () => {
    const v = zoom(b, 0.5, 250_000, b);
    expect(v.end - v.start).toBe(500_000);
    expect(xOf(250_000, v, 1000)).toBeCloseTo(xOf(250_000, b, 1000));
  });
  it("never zooms below one second nor beyond 4× the data", () => {
    let v = b;
    for (let i = 0; i < 60; i++) v = zoom(v, 0.5, 500_000, b);
    expect(v.end - v.start).toBe(1000);
    for (let i = 0; i < 60; i++) v = zoom(v, 2, 500_000, b);
    expect(v.end - v.start).toBe(4_000_000);
  });
  it("pans by a fraction of the span", () => {
    expect(pan(b, 0.25)).toEqual({ start: 250_000, end: 1_250_000 });
  });
  it("chooses a step that gives about one tick per 110 px", () => {
    const day = { start: Date.parse("2024-05-21T00:00:00Z"), end: Date.parse("2024-05-22T00:00:00Z") };
    expect(tickStep(day, 1100)).toBe(3 * 3600_000);
    const t = ticks(day, 1100);
    expect(t.length).toBeGreaterThanOrEqual(8);
    expect(t.every((x) => x % (3 * 3600_000) === 0)).toBe(true);
  });
  it("extent pads the data and widens a single instant", () => {
    const rows = timelineRows(tl);
    const e = extent(rows);
    const ms = rows.map((x) => x.ms).filter((m): m is number => m !== null);
    expect(e && e.start < Math.min(...ms) && e.end > Math.max(...ms)).toBe(true);
    const one = extent([{ ms: 5000, entry: rows[0]!.entry }]);
    expect(one).toEqual({ start: 5000 - 3_600_000, end: 5000 + 3_600_000 });
    expect(extent([])).toBeNull();
  });
  it("density buckets count what is in view", () => {
    const rows = timelineRows(tl);
    const e = extent(rows)!;
    const d = density(rows, e, 50);
    expect(d.reduce((a, x) => a + x, 0)).toBe(rows.filter((x) => x.ms !== null).length);
  });
});

describe("case zone formatting", () => {
  const ms = parseUtc("2024-05-21T01:30:00Z")!;
  it("shows the case zone and the UTC instant", () => {
    expect(formatInZone(ms, "Asia/Hong_Kong")).toBe("2024-05-21 09:30:00 UTC+08:00");
    expect(formatUtc(ms)).toBe("2024-05-21T01:30:00Z");
    expect(formatInZone(ms, "UTC")).toBe("2024-05-21 01:30:00 UTC");
  });
  it("agrees with Rust's case_time for every demo row", () => {
    for (const e of tl.entries) {
      const m = parseUtc(e.utc);
      if (m === null || !e.case_time) continue;
      const shown = formatInZone(m, tl.case_zone);
      expect(shown.slice(0, 19)).toBe(e.case_time.slice(0, 19).replace("T", " "));
    }
  });
  it("handles negative and half-hour offsets", () => {
    expect(formatInZone(ms, "America/New_York")).toBe("2024-05-20 21:30:00 UTC-04:00");
    expect(formatInZone(ms, "Asia/Kolkata")).toBe("2024-05-21 07:00:00 UTC+05:30");
  });
  it("falls back to UTC for an unknown zone instead of throwing", () => {
    expect(formatInZone(ms, "Not/AZone")).toBe("2024-05-21 01:30:00 UTC");
  });
  it("labels ticks as precisely as the step needs", () => {
    expect(tickLabel(ms, 365 * 86_400_000, "Asia/Hong_Kong")).toBe("2024");
    expect(tickLabel(ms, 86_400_000, "Asia/Hong_Kong")).toBe("2024-05-21");
    expect(tickLabel(ms, 3_600_000, "Asia/Hong_Kong")).toBe("05-21 09:30");
    expect(tickLabel(ms, 5000, "Asia/Hong_Kong")).toBe("09:30:00");
  });
  it("unparseable times are null", () => {
    expect(parseUtc(null)).toBeNull();
    expect(parseUtc("garbage")).toBeNull();
  });
});
