// Intake form: the editor's rows as the draft Rust checks and saves, and sizes for people.
import type { CaseDraft } from "../generated/ipc";

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

/** The case file the editor's fields describe, as `check_case_draft` and `save_case` take it.
 * Which draft is valid is Rust's to say (the case loader's own rules); nothing is checked here. */
export function caseDraftOf<D extends DraftLike>(
  meta: { dir: string; id: string; title: string; examiner: string; timezone: string; region: string; persons: string },
  rows: readonly DraftRow<D>[],
): CaseDraft {
  return {
    dir: meta.dir.trim(),
    id: meta.id.trim(),
    title: meta.title.trim(),
    examiner: meta.examiner.trim(),
    timezone: meta.timezone.trim(),
    region: meta.region.trim() || null,
    persons: meta.persons
      .split("\n")
      .map((l) => l.split(":"))
      .filter((p) => (p[0] ?? "").trim())
      .map((p) => ({ id: (p[0] ?? "").trim(), name: p.slice(1).join(":").trim() || (p[0] ?? "").trim(), aliases: [] })),
    sources: rows.map((r) => ({
      id: r.id.trim(),
      label: r.label.trim(),
      path: r.draft.path,
      owner: r.owner.trim() || null,
      timezone: r.timezone.trim() || null,
      region: r.region.trim() || null,
      password_env: r.passwordEnv.trim() || null,
    })),
    overwrite: false,
  };
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
