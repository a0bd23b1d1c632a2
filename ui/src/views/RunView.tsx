// Live run: start / pause / resume, budget gauges with the 70 / 90 % warnings, per-source and
// per-agent activity, and the event stream as a virtualised list (100,000+ rows).
import { useEffect, useMemo, useState } from "preact/hooks";
import { api, errorText, type CaseStatus, type Failure, type StatusView } from "../api";
import { Gauge } from "../components/Gauge";
import { InvocationPanel } from "../components/InvocationPanel";
import { VirtualList } from "../components/VirtualList";
import { t, tOr } from "../i18n";
import { gaugesFromStatus } from "../logic/budget";
import type { LogFeed } from "../logic/feed";
import { filterRows, type RowFilter, type RowTone, type Tally } from "../logic/run";

const TONES: RowTone[] = ["call", "finding", "reject", "hypothesis", "lead", "round", "state", "warn", "info"];
const COUNTERS = ["tool_calls", "rounds", "wall_clock_s", "tokens"];

function Tallies({ title, m, testid }: { title: string; m: Map<string, Tally>; testid: string }) {
  const rows = [...m.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  return (
    <section class="tally" data-testid={testid}>
      <h3>{title}</h3>
      <table class="grid small">
        <thead>
          <tr>
            <th />
            <th class="num">{t("run.calls")}</th>
            <th class="num">{t("run.findings")}</th>
            <th class="num">{t("run.rejections")}</th>
            <th>{t("run.last")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([k, v]) => (
            <tr data-testid={`${testid}-${k}`}>
              <td class="id">{k}</td>
              <td class="num">{v.calls}</td>
              <td class="num">{v.findings}</td>
              <td class={`num ${v.rejections ? "bad" : ""}`}>{v.rejections}</td>
              <td class="ellipsis" title={v.last}>
                {v.last}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The sources whose encrypted backup waits for a password (named by `password_env:`, which
 * neither the environment nor an earlier entry in this app holds). */
export function sourcesNeedingPassword(status: CaseStatus | StatusView | null): { id: string; variable: string }[] {
  return (status?.sources ?? []).flatMap((s) =>
    s.password_env !== undefined && !s.password_available ? [{ id: s.id, variable: s.password_env }] : [],
  );
}

/** A password field per encrypted backup that needs one: checked against the backup's keybag
 * when given, then held in the app's memory only (never saved). */
function BackupPasswords({ status, onGiven }: { status: CaseStatus | StatusView | null; onGiven: () => void }) {
  const need = sourcesNeedingPassword(status);
  const [typed, setTyped] = useState<Record<string, string>>({});
  const [err, setErr] = useState<{ id: string; failure: Failure } | null>(null);
  if (need.length === 0) return null;
  const give = (id: string) => {
    setErr(null);
    api.giveBackupPassword(id, typed[id] ?? "").then(
      () => {
        setTyped((m) => ({ ...m, [id]: "" }));
        onGiven();
      },
      (error: unknown) => {
        setTyped((m) => ({ ...m, [id]: "" }));
        setErr({ id, failure: { error } });
      },
    );
  };
  return (
    <section class="passwords" data-testid="run-passwords">
      {need.map((s) => (
        <form
          class="toolbar slim"
          onSubmit={(e) => {
            e.preventDefault();
            give(s.id);
          }}
        >
          <label>
            {t("run.backupPassword", { id: s.id })}{" "}
            <input
              type="password"
              autocomplete="off"
              value={typed[s.id] ?? ""}
              onInput={(e) => setTyped({ ...typed, [s.id]: e.currentTarget.value })}
              data-testid={`run-password-${s.id}`}
            />
          </label>
          <button type="submit" disabled={!(typed[s.id] ?? "")} data-testid={`run-password-give-${s.id}`}>
            {t("run.unlock")}
          </button>
          <span class="muted small">{t("run.backupPasswordHelp", { variable: s.variable })}</span>
          {err?.id === s.id && (
            <span class="error" role="alert">
              {errorText(err.failure.error)}
            </span>
          )}
        </form>
      ))}
    </section>
  );
}

/** What the state badge says: how the last run ended, else the stream's RunState, else the status. */
export function runStateOf(running: boolean, finished: string, logState: string, statusState: string | null | undefined): string {
  if (!running && finished) return finished;
  if (logState) return logState;
  if (running) return "active";
  return statusState ?? "";
}

export function RunView({
  feed,
  status,
  finished,
  running,
  hasCase,
  onChanged,
}: {
  feed: LogFeed;
  status: CaseStatus | StatusView | null;
  finished: string;
  running: boolean;
  hasCase: boolean;
  onChanged: (what: "start" | "pause" | "resume" | "password") => void;
}) {
  const [f, setF] = useState<RowFilter>({ tone: "", agent: "", source: "" });
  const [sel, setSel] = useState<number | null>(null);
  const [follow, setFollow] = useState(true);
  const [reason, setReason] = useState("");
  const [grant, setGrant] = useState({ counter: "tool_calls", amount: "" });
  const [err, setErr] = useState<Failure | null>(null);
  const [version, setVersion] = useState(0);
  const [openInv, setOpenInv] = useState<string | null>(null);
  useEffect(() => feed.subscribe(() => setVersion((v) => v + 1)), [feed]);
  const log = feed.log;
  const gauges = useMemo(() => gaugesFromStatus(status, log), [status, log, version]);
  const state = runStateOf(running, finished, log.state, status?.run.state);
  const idx = useMemo(() => filterRows(log.rows, f), [log, version, f]);
  const count = idx ? idx.length : log.rows.length;
  const rowAt = (i: number) => log.rows[idx ? (idx[i] ?? -1) : i];
  const selRow = sel !== null ? rowAt(sel) : undefined;
  const paused = state === "paused" || state === "halted_budget";

  const act = (what: "start" | "pause" | "resume", p: Promise<unknown>) => {
    setErr(null);
    p.then(() => onChanged(what), (error: unknown) => setErr({ error }));
  };
  const resume = () => {
    const n = Number(grant.amount);
    const grants: Record<string, number> = Number.isFinite(n) && n > 0 ? { [grant.counter]: Math.floor(n) } : {};
    act("resume", api.resumeRun(grants));
  };

  return (
    <div class="view run" data-testid="view-run">
      <div class="toolbar">
        <button class="primary" onClick={() => act("start", api.startRun())} disabled={!hasCase || running} data-testid="run-start">
          ▶ {t("run.start")}
        </button>
        <input
          placeholder={t("run.pauseReason")}
          value={reason}
          onInput={(e) => setReason(e.currentTarget.value)}
          data-testid="run-pause-reason"
          aria-label={t("run.pauseReason")}
        />
        <button onClick={() => act("pause", api.pauseRun(reason.trim() || t("run.pausedByExaminer")))} disabled={!running || paused} data-testid="run-pause">
          ❚❚ {t("run.pause")}
        </button>
        <select value={grant.counter} onChange={(e) => setGrant({ ...grant, counter: e.currentTarget.value })} aria-label={t("run.grantCounter")}>
          {COUNTERS.map((c) => (
            <option value={c}>{t(`budget.${c}`)}</option>
          ))}
        </select>
        <input
          type="number"
          min={0}
          size={6}
          placeholder={t("run.grantAmount")}
          value={grant.amount}
          onInput={(e) => setGrant({ ...grant, amount: e.currentTarget.value })}
          aria-label={t("run.grantAmount")}
          data-testid="run-grant-amount"
        />
        <button onClick={resume} disabled={!hasCase || !paused} data-testid="run-resume">
          ▶ {t("run.resume")}
        </button>
        <span class={`run-state state-${state || "idle"}`} data-testid="run-state" role="status">
          {tOr(`run.state.${state || "idle"}`, state)}
        </span>
        <span
          class="muted"
          data-testid="run-event-count"
          data-count={log.rows.length}
          data-last-seq={log.rows[log.rows.length - 1]?.seq ?? 0}
          data-last-ts={log.rows[log.rows.length - 1]?.ts ?? ""}
        >
          {t("run.count", { n: log.rows.length })}
        </span>
      </div>
      {err && <p class="error" role="alert">{errorText(err.error)}</p>}
      <BackupPasswords status={status} onGiven={() => onChanged("password")} />
      <div class="gauges">
        {gauges.map((g) => (
          <Gauge g={g} />
        ))}
        {gauges.length === 0 && <p class="muted">{t("run.noBudgets")}</p>}
      </div>
      {openInv && <InvocationPanel id={openInv} onClose={() => setOpenInv(null)} />}
      <div class="run-body">
        <div class="run-side scroll">
          <Tallies title={t("run.bySource")} m={log.bySource} testid="activity-source" />
          <Tallies title={t("run.byAgent")} m={log.byAgent} testid="activity-agent" />
          {log.warnings.length > 0 && (
            <section>
              <h3>{t("run.warnings")}</h3>
              <ul>
                {log.warnings.map((w) => (
                  <li class="warn">{t("run.warning", { counter: t(`budget.${w.counter}`), percent: Math.round(w.level * 100), used: w.used, cap: w.cap })}</li>
                ))}
              </ul>
            </section>
          )}
        </div>
        <div class="run-main">
          <div class="toolbar slim">
            <select value={f.tone} onChange={(e) => setF({ ...f, tone: e.currentTarget.value as RowTone | "" })} aria-label={t("run.filterKind")} data-testid="run-filter-kind">
              <option value="">{t("run.allKinds")}</option>
              {TONES.map((x) => (
                <option value={x}>{t(`run.tone.${x}`)}</option>
              ))}
            </select>
            <select value={f.agent} onChange={(e) => setF({ ...f, agent: e.currentTarget.value })} aria-label={t("findings.agent")}>
              <option value="">{t("run.allAgents")}</option>
              {[...log.byAgent.keys()].sort().map((a) => (
                <option value={a}>{a}</option>
              ))}
            </select>
            <select value={f.source} onChange={(e) => setF({ ...f, source: e.currentTarget.value })} aria-label={t("findings.source")}>
              <option value="">{t("run.allSources")}</option>
              {[...log.bySource.keys()].sort().map((a) => (
                <option value={a}>{a}</option>
              ))}
            </select>
            <label class="inline">
              <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.currentTarget.checked)} /> {t("run.follow")}
            </label>
            <span class="muted">{idx ? t("run.shown", { n: count }) : ""}</span>
          </div>
          <VirtualList
            count={count}
            rowHeight={24}
            follow={follow}
            selected={sel}
            onSelect={setSel}
            onActivate={(i) => {
              const r = rowAt(i);
              if (r?.invocationId) setOpenInv(r.invocationId);
            }}
            testid="event-list"
            label={t("run.events")}
            renderRow={(i) => {
              const r = rowAt(i);
              if (!r) return null;
              return (
                <div class={`ev tone-${r.tone}`} data-testid="event-row" data-kind={r.kind}>
                  <span class="ev-n">{r.n + 1}</span>
                  <span class="ev-kind">{r.kind}</span>
                  <span class="ev-agent">{r.agent}</span>
                  <span class="ev-src">{r.source}</span>
                  <span class="ev-text">{r.text}</span>
                </div>
              );
            }}
          />
          {selRow && (
            <div class="ev-detail" data-testid="event-detail">
              <strong>{selRow.kind}</strong> · {selRow.agent} · {selRow.source} · {selRow.ts} · {t("run.seq", { seq: selRow.seq })}
              {selRow.invocationId && (
                <>
                  {" · "}
                  <button class="link" onClick={() => setOpenInv(selRow.invocationId)} data-testid="event-open-invocation">
                    {t("run.openInvocation", { id: selRow.invocationId })}
                  </button>
                </>
              )}
              <div class="wrap">{selRow.text}</div>
            </div>
          )}
        </div>
      </div>
    </div>
  );
}
