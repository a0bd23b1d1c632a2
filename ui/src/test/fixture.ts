// Loads the real demo report (see fixtures/FIXTURES.md) for tests.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { BudgetLine, CaseStatus, RunProjection, SourceStatus } from "../generated/ipc";
import type { Report } from "../model/report";

export function fixturePath(name: string): string {
  // vitest runs from ui/ (npm test)
  return resolve(process.cwd(), "src/test/fixtures", name);
}

export function demoReport(): Report {
  return JSON.parse(readFileSync(fixturePath("demo-report.json"), "utf8")) as Report;
}

export function fixtureText(name: string): string {
  return readFileSync(fixturePath(name), "utf8");
}

/** A case status as `case_status` answers it (a registered source per entry of `sources`, no
 * run yet), with the parts a test gives. */
export function caseStatus(
  sources: Partial<SourceStatus>[] = [],
  run: Partial<RunProjection> = {},
): CaseStatus {
  return {
    case_id: "c", title: "t", examiner: "e", timezone: "UTC", store: "s", events: 0,
    sources: sources.map((s, i) => ({
      id: `src-${i}`, label: "l", path: "p", owner: null, timezone: "UTC", registered: true,
      detected_type: null, detection_reasons: [], media: null, files: [], password_available: true, ...s,
    })),
    run: {
      state: null, segments: 0, wall_seconds: 0, run_base_invocations: 0, run_start_seq: 0, segment_seq: 0,
      pause_seq: null, grants: [], warnings: [], last: null, lease: null, ...run,
    },
  };
}

/** A budget line as `RunUsage::status` gives it. */
export function budgetLine(name: string, used: number, cap: number): BudgetLine {
  return { name, used, cap, fraction: cap > 0 ? used / cap : 0, warning_at: null, exhausted: cap > 0 && used >= cap };
}
