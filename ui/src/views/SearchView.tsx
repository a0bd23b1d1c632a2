// Search: the sources' full-text indexes, as `masf search` queries them — words and phrases
// (case, NFC/NFD and width folded; Chinese and Japanese without spaces), one identifier in every
// written form, or a regular expression over normalised identifiers. Each hit shows its source,
// layer, path, where inside (SQLite row and column, document part), byte offset and the match
// in its context; opening it shows the logged `search_index` invocation that found it. Sources
// without an index are named, with a button that builds the missing ones (`masf index`).
import { useState } from "preact/hooks";
import { api, errorText, type Failure } from "../api";
import { InvocationPanel } from "../components/InvocationPanel";
import { TagControls, type Marker } from "../components/TagControls";
import type { Indexed, Mode, SearchHit, SearchResult, TagsView } from "../generated/ipc";
import { t } from "../i18n";

export const MODES: Mode[] = ["words", "identifier", "regex"];

/** Each hit's mark target: its search's invocation and its place among that search's hits
 * (`inv-000014#hit3`), as `masf tag` takes it. Hits of one search keep their order when the
 * sources' lists are merged. */
export function hitTargets(hits: SearchHit[]): string[] {
  const seen = new Map<string, number>();
  return hits.map((h) => {
    const n = (seen.get(h.invocation_id) ?? 0) + 1;
    seen.set(h.invocation_id, n);
    return `${h.invocation_id}#hit${n}`;
  });
}

export function SearchView({ tags, marker }: { tags?: TagsView; marker?: Marker } = {}) {
  const [query, setQuery] = useState("");
  const [mode, setMode] = useState<Mode>("words");
  const [result, setResult] = useState<SearchResult | null>(null);
  const [built, setBuilt] = useState<Indexed[] | null>(null);
  const [err, setErr] = useState<Failure | null>(null);
  const [busy, setBusy] = useState<"search" | "index" | null>(null);
  const [open, setOpen] = useState<string | null>(null);

  const run = () => {
    if (!query.trim()) return;
    setBusy("search");
    setErr(null);
    api
      .search({ query, mode, sources: [] })
      .then(setResult, (error: unknown) => setErr({ error }))
      .finally(() => setBusy(null));
  };
  const build = () => {
    setBusy("index");
    setErr(null);
    api
      .buildIndex(false)
      .then(
        (b) => {
          setBuilt(b);
          if (query.trim()) run();
        },
        (error: unknown) => setErr({ error }),
      )
      .finally(() => setBusy((b) => (b === "index" ? null : b)));
  };

  return (
    <section class="view scroll search" data-testid="view-search">
      <form
        class="search-bar"
        onSubmit={(e) => {
          e.preventDefault();
          run();
        }}
      >
        <input
          type="search"
          value={query}
          placeholder={t("search.placeholder")}
          aria-label={t("search.query")}
          data-testid="search-query"
          onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
        />
        <select
          value={mode}
          aria-label={t("search.mode")}
          data-testid="search-mode"
          onChange={(e) => setMode((e.target as HTMLSelectElement).value as Mode)}
        >
          {MODES.map((m) => (
            <option key={m} value={m}>
              {t(`search.mode.${m}`)}
            </option>
          ))}
        </select>
        <button type="submit" disabled={busy !== null || !query.trim()} data-testid="search-run">
          {busy === "search" ? t("search.searching") : t("search.run")}
        </button>
        <button type="button" disabled={busy !== null} onClick={build} data-testid="search-build">
          {busy === "index" ? t("search.indexing") : t("search.build")}
        </button>
      </form>
      <p class="muted">{t("search.help")}</p>
      {err && (
        <p class="error" role="alert" data-testid="search-error">
          {errorText(err.error)}
        </p>
      )}
      {built && (
        <ul class="muted" data-testid="search-built">
          {built.map((b) => (
            <li key={b.source_id}>
              {b.source_id}:{" "}
              {b.outcome === "built"
                ? t("search.built", { files: String(b.files) })
                : b.outcome === "current"
                  ? t("search.current")
                  : `${t("search.failed")} ${b.error ?? ""}`}
            </li>
          ))}
        </ul>
      )}
      {result && (
        <>
          {result.not_searched.length > 0 && (
            <ul class="warn" data-testid="search-not-searched">
              {result.not_searched.map((n) => (
                <li key={n.source_id}>
                  {n.source_id}: {n.reason}
                </li>
              ))}
            </ul>
          )}
          <p data-testid="search-count">
            {t("search.count", { hits: String(result.hits.length), sources: String(result.searched.length) })}
          </p>
          <ol class="hits" data-testid="search-hits">
            {result.hits.map((h, i, all) => (
              <li key={i} data-testid="search-hit">
                <button type="button" class="link" onClick={() => setOpen(h.invocation_id)} title={t("search.open")}>
                  <span class="src">{h.source_id}</span> {h.layer ? `${h.layer}:` : ""}
                  {h.path}
                </button>
                {h.locator && <span class="muted"> · {h.locator}</span>}
                {h.label && <span class="muted"> · {h.label}</span>}
                {h.offset !== null && <span class="muted"> · {t("search.offset", { offset: String(h.offset) })}</span>}
                {h.deleted && <span class="badge"> {t("search.deleted")}</span>}
                <div class="context">
                  {h.before}
                  <mark data-testid="search-match">{h.matched}</mark>
                  {h.after}
                </div>
                {tags && marker && <TagControls target={hitTargets(all)[i]!} tags={tags} marker={marker} />}
              </li>
            ))}
          </ol>
        </>
      )}
      {open && <InvocationPanel id={open} onClose={() => setOpen(null)} />}
    </section>
  );
}
