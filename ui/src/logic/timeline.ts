// Timeline view logic: the rows the `timeline` command serves (filtered by actor, source and
// range in Rust, by the rule `masf timeline --actor` uses), a zoomable time viewport with "nice"
// ticks, and times shown in the case zone with the UTC instant on hover.
import type { Timeline, TimelineEntry, TimelineRequest } from "../generated/ipc";

/** What the toolbar holds: ids ("" = any) and `datetime-local` values read as UTC ("" = open). */
export interface TimelineFilter {
  actor: string;
  source: string;
  /** An examiner's tag ("" = any): Rust keeps the entries it selects (`masf timeline --tag`). */
  tag: string;
  from: string;
  to: string;
}

export const NO_TL_FILTER: TimelineFilter = { actor: "", source: "", tag: "", from: "", to: "" };

export interface TlRow {
  ms: number | null;
  entry: TimelineEntry;
}

export function parseUtc(s: string | null | undefined): number | null {
  if (!s) return null;
  const ms = Date.parse(s);
  return Number.isFinite(ms) ? ms : null;
}

/** A `datetime-local` value (`2024-05-21T09:30[:05]`) read as UTC, as RFC 3339; null when empty
 * or not a time. */
export function utcBound(v: string): string | null {
  if (!v) return null;
  const ms = Date.parse(`${v}Z`);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** The `timeline` command's request for the toolbar's filter. */
export function timelineRequest(f: TimelineFilter): TimelineRequest {
  return {
    sources: f.source ? [f.source] : [],
    actor: f.actor || null,
    tag: f.tag || null,
    from: utcBound(f.from),
    to: utcBound(f.to),
  };
}

/** The served entries in the order Rust gave them (by instant; unconvertible ones last),
 * each with its instant in ms. */
export function timelineRows(t: Timeline): TlRow[] {
  return t.entries.map((entry) => ({
    ms: entry.timestamp !== null ? Math.floor(entry.timestamp / 1000) : parseUtc(entry.utc),
    entry,
  }));
}

export interface Viewport {
  start: number;
  end: number;
}

export const MIN_SPAN_MS = 1000;

/** Extent of the dated rows, padded by 2 % each side (a single instant gets ±1 h). */
export function extent(rows: readonly TlRow[]): Viewport | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of rows)
    if (r.ms !== null) {
      lo = Math.min(lo, r.ms);
      hi = Math.max(hi, r.ms);
    }
  if (!Number.isFinite(lo)) return null;
  if (hi - lo < MIN_SPAN_MS) return { start: lo - 3_600_000, end: hi + 3_600_000 };
  const pad = (hi - lo) * 0.02;
  return { start: lo - pad, end: hi + pad };
}

/**
 * Zooms by `factor` (< 1 zooms in) keeping `anchor` (ms) at the same screen position, never
 * narrower than a second nor wider than `bounds` widened ×4.
 */
export function zoom(v: Viewport, factor: number, anchor: number, bounds: Viewport): Viewport {
  const span = v.end - v.start;
  const maxSpan = (bounds.end - bounds.start) * 4;
  const next = Math.min(maxSpan, Math.max(MIN_SPAN_MS, span * factor));
  const a = Math.min(v.end, Math.max(v.start, anchor));
  const ratio = span > 0 ? (a - v.start) / span : 0.5;
  const start = a - ratio * next;
  return { start, end: start + next };
}

export function pan(v: Viewport, fraction: number): Viewport {
  const d = (v.end - v.start) * fraction;
  return { start: v.start + d, end: v.end + d };
}

export function xOf(ms: number, v: Viewport, width: number): number {
  return ((ms - v.start) / (v.end - v.start)) * width;
}

export function msAt(x: number, v: Viewport, width: number): number {
  return v.start + (x / width) * (v.end - v.start);
}

const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const STEPS = [
  SEC, 5 * SEC, 15 * SEC, 30 * SEC, MIN, 5 * MIN, 15 * MIN, 30 * MIN, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR,
  DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY, 91 * DAY, 182 * DAY, 365 * DAY, 2 * 365 * DAY, 5 * 365 * DAY,
  10 * 365 * DAY,
];

/** Tick step (ms) giving about one tick per `pxPerTick` pixels. */
export function tickStep(v: Viewport, width: number, pxPerTick = 110): number {
  const want = ((v.end - v.start) / Math.max(1, width)) * pxPerTick;
  return STEPS.find((s) => s >= want) ?? STEPS[STEPS.length - 1] ?? DAY;
}

/** Tick instants within the viewport (aligned to the step in UTC). */
export function ticks(v: Viewport, width: number, pxPerTick = 110): number[] {
  const step = tickStep(v, width, pxPerTick);
  const out: number[] = [];
  for (let t = Math.ceil(v.start / step) * step; t <= v.end && out.length < 200; t += step) out.push(t);
  return out;
}

function parts(ms: number, zone: string, withSeconds: boolean): Record<string, string> {
  const f = new Intl.DateTimeFormat("en-CA", {
    timeZone: zone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: withSeconds ? "2-digit" : undefined,
    hourCycle: "h23",
  });
  const out: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(ms))) out[p.type] = p.value;
  return out;
}

/** The zone's offset from UTC at that instant, in minutes, computed from the zone's wall time. */
export function zoneOffsetMinutes(ms: number, zone: string): number {
  let p: Record<string, string>;
  try {
    p = parts(ms, zone, true);
  } catch {
    return 0;
  }
  const wall = Date.UTC(
    Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second),
  );
  return Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
}

export function offsetLabel(minutes: number): string {
  if (minutes === 0) return "UTC";
  const sign = minutes < 0 ? "-" : "+";
  const m = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
}

/** `2024-05-21 09:30:00 UTC+08:00` in the case zone (falls back to UTC for an unknown zone). */
export function formatInZone(ms: number, zone: string): string {
  let p: Record<string, string>;
  let z = zone;
  try {
    p = parts(ms, zone, true);
  } catch {
    z = "UTC";
    p = parts(ms, "UTC", true);
  }
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second} ${offsetLabel(zoneOffsetMinutes(ms, z))}`;
}

/** ISO 8601 UTC with a Z, seconds precision (milliseconds when present). */
export function formatUtc(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith(".000Z") ? `${iso.slice(0, 19)}Z` : iso;
}

/** Tick label in the case zone, as precise as the step needs. */
export function tickLabel(ms: number, step: number, zone: string): string {
  let p: Record<string, string>;
  try {
    p = parts(ms, zone, step < MIN);
  } catch {
    p = parts(ms, "UTC", step < MIN);
  }
  if (step >= 365 * DAY) return `${p.year}`;
  if (step >= 30 * DAY) return `${p.year}-${p.month}`;
  if (step >= DAY) return `${p.year}-${p.month}-${p.day}`;
  if (step >= MIN) return `${p.month}-${p.day} ${p.hour}:${p.minute}`;
  return `${p.hour}:${p.minute}:${p.second}`;
}

/** Counts of rows per pixel column bucket, for the density strip. */
export function density(rows: readonly TlRow[], v: Viewport, buckets: number): number[] {
  const out = new Array<number>(Math.max(1, buckets)).fill(0);
  const span = v.end - v.start;
  for (const r of rows) {
    if (r.ms === null || r.ms < v.start || r.ms > v.end) continue;
    const i = Math.min(out.length - 1, Math.floor(((r.ms - v.start) / span) * out.length));
    out[i] = (out[i] ?? 0) + 1;
  }
  return out;
}
