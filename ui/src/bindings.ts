// The typed IPC of the MASForensics desktop app. This file is the ONLY place in ui/ that calls
// `invoke` or `listen`: one async function per Tauri command registered in src-tauri/src/main.rs
// (a Rust test checks the two sets are equal) and one typed listener per event the shell emits.
// Every type comes from ./generated/ipc.ts, which src-tauri writes from the Rust types (its test
// fails while the file is stale); `call` and `on` take their argument and result types from its
// `Commands` and `Events`, so a command or event cannot be called with another shape.
//
// Errors: every command rejects with an `ApiError` ({code, message}); use `isApiError` to narrow.

import { invoke } from "@tauri-apps/api/core";
import { listen, type UnlistenFn } from "@tauri-apps/api/event";
import type {
  ApiError, Commands, Events, FileHash, CaseDraft, CaseSummary, DraftProblem, FactQuery, EventPage, Exported, InvocationView,
  LinksAndActors, ReportFormat, RerunView, RunFinished, IntakeProgress, SourceDraft, StatusView, StreamItem,
  Timeline, TimelineRequest, WireCursor, Why, LinkView, Actor, Report, TagsView, MarkAct,
  Indexed, SearchRequest, SearchResult,
} from "./generated/ipc";

export type * from "./generated/ipc";

/** Calls the command `name` with its typed arguments. */
function call<K extends keyof Commands>(name: K, args: Commands[K]["args"]): Promise<Commands[K]["result"]> {
  return invoke<Commands[K]["result"]>(name, args);
}

/** Listens to the event `name` with its typed payload. */
function on<K extends keyof Events>(name: K, cb: (payload: Events[K]) => void): Promise<UnlistenFn> {
  return listen<Events[K]>(name, (e) => cb(e.payload));
}

export function isApiError(e: unknown): e is ApiError {
  return (
    typeof e === "object" &&
    e !== null &&
    typeof (e as { code?: unknown }).code === "string" &&
    typeof (e as { message?: unknown }).message === "string"
  );
}

/** Where a follower of the stream starts. */
export const START: WireCursor = { event_seq: 0, invocation_seq: 0 };

// ---------------------------------------------------------------------------------------------
// Commands

/** Sniffs each path by content (never fails as a whole: see `SourceDraft.error`). */
export function intakePaths(paths: string[]): Promise<SourceDraft[]> {
  return call("intake_paths", { paths });
}

/** SHA-256 + MD5 of each file; emits `intake-progress`. */
export function hashSources(paths: string[]): Promise<FileHash[]> {
  return call("hash_sources", { paths });
}

/** Every reason the draft could not be saved, by the case loader's own rules (nothing written). */
export function checkCaseDraft(draft: CaseDraft): Promise<DraftProblem[]> {
  return call("check_case_draft", { draft });
}

/** Writes `draft.dir/case.yaml` (validated); returns its path. */
export function saveCase(draft: CaseDraft): Promise<string> {
  return call("save_case", { draft });
}

/** Opens a case.yaml, a case folder or a case work folder as the app's current case. */
export function openCase(path: string): Promise<CaseSummary> {
  return call("open_case", { path });
}

/** The current case's status. At start, a case given on the command line
 *  (`masf-desktop case.yaml`) is already open; with none, this rejects with `bad_request`. */
export function caseStatus(): Promise<StatusView> {
  return call("case_status", {});
}

/** Starts the run in the background; follow `onRunEvents` and `onRunFinished`. */
export function startRun(): Promise<null> {
  return call("start_run", {});
}

/** Asks the run to pause at its next tool call (`run-finished` then says `paused`). */
export function pauseRun(reason: string): Promise<null> {
  return call("pause_run", { reason });
}

/** The password of a source's encrypted backup (held in the app's memory, never written);
 * a wrong one rejects with the keybag's error. */
export function giveBackupPassword(source: string, password: string): Promise<null> {
  return call("give_backup_password", { source, password });
}

/** Grants more budget (e.g. `{tool_calls: 500}`) and starts the run again. */
export function resumeRun(grants: Record<string, number>): Promise<null> {
  return call("resume_run", { grants });
}

/** Catch-up / paging of the stream: up to `limit` (max 5000) items after `cursor`. */
export function eventsSince(cursor: WireCursor, limit?: number): Promise<EventPage> {
  return call("events_since", { cursor, limit: limit ?? null });
}

/** The report model of the current case, built now. */
export function reportModel(): Promise<Report> {
  return call("report_model", {});
}

export function getInvocation(id: string, fact?: FactQuery): Promise<InvocationView> {
  return call("invocation", { id, fact: fact ?? null });
}

export function rerunInvocation(id: string): Promise<RerunView> {
  return call("rerun_invocation", { id });
}

export function sameAsLinks(): Promise<LinkView[]> {
  return call("same_as_links", {});
}

export function getActors(): Promise<Actor[]> {
  return call("actors", {});
}

/** Why a link (or candidate pair) exists; `bad_request` for an unknown id. */
export function whyLink(id: string): Promise<Why> {
  return call("why_link", { id });
}

export function approveLink(id: string, reason?: string): Promise<LinksAndActors> {
  return call("approve_link", { id, reason: reason ?? null });
}

/** The reason is required (an empty one is refused with `bad_request`). */
export function retractLink(id: string, reason: string): Promise<LinksAndActors> {
  return call("retract_link", { id, reason });
}

/** The examiner's marks: the tags to offer and every tagged, bookmarked or noted item. */
export function getTags(): Promise<TagsView> {
  return call("tags", {});
}

/** Tags, untags, bookmarks, unbookmarks or notes `target` (`ph-000012`, `ph-000012#time1`,
 *  `actor-000003`, …) as the case's examiner; rejects with `bad_request` naming a target that
 *  does not exist. Returns the marks after it. */
export function markItem(target: string, act: MarkAct, reason?: string): Promise<TagsView> {
  return call("mark_item", { target, act, reason: reason ?? null });
}

/** Withdraws a note (it stays in the case log); the marks after it. */
export function withdrawNote(id: string, reason?: string): Promise<TagsView> {
  return call("withdraw_note", { id, reason: reason ?? null });
}

/** Builds the full-text index of every source without one (all with `rebuild`), as `masf index`. */
export function buildIndex(rebuild: boolean): Promise<Indexed[]> {
  return call("build_index", { rebuild });
}

/** Searches the sources' full-text indexes, as `masf search` (one logged call a source). */
export function search(request: SearchRequest): Promise<SearchResult> {
  return call("search", { request });
}

export function getTimeline(query: TimelineRequest): Promise<Timeline> {
  return call("timeline", { query });
}

export function exportReport(dir: string, formats: ReportFormat[]): Promise<Exported> {
  return call("export_report", { dir, formats });
}

/** Native file picker (modal); empty when cancelled. */
export function pickFiles(): Promise<string[]> {
  return call("pick_files", {});
}

/** Native folder picker (modal); null when cancelled. */
export function pickFolder(): Promise<string | null> {
  return call("pick_folder", {});
}

// ---------------------------------------------------------------------------------------------
// Events

/** Items the run appended to the store, in order, batched per poll (every ~40 ms). */
export function onRunEvents(cb: (items: StreamItem[]) => void): Promise<UnlistenFn> {
  return on("run-event", cb);
}

export function onRunFinished(cb: (finished: RunFinished) => void): Promise<UnlistenFn> {
  return on("run-finished", cb);
}

export function onIntakeProgress(cb: (p: IntakeProgress) => void): Promise<UnlistenFn> {
  return on("intake-progress", cb);
}

/** Paths dropped on the window, already sniffed (the same drafts `intakePaths` returns). */
export function onIntakeDropped(cb: (drafts: SourceDraft[]) => void): Promise<UnlistenFn> {
  return on("intake-dropped", cb);
}
