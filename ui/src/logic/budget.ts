// Budget gauges from what the backend reports: the status's budget lines (graph BudgetStatus:
// {lines: [{name, used, cap, fraction, warning_at, exhausted}]}) when present; otherwise the
// latest BudgetWarning seen per counter in the stream, which carries used and cap.
import { gauge, type Gauge } from "./gauges";
import type { RunLog } from "./run";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});

function linesOf(status: unknown): Json[] {
  const s = obj(status);
  for (const b of [s.budget, s.budgets, obj(s.run).budget, obj(s.run).budgets]) {
    const lines = Array.isArray(b) ? b : obj(b).lines;
    if (Array.isArray(lines)) return lines.map(obj);
  }
  return [];
}

export function gaugesFromStatus(status: unknown, log: Pick<RunLog, "warnings"> | null): Gauge[] {
  const lines = linesOf(status);
  if (lines.length > 0) {
    return lines
      // cap 0 means no cap: nothing to gauge
      .filter((l) => typeof l.name === "string" && typeof l.cap === "number" && l.cap > 0)
      .map((l) => gauge(String(l.name), typeof l.used === "number" ? l.used : 0, Number(l.cap)));
  }
  const latest = new Map<string, Gauge>();
  const warnings = [
    ...((obj(obj(status).run).warnings as unknown[] | undefined) ?? []).map(obj),
    ...(log?.warnings ?? []).map((w) => ({ ...w }) as Json),
  ];
  for (const w of warnings) {
    if (typeof w.counter !== "string" || typeof w.cap !== "number") continue;
    latest.set(w.counter, gauge(w.counter, typeof w.used === "number" ? w.used : 0, w.cap));
  }
  return [...latest.values()];
}
