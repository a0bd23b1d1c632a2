// The typed IPC of the MASForensics desktop app. This file is the ONLY place in ui/ that calls
// `invoke` or `listen` with a raw name: one async function per Tauri command registered in
// src-tauri/src/main.rs (a Rust test checks the two sets are equal) and one typed listener per
// event the shell emits. The types mirror the serde JSON of the Rust types in
// crates/api/src/desktop.rs and the crates it re-exports; they are hand-written, so keep them in
// step when a Rust type changes.
//
// Errors: every command rejects with an `ApiError` ({code, message}); use `isApiError` to narrow.

import { invoke } from "@tauri-apps/api/core";
import { listen, type UnlistenFn } from "@tauri-apps/api/event";
import type { Report } from "./model/report";

// ---------------------------------------------------------------------------------------------
// Errors

export type ErrorCode =
  | "case_invalid"
  | "config_invalid"
  | "store"
  | "evidence"
  | "bad_request"
  | "io"
  /** Another process runs the case (holds its run lease); the message names it. */
  | "case_busy"
  /** The case store fails its consistency check (`masf repair`); the message lists why. */
  | "store_inconsistent";

export interface ApiError {
  code: ErrorCode;
  message: string;
}

export function isApiError(e: unknown): e is ApiError {
  return (
    typeof e === "object" &&
    e !== null &&
    typeof (e as { code?: unknown }).code === "string" &&
    typeof (e as { message?: unknown }).message === "string"
  );
}

// ---------------------------------------------------------------------------------------------
// Intake and the case

/** One layer of a sniffed source (`masf inspect`), flattened depth-first. */
export interface LayerView {
  depth: number;
  id: string;
  kind: string;
  params: Record<string, string>;
  size: number | null;
  partition: { index?: number; name?: string; [k: string]: unknown } | null;
  format: string | null;
  readable: boolean | null;
  label: string | null;
  uuid: string | null;
  features: string[];
  encryption: string | null;
  files: number | null;
  dirs: number | null;
  problem: string | null;
  diagnostics: string[];
}

/** A dropped or picked path, sniffed by content. */
export interface SourceDraft {
  path: string;
  /** `disk_image`, `android_disk`, `ios_extraction`, `media_collection` … ; null when unreadable. */
  detected_type: string | null;
  /** Why the type was chosen. */
  reasons: string[];
  files_kind: string | null;
  files: string[];
  size: number;
  layers: LayerView[];
  suggested_id: string;
  suggested_label: string;
  /** Set when the path could not be sniffed (it is still listed). */
  error: ApiError | null;
}

export interface FileHash {
  path: string;
  sha256: string;
  md5: string;
  size: number;
}

export interface PersonDraft {
  id: string;
  name: string;
  aliases?: string[];
}

export interface SourceEntryDraft {
  id: string;
  label: string;
  /** Absolute, or relative to the case dir. */
  path: string;
  owner?: string | null;
  /** IANA zone; null or the case's zone writes none. */
  timezone?: string | null;
  /** Phone-numbering region (ISO 3166-1 alpha-2); null or the case's writes none. */
  region?: string | null;
}

export interface CaseDraft {
  dir: string;
  id: string;
  title: string;
  examiner: string;
  timezone: string;
  /** The examiner's phone-numbering region (ISO 3166-1 alpha-2) for sources whose evidence gives none. */
  region?: string | null;
  persons: PersonDraft[];
  sources: SourceEntryDraft[];
  /** Replace an existing case.yaml. */
  overwrite?: boolean;
}

export interface FileDigest {
  path: string;
  size: number;
  sha256: string;
  md5: string;
}

export interface SourceStatus {
  id: string;
  label: string;
  path: string;
  owner: string | null;
  timezone: string;
  registered: boolean;
  detected_type: string | null;
  detection_reasons: string[];
  media: Record<string, unknown> | null;
  files: FileDigest[];
}

export type RunState =
  | "active"
  | "paused"
  | "halted_budget"
  | "completed"
  | "failed"
  | string;

export type Counter = "tool_calls" | "rounds" | "wall_clock_s" | "tokens";

export interface BudgetWarning {
  counter: Counter;
  level: number;
  used: number;
  cap: number;
}

export interface BudgetGranted {
  counter: Counter;
  amount: number;
  by: string;
  reason: string;
}

export interface RunProjection {
  state: RunState | null;
  segments: number;
  wall_seconds: number;
  run_base_invocations: number;
  segment_seq: number;
  pause_seq: number | null;
  grants: BudgetGranted[];
  warnings: BudgetWarning[];
  last: { state: RunState; reason: string; [k: string]: unknown } | null;
}

export interface CaseStatus {
  case_id: string;
  title: string;
  examiner: string;
  timezone: string;
  store: string;
  events: number;
  sources: SourceStatus[];
  run: RunProjection;
}

export interface BudgetLine {
  name: string;
  used: number;
  /** 0 = no cap. */
  cap: number;
  fraction: number;
  /** The highest warning level reached (0.7, 0.9), if any. */
  warning_at: number | null;
  exhausted: boolean;
}

export interface BudgetStatus {
  lines: BudgetLine[];
  exhausted: boolean;
}

export interface SourceTally {
  source_id: string;
  phenomena: number;
  invocations: number;
  failed_invocations: number;
}

/** `case_status()`: the case, the budget now and per-source tallies. */
export interface StatusView extends CaseStatus {
  case_file: string;
  work_dir: string;
  budget: BudgetStatus;
  tallies: SourceTally[];
  running: boolean;
}

/** `open_case()`. */
export interface CaseSummary {
  case_file: string;
  work_dir: string;
  status: CaseStatus;
  running: boolean;
}

// ---------------------------------------------------------------------------------------------
// The run's event stream

export interface StoredEvent {
  stream: "event";
  seq: number;
  /** `phenomenon_recorded`, `grounding_rejected`, `hypothesis_proposed`, `lead_proposed`,
   *  `round_closed`, `run_state_changed`, `budget_warning`, `same_as_linked` … */
  kind: string;
  payload: Record<string, unknown>;
  actor_kind: "examiner" | "agent" | "system";
  actor_id: string;
  idempotency_key: string;
  causation_seq: number | null;
  /** RFC 3339 UTC. */
  ts: string;
  versions: Record<string, unknown>;
}

export type InvocationStatus = "ok" | "failed" | "timed_out" | "too_large" | "cached";

export interface InvocationRecord {
  stream: "invocation";
  seq: number;
  invocation_id: string;
  source_id: string;
  tool: string;
  /** Canonical JSON text. */
  args: string;
  status: InvocationStatus;
  reason: string | null;
  cached_from: string | null;
  output_sha256: string;
  output_size: number;
  output_inline: boolean;
  agent: string;
  task_id: string;
  ts: string;
  duration_ms: number;
  versions: Record<string, unknown>;
  idempotency_key: string | null;
}

/** One item of the stream: an event of the log or a recorded tool call. */
export type StreamItem = StoredEvent | InvocationRecord;

export interface Cursor {
  event_seq: number;
  invocation_seq: number;
}

export const START: Cursor = { event_seq: 0, invocation_seq: 0 };

export interface EventPage {
  items: StreamItem[];
  cursor: Cursor;
  /** More items follow the cursor: call again with it. */
  more: boolean;
}

export interface ReportWritten {
  dir: string;
  files: { json: string; html: string; markdown: string };
  outputs: PublishedOutputs;
  phenomena: number;
  hypotheses: number;
  actors: number;
  timeline: number;
  not_read: number;
}

/** The `run-finished` event. */
export interface RunFinished {
  /** `completed`, `paused`, `halted_budget`, `failed` … */
  state: RunState;
  error: ApiError | null;
  problems: string[];
  report: ReportWritten | null;
}

export interface IntakeProgress {
  path: string;
  done: number;
  total: number;
}

// ---------------------------------------------------------------------------------------------
// Findings, invocations, links, timeline, report

export interface InvocationView {
  id: string;
  source_id: string;
  tool: string;
  args: unknown;
  status: InvocationStatus;
  reason: string | null;
  agent: string;
  task_id: string;
  ts: string;
  duration_ms: number;
  output_sha256: string;
  output_size: number;
  /** The output as text (invalid UTF-8 replaced), at most 512 KiB: RENDER AS TEXT ONLY. */
  output_text: string;
  output_truncated: boolean;
  /** e.g. `masf rerun /cases/x/case.yaml inv-000042` */
  rerun_command: string;
}

export type RerunVerdict =
  | "match"
  | "metadata_changed"
  | "rerun_differs"
  | "stored_output_altered"
  | "rerun_failed"
  | "not_reproducible";

export interface RerunView {
  invocation_id: string;
  verdict: RerunVerdict;
  matched: boolean;
  expected_sha256: string;
  actual_sha256: string | null;
  detail: string | null;
}

export interface EntityRef {
  id: string;
  label: string;
  source_id: string;
  context: string;
  /** person, device, account or wallet; null for an id the graph does not hold. */
  kind?: string | null;
}

export interface EvidenceView {
  phenomenon_id: string;
  edge_type: string;
  contribution: number;
  entity_id: string;
  id_type: string | null;
  normalized: string;
}

export interface SameAsDecision {
  decision: "approve" | "retract";
  by: string;
  at: string;
  reason: string;
}

export type LinkState = "live" | "dormant" | "approved" | "retracted" | "candidate";

export interface LinkView {
  /** `sa-000003-000007` */
  id: string;
  exists: boolean;
  state: LinkState;
  /** `coreference`: a and b are one actor; `control`: the wallet is controlled by the person. */
  relation: "coreference" | "control";
  a: EntityRef;
  b: EntityRef;
  hypothesis_id: string;
  confidence: number;
  status: string;
  revisions: string[];
  evidence: EvidenceView[];
  decisions: SameAsDecision[];
}

export interface ActorIdentifier {
  id_type: string;
  normalized: string;
  strength: "strong" | "weak" | string;
  entities: string[];
  /** Why resolution does not use it: `placeholder: …` or `demoted: …`. */
  not_used?: string;
}

export interface Actor {
  id: string;
  label: string;
  entities: string[];
  mentioned_in: string[];
  sources: string[];
  identifiers: ActorIdentifier[];
  joined_by: string[];
  /** Wallet entities this actor and another both control (they join neither). */
  contested?: string[];
}

/** A verified fact as an explanation cites it: the invocation whose output holds its value. */
export interface WhyFact {
  fact_type: string;
  value: string;
  invocation_id: string;
  match: { method: string; normalisation?: string; field?: string; span?: { start: number; end: number } };
}

/** One evidence edge of a link, explained. */
export interface ExplainedEvidence {
  edge: EvidenceView;
  /** The cited phenomenon's source. */
  source_id: string;
  title: string;
  /** Names the identifier or the attribution pattern and its cue word. */
  interpretation: string;
  facts: WhyFact[];
}

/** A logged tool invocation, briefly. */
export interface WhyInvocation {
  tool: string;
  /** Its arguments (JSON). */
  args: string;
  source_id: string;
  status: string;
  output_sha256: string;
}

/** Why a link exists (`masf links --why EDGE`). */
export interface Why {
  link: LinkView;
  evidence: ExplainedEvidence[];
  /** The invocations the facts cite, by id. */
  invocations: Record<string, WhyInvocation>;
}

export interface LinksAndActors {
  links: LinkView[];
  actors: Actor[];
}

export interface TimelineQuery {
  /** Source ids (empty: all). */
  sources?: string[];
  /** RFC 3339 with offset, or `YYYY-MM-DD[ HH:MM[:SS]]` in the case zone; range [from, to). */
  from?: string | null;
  to?: string | null;
  /** An actor id, or one of its entities. */
  actor?: string | null;
}

export interface ContextFact {
  [k: string]: unknown;
}

export interface TimelineEntry {
  datetime: string | null;
  timestamp: number | null;
  timestamp_desc: string;
  message: string;
  source: string;
  source_id: string;
  phenomenon_id: string;
  agent: string;
  category: string;
  raw_value: string;
  raw_encoding: string;
  zone: string;
  utc: string | null;
  case_time: string | null;
  case_zone: string;
  flag: "dst_gap" | "dst_fold" | "unconvertible" | null;
  note: string | null;
  alternative: string | null;
  context: ContextFact[];
}

export interface Timeline {
  case_zone: string;
  entries: TimelineEntry[];
  unconvertible: number;
  ambiguous: number;
}

export type ReportFormat = "html" | "md" | "json";

export interface PublishedOutputs {
  dir: string;
  invocations: number;
  bytes: number;
}

export interface Exported {
  dir: string;
  files: string[];
  outputs: PublishedOutputs;
  phenomena: number;
  hypotheses: number;
  actors: number;
}

// The report model (schemas/report.schema.json, masforensics.report/1) is typed once, in
// model/report.ts, and re-exported here for the command that returns it.
export type { Report } from "./model/report";

// ---------------------------------------------------------------------------------------------
// Commands

/** Sniffs each path by content (never fails as a whole: see `SourceDraft.error`). */
export function intakePaths(paths: string[]): Promise<SourceDraft[]> {
  return invoke<SourceDraft[]>("intake_paths", { paths });
}

/** SHA-256 + MD5 of each file; emits `intake-progress`. */
export function hashSources(paths: string[]): Promise<FileHash[]> {
  return invoke<FileHash[]>("hash_sources", { paths });
}

/** Writes `draft.dir/case.yaml` (validated); returns its path. */
export function saveCase(draft: CaseDraft): Promise<string> {
  return invoke<string>("save_case", { draft });
}

/** Opens a case.yaml, a case folder or a case work folder as the app's current case. */
export function openCase(path: string): Promise<CaseSummary> {
  return invoke<CaseSummary>("open_case", { path });
}

/** The current case's status. At start, a case given on the command line
 *  (`masf-desktop case.yaml`) is already open; with none, this rejects with `bad_request`. */
export function caseStatus(): Promise<StatusView> {
  return invoke<StatusView>("case_status");
}

/** Starts the run in the background; follow `onRunEvents` and `onRunFinished`. */
export function startRun(): Promise<void> {
  return invoke<void>("start_run");
}

/** Asks the run to pause at its next tool call (`run-finished` then says `paused`). */
export function pauseRun(reason: string): Promise<void> {
  return invoke<void>("pause_run", { reason });
}

/** Grants more budget (e.g. `{tool_calls: 500}`) and starts the run again. */
export function resumeRun(grants: Partial<Record<Counter, number>>): Promise<void> {
  return invoke<void>("resume_run", { grants });
}

/** Catch-up / paging of the stream: up to `limit` (max 5000) items after `cursor`. */
export function eventsSince(cursor: Cursor, limit?: number): Promise<EventPage> {
  return invoke<EventPage>("events_since", { cursor, limit: limit ?? null });
}

/** The report model of the current case, built now. */
export function reportModel(): Promise<Report> {
  return invoke<Report>("report_model");
}

export function getInvocation(id: string): Promise<InvocationView> {
  return invoke<InvocationView>("invocation", { id });
}

export function rerunInvocation(id: string): Promise<RerunView> {
  return invoke<RerunView>("rerun_invocation", { id });
}

export function sameAsLinks(): Promise<LinkView[]> {
  return invoke<LinkView[]>("same_as_links");
}

export function getActors(): Promise<Actor[]> {
  return invoke<Actor[]>("actors");
}

/** Why a link (or candidate pair) exists; `bad_request` for an unknown id. */
export function whyLink(id: string): Promise<Why> {
  return invoke<Why>("why_link", { id });
}

export function approveLink(id: string, reason?: string): Promise<LinksAndActors> {
  return invoke<LinksAndActors>("approve_link", { id, reason: reason ?? null });
}

/** The reason is required (an empty one is refused with `bad_request`). */
export function retractLink(id: string, reason: string): Promise<LinksAndActors> {
  return invoke<LinksAndActors>("retract_link", { id, reason });
}

export function getTimeline(query: TimelineQuery): Promise<Timeline> {
  return invoke<Timeline>("timeline", { query });
}

export function exportReport(dir: string, formats: ReportFormat[]): Promise<Exported> {
  return invoke<Exported>("export_report", { dir, formats });
}

/** Native file picker (modal); empty when cancelled. */
export function pickFiles(): Promise<string[]> {
  return invoke<string[]>("pick_files");
}

/** Native folder picker (modal); null when cancelled. */
export function pickFolder(): Promise<string | null> {
  return invoke<string | null>("pick_folder");
}

// ---------------------------------------------------------------------------------------------
// Events

/** Items the run appended to the store, in order, batched per poll (every ~40 ms). */
export function onRunEvents(cb: (items: StreamItem[]) => void): Promise<UnlistenFn> {
  return listen<StreamItem[]>("run-event", (e) => cb(e.payload));
}

export function onRunFinished(cb: (finished: RunFinished) => void): Promise<UnlistenFn> {
  return listen<RunFinished>("run-finished", (e) => cb(e.payload));
}

export function onIntakeProgress(cb: (p: IntakeProgress) => void): Promise<UnlistenFn> {
  return listen<IntakeProgress>("intake-progress", (e) => cb(e.payload));
}

/** Paths dropped on the window, already sniffed (the same drafts `intakePaths` returns). */
export function onIntakeDropped(cb: (drafts: SourceDraft[]) => void): Promise<UnlistenFn> {
  return listen<SourceDraft[]>("intake-dropped", (e) => cb(e.payload));
}
