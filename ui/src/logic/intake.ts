// Intake form logic: what stops a case from being saved, and sizes for people.
import type { Params } from "../i18n";

export interface DraftLike {
  path: string;
  size: number;
  error?: { code: string; message: string } | null;
}

export interface DraftRow<D extends DraftLike = DraftLike & Record<string, unknown>> {
  draft: D;
  id: string;
  label: string;
  owner: string;
  timezone: string;
  /** ISO 3166-1 alpha-2 phone-numbering region, or "" for the case's. */
  region: string;
  /** The environment variable holding an encrypted backup's password (its name), or "". */
  passwordEnv: string;
}

export interface Problem {
  key: string;
  params?: Params;
}

const ID_RE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function validZone(z: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: z });
    return true;
  } catch {
    return false;
  }
}

/** An ISO 3166-1 alpha-2 code, as case.yaml's `region:` takes it. */
const REGION_RE = /^[A-Za-z]{2}$/;

/** An environment variable's name, as case.yaml's `password_env:` takes it. */
const ENV_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function draftProblems(
  meta: { dir: string; id: string; title: string; examiner: string; timezone: string; region?: string },
  rows: readonly { draft: DraftLike; id: string; label: string; timezone: string; region?: string; passwordEnv?: string }[],
): Problem[] {
  const out: Problem[] = [];
  if (rows.length === 0) out.push({ key: "intake.p.noSources" });
  if (!meta.dir.trim()) out.push({ key: "intake.p.dir" });
  if (!ID_RE.test(meta.id.trim())) out.push({ key: "intake.p.caseId" });
  if (!meta.examiner.trim()) out.push({ key: "intake.p.examiner" });
  if (!validZone(meta.timezone.trim())) out.push({ key: "intake.p.zone", params: { zone: meta.timezone } });
  for (const r of [meta.region ?? "", ...rows.map((x) => x.region ?? "")]) {
    // the backend checks the code against the numbering metadata; here only its shape
    if (r.trim() && !REGION_RE.test(r.trim())) out.push({ key: "intake.p.region", params: { region: r } });
  }
  const seen = new Set<string>();
  for (const r of rows) {
    const id = r.id.trim();
    if (!ID_RE.test(id)) out.push({ key: "intake.p.sourceId", params: { id } });
    else if (seen.has(id)) out.push({ key: "intake.p.dupId", params: { id } });
    seen.add(id);
    if (r.draft.error) out.push({ key: "intake.p.unreadable", params: { path: r.draft.path } });
    if (r.timezone.trim() && !validZone(r.timezone.trim())) out.push({ key: "intake.p.zone", params: { zone: r.timezone } });
    // A password typed here by mistake is never echoed: the problem names the source only.
    const env = (r.passwordEnv ?? "").trim();
    if (env && !ENV_RE.test(env)) out.push({ key: "intake.p.passwordEnv", params: { id } });
  }
  return out;
}

export function bytes(n: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u += 1;
  }
  return u === 0 ? `${n} B` : `${v.toFixed(v < 10 ? 2 : 1)} ${units[u]}`;
}
