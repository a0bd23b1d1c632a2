// A windowed list: renders only the rows in view (see logic/virtual.ts), so 100,000 rows scroll
// smoothly. Keyboard: ↑/↓, PageUp/PageDown, Home/End move the selection; Enter (or a double
// click) activates.
// When scrolled to the end it stays pinned to the end as rows arrive ("follow").
import type { ComponentChildren } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { atBottom, scrollToIndex, windowRange } from "../logic/virtual";

export interface VirtualListProps {
  count: number;
  rowHeight: number;
  renderRow: (index: number, selected: boolean) => ComponentChildren;
  selected?: number | null;
  onSelect?: (index: number) => void;
  onActivate?: (index: number) => void;
  follow?: boolean;
  testid?: string;
  label: string;
}

export function VirtualList(p: VirtualListProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(400);
  const pinned = useRef(true);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setHeight(el.clientHeight || 400);
    measure();
    if (typeof ResizeObserver === "undefined") return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // keep following the tail when new rows arrive and the user sits at the bottom
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !p.follow || !pinned.current) return;
    const target = Math.max(0, p.count * p.rowHeight - el.clientHeight);
    if (Math.abs(el.scrollTop - target) > 1) {
      el.scrollTop = target;
      setScrollTop(target);
    }
  }, [p.count, p.follow, p.rowHeight]);

  const onScroll = () => {
    const el = ref.current;
    if (!el) return;
    pinned.current = atBottom(el.scrollTop, el.clientHeight, el.scrollHeight, p.rowHeight);
    setScrollTop(el.scrollTop);
  };

  const move = (to: number) => {
    const i = Math.max(0, Math.min(p.count - 1, to));
    p.onSelect?.(i);
    const el = ref.current;
    if (!el) return;
    const st = scrollToIndex(i, el.scrollTop, el.clientHeight, p.rowHeight);
    if (st !== null) {
      el.scrollTop = st;
      setScrollTop(st);
    }
  };

  useEffect(() => {
    if (p.selected !== null && p.selected !== undefined && p.selected >= p.count) p.onSelect?.(p.count - 1);
  }, [p.count]);

  // a selection made elsewhere (a timeline dot, a search) is scrolled into view
  useEffect(() => {
    const el = ref.current;
    if (!el || p.selected === null || p.selected === undefined) return;
    const st = scrollToIndex(p.selected, el.scrollTop, el.clientHeight || height, p.rowHeight);
    if (st !== null) {
      el.scrollTop = st;
      setScrollTop(st);
    }
  }, [p.selected]);

  const onKey = (e: KeyboardEvent) => {
    if (p.count === 0) return;
    const cur = p.selected ?? -1;
    const page = Math.max(1, Math.floor(height / p.rowHeight) - 1);
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(cur + 1),
      ArrowUp: () => move(cur - 1),
      PageDown: () => move(cur + page),
      PageUp: () => move(cur - page),
      Home: () => move(0),
      End: () => move(p.count - 1),
      Enter: () => cur >= 0 && p.onActivate?.(cur),
    };
    const f = keys[e.key];
    if (f) {
      e.preventDefault();
      f();
    }
  };

  const w = windowRange(scrollTop, height, p.rowHeight, p.count);
  const rows: ComponentChildren[] = [];
  for (let i = w.start; i < w.end; i++) {
    const sel = p.selected === i;
    rows.push(
      <div
        key={i}
        class={sel ? "vrow selected" : "vrow"}
        role="option"
        aria-selected={sel}
        data-index={i}
        style={{ height: `${p.rowHeight}px` }}
        onClick={() => p.onSelect?.(i)}
        onDblClick={() => p.onActivate?.(i)}
      >
        {p.renderRow(i, sel)}
      </div>,
    );
  }
  return (
    <div
      ref={ref}
      class="vlist"
      role="listbox"
      aria-label={p.label}
      tabIndex={0}
      data-testid={p.testid}
      data-count={p.count}
      data-rendered={w.end - w.start}
      onScroll={onScroll}
      onKeyDown={onKey}
    >
      <div style={{ height: `${w.padTop}px` }} />
      {rows}
      <div style={{ height: `${w.padBottom}px` }} />
    </div>
  );
}
