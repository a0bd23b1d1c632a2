// Evidence strings are data: nothing in ui/src may turn a string into markup or code.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(process.cwd(), "src");
const FORBIDDEN = [
  "dangerouslySetInnerHTML", "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write",
  "eval(", "new Function", "srcdoc", "javascript:",
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? (n === "fixtures" ? [] : files(p)) : /\.(ts|tsx|js|html|css)$/.test(n) ? [p] : [];
  });
}

describe("no HTML or code sinks in ui/src", () => {
  it("finds the source files", () => {
    expect(files(ROOT).length).toBeGreaterThan(10);
  });
  it("uses none of the forbidden APIs (this file excepted)", () => {
    const hits: string[] = [];
    for (const f of files(ROOT)) {
      if (f.endsWith("safety.test.ts")) continue;
      const text = readFileSync(f, "utf8");
      for (const word of FORBIDDEN) if (text.includes(word)) hits.push(`${f}: ${word}`);
    }
    expect(hits).toEqual([]);
  });
  it("calls invoke() only from bindings.ts", () => {
    const hits = files(ROOT)
      .filter((f) => !f.endsWith("bindings.ts") && !f.endsWith("safety.test.ts"))
      .filter((f) => /\binvoke\s*[(<]/.test(readFileSync(f, "utf8")) || readFileSync(f, "utf8").includes("@tauri-apps/api/core"));
    expect(hits).toEqual([]);
  });
});
