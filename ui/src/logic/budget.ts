// Budget gauges from what Rust reports: the status view's budget lines (`RunUsage::status`,
// the one count the CLI and the report use, LLM tokens included) once the status view is
// known; before that (the case summary's status has no usage yet) the latest BudgetWarning
// per counter, from the run projection and the live stream, which carry used and cap.
import type { CaseStatus, StatusView } from "../api";
import { gauge, type Gauge } from "./gauges";
import type { BudgetWarningSeen, RunLog } from "./run";

export function gaugesFromStatus(status: CaseStatus | StatusView | null, log: Pick<RunLog, "warnings"> | null): Gauge[] {
  if (status && "budget" in status && status.budget.lines.length > 0) {
    return status.budget.lines
      // cap 0 means no cap: nothing to gauge
      .filter((l) => l.cap > 0)
      .map((l) => gauge(l.name, l.used, l.cap));
  }
  const latest = new Map<string, Gauge>();
  const warnings: BudgetWarningSeen[] = [...(status?.run.warnings ?? []), ...(log?.warnings ?? [])];
  for (const w of warnings) latest.set(w.counter, gauge(w.counter, w.used, w.cap));
  return [...latest.values()];
}
