// Budget gauges: a fraction used and the warning level it has crossed (70 % and 90 % by default,
// the thresholds the run's BudgetWarning events use).

export type GaugeLevel = "ok" | "warn" | "critical" | "exhausted";

export interface Gauge {
  name: string;
  used: number;
  cap: number;
  fraction: number; // 0..1 (clamped for drawing)
  percent: number; // rounded, may exceed 100
  level: GaugeLevel;
}

export const DEFAULT_WARN_AT: readonly number[] = [0.7, 0.9];

export function gauge(name: string, used: number, cap: number, warnAt: readonly number[] = DEFAULT_WARN_AT): Gauge {
  const raw = cap > 0 ? used / cap : used > 0 ? Infinity : 0;
  const [low, high] = [Math.min(...warnAt), Math.max(...warnAt)];
  let level: GaugeLevel = "ok";
  if (cap > 0 && used >= cap) level = "exhausted";
  else if (cap === 0 && used > 0) level = "exhausted";
  else if (raw >= high) level = "critical";
  else if (raw >= low) level = "warn";
  return {
    name,
    used,
    cap,
    fraction: Number.isFinite(raw) ? Math.min(1, Math.max(0, raw)) : 1,
    percent: Number.isFinite(raw) ? Math.round(raw * 100) : 100,
    level,
  };
}
