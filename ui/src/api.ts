// The UI's view of the backend: the typed commands and events of bindings.ts (owned by the
// shell; the only file that calls invoke/listen), plus the report model checked at the edge and
// error text for people.
import * as b from "./bindings";
import { t, tOr } from "./i18n";
import type { Report } from "./model/report";

export type {
  CaseDraft, CaseSummary, Exported, FileHash, IntakeProgress, InvocationView, LinksAndActors, ReportFormat,
  RerunView, RunFinished, SourceDraft, DraftProblem, StatusView, CaseStatus, StreamItem, TagsView, TaggedRow, MarkAct,
} from "./bindings";

/** A report model that fails the checks at the edge; `what` names the part. Its text is made
 * by errorText when shown (the message, in English, is for logs). */
export class BadReport extends Error {
  readonly what: string;
  constructor(what: string) {
    super(t("error.badReport", { what }, "en"));
    this.name = "BadReport";
    this.what = what;
  }
}

/** Checks the few things every view relies on before trusting a report model. */
export function asReport(x: unknown): Report {
  const r = x as Partial<Report> | null;
  const arrays = ["sources", "invocations", "phenomena", "hypotheses", "entities", "same_as", "actors", "timeline"] as const;
  if (!r || typeof r !== "object" || r.schema !== "masforensics.report/1") throw new BadReport("schema");
  for (const k of arrays) if (!Array.isArray(r[k])) throw new BadReport(k);
  if (!r.case || typeof r.case.timezone !== "string") throw new BadReport("case");
  return r as Report;
}

/**
 * A failure kept in state as it was thrown, never as text: views show it with errorText when
 * they render, so the text follows a language switch.
 */
export interface Failure {
  error: unknown;
}

/** An ApiError ({code, message}), an Error or anything else, as one line for the examiner, in
 * the current language: call it when rendering, not when the error arrives. */
export function errorText(e: unknown): string {
  if (b.isApiError(e)) return `${tOr(`error.code.${e.code}`, e.code)}: ${e.message}`;
  if (e instanceof BadReport) return t("error.badReport", { what: e.what });
  if (e instanceof Error) return e.message;
  if (typeof e === "string") return e;
  return t("error.unknown");
}

export const api = {
  intakePaths: b.intakePaths,
  hashSources: b.hashSources,
  checkCaseDraft: b.checkCaseDraft,
  saveCase: b.saveCase,
  openCase: b.openCase,
  caseStatus: b.caseStatus,
  startRun: b.startRun,
  pauseRun: b.pauseRun,
  giveBackupPassword: b.giveBackupPassword,
  resumeRun: b.resumeRun,
  eventsSince: (cursor: b.WireCursor) => b.eventsSince(cursor, 5000),
  reportModel: async (): Promise<Report> => asReport(await b.reportModel()),
  invocation: b.getInvocation,
  rerunInvocation: b.rerunInvocation,
  sameAsLinks: b.sameAsLinks,
  actors: b.getActors,
  whyLink: b.whyLink,
  approveLink: (id: string, reason: string | null) => b.approveLink(id, reason ?? undefined),
  retractLink: b.retractLink,
  timeline: b.getTimeline,
  tags: b.getTags,
  markItem: b.markItem,
  withdrawNote: b.withdrawNote,
  buildIndex: b.buildIndex,
  search: b.search,
  exportReport: b.exportReport,
  pickFiles: b.pickFiles,
  pickFolder: b.pickFolder,
};

export const events = {
  onRunEvent: b.onRunEvents,
  onRunFinished: b.onRunFinished,
  onIntakeProgress: b.onIntakeProgress,
  onIntakeDropped: b.onIntakeDropped,
};
