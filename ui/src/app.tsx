// The app frame: tabs for the eight views (Alt+1…8, ←/→ on the tab strip), language and theme,
// the current case, the report model, and the run's event stream (kept here so it keeps
// arriving whatever view is shown).
import { useEffect, useRef, useState } from "preact/hooks";
import { api, errorText, events, type CaseStatus, type CaseSummary, type StatusView } from "./api";
import { getLocale, initialLocale, LOCALE_NAMES, setLocale, t, tOr, type Locale } from "./i18n";
import { LogFeed } from "./logic/feed";
import { nextTheme, resolveTheme, type ThemeChoice } from "./logic/theme";
import type { Report } from "./model/report";
import { CaseView } from "./views/CaseView";
import { type Marker } from "./components/TagControls";
import type { TagsView } from "./generated/ipc";
import { NO_TAGS } from "./logic/tags";
import { EntitiesView, type GraphState } from "./views/EntitiesView";
import { FindingsView } from "./views/FindingsView";
import { HypothesesView } from "./views/HypothesesView";
import { ReportView } from "./views/ReportView";
import { RunView } from "./views/RunView";
import { SearchView } from "./views/SearchView";
import { TimelineView } from "./views/TimelineView";

/** The banner under the top bar, kept as what happened (never as text): its text is made when it
 * is shown, so it follows a language switch. */
export type Note = { kind: "finished"; state: string } | { kind: "error"; error: unknown };

export function noteText(n: Note): string {
  return n.kind === "finished" ? t("run.finished", { state: tOr(`run.state.${n.state}`, n.state) }) : errorText(n.error);
}

export const VIEWS = ["case", "run", "findings", "hypotheses", "entities", "timeline", "search", "report"] as const;
export type View = (typeof VIEWS)[number];

function store(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function keep(key: string, v: string) {
  try {
    localStorage.setItem(key, v);
  } catch {
    /* private mode: the choice lasts for this session only */
  }
}

export function App() {
  const [locale, setLoc] = useState<Locale>(() => {
    const l = initialLocale(store("masf.locale"), typeof navigator !== "undefined" ? navigator.languages : []);
    setLocale(l);
    return l;
  });
  const [theme, setTheme] = useState<ThemeChoice>(() => (store("masf.theme") as ThemeChoice | null) ?? "system");
  const [view, setView] = useState<View>("case");
  const [summary, setSummary] = useState<CaseSummary | null>(null);
  const [status, setStatus] = useState<CaseStatus | StatusView | null>(null);
  const [report, setReport] = useState<Report | null>(null);
  const [graph, setGraph] = useState<GraphState>({ links: [], actors: [] });
  // the examiner's tags, bookmarks and notes: loaded with the report, replaced after each mark
  const [tags, setTags] = useState<TagsView>(NO_TAGS);
  const marker: Marker = {
    mark: async (target, act) => setTags(await api.markItem(target, act)),
    withdraw: async (noteId) => setTags(await api.withdrawNote(noteId)),
  };
  const [running, setRunning] = useState(false);
  const [finished, setFinished] = useState("");
  const [findingsQuery, setFindingsQuery] = useState({ text: "", n: 0 });
  const openFinding = (id: string) => {
    setFindingsQuery((q) => ({ text: id, n: q.n + 1 }));
    setView("findings");
  };
  const [note, setNote] = useState<Note | null>(null);
  const feed = useRef(new LogFeed()).current;

  // ----- theme
  useEffect(() => {
    const apply = () => {
      const dark = typeof matchMedia === "function" && matchMedia("(prefers-color-scheme: dark)").matches;
      document.documentElement.dataset.theme = resolveTheme(theme, dark);
    };
    apply();
    keep("masf.theme", theme);
    if (typeof matchMedia !== "function") return;
    const mq = matchMedia("(prefers-color-scheme: dark)");
    mq.addEventListener?.("change", apply);
    return () => mq.removeEventListener?.("change", apply);
  }, [theme]);

  const changeLocale = (l: Locale) => {
    setLocale(l);
    keep("masf.locale", l);
    setLoc(l);
  };

  // ----- run stream: kept in the feed whatever view is shown
  useEffect(() => {
    const uns: (() => void)[] = [];
    let live = true;
    const hold = (p: Promise<() => void>) => void p.then((u) => (live ? uns.push(u) : u()), () => undefined);
    hold(events.onRunEvent((items) => feed.take(items)));
    hold(
      events.onRunFinished((f) => {
        setRunning(false);
        setFinished(String(f.state));
        setNote(f.error ? { kind: "error", error: f.error } : { kind: "finished", state: String(f.state) });
        void refreshStatus();
        void loadReport();
      }),
    );
    return () => {
      live = false;
      for (const u of uns) u();
    };
  }, []);

  const refreshStatus = async () => {
    try {
      setStatus(await api.caseStatus());
    } catch {
      /* no case open yet */
    }
  };

  /** Loads the report model; `quiet` when a case without a run yet may simply have none. */
  const loadReport = async (quiet = false) => {
    try {
      const r = await api.reportModel();
      setReport(r);
      setGraph({ links: r.same_as, actors: r.actors });
      setTags(await api.tags());
    } catch (e) {
      if (!quiet) setNote({ kind: "error", error: e });
    }
  };

  const onOpened = (s: CaseSummary) => {
    setSummary(s);
    setStatus(s.status);
    setRunning(s.running);
    feed.reset();
    setNote(null);
    void feed.catchUp((cursor) => api.eventsSince(cursor));
    setReport(null);
    void refreshStatus(); // the status view carries the budget lines
    void loadReport(true);
  };

  // a case given to the app on its command line is already open at start
  useEffect(() => {
    api.caseStatus().then(
      (st) => onOpened({ case_file: st.case_file, work_dir: st.work_dir, status: st, running: st.running }),
      () => undefined, // no case yet: the Case view asks for one
    );
  }, []);

  // poll status (budgets, state) while a run goes
  useEffect(() => {
    if (!running) return;
    const id = setInterval(() => void refreshStatus(), 1000);
    return () => clearInterval(id);
  }, [running]);

  // ----- keyboard: Alt+1..8 switch views
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey && !e.ctrlKey && !e.metaKey && /^[1-8]$/.test(e.key)) {
        const v = VIEWS[Number(e.key) - 1];
        if (v) {
          e.preventDefault();
          setView(v);
        }
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const onTabKey = (e: KeyboardEvent) => {
    const i = VIEWS.indexOf(view);
    const next = e.key === "ArrowRight" ? i + 1 : e.key === "ArrowLeft" ? i - 1 : e.key === "Home" ? 0 : e.key === "End" ? VIEWS.length - 1 : null;
    if (next === null) return;
    e.preventDefault();
    const v = VIEWS[(next + VIEWS.length) % VIEWS.length] ?? "case";
    setView(v);
    (document.querySelector(`[data-testid="nav-${v}"]`) as HTMLElement | null)?.focus();
  };

  const needReport = (body: (r: Report) => preact.ComponentChildren) =>
    report ? (
      body(report)
    ) : (
      <div class="view empty-view">
        <p class="empty">{summary ? t("app.noReport") : t("app.noCase")}</p>
        {summary && (
          <button onClick={() => void loadReport()} data-testid="load-report">
            {t("app.loadReport")}
          </button>
        )}
      </div>
    );

  return (
    <div class="app" data-locale={locale} lang={getLocale()}>
      <header class="topbar">
        <span class="brand">{t("app.title")}</span>
        <nav class="tabs" role="tablist" aria-label={t("app.views")} onKeyDown={onTabKey}>
          {VIEWS.map((v, i) => (
            <button
              role="tab"
              id={`tab-${v}`}
              aria-selected={view === v}
              aria-controls="main"
              tabIndex={view === v ? 0 : -1}
              data-testid={`nav-${v}`}
              title={`${t(`nav.${v}`)} (Alt+${i + 1})`}
              onClick={() => setView(v)}
            >
              {t(`nav.${v}`)}
              {v === "run" && running && <span class="dot-live" aria-label={t("run.state.active")} />}
            </button>
          ))}
        </nav>
        <span class="case-name muted" data-testid="current-case">
          {summary ? `${summary.status.case_id} · ${summary.status.timezone}` : ""}
        </span>
        {report && (
          <button class="icon" onClick={() => void loadReport()} title={t("app.reloadReport")} aria-label={t("app.reloadReport")} data-testid="reload-report">
            ⟳
          </button>
        )}
        <button
          class="icon"
          onClick={() => setTheme(nextTheme(theme))}
          title={t(`theme.${theme}`)}
          aria-label={t(`theme.${theme}`)}
          data-testid="theme-toggle"
        >
          {theme === "dark" ? "☾" : theme === "light" ? "☀" : "◐"}
        </button>
        <select value={locale} onChange={(e) => changeLocale(e.currentTarget.value as Locale)} aria-label={t("app.language")} data-testid="locale-select">
          {(Object.keys(LOCALE_NAMES) as Locale[]).map((l) => (
            <option value={l}>{LOCALE_NAMES[l]}</option>
          ))}
        </select>
      </header>
      {note && (
        <div class={`note ${note.kind === "error" ? "error" : "ok"}`} role={note.kind === "error" ? "alert" : "status"} data-testid="app-note">
          {noteText(note)}
          <button class="link" onClick={() => setNote(null)} aria-label={t("common.close")}>
            ✕
          </button>
        </div>
      )}
      <main id="main" role="tabpanel" aria-labelledby={`tab-${view}`}>
        {view === "case" && <CaseView summary={summary} onOpened={onOpened} />}
        {view === "run" && (
          <RunView
            feed={feed}
            status={status}
            finished={finished}
            running={running}
            hasCase={summary !== null}
            onChanged={(what) => {
              if (what === "start" || what === "resume") {
                setRunning(true);
                setFinished("");
              }
              void refreshStatus();
            }}
          />
        )}
        {view === "findings" && needReport((r) => <FindingsView report={r} query={findingsQuery} tags={tags} marker={marker} />)}
        {view === "hypotheses" && needReport((r) => <HypothesesView report={r} onOpenFinding={openFinding} />)}
        {view === "entities" && needReport((r) => <EntitiesView report={r} graph={graph} onGraph={setGraph} onOpenFinding={openFinding} tags={tags} marker={marker} />)}
        {view === "timeline" && needReport((r) => <TimelineView report={r} actors={graph.actors} tags={tags} marker={marker} />)}
        {view === "search" && (summary ? <SearchView tags={tags} marker={marker} /> : <div class="view empty-view"><p class="empty">{t("app.noCase")}</p></div>)}
        {view === "report" && <ReportView report={report} defaultDir={summary ? `${summary.work_dir}/report` : ""} />}
      </main>
    </div>
  );
}
