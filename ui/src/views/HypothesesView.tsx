// Hypotheses: the table (log-odds, confidence, status, distinct sources), a hypothesis's edges
// and confidence log, and the hypothesis × evidence matrix.
import { useMemo, useState } from "preact/hooks";
import { fmtNum, t, tOr } from "../i18n";
import { buildMatrix, cellKey, confidenceLog, edgePolarity, filterHypotheses, sortHypotheses, type HypSort } from "../logic/hypotheses";
import type { Hypothesis, Report } from "../model/report";

function ConfidenceChart({ h }: { h: Hypothesis }) {
  const log = confidenceLog(h);
  const w = 320;
  const ht = 90;
  const x = (i: number) => 10 + (i / Math.max(1, log.length - 1)) * (w - 20);
  const y = (c: number) => ht - 10 - c * (ht - 20);
  const pts = log.map((s, i) => `${x(i)},${y(s.confidence)}`).join(" ");
  return (
    <svg class="conf-chart" width={w} height={ht} role="img" aria-label={t("hyp.confLog")}>
      <line x1={10} x2={w - 10} y1={y(0.5)} y2={y(0.5)} class="axis" />
      <polyline points={pts} class="conf-line" />
      {log.map((s, i) => (
        <circle cx={x(i)} cy={y(s.confidence)} r={3} class="conf-dot">
          <title>{`${s.label}: ${(s.confidence * 100).toFixed(1)}%`}</title>
        </circle>
      ))}
    </svg>
  );
}

export function HypothesesView({ report, onOpenFinding }: { report: Report; onOpenFinding?: (id: string) => void }) {
  const [sort, setSort] = useState<HypSort>("confidence");
  const [sel, setSel] = useState<string | null>(null);
  const [onlySel, setOnlySel] = useState(false);
  const [kind, setKind] = useState("");
  const [status, setStatus] = useState("");
  const rows = useMemo(
    () => sortHypotheses(filterHypotheses(report.hypotheses, kind, status), sort),
    [report, sort, kind, status],
  );
  const kinds = useMemo(() => [...new Set(report.hypotheses.map((h) => h.kind))].sort(), [report]);
  const selected = report.hypotheses.find((h) => h.id === sel) ?? null;
  const matrix = useMemo(
    () => buildMatrix(report, onlySel && sel ? new Set([sel]) : undefined),
    [report, onlySel, sel],
  );
  const phById = useMemo(() => new Map(report.phenomena.map((p) => [p.id, p])), [report]);

  const onRowKey = (e: KeyboardEvent, i: number) => {
    const next = e.key === "ArrowDown" ? i + 1 : e.key === "ArrowUp" ? i - 1 : -1;
    if (next >= 0 && next < rows.length) {
      e.preventDefault();
      const id = rows[next]?.id ?? null;
      setSel(id);
      (document.querySelector(`[data-testid="hyp-row-${id}"]`) as HTMLElement | null)?.focus();
    }
  };

  const th = (k: HypSort, label: string) => (
    <th aria-sort={sort === k ? "descending" : "none"}>
      <button class="link" onClick={() => setSort(k)}>
        {label}
        {sort === k ? " ▾" : ""}
      </button>
    </th>
  );

  return (
    <div class="view hypotheses" data-testid="view-hypotheses">
      <div class="split">
        <div class="pane scroll">
          <div class="toolbar slim">
            <select value={kind} onChange={(e) => setKind(e.currentTarget.value)} aria-label={t("hyp.kind")} data-testid="hyp-filter-kind">
              <option value="">{t("hyp.allKinds")}</option>
              {kinds.map((k) => (
                <option value={k}>{tOr(`hyp.kind.${k}`, k)}</option>
              ))}
            </select>
            <select value={status} onChange={(e) => setStatus(e.currentTarget.value)} aria-label={t("hyp.status")} data-testid="hyp-filter-status">
              <option value="">{t("hyp.allStatuses")}</option>
              {(["active", "supported", "refuted"] as const).map((k) => (
                <option value={k}>{t(`hyp.status.${k}`)}</option>
              ))}
            </select>
            <span class="muted">{t("hyp.count", { n: rows.length, total: report.hypotheses.length })}</span>
          </div>
          <table class="grid" data-testid="hyp-table">
            <thead>
              <tr>
                {th("id", t("hyp.id"))}
                <th>{t("hyp.statement")}</th>
                {th("log_odds", t("hyp.logOdds"))}
                {th("confidence", t("hyp.confidence"))}
                <th>{t("hyp.status")}</th>
                {th("sources", t("hyp.sources"))}
              </tr>
            </thead>
            <tbody>
              {rows.map((h, i) => (
                <tr
                  key={h.id}
                  tabIndex={0}
                  class={h.id === sel ? "selected" : ""}
                  data-testid={`hyp-row-${h.id}`}
                  onClick={() => setSel(h.id)}
                  onKeyDown={(e) => (e.key === "Enter" ? setSel(h.id) : onRowKey(e, i))}
                >
                  <td class="id">{h.id}</td>
                  <td>
                    <span class="chip">{tOr(`hyp.kind.${h.kind}`, h.kind)}</span> {h.statement}
                  </td>
                  <td class="num">{fmtNum(h.log_odds, 2)}</td>
                  <td class="num">
                    <span class="bar" style={{ width: `${h.confidence * 48}px` }} /> {fmtNum(h.confidence * 100, 1)}%
                  </td>
                  <td>
                    <span class={`status status-${h.status}`}>{tOr(`hyp.status.${h.status}`, h.status)}</span>
                  </td>
                  <td class="num">{h.distinct_sources}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div class="pane scroll detail" data-testid="hyp-detail">
          {!selected && <p class="empty">{t("hyp.pick")}</p>}
          {selected && (
            <>
              <h2>
                {selected.id} <span class={`status status-${selected.status}`}>{tOr(`hyp.status.${selected.status}`, selected.status)}</span>
              </h2>
              <p>{selected.statement}</p>
              <p class="muted">
                {t("hyp.summary", {
                  by: selected.proposed_by ?? "?",
                  prior: fmtNum((selected.prior ?? 0.5) * 100, 1),
                  lo: fmtNum(selected.log_odds, 2),
                  conf: fmtNum(selected.confidence * 100, 2),
                })}
              </p>
              <h3>{t("hyp.confLog")}</h3>
              <ConfidenceChart h={selected} />
              <table class="grid small" data-testid="hyp-conflog">
                <thead>
                  <tr>
                    <th>#</th>
                    <th>{t("hyp.evidence")}</th>
                    <th>{t("hyp.edgeType")}</th>
                    <th>{t("hyp.contribution")}</th>
                    <th>{t("hyp.logOdds")}</th>
                    <th>{t("hyp.confidence")}</th>
                  </tr>
                </thead>
                <tbody>
                  {confidenceLog(selected).map((s) => {
                    const ph = phById.get(s.label);
                    return (
                      <tr key={s.label}>
                        <td class="num">{s.rank ?? ""}</td>
                        <td title={ph?.title ?? ""}>
                          {s.label === "prior" ? (
                            t("hyp.prior")
                          ) : (
                            <>
                              <button class="link" onClick={() => onOpenFinding?.(s.label)} title={t("hyp.openFinding")}>
                                {s.label}
                              </button>{" "}
                              · {ph?.title ?? ""}
                            </>
                          )}
                        </td>
                        <td>{s.edgeType ?? ""}</td>
                        <td class="num">{s.rank === null ? "" : (s.contribution >= 0 ? "+" : "") + fmtNum(s.contribution, 3)}</td>
                        <td class="num">{fmtNum(s.logOdds, 3)}</td>
                        <td class="num">{fmtNum(s.confidence * 100, 2)}%</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </>
          )}
        </div>
      </div>
      <section class="matrix-wrap">
        <h3>
          {t("hyp.matrix")}{" "}
          <label class="inline">
            <input type="checkbox" checked={onlySel} disabled={!sel} onChange={(e) => setOnlySel(e.currentTarget.checked)} />{" "}
            {t("hyp.onlySelected")}
          </label>
          <span class="muted"> {t("hyp.matrixSize", { rows: matrix.rows.length, cols: matrix.cols.length })}</span>
        </h3>
        <div class="scroll matrix-scroll">
          <table class="matrix" data-testid="hyp-matrix">
            <thead>
              <tr>
                <th />
                {matrix.cols.map((p) => (
                  <th class="vert" title={`${p.id} · ${p.source_id} · ${p.title}`}>
                    <span>{p.id.replace(/^ph-0*/, "")}</span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {matrix.rows.map((h) => (
                <tr class={h.id === sel ? "selected" : ""}>
                  <th class="rowh" title={h.statement} onClick={() => setSel(h.id)}>
                    {h.id}
                  </th>
                  {matrix.cols.map((p) => {
                    const c = matrix.cells.get(cellKey(h.id, p.id));
                    return (
                      <td
                        class={c ? `cell ${edgePolarity(c.edgeType, c.contribution)}` : "cell"}
                        title={c ? `${h.id} × ${p.id}: ${c.edgeType} ${fmtNum(c.contribution, 3)}` : ""}
                      >
                        {c ? (c.contribution >= 0 ? "+" : "−") : ""}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}
