import { useState } from "preact/hooks";
import { t, setLocale, initialLocale, LOCALE_NAMES, type Locale } from "./i18n";

export const VIEWS = ["case", "run", "findings", "hypotheses", "entities", "timeline", "report"] as const;
export type View = (typeof VIEWS)[number];

export function App() {
  const [locale, setLoc] = useState<Locale>(() => {
    const l = initialLocale(localStorage.getItem("masf.locale"), navigator.languages);
    setLocale(l);
    return l;
  });
  const [view, setView] = useState<View>("case");
  const change = (l: Locale) => {
    setLocale(l);
    localStorage.setItem("masf.locale", l);
    setLoc(l);
  };
  return (
    <div class="app" data-locale={locale}>
      <header class="topbar">
        <span class="brand">{t("app.title")}</span>
        <nav class="tabs" role="tablist">
          {VIEWS.map((v) => (
            <button
              role="tab"
              aria-selected={view === v}
              data-testid={`nav-${v}`}
              onClick={() => setView(v)}
            >
              {t(`nav.${v}`)}
            </button>
          ))}
        </nav>
        <select value={locale} onChange={(e) => change(e.currentTarget.value as Locale)}>
          {(Object.keys(LOCALE_NAMES) as Locale[]).map((l) => (
            <option value={l}>{LOCALE_NAMES[l]}</option>
          ))}
        </select>
      </header>
      <main>{t(`nav.${view}`)}</main>
    </div>
  );
}
