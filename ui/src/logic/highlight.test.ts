import { describe, expect, it } from "vitest";
import { firstHit, spansOf } from "./highlight";

const hl = (spans: [number, number][]) => ({ how: "verbatim", field: null, spans: spans.map(([start, end]) => ({ start, end })) });
const join = (s: ReturnType<typeof spansOf>) => s.map((x) => x.text).join("");

describe("highlight spans", () => {
  it("cuts the text at the spans Rust gives and loses nothing", () => {
    const text = "a foo b foo c";
    const s = spansOf(text, hl([[2, 5], [8, 11]]));
    expect(s.map((x) => [x.text, x.hit])).toEqual([
      ["a ", false], ["foo", true], [" b ", false], ["foo", true], [" c", false],
    ]);
    expect(join(s)).toBe(text);
    expect(firstHit(s)).toBe(1);
  });
  it("reads offsets as UTF-16 units, as Rust writes them", () => {
    // "😀" is two UTF-16 units; the CJK name after it starts at unit 3
    const text = "😀 陈文浩 x";
    const s = spansOf(text, hl([[3, 6]]));
    expect(s.find((x) => x.hit)?.text).toBe("陈文浩");
    expect(join(s)).toBe(text);
  });
  it("clamps spans past the text and ignores overlaps and empty ones", () => {
    const text = "abcdef";
    const s = spansOf(text, hl([[1, 3], [2, 4], [4, 4], [5, 99]]));
    expect(s.filter((x) => x.hit).map((x) => x.text)).toEqual(["bc", "d", "f"]);
    expect(join(s)).toBe(text);
  });
  it("marks nothing without a highlight", () => {
    expect(spansOf("abc", null)).toEqual([{ text: "abc", hit: false }]);
    expect(spansOf("", hl([[0, 1]]))).toEqual([]);
    expect(firstHit(spansOf("abc", null))).toBe(-1);
  });
});
