// Live run logic: folds the backend's event stream (StreamItem JSON: `{stream: "event", seq,
// kind, payload, actor_id, ts, ..}` or `{stream: "invocation", seq, invocation_id, tool, agent,
// source_id, status, ..}`) into compact rows and per-source / per-agent tallies. Rows are kept
// in one growing array (O(1) per item), so 100,000 items stay cheap; the list view windows them.

export type RowTone = "info" | "finding" | "reject" | "warn" | "state" | "hypothesis" | "lead" | "round" | "call";

export interface RunRow {
  n: number; // position in the stream as received, 0-based
  stream: "event" | "invocation";
  seq: number;
  kind: string; // event kind, or "ToolCall"
  agent: string;
  source: string;
  text: string;
  tone: RowTone;
  ts: string;
  invocationId: string | null;
}

export interface Tally {
  calls: number;
  findings: number;
  rejections: number;
  last: string; // text of the last row that touched it
}

export interface BudgetWarningSeen {
  counter: string;
  level: number;
  used: number;
  cap: number;
}

type Json = Record<string, unknown>;

function obj(v: unknown): Json {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {};
}
function str(v: unknown): string {
  return typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : "";
}
function num(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}

function compactArgs(args: unknown): string {
  let a: unknown = args;
  if (typeof args === "string") {
    try {
      a = JSON.parse(args);
    } catch {
      return args.length > 80 ? `${args.slice(0, 79)}…` : args;
    }
  }
  const o = obj(a);
  const parts = Object.entries(o).map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`);
  const s = parts.join(" ");
  return s.length > 100 ? `${s.slice(0, 99)}…` : s;
}

/** Turns one stream item into a row. Unknown shapes still become a row (kind "?"). */
export function toRow(item: unknown, n: number): RunRow {
  const it = obj(item);
  if (it.stream === "invocation") {
    const status = str(it.status);
    return {
      n,
      stream: "invocation",
      seq: num(it.seq),
      kind: "ToolCall",
      agent: str(it.agent),
      source: str(it.source_id),
      text: `${str(it.tool)}(${compactArgs(it.args)})${status && status !== "ok" ? ` → ${status}` : ""}${it.reason ? `: ${str(it.reason)}` : ""}`,
      tone: status && status !== "ok" ? "warn" : "call",
      ts: str(it.ts),
      invocationId: str(it.invocation_id) || null,
    };
  }
  const kind = str(it.kind) || "?";
  const p = obj(it.payload);
  const actor = str(it.actor_id);
  let agent = actor;
  let source = str(p.source_id);
  let text = "";
  let tone: RowTone = "info";
  switch (kind) {
    case "PhenomenonRecorded": {
      const ph = obj(p.phenomenon);
      agent = str(ph.agent) || actor;
      source = str(ph.source_id);
      text = `${str(ph.id)} [${str(ph.category)}] ${str(ph.title)}`;
      tone = "finding";
      break;
    }
    case "PhenomenonRejected":
    case "RequestRejected": {
      const rj = obj(p.rejection);
      agent = str(rj.by) || actor;
      const req = obj(rj.request);
      source = source || str(req.source_id);
      text = `${str(rj.call)} ${str(rj.code)}: ${str(rj.reason)}`;
      tone = "reject";
      break;
    }
    case "HypothesisAdded":
      text = `${str(p.id)} ${str(p.statement)}`;
      agent = str(p.proposed_by) || actor;
      tone = "hypothesis";
      break;
    case "EdgeLinked":
      text = `${str(p.hypothesis_id)} ← ${str(p.phenomenon_id)} (${str(p.edge_type)})`;
      agent = str(p.linked_by) || actor;
      tone = "hypothesis";
      break;
    case "IdentityObserved": {
      const id = obj(p.identifier);
      text = `${str(p.entity_id)} ${str(id.id_type) || str(id.type)} ${str(id.value)} (${str(p.label)})`;
      break;
    }
    case "SameAsApproved":
    case "SameAsRetracted":
      text = `${str(p.edge_id)} ${str(p.by)}: ${str(p.reason)}`;
      tone = "hypothesis";
      break;
    case "LeadProposed": {
      const l = obj(p.lead);
      text = `${str(l.id)} → ${str(l.target_agent)} @ ${str(l.source_id)}: ${str(l.rationale)}`;
      source = str(l.source_id);
      tone = "lead";
      break;
    }
    case "LeadStatusChanged":
      text = `${str(p.lead_id)} ${str(p.status)} ${str(p.note)}`;
      tone = "lead";
      break;
    case "RoundStarted":
      text = `#${str(p.number)}`;
      tone = "round";
      break;
    case "RoundCompleted":
      text = `#${str(p.number)}: ${str(p.rationale)}`;
      tone = "round";
      break;
    case "RunState":
      text = `${str(p.state)} ${str(p.phase)} ${str(p.reason)}`.trim();
      tone = "state";
      break;
    case "BudgetWarning":
      text = `${str(p.counter)} ${Math.round(num(p.level) * 100)}% (${num(p.used)}/${num(p.cap)})`;
      tone = "warn";
      break;
    case "BudgetGranted":
      text = `${str(p.counter)} +${num(p.amount)} ${str(p.reason)}`;
      tone = "state";
      break;
    case "ArtefactUnparsed":
      agent = str(p.agent) || actor;
      text = `${str(p.artefact)}: ${str(p.reason)}`;
      tone = "warn";
      break;
    case "SourceAdded":
      text = `${str(p.source_id)}`;
      break;
    default:
      text = JSON.stringify(p).slice(0, 160);
  }
  return { n, stream: "event", seq: num(it.seq), kind, agent, source, text, tone, ts: str(it.ts), invocationId: null };
}

export class RunLog {
  readonly rows: RunRow[] = [];
  readonly bySource = new Map<string, Tally>();
  readonly byAgent = new Map<string, Tally>();
  readonly byKind = new Map<string, number>();
  readonly warnings: BudgetWarningSeen[] = [];
  state = "";
  /** Highest seq seen per stream: duplicates (catch-up overlapping live events) are dropped. */
  private lastSeq = { event: 0, invocation: 0 };
  /** Bumped on every change so views can memoise on it. */
  version = 0;

  private tally(m: Map<string, Tally>, key: string): Tally | null {
    if (!key) return null;
    let t = m.get(key);
    if (!t) {
      t = { calls: 0, findings: 0, rejections: 0, last: "" };
      m.set(key, t);
    }
    return t;
  }

  /** Adds one item; returns false when it was already seen (same stream and seq). */
  push(item: unknown): boolean {
    const it = obj(item);
    const stream = it.stream === "invocation" ? "invocation" : "event";
    const seq = num(it.seq);
    if (seq > 0) {
      if (seq <= this.lastSeq[stream]) return false;
      this.lastSeq[stream] = seq;
    }
    const row = toRow(item, this.rows.length);
    this.rows.push(row);
    this.byKind.set(row.kind, (this.byKind.get(row.kind) ?? 0) + 1);
    for (const t of [this.tally(this.bySource, row.source), this.tally(this.byAgent, row.agent)]) {
      if (!t) continue;
      if (row.kind === "ToolCall") t.calls += 1;
      else if (row.tone === "finding") t.findings += 1;
      else if (row.tone === "reject") t.rejections += 1;
      t.last = row.text;
    }
    if (row.kind === "RunState") this.state = str(obj(it.payload).state);
    if (row.kind === "BudgetWarning") {
      const p = obj(it.payload);
      this.warnings.push({ counter: str(p.counter), level: num(p.level), used: num(p.used), cap: num(p.cap) });
    }
    this.version += 1;
    return true;
  }

  pushAll(items: readonly unknown[]): number {
    let added = 0;
    for (const i of items) if (this.push(i)) added += 1;
    return added;
  }
}

export type RowFilter = { tone: RowTone | ""; agent: string; source: string };

/** Indices of the rows that pass the filter (the full range when nothing is filtered). */
export function filterRows(rows: readonly RunRow[], f: RowFilter): number[] | null {
  if (!f.tone && !f.agent && !f.source) return null;
  const out: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    if (!r) continue;
    if (f.tone && r.tone !== f.tone) continue;
    if (f.agent && r.agent !== f.agent) continue;
    if (f.source && r.source !== f.source) continue;
    out.push(i);
  }
  return out;
}
