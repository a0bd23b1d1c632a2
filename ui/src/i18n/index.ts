// Every UI string goes through t(key, params). The two shipped locales must hold the same keys
// (checked by src/i18n/i18n.test.ts). Parameters are substituted as text: `{name}` → value.
import en from "./en.json";
import zhCN from "./zh-CN.json";

export type Locale = "en" | "zh-CN";
export type Messages = Record<string, string>;

export const LOCALES: Record<Locale, Messages> = { en, "zh-CN": zhCN };
export const LOCALE_NAMES: Record<Locale, string> = { en: "English", "zh-CN": "简体中文" };

let current: Locale = "en";

export function setLocale(l: Locale): void {
  current = l;
  if (typeof document !== "undefined") document.documentElement.lang = l;
}

export function getLocale(): Locale {
  return current;
}

/** Picks the stored choice, else the first navigator language we ship, else English. */
export function initialLocale(stored: string | null, languages: readonly string[]): Locale {
  if (stored === "en" || stored === "zh-CN") return stored;
  for (const lang of languages) {
    const l = lang.toLowerCase();
    if (l.startsWith("zh")) return "zh-CN";
    if (l.startsWith("en")) return "en";
  }
  return "en";
}

export type Params = Record<string, string | number>;

/** Looks a key up in the current locale, falling back to English, then to the key itself. */
export function t(key: string, params?: Params, locale: Locale = current): string {
  const msg = LOCALES[locale][key] ?? LOCALES.en[key] ?? key;
  if (!params) return msg;
  return msg.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const v = params[name];
    return v === undefined ? whole : String(v);
  });
}

/** Like t, for keys built from data (a state, a kind): unknown ones show `fallback` instead of the key. */
export function tOr(key: string, fallback: string, params?: Params): string {
  return key in LOCALES[current] || key in LOCALES.en ? t(key, params) : fallback;
}

/** Number formatting in the current locale. */
export function fmtNum(n: number, digits = 0): string {
  return n.toLocaleString(current, { maximumFractionDigits: digits, minimumFractionDigits: digits });
}
