// Findings: phenomena filterable by source, category and agent. Verified facts (each citing the
// invocation it was grounded in) sit next to the interpretation, which is marked unverified.
import { useEffect, useMemo, useState } from "preact/hooks";
import { InvocationPanel } from "../components/InvocationPanel";
import { TagControls, TagFilter, type Marker } from "../components/TagControls";
import type { TagsView } from "../generated/ipc";
import { t } from "../i18n";
import { bySource, facets, factVerified, filterPhenomena, invocationIndex, NO_FILTER, type FindingFilter } from "../logic/findings";
import { NO_TAGS, phenomenaWithTag, tagsInUse } from "../logic/tags";
import type { Report, VerifiedFact } from "../model/report";

const PAGE = 300;

export function FindingsView({
  report,
  query,
  tags = NO_TAGS,
  marker,
}: {
  report: Report;
  query?: { text: string; n: number };
  tags?: TagsView;
  marker?: Marker;
}) {
  const [tag, setTag] = useState("");
  const [f, setF] = useState<FindingFilter>(query?.text ? { ...NO_FILTER, text: query.text } : NO_FILTER);
  // another view asked for a phenomenon: show it alone
  useEffect(() => {
    if (query?.text) setF({ ...NO_FILTER, text: query.text });
  }, [query?.n]);
  const [open, setOpen] = useState<VerifiedFact | null>(null);
  const fs = useMemo(() => facets(report.phenomena), [report]);
  const idx = useMemo(() => invocationIndex(report), [report]);
  const shown = useMemo(() => {
    const kept = filterPhenomena(report.phenomena, f);
    if (!tag) return kept;
    const marked = phenomenaWithTag(tags, tag);
    return kept.filter((p) => marked.has(p.id));
  }, [report, f, tags, tag]);
  // a large case renders PAGE cards at a time (the filters narrow; "show more" extends)
  const [limit, setLimit] = useState(PAGE);
  useEffect(() => setLimit(PAGE), [report, f]);
  const groups = useMemo(() => bySource(report, shown.slice(0, limit)), [report, shown, limit]);

  const sel = (key: keyof FindingFilter, label: string, opts: { value: string; count: number }[]) => (
    <label class="field">
      <span>{label}</span>
      <select
        value={f[key]}
        data-testid={`findings-filter-${key}`}
        onChange={(e) => setF({ ...f, [key]: e.currentTarget.value })}
      >
        <option value="">{t("common.all")}</option>
        {opts.map((o) => (
          <option value={o.value}>
            {o.value} ({o.count})
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <div class="view findings with-drawer" data-testid="view-findings">
      <div class="toolbar">
        {sel("source", t("findings.source"), fs.sources)}
        {sel("category", t("findings.category"), fs.categories)}
        {sel("agent", t("findings.agent"), fs.agents)}
        <TagFilter value={tag} tags={tagsInUse(tags)} onChange={setTag} />
        <label class="field grow">
          <span>{t("common.search")}</span>
          <input
            type="search"
            value={f.text}
            data-testid="findings-search"
            onInput={(e) => setF({ ...f, text: e.currentTarget.value })}
          />
        </label>
        <span class="muted" data-testid="findings-count">
          {t("findings.count", { n: shown.length, total: report.phenomena.length })}
        </span>
      </div>
      <div class="scroll">
        {groups.map((g) => (
          <section class="group" key={g.sourceId}>
            <h2>
              {g.label} <span class="muted">{g.sourceId}</span>
            </h2>
            {g.items.map((p) => (
              <article class="finding" key={p.id} data-testid={`finding-${p.id}`}>
                <header>
                  <span class="id">{p.id}</span>
                  <span class="chip">{p.category}</span>
                  <span class="chip agent">{p.agent}</span>
                  {p.model && (
                    <span class="chip" title={p.prompt_version ?? ""}>
                      {p.model}
                    </span>
                  )}
                  <span class="title">{p.title}</span>
                </header>
                {marker && <TagControls target={p.id} tags={tags} marker={marker} />}
                <div class="finding-cols">
                  <div class="facts">
                    <h3>{t("findings.facts")}</h3>
                    <ul>
                      {p.verified_facts.map((fact, i) => {
                        const ok = factVerified(fact.invocation_id, idx);
                        return (
                          <li key={i}>
                            <button
                              class={`fact ${ok ? "verified" : "unverified"}`}
                              data-testid={`fact-${p.id}-${i}`}
                              data-verified={ok}
                              onClick={() => setOpen(fact)}
                              title={t("findings.openInvocation", { id: fact.invocation_id })}
                            >
                              <span class={`badge ${ok ? "verified" : "unverified"}`}>
                                {ok ? "✓ " + t("findings.verified") : "? " + t("findings.unverified")}
                              </span>
                              <code>{fact.type}</code>
                              <span class="fact-value">{fact.value}</span>
                              <span class="muted">{fact.invocation_id}</span>
                            </button>
                          </li>
                        );
                      })}
                    </ul>
                  </div>
                  <div class="interp">
                    <h3>
                      {t("findings.interpretation")}{" "}
                      <span class="badge unverified" data-testid="interpretation-unverified">
                        {t("findings.unverifiedInterp")}
                      </span>
                    </h3>
                    <p>{p.interpretation}</p>
                    {(p.warnings ?? []).map((w) => (
                      <p class="warn">⚠ {w}</p>
                    ))}
                  </div>
                </div>
              </article>
            ))}
          </section>
        ))}
        {shown.length === 0 && <p class="empty">{t("findings.none")}</p>}
        {shown.length > limit && (
          <p class="empty">
            <button onClick={() => setLimit(limit + PAGE)} data-testid="findings-more">
              {t("findings.more", { n: Math.min(PAGE, shown.length - limit), rest: shown.length - limit })}
            </button>
          </p>
        )}
      </div>
      {open && <InvocationPanel id={open.invocation_id} fact={open} onClose={() => setOpen(null)} />}
    </div>
  );
}
