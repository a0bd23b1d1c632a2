// The fact's value marked in its invocation's output. Where it stands is Rust's to say: the
// `invocation` command answers with the spans the grounding gateway's own matching finds
// (`HighlightView`, UTF-16 offsets into `output_text`); this only cuts the text at them. The
// result is plain text spans; the view renders them as text nodes (never as HTML).
import type { HighlightView } from "../generated/ipc";

export interface Span {
  text: string;
  hit: boolean;
}

/** `text` cut into plain and marked spans at `hl`'s ranges (clamped to the text, in order,
 * overlaps ignored); the spans joined give `text` back. */
export function spansOf(text: string, hl: HighlightView | null | undefined): Span[] {
  const out: Span[] = [];
  let last = 0;
  for (const r of hl?.spans ?? []) {
    const start = Math.max(last, Math.min(r.start, text.length));
    const end = Math.min(r.end, text.length);
    if (end <= start) continue;
    if (start > last) out.push({ text: text.slice(last, start), hit: false });
    out.push({ text: text.slice(start, end), hit: true });
    last = end;
  }
  if (last < text.length) out.push({ text: text.slice(last), hit: false });
  return out;
}

/** Index (in spans) of the first hit, for scrolling it into view. */
export function firstHit(spans: Span[]): number {
  return spans.findIndex((s) => s.hit);
}
