// The UI's view of the backend: the typed commands and events of bindings.ts (owned by the
// shell; the only file that calls invoke/listen), plus the report model checked at the edge and
// error text for people.
import * as b from "./bindings";
import { t, tOr } from "./i18n";
import type { Report } from "./model/report";

export type {
  CaseDraft, CaseSummary, Exported, FileHash, IntakeProgress, InvocationView, LinksAndActors, ReportFormat,
  RerunView, RunFinished, SourceDraft, StatusView, CaseStatus, StreamItem,
} from "./bindings";

/** Checks the few things every view relies on before trusting a report model. */
export function asReport(x: unknown): Report {
  const r = x as Partial<Report> | null;
  const arrays = ["sources", "invocations", "phenomena", "hypotheses", "entities", "same_as", "actors", "timeline"] as const;
  if (!r || typeof r !== "object" || r.schema !== "masforensics.report/1") throw new Error(t("error.badReport", { what: "schema" }));
  for (const k of arrays) if (!Array.isArray(r[k])) throw new Error(t("error.badReport", { what: k }));
  if (!r.case || typeof r.case.timezone !== "string") throw new Error(t("error.badReport", { what: "case" }));
  return r as Report;
}

/** An ApiError ({code, message}), an Error or anything else, as one line for the examiner. */
export function errorText(e: unknown): string {
  if (b.isApiError(e)) return `${tOr(`error.code.${e.code}`, e.code)}: ${e.message}`;
  if (e instanceof Error) return e.message;
  if (typeof e === "string") return e;
  return t("error.unknown");
}

export const api = {
  intakePaths: b.intakePaths,
  hashSources: b.hashSources,
  saveCase: b.saveCase,
  openCase: b.openCase,
  caseStatus: b.caseStatus,
  startRun: b.startRun,
  pauseRun: b.pauseRun,
  resumeRun: (grants: Record<string, number>) => b.resumeRun(grants as Partial<Record<b.Counter, number>>),
  eventsSince: (cursor: b.Cursor) => b.eventsSince(cursor, 5000),
  reportModel: async (): Promise<Report> => asReport(await b.reportModel()),
  invocation: b.getInvocation,
  rerunInvocation: b.rerunInvocation,
  sameAsLinks: b.sameAsLinks,
  actors: b.getActors,
  approveLink: (id: string, reason: string | null) => b.approveLink(id, reason ?? undefined),
  retractLink: b.retractLink,
  exportReport: b.exportReport,
  pickFiles: b.pickFiles,
  pickFolder: b.pickFolder,
};

export const events = {
  onRunEvent: (cb: (items: unknown) => void) => b.onRunEvents(cb),
  onRunFinished: b.onRunFinished,
  onIntakeProgress: b.onIntakeProgress,
  onIntakeDropped: b.onIntakeDropped,
};
