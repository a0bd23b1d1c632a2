import { describe, expect, it } from "vitest";
import { LogFeed } from "./feed";

const inv = (seq: number) => ({ stream: "invocation", seq, tool: "t", agent: "a", source_id: "s", status: "ok" });

describe("log feed", () => {
  it("notifies once per frame however many batches arrive", () => {
    const frames: (() => void)[] = [];
    const feed = new LogFeed((f) => frames.push(f));
    let heard = 0;
    feed.subscribe(() => heard++);
    for (let b = 0; b < 50; b++) feed.take([inv(b * 2 + 1), inv(b * 2 + 2)]);
    expect(frames).toHaveLength(1);
    frames.shift()?.();
    expect(heard).toBe(1);
    expect(feed.log.rows).toHaveLength(100);
  });
  it("holds live items during catch-up and merges them without duplicates", async () => {
    const frames: (() => void)[] = [];
    const feed = new LogFeed((f) => frames.push(f));
    const history = [1, 2, 3, 4, 5].map(inv);
    let calls = 0;
    await feed.catchUp(async (cursor) => {
      calls++;
      // a live batch overlapping the history arrives while the history is read
      feed.take([inv(5), inv(6)]);
      const from = cursor.invocation_seq;
      const items = history.slice(from, from + 3);
      return { items, cursor: { event_seq: 0, invocation_seq: from + items.length }, more: from + 3 < history.length };
    });
    expect(calls).toBe(2);
    expect(feed.log.rows.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
