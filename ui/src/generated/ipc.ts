// GENERATED from the Rust types by src-tauri/src/ipc.rs: do not edit.
// Refresh: UPDATE_EXPECT=1 cargo test -p masf-desktop generated_typescript_is_fresh
// (the same test, without UPDATE_EXPECT, fails while this file is stale).

/**
 * An actor: entities joined by live `same_as` edges.
 */
export type Actor = { id: string, label: string, entities: Array<string>, mentioned_in: Array<string>, sources: Array<string>, identifiers: Array<ActorIdentifier>, joined_by: Array<string>, 
/**
 * Wallet entities this actor and another both control (they join neither).
 */
contested?: Array<string>, };

/**
 * An identifier of an actor.
 */
export type ActorIdentifier = { id_type: IdType, normalized: string, strength: Strength, entities: Array<string>, 
/**
 * Why resolution does not use it: `placeholder: …` or `demoted: …`.
 */
not_used?: string, 
/**
 * The entities that hold it as a contact claim.
 */
claimed_by?: Array<string>, };

/**
 * Who did something: the `actor_kind` of an event.
 */
export type ActorKind = "examiner" | "agent" | "system";

/**
 * One actor: a connected component of live `same_as` edges.
 */
export type ActorRow = { id: string, label: string, entity_ids: Array<string>, source_ids: Array<string>, identifiers: Array<ReportActorIdentifier>, 
/**
 * The `same_as` edges that join it.
 */
edges: Array<string>, 
/**
 * Mention entities (a person named in a document or a screenshot) linked by live edges to
 * this actor and to another one: listed under each, members of none.
 */
mentioned_in: Array<string>, 
/**
 * Wallet entities this actor and another both hold live control edges on (they join
 * neither; the examiner decides).
 */
contested?: Array<string>, };

/**
 * An error of the application facade: a code and a message meant for the examiner.
 */
export type ApiError = { code: ErrorCode, message: string, };

/**
 * A source's coverage by one plugin's catalogue (`masf coverage`).
 */
export type ArtefactCoverage = { 
/**
 * The plugin.
 */
plugin: string, 
/**
 * Whether its triage ran to its end on the source.
 */
searched: boolean, 
/**
 * One row per artefact of its catalogue.
 */
items: Array<CoverageItem>, };

/**
 * What came of one expected artefact on a source.
 */
export type ArtefactStatus = "parsed" | "could_not_parse" | "examined" | "not_found" | "not_examined";

/**
 * A bookmark on an item.
 */
export type BookmarkRow = { 
/**
 * Who bookmarked it.
 */
by: string, 
/**
 * When (RFC 3339).
 */
at: string, 
/**
 * Why (may be empty).
 */
reason: string, };

/**
 * An examiner's grant of more budget (`masf resume --grant tool_calls=500`).
 */
export type BudgetGranted = { 
/**
 * Which counter.
 */
counter: Counter, 
/**
 * How much more.
 */
amount: number, 
/**
 * Who granted it.
 */
by: string, 
/**
 * Why.
 */
reason: string, };

/**
 * One budget counter's status.
 */
export type BudgetLine = { 
/**
 * `tool_calls`, `rounds`, `wall_clock_s`, `tokens`.
 */
name: string, used: number, 
/**
 * 0 = no cap.
 */
cap: number, fraction: number, 
/**
 * The highest warning level reached (0.7, 0.9), if any.
 */
warning_at: number | null, exhausted: boolean, };

/**
 * Each budget counter with its level.
 */
export type BudgetStatus = { lines: Array<BudgetLine>, exhausted: boolean, };

/**
 * A counter crossed a warning level.
 */
export type BudgetWarning = { 
/**
 * Which counter.
 */
counter: Counter, 
/**
 * The level crossed (e.g. 0.7).
 */
level: number, 
/**
 * Used at that moment.
 */
used: number, 
/**
 * The cap then.
 */
cap: number, };

/**
 * The whole case as the editor holds it, to be written as `dir/case.yaml`.
 */
export type CaseDraft = { dir: string, id: string, title: string, examiner: string, timezone: string, 
/**
 * The examiner's phone-numbering region (ISO 3166-1 alpha-2) for sources whose evidence
 * gives none; none writes no `region:` line.
 */
region?: string | null, persons?: Array<PersonDraft>, sources: Array<SourceEntryDraft>, 
/**
 * Replace an existing case.yaml.
 */
overwrite?: boolean, };

/**
 * The case as the report shows it.
 */
export type CaseInfo = { id: string, title: string, timezone: string, examiner: string, persons: Array<Person>, };

/**
 * A summary of a case and its store.
 */
export type CaseStatus = { case_id: string, title: string, examiner: string, timezone: string, store: string, events: number, sources: Array<SourceStatus>, 
/**
 * The run lifecycle: last state, segments, grants, budget warnings, the last lease.
 */
run: RunProjection, 
/**
 * The store's consistency check ([`status_checked`]; absent from [`status`]).
 */
consistency?: Consistency, };

/**
 * What opening a case returns.
 */
export type CaseSummary = { case_file: string, work_dir: string, status: CaseStatus, 
/**
 * Whether a run of this case is going in this app.
 */
running: boolean, };

/**
 * Why a cited invocation did not ground a value.
 */
export type CitationProblem = "unknown_invocation" | "other_agent" | "other_task" | "value_absent" | "empty_value";

/**
 * The outcome of [`check`].
 */
export type Consistency = { 
/**
 * Events read.
 */
events: number, 
/**
 * The graph's epoch (rebuilds so far).
 */
epoch: number, 
/**
 * What is wrong now (empty: the store is consistent).
 */
problems: Array<Problem>, 
/**
 * Problems of graph events superseded by a rebuild: history, not a fault of the store.
 */
superseded: number, };

/**
 * Another fact of the entry's phenomenon, shown for context.
 */
export type ContextFact = { 
/**
 * Its type (`phone`, `text`, `path`, …).
 */
fact_type: string, 
/**
 * Its value as verified.
 */
value: string, };

/**
 * The budgeted counters.
 */
export type Counter = "tool_calls" | "rounds" | "wall_clock_s" | "tokens";

/**
 * One expected artefact's coverage on a source.
 */
export type CoverageItem = { name: string, value_for: string, examined: boolean, by: Array<string>, status: ArtefactStatus, records: number, problems: Array<string>, };

/**
 * What the examiner decided about a `same_as` edge.
 */
export type Decision = "approve" | "retract";

/**
 * One reason a case draft cannot be saved, as the case loader finds it: what it is about
 * (`kind`, with `params` for the message), where (`at`, e.g. `sources[1].timezone`), and the
 * loader's own English message.
 */
export type DraftProblem = { kind: DraftProblemKind, 
/**
 * Values the message names (`id`, `zone`, `region`, `path`, `owner`, `suggestion`).
 */
params: { [key in string]: string }, 
/**
 * The key path of the field in case.yaml, e.g. `case.id` or `sources[1].region`.
 */
at: string, message: string, };

/**
 * What a case draft's problem is about, named as the case editor's messages are
 * (`intake.p.<kind>` in the UI's dictionaries).
 */
export type DraftProblemKind = "noSources" | "dir" | "caseId" | "examiner" | "title" | "zone" | "region" | "passwordEnv" | "sourceId" | "dupId" | "personId" | "owner" | "unreadable" | "other";

/**
 * One edge of a hypothesis.
 */
export type EdgeRow = { phenomenon_id: string, edge_type: string, rank: number, log10_lr: number, 
/**
 * What it adds after the harmonic decay (`graph::scoring`).
 */
contribution: number, 
/**
 * The hypothesis's log-odds and confidence once this edge and every edge ranked before it
 * are added to the prior: the confidence log the Hypotheses view shows, computed here with
 * the graph's own scoring so no face recomputes it.
 */
log_odds_after: number, confidence_after: number, };

/**
 * The discrete type of a phenomenon → hypothesis edge.
 */
export type EdgeType = "direct_evidence" | "supports" | "consequence_observed" | "prerequisite_met" | "weakens" | "contradicts";

/**
 * What an entity is.
 */
export type EntityKind = "person" | "device" | "account" | "wallet";

/**
 * An entity, briefly.
 */
export type EntityRef = { id: string, label: string, source_id: string, context: string, kind: EntityKind | null, };

/**
 * One tentative entity.
 */
export type EntityRow = { id: string, kind: string, label: string, source_ids: Array<string>, context: string, identifiers: Array<IdentifierRow>, };

/**
 * Stable error codes the UI switches on.
 */
export type ErrorCode = "case_invalid" | "config_invalid" | "store" | "evidence" | "bad_request" | "io" | "case_busy" | "store_inconsistent";

/**
 * A page of the event stream.
 */
export type EventPage = { items: Array<StreamItem>, cursor: WireCursor, 
/**
 * More items follow the cursor.
 */
more: boolean, };

/**
 * The hypothesis × evidence matrix: which phenomenon bears on which hypothesis, how, and
 * with what weight.
 */
export type EvidenceMatrix = { hypotheses: Array<string>, phenomena: Array<string>, cells: Array<MatrixCell>, };

/**
 * One edge of a coreference hypothesis.
 */
export type EvidenceView = { phenomenon_id: string, edge_type: EdgeType, contribution: number, entity_id: string, id_type: IdType | null, normalized: string, };

/**
 * One evidence edge explained.
 */
export type ExplainedEvidence = { edge: EvidenceView, source_id: string, title: string, interpretation: string, facts: Array<Fact>, };

/**
 * What the export wrote.
 */
export type Exported = { dir: string, 
/**
 * The files written, in the order asked.
 */
files: Array<string>, outputs: PublishedOutputs, phenomena: number, hypotheses: number, actors: number, };

/**
 * A verified fact with the invocation whose output holds it.
 */
export type Fact = { fact_type: FactType, value: string, invocation_id: string, match: MatchInfo, };

/**
 * A fact whose value the invocation view marks in the output.
 */
export type FactQuery = { 
/**
 * The fact's type as the report names it (`phone`, `wallet`, `imei` …).
 */
fact_type: string, value: string, };

/**
 * One verified fact.
 */
export type FactRow = { type: string, value: string, invocation_id: string, 
/**
 * `verbatim`, `structured_field` or `normalised`.
 */
match_method: string, normalisation: string | null, };

/**
 * What kind of value a fact is.
 */
export type FactType = "path" | "timestamp" | "inode" | "hash" | "identifier" | "phone" | "email" | "account" | "wallet" | "imei" | "imsi" | "iccid" | "serial" | "url" | "amount" | "count" | "name" | "text";

/**
 * One evidence file: its hashes at intake, and now.
 */
export type FileCheck = { path: string, size: number, sha256: string, md5: string, 
/**
 * The SHA-256 when the report was written (absent when not re-hashed).
 */
sha256_now?: string, 
/**
 * Whether both digests are as at intake (absent when not re-hashed).
 */
unchanged: boolean | null, 
/**
 * Why it was not re-hashed.
 */
note?: string, };

/**
 * One file of an evidence source, hashed at intake.
 */
export type FileDigest = { 
/**
 * Path relative to the case folder when the file lies below it, else absolute; `/` separators.
 */
path: string, 
/**
 * Size in bytes.
 */
size: number, 
/**
 * Lower-case hex SHA-256.
 */
sha256: string, 
/**
 * Lower-case hex MD5.
 */
md5: string, };

/**
 * The digests of one file.
 */
export type FileHash = { path: string, size: number, sha256: string, md5: string, };

/**
 * Why an entry needs the examiner's attention.
 */
export type Flag = "dst_gap" | "dst_fold" | "unconvertible";

/**
 * Where a fact's value is in an invocation's output: found by the grounding gateway's own
 * methods (`masf_graph::occurrences`), so the view marks exactly what verified the fact.
 */
export type HighlightView = { 
/**
 * `verbatim`, `structured_field`, a normalisation (`phone_e164`, `digit_separators`,
 * `whitespace_collapse`, `hex_case`, `email_case`, `look_alike_repair`), or `none`.
 */
how: string, 
/**
 * The JSON pointer of the structured field that holds the value, for `structured_field`
 * and normalised field matches.
 */
field?: string | null, 
/**
 * Every occurrence in `output_text`, as UTF-16 code unit offsets (JavaScript string
 * indices), in order, disjoint; those past the shown text are left out.
 */
spans: Array<TextSpan>, };

/**
 * Who holds a case's lease.
 */
export type Holder = { 
/**
 * The holding process.
 */
pid: number, 
/**
 * The machine it runs on.
 */
host: string, 
/**
 * When it took the lease (the caller's clock).
 */
since: string, };

/**
 * One hypothesis with its scored edges.
 */
export type HypothesisRow = { id: string, kind: string, statement: string, proposed_by: string, prior: number, 
/**
 * The prior as log-odds (base 10): where the confidence log starts.
 */
prior_log_odds: number, log_odds: number, confidence: number, status: string, distinct_sources: number, 
/**
 * In rank order.
 */
edges: Array<EdgeRow>, };

/**
 * A hypothesis's status.
 */
export type HypothesisStatus = "active" | "supported" | "refuted";

/**
 * The type of an identifier.
 */
export type IdType = "phone" | "email" | "apple_id" | "google_account" | "account_id" | "whatsapp_lid" | "contact_guid" | "dsid" | "android_id" | "imei" | "imsi" | "iccid" | "serial" | "wallet" | "display_name" | "nickname" | "device_name" | "wechat" | "qq" | "line" | "telegram_username" | "signal_username" | "udid" | "pairing_host" | "bluetooth_address" | "adb_key";

/**
 * One identifier of an entity.
 */
export type IdentifierRow = { type: string, value: string, normalized: string, strength: string, phenomenon_id: string, };

/**
 * What `masf index` did for one source.
 */
export type Indexed = { source_id: string, 
/**
 * `built`, `current` (an index of this version was there: nothing to do) or `failed`.
 */
outcome: string, 
/**
 * The `index_text` invocation that logged the build.
 */
invocation_id?: string, files: number, skipped: number, error?: string, };

/**
 * Hashing progress, sent as `intake-progress`.
 */
export type IntakeProgress = { path: string, done: number, total: number, };

/**
 * A source's integrity: every evidence file's hashes at intake and now, and the EWF media
 * check. Typed rather than a JSON value: a folder source can hold hundreds of thousands of
 * files.
 */
export type Integrity = { files: Array<FileCheck>, 
/**
 * The EWF media hashes against the stored ones (`null` for other evidence).
 */
media: JsonValue, };

/**
 * A recorded tool call, without its output bytes (see [`Store::invocation_output`]).
 */
export type InvocationRecord = { 
/**
 * Position in the invocation log, increasing from 1.
 */
seq: number, 
/**
 * `inv-` and the zero-padded seq, e.g. `inv-000042`.
 */
invocation_id: string, 
/**
 * See [`NewInvocation::source_id`].
 */
source_id: string, 
/**
 * See [`NewInvocation::tool`].
 */
tool: string, 
/**
 * See [`NewInvocation::args`].
 */
args: string, 
/**
 * See [`NewInvocation::status`].
 */
status: InvocationStatus, 
/**
 * See [`NewInvocation::reason`].
 */
reason: string | null, 
/**
 * See [`NewInvocation::cached_from`].
 */
cached_from: string | null, 
/**
 * Lowercase hex sha256 of the output.
 */
output_sha256: string, 
/**
 * Output length in bytes.
 */
output_size: number, 
/**
 * True when the output is stored inline rather than under `objects/`.
 */
output_inline: boolean, 
/**
 * See [`NewInvocation::agent`].
 */
agent: string, 
/**
 * See [`NewInvocation::task_id`].
 */
task_id: string, 
/**
 * See [`NewInvocation::ts`].
 */
ts: string, 
/**
 * See [`NewInvocation::duration_ms`].
 */
duration_ms: number, 
/**
 * See [`NewInvocation::versions`].
 */
versions: { [key in string]: string }, 
/**
 * See [`NewInvocation::idempotency_key`].
 */
idempotency_key: string | null, };

/**
 * One logged tool call, with the file its exact output is published in.
 */
export type InvocationRow = { id: string, source_id: string, tool: string, args: JsonValue, agent: string, task_id: string, status: string, output_sha256: string, 
/**
 * When the call was made (RFC 3339, UTC).
 */
ts: string, 
/**
 * The versions it ran with (`tool`, `masf_tools`, the engines it used).
 */
versions: { [key in string]: string }, 
/**
 * Relative to the folder of report.json.
 */
output_path: string, 
/**
 * The command that re-derives it.
 */
rerun: string, };

/**
 * How a tool call ended.
 */
export type InvocationStatus = "ok" | "failed" | "timed_out" | "too_large" | "cached";

/**
 * One tool invocation as the Findings view shows it.
 */
export type InvocationView = { id: string, source_id: string, tool: string, 
/**
 * The canonical args, parsed (the raw text when not JSON).
 */
args: JsonValue, status: string, reason: string | null, agent: string, task_id: string, ts: string, duration_ms: number, output_sha256: string, output_size: number, 
/**
 * The output as text (invalid UTF-8 replaced), at most [`OUTPUT_TEXT_CAP`] bytes.
 */
output_text: string, output_truncated: boolean, 
/**
 * The command that re-runs it from a shell.
 */
rerun_command: string, 
/**
 * Where the fact asked about stands in the output, as the gateway finds it; none when no
 * fact was asked about.
 */
highlight?: HighlightView | null, };

export type JsonValue = number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null;

/**
 * One layer of an inspected source, flattened depth-first.
 */
export type LayerView = { depth: number, id: string, kind: string, params: { [key in string]: string }, size: number | null, partition: PartitionInfo | null, 
/**
 * What the content was recognised as (`ext4`, `fat32`, `apfs` …) and whether it is readable.
 */
format: string | null, readable: boolean | null, label: string | null, uuid: string | null, features: Array<string>, encryption: string | null, 
/**
 * Files and directories in the file system of this layer (when counted).
 */
files: number | null, dirs: number | null, problem: string | null, diagnostics: Array<string>, };

/**
 * A `same_as` edge or a candidate pair, as `masf links` shows it.
 */
export type LinkView = { id: string, exists: boolean, 
/**
 * `live`, `dormant`, `approved`, `retracted`, or `candidate` when no edge exists.
 */
state: string, relation: Relation, a: EntityRef, b: EntityRef, hypothesis_id: string, confidence: number, status: HypothesisStatus, revisions: Array<string>, evidence: Array<EvidenceView>, decisions: Array<SameAsDecision>, };

/**
 * The links and actors after a decision (or now), as the report's rows
 * (`masf_report::model::same_as_rows` / `actor_rows`): the Entities view draws the report's
 * model, and a decision answers in the same shape, never converted in the UI.
 */
export type LinksAndActors = { same_as: Array<SameAsRow>, actors: Array<ActorRow>, };

/**
 * What the examiner does to a target (the CLI's and the desktop's words for a
 * [`MarkRequest`]).
 */
export type MarkAct = { "act": "tag", 
/**
 * The tag.
 */
tag: string, } | { "act": "untag", 
/**
 * The tag.
 */
tag: string, } | { "act": "bookmark" } | { "act": "unbookmark" } | { "act": "note", 
/**
 * The note.
 */
text: string, };

/**
 * How a fact's value was found in its invocation's output.
 */
export type MatchInfo = { method: MatchMethod, normalisation?: Normalisation, field?: string, span?: Span, rescued_from?: Rescue, };

/**
 * How a fact's value matched its invocation's output.
 */
export type MatchMethod = "verbatim" | "structured_field" | "normalised";

/**
 * One edge in the hypothesis × evidence matrix.
 */
export type MatrixCell = { hypothesis_id: string, phenomenon_id: string, edge_type: EdgeType, 
/**
 * Its decayed contribution to the hypothesis's log-odds.
 */
contribution: number, };

/**
 * The whole media of an image, hashed at intake and compared with the hashes it stores.
 */
export type MediaIntegrity = { size: number, md5: string, sha1: string, sha256: string, stored_md5: string | null, stored_sha1: string | null, 
/**
 * `verified`, `mismatch` or `absent`.
 */
md5_check: string, 
/**
 * `verified`, `mismatch` or `absent`.
 */
sha1_check: string, 
/**
 * Chunks that failed their checks, as "chunk N at media offset O: detail".
 */
bad_chunks: Array<string>, };

/**
 * How the query text is read.
 */
export type Mode = "words" | "identifier" | "regex";

/**
 * The normalisation a match used.
 */
export type Normalisation = "whitespace_collapse" | "hex_case" | "email_case" | "phone_e164" | "digit_separators" | "look_alike_repair";

/**
 * Something that could not be read.
 */
export type NotRead = { source_id: string, 
/**
 * A partition, an artefact path, a whole source.
 */
what: string, reason: string, invocation_id: string | null, };

/**
 * A source not searched, and why (no index yet: `masf index`; unreadable evidence).
 */
export type NotSearched = { source_id: string, reason: string, };

/**
 * A note on an item.
 */
export type NoteRow = { 
/**
 * `note-000001`, … (`masf withdraw-note` takes it).
 */
id: string, 
/**
 * The note.
 */
text: string, 
/**
 * Who wrote it.
 */
by: string, 
/**
 * When (RFC 3339).
 */
at: string, };

/**
 * The partition a layer stands for.
 */
export type PartitionInfo = { index: number, name: string, type_name: string, offset: number, size: number, };

/**
 * A person of the case.
 */
export type Person = { id: string, name: string, 
/**
 * Other spellings of the name (case.yaml `aliases`).
 */
aliases?: Array<string>, };

/**
 * A person of the case as the editor holds it.
 */
export type PersonDraft = { id: string, name: string, aliases?: Array<string>, };

/**
 * One phenomenon: verified facts apart from the (unverified) interpretation.
 */
export type PhenomenonRow = { id: string, source_id: string, agent: string, category: string, title: string, verified_facts: Array<FactRow>, 
/**
 * Unverified analysis.
 */
interpretation: string, warnings: Array<string>, 
/**
 * The model that produced it, when an LLM agent did.
 */
model?: string, 
/**
 * The prompt version the LLM agent ran with.
 */
prompt_version: string | null, };

/**
 * One problem found.
 */
export type Problem = { 
/**
 * What kind.
 */
kind: ProblemKind, 
/**
 * The event concerned, if one is.
 */
seq: number | null, 
/**
 * In words, naming the records concerned.
 */
message: string, };

/**
 * What kind of problem.
 */
export type ProblemKind = "seq_gap" | "unreadable_event" | "duplicate_id" | "dangling_reference" | "out_of_sequence" | "chain_broken" | "backdated" | "mark_out_of_sequence";

/**
 * What [`publish_outputs`] wrote.
 */
export type PublishedOutputs = { dir: string, invocations: number, bytes: number, };

/**
 * `coreference` (the two are one actor) or `control` (the first is controlled by the
 * second, a person).
 */
export type Relation = "coreference" | "control";

/**
 * The whole report.
 */
export type Report = { schema: string, 
/**
 * Tool version and the run's state when the report was written.
 */
generated: JsonValue, case: CaseInfo, 
/**
 * The answer first: case summary, people, transactions and communications, hypotheses
 * in words, limitations (assembled from the rows below by [`crate::build`]).
 */
answer: ReportAnswer, sources: Array<SourceSection>, not_read: Array<NotRead>, invocations: Array<InvocationRow>, phenomena: Array<PhenomenonRow>, hypotheses: Array<HypothesisRow>, 
/**
 * The hypothesis × evidence matrix.
 */
matrix: EvidenceMatrix, entities: Array<EntityRow>, same_as: Array<SameAsRow>, actors: Array<ActorRow>, timeline: Array<TimelineRow>, 
/**
 * Leads and strategist rounds.
 */
investigation: JsonValue, 
/**
 * The items the examiner tagged, bookmarked or wrote a note on, with who and when.
 */
tagged: Array<TaggedRow>, };

/**
 * One identifier of an actor.
 */
export type ReportActorIdentifier = { type: string, normalized: string, 
/**
 * The entities that wrote it as their own ("my new number is …"): a contact claim.
 */
claimed_by?: Array<string>, };

/**
 * The sections that open the report, in their order.
 */
export type ReportAnswer = { summary: ReportCaseSummary, people: Array<ReportPersonBlock>, transactions: Array<ReportTransactionRow>, communications: Array<ReportMessageRow>, hypotheses: Array<ReportHypothesisWords>, limitations: Array<ReportLimitation>, };

/**
 * A wallet or account attributed to a person by a control edge.
 */
export type ReportAttribution = { value: string, link_id: string, hypothesis_id: string, confidence: number, state: string, 
/**
 * The facts the hypothesis cites: `ph-… (source): title`.
 */
citing: Array<string>, };

/**
 * The case in a few lines: the question, what was examined, how it was run.
 */
export type ReportCaseSummary = { 
/**
 * The question the case asks (its title).
 */
question: string, examiner: string, sources: Array<ReportSourceVerdict>, 
/**
 * How many things could not be read (listed under limitations).
 */
not_read: number, 
/**
 * The tool and its version.
 */
tool: string, 
/**
 * When the report was written (RFC 3339, UTC).
 */
generated_at: string, 
/**
 * `completed`, `paused`, … and why the run ended.
 */
run_state: string, run_reason: string, 
/**
 * The agents that recorded phenomena, each with its model when an LLM agent did.
 */
agents: Array<string>, 
/**
 * What the run used of each budget, in words (`tool calls 895 of 20000 (4%)`;
 * report.json's `generated.budgets` has the numbers).
 */
budgets: Array<string>, };

/**
 * A device (an evidence source) a person used: the ownership hypothesis about it.
 */
export type ReportDeviceUse = { source_id: string, label: string, 
/**
 * The devices recorded in it (model, serials).
 */
devices: Array<string>, hypothesis_id: string | null, confidence: number | null, status: string | null, };

/**
 * One rendering of the report.
 */
export type ReportFormat = "html" | "md" | "json" | "case_jsonld";

/**
 * A hypothesis put in words.
 */
export type ReportHypothesisWords = { id: string, kind: string, 
/**
 * The statement with every entity named (person, identifier, source).
 */
statement: string, confidence: number, status: string, supporting: Array<string>, contradicting: Array<string>, 
/**
 * What evidence would change it.
 */
would_change: string, };

/**
 * One limitation of the examination.
 */
export type ReportLimitation = { 
/**
 * `unread`, `encrypted`, `unparsed`, `not_examined`, `time_zone`, `time`.
 */
kind: string, source_id: string, text: string, };

/**
 * A message between people of the case.
 */
export type ReportMessageRow = { time: string | null, utc: string | null, source_id: string, phenomenon_id: string, 
/**
 * The person whose device holds it (the source's owner), when known.
 */
holder: string | null, 
/**
 * `sent`, `received` or empty.
 */
direction: string, 
/**
 * The other party: its identifier and, when attributed, the person.
 */
counterpart: string, counterpart_person: string | null, text: string, };

/**
 * One actor as a person of the case.
 */
export type ReportPersonBlock = { actor_id: string, 
/**
 * A readable name: the case person it is, else the actor's label, else its best
 * identifier.
 */
label: string, 
/**
 * The case person (case.yaml `persons`) it was matched to, and how.
 */
case_person: string | null, matched_by: string | null, identifiers: Array<ReportPersonIdentifier>, devices: Array<ReportDeviceUse>, wallets: Array<ReportAttribution>, 
/**
 * Links touching it that no examiner has decided yet, and coreference hypotheses about
 * its entities still below the threshold.
 */
pending: Array<string>, 
/**
 * The examiner's approvals and retractions on its links, with reasons.
 */
decisions: Array<string>, };

/**
 * An identifier of a person and the sources it was seen in.
 */
export type ReportPersonIdentifier = { type: string, value: string, sources: Array<string>, };

/**
 * One source and its integrity verdict.
 */
export type ReportSourceVerdict = { id: string, label: string, detected_type: string, 
/**
 * The case person declared as its owner, by name.
 */
owner: string | null, 
/**
 * `unchanged since intake`, `CHANGED since intake` or `not re-checked`.
 */
integrity: string, };

/**
 * An amount, wallet or transaction hash seen in a screenshot, a message or a document.
 */
export type ReportTransactionRow = { time: string | null, utc: string | null, source_id: string, phenomenon_id: string, title: string, amounts: Array<string>, wallets: Array<string>, tx_hashes: Array<string>, 
/**
 * The people its wallets or identifiers are attributed to.
 */
people: Array<string>, };

/**
 * What [`write_report`] wrote.
 */
export type ReportWritten = { dir: string, files: Written, outputs: PublishedOutputs, phenomena: number, hypotheses: number, actors: number, timeline: number, not_read: number, };

/**
 * A re-run's outcome: `match` or not, with both hashes.
 */
export type RerunView = { invocation_id: string, 
/**
 * `match`, `rerun_differs`, `stored_output_altered`, `rerun_failed`, `not_reproducible`.
 */
verdict: string, matched: boolean, expected_sha256: string, actual_sha256: string | null, detail: string | null, };

/**
 * A rescued citation: what the agent cited and why it did not ground the value.
 */
export type Rescue = { cited: string, problem: CitationProblem, };

/**
 * How a run ended, sent as `run-finished`.
 */
export type RunFinished = { 
/**
 * `completed`, `paused`, `halted_budget`, `failed` …
 */
state: string, error: ApiError | null, problems: Array<string>, report: ReportWritten | null, };

/**
 * The run's lifecycle, folded from the events.
 */
export type RunProjection = { 
/**
 * The last state, `None` before the first run.
 */
state: RunState | null, 
/**
 * Segments opened so far.
 */
segments: number, 
/**
 * Seconds of the closed segments of the current run (a run ends at `completed`; a later
 * `masf run` starts a new one with fresh budgets).
 */
wall_seconds: number, 
/**
 * Invocations logged before the current run began.
 */
run_base_invocations: number, 
/**
 * The seq of the event that began the current run (its first segment).
 */
run_start_seq: number, 
/**
 * The seq of the event that opened the current segment.
 */
segment_seq: number, 
/**
 * Seq of the last pause request.
 */
pause_seq: number | null, 
/**
 * The examiner's grants.
 */
grants: Array<BudgetGranted>, 
/**
 * Budget warnings already given.
 */
warnings: Array<BudgetWarning>, 
/**
 * The last state change.
 */
last: RunStateChanged | null, 
/**
 * The last run lease taken: who ran (or runs) the case.
 */
lease: Holder | null, };

/**
 * Where a run stands.
 */
export type RunState = "active" | "paused" | "halted_budget" | "completed" | "failed";

/**
 * A state change of the run.
 */
export type RunStateChanged = { 
/**
 * The new state.
 */
state: RunState, 
/**
 * The segment (1 for the first `masf run`, +1 for each resume).
 */
segment: number, 
/**
 * The phase the run was in.
 */
phase: string, 
/**
 * Why.
 */
reason: string, 
/**
 * Seconds the segment ran (on closing states).
 */
wall_seconds: number, 
/**
 * Invocations logged before the segment opened (on `active`), so that a run's tool-call
 * usage survives a kill.
 */
invocations_before: number, };

/**
 * One examiner decision on a `same_as` edge.
 */
export type SameAsDecision = { decision: Decision, by: string, at: string, reason: string, };

/**
 * One `same_as` edge between two entities.
 */
export type SameAsRow = { id: string, 
/**
 * `coreference` (a and b are one actor) or `control` (the wallet is controlled by the
 * person).
 */
relation: string, a: string, b: string, hypothesis_id: string, confidence: number, 
/**
 * `live`, `dormant`, `approved`, `retracted`.
 */
state: string, 
/**
 * The examiner's decisions on it, in order.
 */
decisions: Array<SameAsDecision>, };

/**
 * One hit of `masf search`, with its source and the invocation that found it.
 */
export type SearchHit = { source_id: string, invocation_id: string, layer: string, path: string, 
/**
 * Where inside the file, beyond its bytes: `table messages rowid 7`, an Office part.
 */
locator: string, 
/**
 * The reading that gave the text: `text`, `strings`, `office`, `plist`, `sqlite_row`.
 */
kind: string, 
/**
 * The text's encoding in the file (`-` where it is no byte decoding).
 */
encoding: string, 
/**
 * Byte offset of the match in the file, where the text is a decoding of its bytes.
 */
offset: number | null, 
/**
 * The column of an SQLite row, the part of an Office file.
 */
label: string | null, deleted: boolean, 
/**
 * Modification time, Unix seconds, where the file system gives one as an instant.
 */
mtime: number | null, score: number, before: string, matched: string, after: string, };

/**
 * What the examiner asks `masf search` / the Search view for.
 */
export type SearchRequest = { query: string, mode: Mode, 
/**
 * Only these sources (all when empty).
 */
sources: Array<string>, 
/**
 * RFC 3339 bounds of the files' modification times.
 */
from?: string, to?: string, limit?: number, };

/**
 * What `masf search` found.
 */
export type SearchResult = { hits: Array<SearchHit>, 
/**
 * Sources searched, each with its `search_index` invocation.
 */
searched: Array<Searched>, 
/**
 * Sources without an index (run `masf index`), or whose search failed, with why.
 */
not_searched: Array<NotSearched>, };

/**
 * A source searched, and the `search_index` invocation that did it.
 */
export type Searched = { source_id: string, invocation_id: string, };

/**
 * One dropped or picked path, sniffed by content: what the case editor shows before saving.
 */
export type SourceDraft = { path: string, 
/**
 * The evidence type sniffed from the content (`disk_image`, `android_disk` …), if readable.
 */
detected_type: string | null, 
/**
 * Why the type was chosen.
 */
reasons: Array<string>, 
/**
 * `single`, `segments`, `folder` …
 */
files_kind: string | null, files: Array<string>, size: number, layers: Array<LayerView>, 
/**
 * A source id derived from the file name (`usb.E01` → `src-usb-e01`), unique in this batch.
 */
suggested_id: string, 
/**
 * The file name.
 */
suggested_label: string, 
/**
 * Why the path could not be sniffed (it is still listed, so the examiner sees it).
 */
error: ApiError | null, };

/**
 * A source of the case as the editor holds it.
 */
export type SourceEntryDraft = { id: string, label: string, 
/**
 * Absolute, or relative to `dir`; written relative to `dir` when it lies below it.
 */
path: string, owner?: string | null, 
/**
 * IANA zone; none or the case's zone writes no `timezone:` line.
 */
timezone?: string | null, 
/**
 * Phone-numbering region (ISO 3166-1 alpha-2) for this source; none or the case's writes
 * no `region:` line.
 */
region?: string | null, 
/**
 * The environment variable that holds an encrypted backup's password (`password_env:`):
 * its name, never the password; none or blank writes no line.
 */
password_env?: string | null, };

/**
 * One evidence source: as declared, as registered at intake, and as re-checked now.
 */
export type SourceSection = { id: string, label: string, path: string, owner: string | null, timezone: string, detected_type: string | null, detection_reasons: Array<string>, 
/**
 * Total size of its files.
 */
size: number, 
/**
 * SHA-256 / MD5 of the evidence when it is one file (several files: see `integrity`).
 */
sha256: string | null, md5: string | null, 
/**
 * The layer stack (`masf inspect`'s layers).
 */
layers: Array<JsonValue>, 
/**
 * Hashes at intake and now, per file; EWF stored-hash checks.
 */
integrity: Integrity, 
/**
 * The plugin and agent that triaged it.
 */
triaged_by: string | null, 
/**
 * What came of each artefact the examining plugins look for (parsed, could not parse,
 * not present, …), one table per plugin.
 */
coverage: Array<ArtefactCoverage>, };

/**
 * One source of the case: as declared, and as registered by intake.
 */
export type SourceStatus = { id: string, label: string, path: string, owner: string | null, timezone: string, registered: boolean, 
/**
 * Why intake could not register it (the last attempt), when it is not registered.
 */
intake_error?: string, 
/**
 * The evidence type sniffed at intake, and why.
 */
detected_type: string | null, detection_reasons: Array<string>, 
/**
 * EWF images: media hashes at intake against the stored ones.
 */
media: MediaIntegrity | null, files: Array<FileDigest>, 
/**
 * The environment variable named to hold an encrypted backup's password
 * (`password_env:`), and whether this process has a password for it (exported, or typed
 * in the desktop app); the password itself is never part of any view.
 */
password_env?: string, password_available: boolean, };

/**
 * What the agents recorded for one source.
 */
export type SourceTally = { source_id: string, phenomena: number, invocations: number, failed_invocations: number, };

/**
 * A byte range `[start, end)` in an invocation's text output.
 */
export type Span = { start: number, end: number, };

/**
 * The case's status as the app shows it: the case and its sources, the run, the budget now,
 * and what was found per source.
 */
export type StatusView = { case_file: string, work_dir: string, 
/**
 * Usage against the caps (raised by grants), with the 70 / 90 % warning levels reached.
 */
budget: BudgetStatus, tallies: Array<SourceTally>, 
/**
 * Whether a run is going in this app.
 */
running: boolean, case_id: string, title: string, examiner: string, timezone: string, store: string, events: number, sources: Array<SourceStatus>, 
/**
 * The run lifecycle: last state, segments, grants, budget warnings, the last lease.
 */
run: RunProjection, 
/**
 * The store's consistency check ([`status_checked`]; absent from [`status`]).
 */
consistency?: Consistency, };

/**
 * An event as stored.
 */
export type StoredEvent = { 
/**
 * Position in the log, increasing from 1.
 */
seq: number, 
/**
 * See [`NewEvent::kind`].
 */
kind: string, 
/**
 * See [`NewEvent::payload`].
 */
payload: JsonValue, 
/**
 * See [`NewEvent::actor_kind`].
 */
actor_kind: ActorKind, 
/**
 * See [`NewEvent::actor_id`].
 */
actor_id: string, 
/**
 * See [`NewEvent::idempotency_key`].
 */
idempotency_key: string, 
/**
 * See [`NewEvent::causation_seq`].
 */
causation_seq: number | null, 
/**
 * See [`NewEvent::ts`].
 */
ts: string, 
/**
 * See [`NewEvent::versions`].
 */
versions: { [key in string]: string }, };

/**
 * One item of the stream.
 */
export type StreamItem = { "stream": "event" } & StoredEvent | { "stream": "invocation" } & InvocationRecord;

/**
 * Strong (unique by construction) or weak (names).
 */
export type Strength = "strong" | "weak";

/**
 * One tag on an item.
 */
export type TagRow = { 
/**
 * The tag.
 */
tag: string, 
/**
 * Who put it on.
 */
by: string, 
/**
 * When (RFC 3339).
 */
at: string, 
/**
 * Why (may be empty).
 */
reason: string, };

/**
 * One item the examiner tagged, bookmarked or wrote a note on.
 */
export type TaggedRow = { 
/**
 * The target as `masf tag` takes it (`ph-000012`, `ph-000012#fact2`, `ent-000003`,
 * `actor-000003`, `ph-000012#time1`, `src-usb:/DCIM/a.jpg`).
 */
target: string, 
/**
 * `phenomenon`, `fact`, `entity`, `actor`, `timeline_entry` or `file`.
 */
kind: string, 
/**
 * What it is, in words: from the graph now, else as recorded when it was marked.
 */
what: string, 
/**
 * False when the graph no longer holds it (after a rebuild renumbered its records, or an
 * actor regrouped): `what` is then the description recorded when it was marked.
 */
present: boolean, 
/**
 * The source it comes from, when it has one.
 */
source_id?: string, 
/**
 * The phenomenon it is or is part of, when it is one.
 */
phenomenon_id?: string, 
/**
 * Its tags in effect.
 */
tags: Array<TagRow>, 
/**
 * Its bookmark, when bookmarked.
 */
bookmark: BookmarkRow | null, 
/**
 * Its notes in effect, oldest first.
 */
notes: Array<NoteRow>, };

/**
 * The examiner's marks: the tags to offer and every marked item (after a mark, or now).
 */
export type TagsView = { 
/**
 * The defaults, then every other tag used in the case.
 */
offered: Array<string>, 
/**
 * Every item tagged, bookmarked or noted, with who and when.
 */
items: Array<TaggedRow>, };

/**
 * A range of `output_text` in UTF-16 code units, end exclusive.
 */
export type TextSpan = { start: number, end: number, };

/**
 * The merged timeline of a case.
 */
export type Timeline = { 
/**
 * The display zone (case.yaml `case.timezone`).
 */
case_zone: string, 
/**
 * The entries, in timeline order.
 */
entries: Array<TimelineEntry>, 
/**
 * How many entries could not be converted.
 */
unconvertible: number, 
/**
 * How many naive times fell in a DST gap or fold.
 */
ambiguous: number, };

/**
 * One event on the timeline. Field names follow plaso/Timesketch where they have one
 * (`datetime`, `timestamp`, `timestamp_desc`, `message`, `source`).
 */
export type TimelineEntry = { 
/**
 * ISO 8601 in UTC with microseconds (`2025-02-18T13:40:00.000000+00:00`); none when
 * unconvertible.
 */
datetime: string | null, 
/**
 * Microseconds since 1970-01-01 UTC; none when unconvertible.
 */
timestamp: number | null, 
/**
 * What happened at that time (`Message sent`, `Content Modification Time`).
 */
timestamp_desc: string, 
/**
 * The phenomenon's title.
 */
message: string, 
/**
 * The source's label.
 */
source: string, 
/**
 * The source's id in the case.
 */
source_id: string, 
/**
 * The phenomenon the time belongs to.
 */
phenomenon_id: string, 
/**
 * The entry's id as `masf tag` takes it: the phenomenon and the mark's position among its
 * time marks, from 1 (`ph-000012#time1`).
 */
entry: string, 
/**
 * The agent that recorded it.
 */
agent: string, 
/**
 * Its artefact category.
 */
category: string, 
/**
 * The value exactly as the tool printed it.
 */
raw_value: string, 
/**
 * Its encoding (`apple_nanos`, `fat_local`, …).
 */
raw_encoding: string, 
/**
 * The zone the value was read in (`UTC`, `+08:00`, `Asia/Hong_Kong`).
 */
zone: string, 
/**
 * The UTC instant, RFC 3339 at full precision.
 */
utc: string | null, 
/**
 * The instant in the case's display zone, RFC 3339 with that zone's offset.
 */
case_time: string | null, 
/**
 * The case's display zone.
 */
case_zone: string, 
/**
 * Set when the examiner must look (DST gap or fold, unconvertible).
 */
flag: Flag | null, 
/**
 * Why the flag is set, in words.
 */
note: string | null, 
/**
 * For a DST gap or fold: the other possible UTC instant.
 */
alternative: string | null, 
/**
 * The phenomenon's other facts.
 */
context: Array<ContextFact>, };

/**
 * A timeline request as the UI sends it (see [`crate::TimelineQuery`]).
 */
export type TimelineRequest = { sources?: Array<string>, from?: string | null, to?: string | null, actor?: string | null, 
/**
 * Only entries the examiner's tag selects.
 */
tag?: string | null, };

/**
 * One timeline entry, in the report's contract.
 */
export type TimelineRow = { utc: string | null, case_time: string | null, source_id: string, raw: string, encoding: string, zone: string, description: string, phenomenon_id: string, message: string, 
/**
 * The message or event text the phenomenon recorded (its `text` facts), when it has any.
 */
text?: string, flag: string | null, note: string | null, };

/**
 * [`why`]'s answer.
 */
export type Why = { link: LinkView, evidence: Array<ExplainedEvidence>, 
/**
 * The invocations the facts cite, by id.
 */
invocations: { [key in string]: WhyInvocation }, };

/**
 * A logged tool invocation, briefly.
 */
export type WhyInvocation = { 
/**
 * The tool.
 */
tool: string, 
/**
 * Its arguments (JSON).
 */
args: string, 
/**
 * The source it ran on.
 */
source_id: string, 
/**
 * ok, failed, timed_out, …
 */
status: string, 
/**
 * The SHA-256 of its output.
 */
output_sha256: string, };

/**
 * A stream cursor as it crosses the IPC (the same fields as [`Cursor`]).
 */
export type WireCursor = { event_seq: number, invocation_seq: number, };

/**
 * The files written.
 */
export type Written = { json: string, html: string, markdown: string, 
/**
 * `report.case.jsonld`: the report as CASE 1.5 JSON-LD (`case_uco`).
 */
case_jsonld: string, 
/**
 * How many pages of report.html's long tables were written (in `report-pages/`).
 */
html_pages: number, };

/** Each IPC command: its arguments (as `invoke` passes them) and its result. */
export type Commands = {
  intake_paths: { args: { paths: Array<string> }; result: Array<SourceDraft> };
  hash_sources: { args: { paths: Array<string> }; result: Array<FileHash> };
  check_case_draft: { args: { draft: CaseDraft }; result: Array<DraftProblem> };
  save_case: { args: { draft: CaseDraft }; result: string };
  open_case: { args: { path: string }; result: CaseSummary };
  case_status: { args: Record<string, never>; result: StatusView };
  start_run: { args: Record<string, never>; result: null };
  pause_run: { args: { reason: string }; result: null };
  give_backup_password: { args: { source: string; password: string }; result: null };
  resume_run: { args: { grants: { [key in string]: number } }; result: null };
  events_since: { args: { cursor: WireCursor; limit: number | null }; result: EventPage };
  report_model: { args: Record<string, never>; result: Report };
  invocation: { args: { id: string; fact: FactQuery | null }; result: InvocationView };
  rerun_invocation: { args: { id: string }; result: RerunView };
  same_as_links: { args: Record<string, never>; result: Array<LinkView> };
  actors: { args: Record<string, never>; result: Array<Actor> };
  why_link: { args: { id: string }; result: Why };
  approve_link: { args: { id: string; reason: string | null }; result: LinksAndActors };
  retract_link: { args: { id: string; reason: string }; result: LinksAndActors };
  tags: { args: Record<string, never>; result: TagsView };
  mark_item: { args: { target: string; act: MarkAct; reason: string | null }; result: TagsView };
  withdraw_note: { args: { id: string; reason: string | null }; result: TagsView };
  build_index: { args: { rebuild: boolean }; result: Array<Indexed> };
  search: { args: { request: SearchRequest }; result: SearchResult };
  timeline: { args: { query: TimelineRequest }; result: Timeline };
  export_report: { args: { dir: string; formats: Array<ReportFormat> }; result: Exported };
  pick_files: { args: Record<string, never>; result: Array<string> };
  pick_folder: { args: Record<string, never>; result: string | null };
};

/** Each event the shell emits: its payload. */
export type Events = {
  "run-event": Array<StreamItem>;
  "run-finished": RunFinished;
  "intake-progress": IntakeProgress;
  "intake-dropped": Array<SourceDraft>;
};
