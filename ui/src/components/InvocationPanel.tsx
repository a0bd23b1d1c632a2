// A fact's invocation: tool, args, output with the matched value highlighted, output sha256,
// the re-run command and a re-run button that shows match / mismatch.
import { useEffect, useMemo, useState } from "preact/hooks";
import { api, errorText, type Failure, type InvocationView, type RerunView } from "../api";
import { t } from "../i18n";
import { spansOf } from "../logic/highlight";
import type { VerifiedFact } from "../model/report";
import { Highlighted } from "./Highlighted";

/** Opens invocation `id`; with a `fact`, its value is highlighted in the output. */
export function InvocationPanel({ id, fact, onClose }: { id: string; fact?: VerifiedFact | null; onClose: () => void }) {
  const [inv, setInv] = useState<InvocationView | null>(null);
  const [err, setErr] = useState<Failure | null>(null);
  const [rerun, setRerun] = useState<RerunView | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setInv(null);
    setErr(null);
    setRerun(null);
    // with a fact, Rust answers where the gateway's own matching finds its value
    const query = fact ? { fact_type: fact.type, value: fact.value } : undefined;
    api.invocation(id, query).then(setInv, (error: unknown) => setErr({ error }));
  }, [id, fact?.type, fact?.value]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && onClose();
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);

  const spans = useMemo(() => (inv ? spansOf(inv.output_text, inv.highlight) : null), [inv]);
  const hits = inv?.highlight?.spans.length ?? 0;

  const doRerun = () => {
    setBusy(true);
    setRerun(null);
    api
      .rerunInvocation(id)
      .then(setRerun, (error: unknown) => setErr({ error }))
      .finally(() => setBusy(false));
  };

  const copy = (text: string) => {
    void navigator.clipboard?.writeText(text);
  };

  return (
    <aside
      class="drawer"
      role="dialog"
      aria-label={t("inv.title", { id })}
      data-testid="invocation-panel"
    >
      <header class="drawer-head">
        <h2>{t("inv.title", { id })}</h2>
        <button class="icon" onClick={onClose} aria-label={t("common.close")} data-testid="invocation-close" autoFocus>
          ✕
        </button>
      </header>
      <div class="drawer-body">
        {fact && (
          <p class="fact-line">
            <span class="badge verified">{t("findings.verified")}</span> <code>{fact.type}</code>{" "}
            <span class="fact-value">{fact.value}</span>
            {fact.match_method && <span class="muted"> · {t("inv.match", { method: fact.match_method })}</span>}
            {fact.normalisation && <span class="muted"> · {fact.normalisation}</span>}
          </p>
        )}
        {err && <p class="error" role="alert">{errorText(err.error)}</p>}
        {!inv && !err && <p class="muted">{t("common.loading")}</p>}
        {inv && (
          <>
            <dl class="kv">
              <dt>{t("inv.tool")}</dt>
              <dd data-testid="invocation-tool">{inv.tool}</dd>
              <dt>{t("inv.args")}</dt>
              <dd>
                <code class="wrap">{JSON.stringify(inv.args)}</code>
              </dd>
              <dt>{t("inv.agent")}</dt>
              <dd>
                {inv.agent} · {inv.task_id}
              </dd>
              <dt>{t("inv.status")}</dt>
              <dd>
                {inv.status}
                {inv.reason ? ` — ${inv.reason}` : ""}
              </dd>
              <dt>{t("inv.sha256")}</dt>
              <dd>
                <code class="hash" data-testid="invocation-sha256">{inv.output_sha256}</code>
              </dd>
              <dt>{t("inv.rerunCommand")}</dt>
              <dd>
                <code class="wrap" data-testid="invocation-rerun-command">{inv.rerun_command}</code>{" "}
                <button class="link" onClick={() => copy(inv.rerun_command)}>
                  {t("common.copy")}
                </button>
              </dd>
            </dl>
            <div class="rerun-row">
              <button onClick={doRerun} disabled={busy} data-testid="rerun-button">
                {busy ? t("inv.rerunning") : t("inv.rerun")}
              </button>
              {rerun && (
                <span
                  class={`verdict ${rerun.matched ? "ok" : "bad"}`}
                  data-testid="rerun-verdict"
                  data-verdict={rerun.verdict}
                  role="status"
                >
                  {rerun.matched ? t("inv.match.ok") : t("inv.match.bad", { verdict: rerun.verdict })}
                  {rerun.actual_sha256 && !rerun.matched && (
                    <span class="muted"> {t("inv.actual", { sha: rerun.actual_sha256 })}</span>
                  )}
                  {rerun.detail && <span class="muted"> {rerun.detail}</span>}
                </span>
              )}
            </div>
            <h3>
              {t("inv.output")}{" "}
              <span class="muted">
                {!inv.highlight
                  ? ""
                  : hits > 0
                    ? t("inv.hits", { n: hits, how: inv.highlight.how })
                    : inv.highlight.field
                      ? t("inv.inField", { field: inv.highlight.field, how: inv.highlight.how })
                      : t("inv.nohit")}
                {inv.output_truncated && ` · ${t("inv.truncated", { size: inv.output_size })}`}
              </span>
            </h3>
            {spans && <Highlighted spans={spans} testid="invocation-output" />}
          </>
        )}
      </div>
    </aside>
  );
}
