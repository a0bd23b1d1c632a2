// The live run log shared by the app: items go in as they arrive; subscribers (the Live run
// view) hear about it at most once per animation frame, so a burst of 2,000 items costs one
// render, and views that do not show the stream never re-render because of it.
import { RunLog } from "./run";

type Schedule = (f: () => void) => unknown;

export class LogFeed {
  log = new RunLog();
  private subs = new Set<() => void>();
  private pending = false;
  private catchingUp = false;
  private buffered: unknown[] = [];

  constructor(private schedule: Schedule = defaultSchedule) {}

  subscribe(f: () => void): () => void {
    this.subs.add(f);
    return () => this.subs.delete(f);
  }

  private notify() {
    if (this.pending) return;
    this.pending = true;
    this.schedule(() => {
      this.pending = false;
      for (const f of this.subs) f();
    });
  }

  /** Live items (an array, or one item). Held back while a catch-up is reading the history. */
  take(payload: unknown) {
    const items = Array.isArray(payload) ? payload : [payload];
    if (this.catchingUp) {
      this.buffered.push(...items);
      return;
    }
    if (this.log.pushAll(items) > 0) this.notify();
  }

  /** Starts over (another case opened). */
  reset() {
    this.log = new RunLog();
    this.buffered = [];
    this.notify();
  }

  /**
   * Reads the history page by page, then lets the live items that arrived meanwhile in (the
   * log drops what the history already had, by seq).
   */
  async catchUp(page: (cursor: { event_seq: number; invocation_seq: number }) => Promise<{
    items: unknown[];
    cursor: { event_seq: number; invocation_seq: number };
    more: boolean;
  }>) {
    this.catchingUp = true;
    try {
      let cursor = { event_seq: 0, invocation_seq: 0 };
      for (let guard = 0; guard < 100_000; guard++) {
        const p = await page(cursor);
        this.log.pushAll(p.items);
        cursor = p.cursor;
        if (!p.more) break;
        this.notify();
      }
    } finally {
      this.catchingUp = false;
      this.log.pushAll(this.buffered.splice(0));
      this.notify();
    }
  }
}

function defaultSchedule(f: () => void): unknown {
  return typeof requestAnimationFrame === "function" ? requestAnimationFrame(f) : setTimeout(f, 16);
}
