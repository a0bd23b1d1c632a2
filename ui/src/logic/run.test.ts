import { describe, expect, it } from "vitest";
import { filterRows, RunLog, toRow } from "./run";

const inv = (seq: number, agent = "ios-triage", source = "src-iphone") => ({
  stream: "invocation", seq, invocation_id: `inv-${String(seq).padStart(6, "0")}`, source_id: source,
  tool: "sqlite_query", args: '{"db":"AddressBook.sqlitedb","sql":"SELECT 1"}', status: "ok", agent,
  task_id: "t", ts: "2026-11-30T18:00:00Z",
});
const ev = (seq: number, kind: string, payload: unknown, actor_id = "ios-triage") => ({
  stream: "event", seq, kind, payload, actor_kind: "agent", actor_id, ts: "2026-11-30T18:00:00Z",
});

describe("run log", () => {
  it("turns stream items into rows with agent, source and tone", () => {
    const c = toRow(inv(1), 0);
    expect(c).toMatchObject({ kind: "ToolCall", agent: "ios-triage", source: "src-iphone", tone: "call", invocationId: "inv-000001" });
    expect(c.text).toContain("sqlite_query(db=AddressBook.sqlitedb");
    const f = toRow(ev(1, "PhenomenonRecorded", { phenomenon: { id: "ph-000001", source_id: "src-usb", agent: "disk-triage", category: "files", title: "3 files" } }), 1);
    expect(f).toMatchObject({ tone: "finding", agent: "disk-triage", source: "src-usb" });
    const rj = toRow(ev(2, "PhenomenonRejected", { rejection: { call: "record_phenomenon", by: "llm-x", code: "grounding_failed", reason: "value not in output", request: { source_id: "src-usb" } } }), 2);
    expect(rj).toMatchObject({ tone: "reject", agent: "llm-x", source: "src-usb" });
    expect(rj.text).toContain("value not in output");
    expect(toRow(ev(3, "BudgetWarning", { counter: "tool_calls", level: 0.7, used: 70, cap: 100 }), 3).text).toBe("tool_calls 70% (70/100)");
    expect(toRow({ nonsense: true }, 4).kind).toBe("?");
  });
  it("tallies per source and agent, drops duplicates by seq, follows run state and warnings", () => {
    const log = new RunLog();
    log.push(ev(1, "RunState", { state: "active", phase: "triage", reason: "" }, "orchestrator"));
    log.push(inv(1));
    log.push(inv(2));
    expect(log.push(inv(2))).toBe(false); // catch-up overlap
    log.push(ev(2, "PhenomenonRecorded", { phenomenon: { id: "ph-1", source_id: "src-iphone", agent: "ios-triage" } }));
    log.push(ev(3, "BudgetWarning", { counter: "tool_calls", level: 0.9, used: 90, cap: 100 }, "orchestrator"));
    expect(log.rows).toHaveLength(5);
    expect(log.bySource.get("src-iphone")).toMatchObject({ calls: 2, findings: 1, rejections: 0 });
    expect(log.byAgent.get("ios-triage")).toMatchObject({ calls: 2, findings: 1 });
    expect(log.state).toBe("active");
    expect(log.warnings).toEqual([{ counter: "tool_calls", level: 0.9, used: 90, cap: 100 }]);
  });
  it("takes 100,000 items and filters them", () => {
    // How fast is a benchmark's question (src/logic/run.bench.ts, `npm run bench`), not a test's.
    const log = new RunLog();
    for (let i = 1; i <= 100_000; i++) log.push(inv(i, i % 2 ? "a" : "b", i % 3 ? "s1" : "s2"));
    expect(log.rows).toHaveLength(100_000);
    const only = filterRows(log.rows, { tone: "", agent: "a", source: "" });
    expect(only).toHaveLength(50_000);
    expect(filterRows(log.rows, { tone: "", agent: "", source: "" })).toBeNull();
  });
});

describe("run log on the real demo stream (masf run --events jsonl)", () => {
  it("folds every item, with tallies equal to a direct count", async () => {
    const { fixtureText } = await import("../test/fixture");
    const items = fixtureText("demo-stream.jsonl")
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(items.length).toBe(424);
    const log = new RunLog();
    expect(log.pushAll(items)).toBe(424);
    expect(log.pushAll(items)).toBe(0); // the same items again (catch-up overlap) add nothing
    expect(log.rows.every((r) => r.kind !== "?" && r.text.length > 0)).toBe(true);
    const calls = items.filter((i) => i.stream === "invocation");
    expect(log.byKind.get("ToolCall")).toBe(calls.length);
    const perSource = new Map<string, number>();
    for (const c of calls) perSource.set(String(c.source_id), (perSource.get(String(c.source_id)) ?? 0) + 1);
    for (const [src, n] of perSource) expect(log.bySource.get(src)?.calls).toBe(n);
    const recorded = items.filter((i) => i.kind === "PhenomenonRecorded");
    const foundIos = recorded.filter((i) => (i.payload as { phenomenon: { agent: string } }).phenomenon.agent === "ios-triage").length;
    expect(log.byAgent.get("ios-triage")?.findings).toBe(foundIos);
    expect([...log.byAgent.values()].reduce((n, t) => n + t.findings, 0)).toBe(recorded.length);
    expect(log.byKind.get("ArtefactUnparsed")).toBe(2);
    expect(log.rows.find((r) => r.kind === "ArtefactUnparsed")?.tone).toBe("warn");
    expect(log.rows.find((r) => r.kind === "IdentityObserved")?.text).toContain("display_name");
    expect(log.state).toBe("completed");
  });
});
