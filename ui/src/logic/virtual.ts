// Windowing for long lists (the live event list holds 100,000+ rows): only the rows in view,
// plus an overscan margin, are rendered; padding keeps the scrollbar honest.

export interface Window {
  start: number; // first rendered index (inclusive)
  end: number; // last rendered index (exclusive)
  padTop: number; // px above the first rendered row
  padBottom: number; // px below the last rendered row
}

export function windowRange(
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
  count: number,
  overscan = 8,
): Window {
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0, padTop: 0, padBottom: 0 };
  const top = Math.max(0, scrollTop);
  const first = Math.min(count - 1, Math.floor(top / rowHeight));
  const visible = Math.ceil(Math.max(0, viewportHeight) / rowHeight) + 1;
  const start = Math.max(0, first - overscan);
  const end = Math.min(count, first + visible + overscan);
  return { start, end, padTop: start * rowHeight, padBottom: (count - end) * rowHeight };
}

/** scrollTop that brings row `index` into view (minimal movement), or null if already visible. */
export function scrollToIndex(
  index: number,
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
): number | null {
  const top = index * rowHeight;
  if (top < scrollTop) return top;
  if (top + rowHeight > scrollTop + viewportHeight) return top + rowHeight - viewportHeight;
  return null;
}

/** True when the list is scrolled to (within one row of) its end: new rows keep it pinned. */
export function atBottom(scrollTop: number, viewportHeight: number, scrollHeight: number, rowHeight: number): boolean {
  return scrollTop + viewportHeight >= scrollHeight - rowHeight;
}
