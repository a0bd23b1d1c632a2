import { t, tOr } from "../i18n";
import type { Gauge as G } from "../logic/gauges";

export function Gauge({ g }: { g: G }) {
  const label = tOr(`budget.${g.name}`, g.name);
  return (
    <div class={`gauge gauge-${g.level}`} data-testid={`gauge-${g.name}`} data-level={g.level}>
      <div class="gauge-head">
        <span>{label}</span>
        <span class="num">
          {g.used} / {g.cap} ({g.percent}%)
        </span>
      </div>
      <div
        class="gauge-bar"
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={g.cap}
        aria-valuenow={g.used}
      >
        <div class="gauge-fill" style={{ width: `${g.fraction * 100}%` }} />
        <div class="gauge-mark" style={{ left: "70%" }} />
        <div class="gauge-mark" style={{ left: "90%" }} />
      </div>
      {g.level !== "ok" && <div class="gauge-warn">{t(`budget.level.${g.level}`, { percent: g.percent })}</div>}
    </div>
  );
}
