// How fast the Live run view's log folds and filters a large run: the figures the unit tests
// used to bound (`run.test.ts` checks the behaviour only). `npm run bench` prints each case's
// time per iteration; compare them between builds on the same machine, not with a fixed bound.
import { bench, describe } from "vitest";
import { filterRows, RunLog } from "./run";

const inv = (seq: number, agent: string, source: string) => ({
  stream: "invocation", seq, invocation_id: `inv-${String(seq).padStart(6, "0")}`, source_id: source,
  tool: "sqlite_query", args: '{"db":"AddressBook.sqlitedb","sql":"SELECT 1"}', status: "ok", agent,
  task_id: "t", ts: "2026-11-30T18:00:00Z",
});

const N = 100_000;
const items = Array.from({ length: N }, (_, k) => inv(k + 1, k % 2 ? "a" : "b", k % 3 ? "s1" : "s2"));
const full = new RunLog();
full.pushAll(items);

describe("run log, 100,000 tool calls", () => {
  bench("push one at a time", () => {
    const log = new RunLog();
    for (const i of items) log.push(i);
  }, { iterations: 5 });
  bench("filter by agent", () => {
    filterRows(full.rows, { tone: "", agent: "a", source: "" });
  }, { iterations: 20 });
});
