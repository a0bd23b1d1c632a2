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
