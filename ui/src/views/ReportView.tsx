// Report: export HTML / Markdown / JSON to a chosen folder, then open what was written.
import { useState } from "preact/hooks";
import { api, errorText, type Exported, type Failure, type ReportFormat } from "../api";
import { t } from "../i18n";
import type { ArtefactCoverage, Report } from "../model/report";

const FORMATS: ReportFormat[] = ["html", "md", "json"];

export function ReportView({ report, defaultDir }: { report: Report | null; defaultDir: string }) {
  const [dir, setDir] = useState(defaultDir);
  const [formats, setFormats] = useState<Set<ReportFormat>>(new Set(FORMATS));
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<Exported | null>(null);
  const [err, setErr] = useState<Failure | null>(null);

  const toggle = (f: ReportFormat, on: boolean) => {
    const n = new Set(formats);
    if (on) n.add(f);
    else n.delete(f);
    setFormats(n);
  };
  const pick = () => {
    api.pickFolder().then((p) => p && setDir(p), (error: unknown) => setErr({ error }));
  };
  const run = () => {
    setBusy(true);
    setErr(null);
    setDone(null);
    api
      .exportReport(dir, FORMATS.filter((f) => formats.has(f)))
      .then(setDone, (error: unknown) => setErr({ error }))
      .finally(() => setBusy(false));
  };

  return (
    <div class="view report scroll" data-testid="view-report">
      <section class="card">
        <h2>{t("report.export")}</h2>
        {report && (
          <p class="muted">
            {t("report.summary", {
              ph: report.phenomena.length,
              hyp: report.hypotheses.length,
              actors: report.actors.length,
              inv: report.invocations.length,
            })}
          </p>
        )}
        <label class="field block">
          <span>{t("report.folder")}</span>
          <div class="row">
            <input class="grow" value={dir} data-testid="export-dir" onInput={(e) => setDir(e.currentTarget.value)} />
            <button onClick={pick}>{t("common.browse")}</button>
          </div>
        </label>
        <fieldset class="row">
          <legend>{t("report.formats")}</legend>
          {FORMATS.map((f) => (
            <label class="inline">
              <input type="checkbox" checked={formats.has(f)} data-testid={`export-format-${f}`} onChange={(e) => toggle(f, e.currentTarget.checked)} />{" "}
              {t(`report.format.${f}`)}
            </label>
          ))}
        </fieldset>
        <button class="primary" onClick={run} disabled={busy || !dir.trim() || formats.size === 0} data-testid="export-button">
          {busy ? t("report.exporting") : t("report.exportButton")}
        </button>
        {err && <p class="error" role="alert" data-testid="export-error">{errorText(err.error)}</p>}
        {done && (
          <div data-testid="export-result" role="status">
            <p class="ok">{t("report.written", { n: done.files.length, dir: done.dir })}</p>
            <ul>
              {done.files.map((f) => (
                <li>
                  <code data-testid="export-file">{f}</code>{" "}
                  <button class="link" onClick={() => void navigator.clipboard?.writeText(f)}>
                    {t("common.copy")}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )}
      </section>
      {report && <CoverageCard report={report} />}
    </div>
  );
}

// What was and was not looked at: each source's coverage tables (the report's "Artefact
// coverage" section, as `masf coverage` prints it).
function CoverageCard({ report }: { report: Report }) {
  const tables: [string, ArtefactCoverage][] = report.sources.flatMap((s) =>
    (s.coverage ?? []).map((c): [string, ArtefactCoverage] => [s.id, c]),
  );
  return (
    <section class="card" data-testid="coverage">
      <h2>{t("coverage.title")}</h2>
      {tables.length === 0 && <p class="muted">{t("coverage.none")}</p>}
      {tables.map(([source, c]) => (
        <div data-testid="coverage-table" data-source={source} data-plugin={c.plugin}>
          <h3>
            {source} — {c.plugin}
          </h3>
          <table>
            <thead>
              <tr>
                <th>{t("coverage.artefact")}</th>
                <th>{t("coverage.holds")}</th>
                <th>{t("coverage.result")}</th>
                <th>{t("coverage.records")}</th>
                <th>{t("coverage.why")}</th>
              </tr>
            </thead>
            <tbody>
              {c.items.map((i) => (
                <tr data-testid="coverage-row" data-status={i.status} class={`coverage-${i.status}`}>
                  <td>{i.name}</td>
                  <td class="muted">{i.value_for}</td>
                  <td>{t(`coverage.status.${i.status}`)}</td>
                  <td class="num">{i.records}</td>
                  <td>{i.problems.join("; ")}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p class="muted">{t(c.searched ? "coverage.searched" : "coverage.unsearched")}</p>
        </div>
      ))}
    </section>
  );
}
