// Report: the answer to the case first (as report.html and report.md open: the case summary,
// the people with what ties them, transactions, key communications, hypotheses in words,
// limitations — `masf_report::answer`, served whole by Rust), then export HTML / Markdown /
// JSON to a chosen folder, and what was and was not looked at.
import { useState } from "preact/hooks";
import { api, errorText, type Exported, type Failure, type ReportFormat } from "../api";
import { t } from "../i18n";
import type { ArtefactCoverage, Report, ReportAnswer } from "../model/report";

const FORMATS: ReportFormat[] = ["html", "md", "json", "case_jsonld"];

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
      {report?.answer && <AnswerCard answer={report.answer} />}
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

const pct = (c: number) => `${Math.round(c * 100)}%`;

// The opening sections of the report, as `masf_report::answer` assembles them; every line is
// the report's own text (nothing is recomputed here).
function AnswerCard({ answer }: { answer: ReportAnswer }) {
  const s = answer.summary;
  return (
    <section class="card answer" data-testid="answer">
      <h2>{t("answer.title")}</h2>
      <p data-testid="answer-question">
        <strong>{s.question}</strong>
      </p>
      <p class="muted">
        {t("answer.run", { examiner: s.examiner, state: s.run_state, reason: s.run_reason, tool: s.tool, at: s.generated_at })}
      </p>
      {s.agents.length > 0 && <p class="muted">{t("answer.agents", { agents: s.agents.join(", ") })}</p>}
      {(s.budgets ?? []).length > 0 && (
        <p class="muted" data-testid="answer-budgets">
          {t("answer.budgets", { used: (s.budgets ?? []).join(" · ") })}
        </p>
      )}
      <table data-testid="answer-sources">
        <thead>
          <tr>
            <th>{t("answer.source")}</th>
            <th>{t("answer.type")}</th>
            <th>{t("answer.owner")}</th>
            <th>{t("answer.integrity")}</th>
          </tr>
        </thead>
        <tbody>
          {s.sources.map((v) => (
            <tr>
              <td>
                {v.id} — {v.label}
              </td>
              <td>{v.detected_type}</td>
              <td>{v.owner ?? ""}</td>
              <td>{v.integrity}</td>
            </tr>
          ))}
        </tbody>
      </table>

      <h3>{t("answer.people")}</h3>
      {answer.people.length === 0 && <p class="muted">{t("answer.none")}</p>}
      {answer.people.map((p) => (
        <div class="person" data-testid="answer-person" data-actor={p.actor_id}>
          <h4>
            {p.label}
            {p.case_person && p.case_person !== p.label ? ` (${p.case_person})` : ""}{" "}
            <span class="muted">{p.actor_id}</span>
          </h4>
          {p.matched_by && <p class="muted">{t("answer.matchedBy", { how: p.matched_by })}</p>}
          <ul>
            {p.identifiers.map((i) => (
              <li data-testid="answer-identifier">
                <code>
                  {i.type}={i.value}
                </code>{" "}
                <span class="muted">{i.sources.join(", ")}</span>
              </li>
            ))}
          </ul>
          {p.devices.length > 0 && (
            <p data-testid="answer-devices">
              {t("answer.devices")}:{" "}
              {p.devices
                .map((d) => `${d.label}${d.confidence != null ? ` (${pct(d.confidence)}${d.status ? `, ${d.status}` : ""})` : ""}`)
                .join("; ")}
            </p>
          )}
          {p.wallets.map((w) => (
            <p data-testid="answer-wallet">
              {t("answer.controls", { value: w.value, confidence: pct(w.confidence), state: w.state, link: w.link_id })}
            </p>
          ))}
          {p.pending.map((x) => (
            <p class="muted" data-testid="answer-pending">
              {t("answer.pending")}: {x}
            </p>
          ))}
          {p.decisions.map((x) => (
            <p data-testid="answer-decision">
              {t("answer.decision")}: {x}
            </p>
          ))}
        </div>
      ))}

      {answer.transactions.length > 0 && (
        <>
          <h3>{t("answer.transactions")}</h3>
          <table>
            <tbody>
              {answer.transactions.map((x) => (
                <tr data-testid="answer-transaction">
                  <td>{x.time ?? x.utc ?? ""}</td>
                  <td>{x.source_id}</td>
                  <td>{x.title}</td>
                  <td>{[...x.amounts, ...x.wallets, ...x.tx_hashes].join(" · ")}</td>
                  <td>{x.people.join(", ")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}

      {answer.communications.length > 0 && (
        <>
          <h3>{t("answer.communications")}</h3>
          <table>
            <tbody>
              {answer.communications.map((m) => (
                <tr data-testid="answer-message">
                  <td>{m.time ?? m.utc ?? ""}</td>
                  <td>{m.holder ?? m.source_id}</td>
                  <td>{m.direction}</td>
                  <td>{m.counterpart_person ? `${m.counterpart_person} (${m.counterpart})` : m.counterpart}</td>
                  <td>{m.text}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}

      <h3>{t("answer.hypotheses")}</h3>
      {answer.hypotheses.map((h) => (
        <div data-testid="answer-hypothesis" data-id={h.id}>
          <p>
            <strong>{h.statement}</strong> — {pct(h.confidence)}, {h.status}
          </p>
          {h.would_change && <p class="muted">{t("answer.wouldChange", { what: h.would_change })}</p>}
        </div>
      ))}

      {answer.limitations.length > 0 && (
        <>
          <h3>{t("answer.limitations")}</h3>
          <ul>
            {answer.limitations.map((l) => (
              <li data-testid="answer-limitation" data-kind={l.kind}>
                {l.source_id ? `${l.source_id}: ` : ""}
                {l.text}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
