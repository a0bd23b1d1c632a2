import { describe, expect, it } from "vitest";
import { atBottom, scrollToIndex, windowRange } from "./virtual";

describe("virtual list windowing", () => {
  it("renders only the rows in view plus overscan, for 100,000 rows", () => {
    const w = windowRange(2_000_000, 600, 24, 100_000, 8);
    expect(w.start).toBe(Math.floor(2_000_000 / 24) - 8);
    expect(w.end - w.start).toBeLessThanOrEqual(Math.ceil(600 / 24) + 1 + 16);
    expect(w.padTop + (w.end - w.start) * 24 + w.padBottom).toBe(100_000 * 24);
  });
  it("clamps at both ends", () => {
    expect(windowRange(0, 600, 24, 100_000, 8).start).toBe(0);
    const end = windowRange(1e12, 600, 24, 100_000, 8);
    expect(end.end).toBe(100_000);
    expect(end.padBottom).toBe(0);
    expect(windowRange(0, 600, 24, 0)).toEqual({ start: 0, end: 0, padTop: 0, padBottom: 0 });
    expect(windowRange(-50, 600, 24, 10)).toEqual({ start: 0, end: 10, padTop: 0, padBottom: 0 });
  });
  it("scrolls minimally to a row", () => {
    expect(scrollToIndex(10, 0, 240, 24)).toBe(24);
    expect(scrollToIndex(3, 0, 240, 24)).toBeNull();
    expect(scrollToIndex(0, 100, 240, 24)).toBe(0);
  });
  it("detects being pinned to the end", () => {
    expect(atBottom(9760, 240, 10_000, 24)).toBe(true);
    expect(atBottom(5000, 240, 10_000, 24)).toBe(false);
  });
});
