import { describe, expect, it } from "vitest";
import en from "./en.json";
import zhCN from "./zh-CN.json";
import { initialLocale, t } from "./index";

describe("i18n", () => {
  it("both locales hold exactly the same keys", () => {
    const a = Object.keys(en).sort();
    const b = Object.keys(zhCN).sort();
    expect(b).toEqual(a);
  });
  it("no message is empty and placeholders agree between locales", () => {
    const ph = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort().join(",");
    for (const [k, v] of Object.entries(en)) {
      expect(v.length, k).toBeGreaterThan(0);
      const z = (zhCN as Record<string, string>)[k] ?? "";
      expect(z.length, k).toBeGreaterThan(0);
      expect(ph(z), k).toBe(ph(v));
    }
  });
  it("substitutes parameters as text and falls back to the key", () => {
    expect(t("nav.run", undefined, "zh-CN")).toBe("实时运行");
    expect(t("no.such.key")).toBe("no.such.key");
  });
  it("chooses a locale from storage, then the browser languages", () => {
    expect(initialLocale("zh-CN", ["en-US"])).toBe("zh-CN");
    expect(initialLocale(null, ["zh-TW", "en"])).toBe("zh-CN");
    expect(initialLocale(null, ["fr", "en-GB"])).toBe("en");
    expect(initialLocale("xx", [])).toBe("en");
  });
});

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return n === "test" ? [] : sources(p);
    return /\.tsx?$/.test(n) && !n.endsWith(".test.ts") ? [p] : [];
  });
}

describe("keys used by the code", () => {
  const keys = new Set(Object.keys(en));
  it("every literal t(\"…\") key exists", () => {
    const missing: string[] = [];
    for (const f of sources(resolve(process.cwd(), "src"))) {
      for (const m of readFileSync(f, "utf8").matchAll(/\bt\(\s*"([\w.]+)"/g)) if (!keys.has(m[1] ?? "")) missing.push(`${f}: ${m[1]}`);
      for (const m of readFileSync(f, "utf8").matchAll(/key: "(intake\.p\.\w+)"/g)) if (!keys.has(m[1] ?? "")) missing.push(`${f}: ${m[1]}`);
    }
    expect(missing).toEqual([]);
  });
  it("every member of the key families built at run time exists", () => {
    const families: Record<string, string[]> = {
      nav: ["case", "run", "findings", "hypotheses", "entities", "timeline", "search", "report"],
      "search.mode": ["words", "identifier", "regex"],
      "run.state": ["idle", "active", "paused", "halted_budget", "completed", "failed"],
      "run.tone": ["call", "finding", "reject", "hypothesis", "lead", "round", "state", "warn", "info"],
      budget: ["tool_calls", "rounds", "wall_clock_s", "tokens"],
      "budget.level": ["warn", "critical", "exhausted"],
      "link.state": ["live", "approved", "retracted", "dormant", "candidate"],
      "hyp.status": ["active", "supported", "refuted"],
      "hyp.kind": ["coreference", "ownership"],
      ident: ["strong", "weak"],
      "entities.decision": ["approve", "retract"],
      theme: ["system", "light", "dark"],
      "report.format": ["html", "md", "json"],
      "error.code": [
        "case_invalid",
        "config_invalid",
        "store",
        "evidence",
        "bad_request",
        "io",
        "case_busy",
        "store_inconsistent",
      ],
    };
    const missing = Object.entries(families).flatMap(([p, ms]) => ms.map((m) => `${p}.${m}`).filter((k) => !keys.has(k)));
    expect(missing).toEqual([]);
  });
});

describe("tOr", () => {
  it("uses the message when the key exists, the fallback otherwise", async () => {
    const { tOr } = await import("./index");
    expect(tOr("run.state.paused", "paused")).toBe("Paused");
    expect(tOr("run.state.something_new", "something_new")).toBe("something_new");
  });
});
