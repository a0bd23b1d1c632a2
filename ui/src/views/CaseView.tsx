// Case / intake: open an existing case.yaml or work folder, or build a new case from dropped or
// picked evidence: each source shows its sniffed type and why, layers, size and hashing
// progress; id, label, owner and time zone are editable; saving writes case.yaml.
import { useEffect, useState } from "preact/hooks";
import { api, errorText, events, type CaseSummary, type DraftProblem, type Failure, type SourceDraft } from "../api";
import { fmtNum, t, tOr } from "../i18n";
import { bytes, caseDraftOf, type DraftRow } from "../logic/intake";

export function CaseView({ summary, onOpened }: { summary: CaseSummary | null; onOpened: (s: CaseSummary) => void }) {
  const [path, setPath] = useState("");
  const [err, setErr] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);

  const open = (p: string) => {
    if (!p.trim()) return;
    setBusy(true);
    setErr(null);
    api
      .openCase(p.trim())
      .then(onOpened, (error: unknown) => setErr({ error }))
      .finally(() => setBusy(false));
  };

  return (
    <div class="view case scroll" data-testid="view-case">
      <section class="card">
        <h2>{t("case.open")}</h2>
        <div class="row">
          <input
            class="grow"
            placeholder={t("case.pathPlaceholder")}
            value={path}
            data-testid="case-path"
            onInput={(e) => setPath(e.currentTarget.value)}
            onKeyDown={(e) => e.key === "Enter" && open(path)}
          />
          <button
            onClick={() =>
              api.pickFiles().then((ps) => {
                const p = ps[0];
                if (p) {
                  setPath(p);
                  open(p);
                }
              }, (error: unknown) => setErr({ error }))
            }
          >
            {t("case.pickFile")}
          </button>
          <button
            onClick={() =>
              api.pickFolder().then((p) => {
                if (p) {
                  setPath(p);
                  open(p);
                }
              }, (error: unknown) => setErr({ error }))
            }
          >
            {t("case.pickFolder")}
          </button>
          <button class="primary" onClick={() => open(path)} disabled={busy || !path.trim()} data-testid="open-case-button">
            {t("case.openButton")}
          </button>
        </div>
        {err && <p class="error" role="alert" data-testid="case-error">{errorText(err.error)}</p>}
      </section>
      {summary && <CaseSummaryCard s={summary} />}
      <Intake onSaved={(p) => open(p)} />
    </div>
  );
}

function CaseSummaryCard({ s }: { s: CaseSummary }) {
  const st = s.status;
  return (
    <section class="card" data-testid="case-summary">
      <h2>
        {st.title} <span class="muted">{st.case_id}</span>
      </h2>
      <p class="muted">
        {t("case.meta", { examiner: st.examiner, tz: st.timezone, events: st.events })} · <code>{s.case_file}</code>
      </p>
      <table class="grid">
        <thead>
          <tr>
            <th>{t("case.sourceId")}</th>
            <th>{t("case.label")}</th>
            <th>{t("case.type")}</th>
            <th>{t("case.owner")}</th>
            <th>{t("case.timezone")}</th>
            <th>{t("case.registered")}</th>
          </tr>
        </thead>
        <tbody>
          {st.sources.map((src) => (
            <tr data-testid={`case-source-${src.id}`}>
              <td class="id">{src.id}</td>
              <td>
                {src.label}
                <div class="muted small">{src.path}</div>
              </td>
              <td>
                {src.detected_type ?? "—"}
                <div class="muted small">{src.detection_reasons.join("; ")}</div>
              </td>
              <td>{src.owner ?? "—"}</td>
              <td>{src.timezone}</td>
              <td>{src.registered ? "✓" : "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Intake({ onSaved }: { onSaved: (path: string) => void }) {
  const [pathsText, setPathsText] = useState("");
  const [rows, setRows] = useState<DraftRow<SourceDraft>[]>([]);
  const [progress, setProgress] = useState<Record<string, { done: number; total: number }>>({});
  const [hashes, setHashes] = useState<Record<string, string>>({});
  const [meta, setMeta] = useState({ dir: "", id: "", title: "", examiner: "", timezone: "UTC", region: "", persons: "" });
  const [err, setErr] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);

  useEffect(() => {
    let un: (() => void) | null = null;
    let live = true;
    void events
      .onIntakeProgress((p) => setProgress((old) => ({ ...old, [p.path]: { done: p.done, total: p.total } })))
      .then((u) => (live ? (un = u) : u()));
    return () => {
      live = false;
      un?.();
    };
  }, []);

  // files dropped on the window arrive already sniffed
  useEffect(() => {
    let un: (() => void) | null = null;
    let live = true;
    void events
      .onIntakeDropped((ds) => addDrafts(ds))
      .then((u) => (live ? (un = u) : u()));
    return () => {
      live = false;
      un?.();
    };
  }, []);

  const addDrafts = (ds: SourceDraft[]) =>
    setRows((old) => [
      ...old,
      ...ds
        .filter((d) => !old.some((r) => r.draft.path === d.path))
        .map((d) => ({ draft: d, id: d.suggested_id, label: d.suggested_label, owner: "", timezone: "", region: "", passwordEnv: "" })),
    ]);

  const add = (paths: string[]) => {
    const fresh = paths.map((p) => p.trim()).filter((p) => p && !rows.some((r) => r.draft.path === p));
    if (fresh.length === 0) return;
    setBusy(true);
    setErr(null);
    api
      .intakePaths(fresh)
      .then(addDrafts, (error: unknown) => setErr({ error }))
      .finally(() => setBusy(false));
  };

  const hash = () => {
    setErr(null);
    api.hashSources(rows.map((r) => r.draft.path)).then(
      (hs) => setHashes(Object.fromEntries(hs.map((h) => [h.path, h.sha256]))),
      (error: unknown) => setErr({ error }),
    );
  };

  const update = (i: number, k: keyof Omit<DraftRow, "draft">, v: string) =>
    setRows(rows.map((r, j) => (j === i ? { ...r, [k]: v } : r)));

  // What stops the draft from being saved is the case loader's to say: asked on each change
  // (after a pause in typing); null while the answer for the current fields is awaited.
  const [checked, setChecked] = useState<DraftProblem[] | null>(null);
  useEffect(() => {
    setChecked(null);
    if (rows.length === 0) return;
    let live = true;
    const timer = setTimeout(() => {
      api.checkCaseDraft(caseDraftOf(meta, rows)).then(
        (ps) => live && setChecked(ps),
        (error: unknown) => live && setErr({ error }),
      );
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [meta, rows]);
  // An evidence path intake could not read is Rust's verdict too, given when it was added.
  const unreadable = rows.filter((r) => r.draft.error).map((r) => r.draft.path);
  const problems = [
    ...unreadable.map((path) => t("intake.p.unreadable", { path })),
    ...(checked ?? []).map(
      (p) =>
        tOr(`intake.p.${p.kind}`, p.message, p.params) +
        (p.params.suggestion ? ` ${t("intake.p.suggest", { suggestion: p.params.suggestion })}` : ""),
    ),
  ];
  const ready = rows.length > 0 && checked !== null && problems.length === 0;

  const save = () => {
    if (!ready) return;
    setBusy(true);
    setErr(null);
    api
      .saveCase(caseDraftOf(meta, rows))
      .then((p) => {
        setSaved(p);
        onSaved(p);
      }, (error: unknown) => setErr({ error }))
      .finally(() => setBusy(false));
  };

  const m = (k: keyof typeof meta, label: string, testid: string) => (
    <label class="field">
      <span>{label}</span>
      <input value={meta[k]} data-testid={testid} onInput={(e) => setMeta({ ...meta, [k]: e.currentTarget.value })} />
    </label>
  );

  return (
    <section class="card" data-testid="intake">
      <h2>{t("intake.title")}</h2>
      <div class="dropzone" data-testid="intake-dropzone">
        <p class="muted">{t("intake.drop")}</p>
        <textarea
          rows={2}
          placeholder={t("intake.pathsPlaceholder")}
          value={pathsText}
          data-testid="intake-paths"
          onInput={(e) => setPathsText(e.currentTarget.value)}
        />
        <div class="row">
          <button
            onClick={() => {
              add(pathsText.split("\n"));
              setPathsText("");
            }}
            disabled={busy || !pathsText.trim()}
            data-testid="intake-add"
          >
            {t("intake.add")}
          </button>
          <button onClick={() => api.pickFiles().then(add, (error: unknown) => setErr({ error }))}>{t("intake.pick")}</button>
          <button onClick={hash} disabled={rows.length === 0} data-testid="intake-hash">
            {t("intake.hash")}
          </button>
        </div>
      </div>
      {rows.length > 0 && (
        <table class="grid" data-testid="intake-table">
          <thead>
            <tr>
              <th>{t("case.sourceId")}</th>
              <th>{t("case.label")}</th>
              <th>{t("case.type")}</th>
              <th>{t("intake.layers")}</th>
              <th>{t("intake.size")}</th>
              <th>{t("case.owner")}</th>
              <th>{t("case.timezone")}</th>
              <th>{t("case.region")}</th>
              <th>{t("case.passwordEnv")}</th>
              <th>{t("intake.hashCol")}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => {
              const pr = progress[r.draft.path];
              const h = hashes[r.draft.path];
              return (
                <tr data-testid={`intake-row-${i}`}>
                  <td>
                    <input value={r.id} size={12} onInput={(e) => update(i, "id", e.currentTarget.value)} aria-label={t("case.sourceId")} />
                  </td>
                  <td>
                    <input value={r.label} onInput={(e) => update(i, "label", e.currentTarget.value)} aria-label={t("case.label")} />
                    <div class="muted small">{r.draft.path}</div>
                  </td>
                  <td data-testid={`intake-type-${i}`}>
                    {r.draft.error ? <span class="error">{r.draft.error.message}</span> : (r.draft.detected_type ?? t("intake.unknown"))}
                    <div class="muted small">{r.draft.reasons.join("; ")}</div>
                  </td>
                  <td class="small">
                    {r.draft.layers.map((l) => (
                      <div style={{ paddingLeft: `${l.depth * 10}px` }}>
                        {l.kind}
                        {l.partition ? ` ${l.partition.index ?? ""}${l.partition.name ? ` ${l.partition.name}` : ""}` : ""}
                        {l.format ? ` · ${l.format}` : ""}
                        {l.label ? ` · ${l.label}` : ""}
                        {l.problem ? ` ⚠ ${l.problem}` : ""}
                      </div>
                    ))}
                  </td>
                  <td class="num">{bytes(r.draft.size)}</td>
                  <td>
                    <input value={r.owner} size={8} onInput={(e) => update(i, "owner", e.currentTarget.value)} aria-label={t("case.owner")} />
                  </td>
                  <td>
                    <input value={r.timezone} size={14} placeholder={meta.timezone} onInput={(e) => update(i, "timezone", e.currentTarget.value)} aria-label={t("case.timezone")} />
                  </td>
                  <td>
                    <input value={r.region} size={3} placeholder={meta.region} onInput={(e) => update(i, "region", e.currentTarget.value)} aria-label={t("case.region")} />
                  </td>
                  <td>
                    {r.draft.detected_type === "itunes_backup" ? (
                      <input
                        value={r.passwordEnv}
                        size={14}
                        placeholder="BACKUP_PW"
                        title={t("case.passwordEnvHelp")}
                        onInput={(e) => update(i, "passwordEnv", e.currentTarget.value)}
                        aria-label={t("case.passwordEnv")}
                        data-testid={`intake-password-env-${i}`}
                      />
                    ) : (
                      "—"
                    )}
                  </td>
                  <td class="small">
                    {h ? (
                      <code class="hash" title={h}>{h.slice(0, 16)}…</code>
                    ) : pr ? (
                      <progress max={pr.total || 1} value={pr.done}>
                        {fmtNum((pr.done / Math.max(1, pr.total)) * 100)}%
                      </progress>
                    ) : (
                      "—"
                    )}
                  </td>
                  <td>
                    <button class="link" onClick={() => setRows(rows.filter((_, j) => j !== i))} aria-label={t("intake.remove")}>
                      ✕
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <div class="form-grid">
        {m("dir", t("intake.dir"), "intake-dir")}
        {m("id", t("intake.caseId"), "intake-case-id")}
        {m("title", t("intake.caseTitle"), "intake-case-title")}
        {m("examiner", t("intake.examiner"), "intake-examiner")}
        {m("timezone", t("case.timezone"), "intake-timezone")}
        {m("region", t("case.region"), "intake-region")}
        <label class="field">
          <span>{t("intake.persons")}</span>
          <textarea rows={2} value={meta.persons} placeholder="leung: LEUNG YL" onInput={(e) => setMeta({ ...meta, persons: e.currentTarget.value })} />
        </label>
      </div>
      {problems.length > 0 && rows.length > 0 && (
        <ul class="problems" data-testid="intake-problems">
          {problems.map((p) => (
            <li class="warn">{p}</li>
          ))}
        </ul>
      )}
      <button class="primary" onClick={save} disabled={busy || !ready} data-testid="intake-save">
        {t("intake.save")}
      </button>
      {saved && <p class="ok">{t("intake.saved", { path: saved })}</p>}
      {err && <p class="error" role="alert">{errorText(err.error)}</p>}
    </section>
  );
}
