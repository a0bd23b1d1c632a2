// Timeline: every time-bearing fact of all sources merged, zoomable (wheel, +/−, ←/→ to pan,
// 0 to reset), filterable by actor, source and range; times in the case zone, UTC on hover. The
// rows come from the `timeline` command, which filters by the rule `masf timeline` uses.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api, errorText } from "../api";
import { TagControls, TagFilter, type Marker } from "../components/TagControls";
import { VirtualList } from "../components/VirtualList";
import type { TagsView } from "../generated/ipc";
import { NO_TAGS, tagIndex, tagsInUse, tagsOn } from "../logic/tags";
import { t } from "../i18n";
import {
  density, extent, formatInZone, formatUtc, msAt, NO_TL_FILTER, pan, tickLabel, ticks, tickStep, timelineRequest,
  timelineRows, xOf, zoom, type TimelineFilter, type TlRow, type Viewport,
} from "../logic/timeline";
import type { Actor, Report } from "../model/report";

const LANE_H = 22;
const AXIS_H = 28;
const MAX_DOTS = 3000;

export function TimelineView({
  report,
  actors,
  tags = NO_TAGS,
  marker,
}: {
  report: Report;
  actors: Actor[];
  tags?: TagsView;
  marker?: Marker;
}) {
  const marked = useMemo(() => tagIndex(tags), [tags]);
  const [f, setF] = useState<TimelineFilter>(NO_TL_FILTER);
  const [rows, setRows] = useState<TlRow[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.timeline(timelineRequest(f)).then(
      (tl) => {
        if (!live) return;
        setRows(timelineRows(tl));
        setError(null);
      },
      (e: unknown) => {
        if (!live) return;
        setRows([]);
        setError(errorText(e));
      },
    );
    return () => {
      live = false;
    };
  }, [report, actors, f, f.tag ? tags : null]);
  const full = useMemo(() => extent(rows), [rows]);
  const [view, setView] = useState<Viewport | null>(null);
  const [sel, setSel] = useState<number | null>(null);
  const [width, setWidth] = useState(1000);
  const svgWrap = useRef<HTMLDivElement>(null);
  const zone = report.case.timezone;

  useEffect(() => setView(full), [full?.start, full?.end]);
  useEffect(() => {
    const el = svgWrap.current;
    if (!el) return;
    const m = () => setWidth(Math.max(300, el.clientWidth - 130));
    m();
    if (typeof ResizeObserver === "undefined") return;
    const ro = new ResizeObserver(m);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const sources = useMemo(() => report.sources.map((s) => s.id), [report]);
  const v = view ?? full;
  const inView = useMemo(
    () => (v ? rows.filter((r) => r.ms === null || (r.ms >= v.start && r.ms <= v.end)) : rows),
    [rows, v],
  );

  const zoomBy = (factor: number, anchor?: number) => {
    if (!v || !full) return;
    setView(zoom(v, factor, anchor ?? (v.start + v.end) / 2, full));
  };
  const onWheel = (e: WheelEvent) => {
    if (!v) return;
    e.preventDefault();
    const rect = (e.currentTarget as SVGElement).getBoundingClientRect();
    const x = e.clientX - rect.left - 120;
    zoomBy(e.deltaY < 0 ? 0.8 : 1.25, msAt(x, v, width));
  };
  const onKey = (e: KeyboardEvent) => {
    const k: Record<string, () => void> = {
      "+": () => zoomBy(0.5),
      "=": () => zoomBy(0.5),
      "-": () => zoomBy(2),
      ArrowLeft: () => v && setView(pan(v, -0.2)),
      ArrowRight: () => v && setView(pan(v, 0.2)),
      "0": () => setView(full),
    };
    const fn = k[e.key];
    if (fn) {
      e.preventDefault();
      fn();
    }
  };

  const step = v ? tickStep(v, width) : 0;
  const dens = v ? density(rows, v, Math.floor(width / 4)) : [];
  const maxD = Math.max(1, ...dens);

  return (
    <div class="view timeline" data-testid="view-timeline">
      <div class="toolbar">
        <label class="field">
          <span>{t("timeline.actor")}</span>
          <select value={f.actor} data-testid="timeline-filter-actor" onChange={(e) => setF({ ...f, actor: e.currentTarget.value })}>
            <option value="">{t("common.all")}</option>
            {actors.map((a) => (
              <option value={a.id}>{a.label}</option>
            ))}
          </select>
        </label>
        <label class="field">
          <span>{t("timeline.source")}</span>
          <select value={f.source} data-testid="timeline-filter-source" onChange={(e) => setF({ ...f, source: e.currentTarget.value })}>
            <option value="">{t("common.all")}</option>
            {sources.map((s) => (
              <option value={s}>{s}</option>
            ))}
          </select>
        </label>
        <TagFilter value={f.tag} tags={tagsInUse(tags)} onChange={(tag) => setF({ ...f, tag })} />
        <label class="field">
          <span>{t("timeline.from")}</span>
          <input type="datetime-local" step={1} data-testid="timeline-from" onChange={(e) => setF({ ...f, from: e.currentTarget.value })} />
        </label>
        <label class="field">
          <span>{t("timeline.to")}</span>
          <input type="datetime-local" step={1} data-testid="timeline-to" onChange={(e) => setF({ ...f, to: e.currentTarget.value })} />
        </label>
        <div class="row">
          <button onClick={() => zoomBy(0.5)} aria-label={t("timeline.zoomIn")} data-testid="timeline-zoom-in">＋</button>
          <button onClick={() => zoomBy(2)} aria-label={t("timeline.zoomOut")} data-testid="timeline-zoom-out">－</button>
          <button onClick={() => setView(full)} data-testid="timeline-reset">{t("timeline.reset")}</button>
        </div>
        <span class="muted" data-testid="timeline-count">
          {t("timeline.count", { n: inView.length, total: rows.length, zone })}
        </span>
      </div>
      <div class="tl-chart" ref={svgWrap} tabIndex={0} onKeyDown={onKey} aria-label={t("timeline.chartHelp")} data-testid="timeline-chart">
        {v && (
          <svg width={width + 130} height={AXIS_H + sources.length * LANE_H + 24} onWheel={onWheel}>
            <g transform="translate(120,0)">
              {ticks(v, width).map((tk) => (
                <g transform={`translate(${xOf(tk, v, width)},0)`}>
                  <line y1={AXIS_H - 6} y2={AXIS_H + sources.length * LANE_H} class="tick" />
                  <text y={AXIS_H - 10} text-anchor="middle" class="tick-label">
                    {tickLabel(tk, step, zone)}
                  </text>
                </g>
              ))}
              {dens.map((d, i) =>
                d > 0 ? (
                  <rect x={i * 4} width={3} y={AXIS_H + sources.length * LANE_H + 20 - (d / maxD) * 16} height={(d / maxD) * 16} class="dens" />
                ) : null,
              )}
              {/* past MAX_DOTS in view only the density strip is drawn: the list below has every row */}
              {inView.length <= MAX_DOTS && rows.map((r, i) =>
                r.ms !== null && r.ms >= v.start && r.ms <= v.end ? (
                  <circle
                    cx={xOf(r.ms, v, width)}
                    cy={AXIS_H + sources.indexOf(r.entry.source_id) * LANE_H + LANE_H / 2}
                    r={4}
                    class={`dot lane-${sources.indexOf(r.entry.source_id) % 6} ${sel !== null && inView[sel] === r ? "selected" : ""}`}
                    key={i}
                    onClick={() => {
                      const k = inView.indexOf(r);
                      if (k >= 0) setSel(k);
                    }}
                  >
                    <title>{`${formatInZone(r.ms, zone)}\nUTC ${formatUtc(r.ms)}\n${r.entry.source_id} · ${r.entry.timestamp_desc} · ${r.entry.message}`}</title>
                  </circle>
                ) : null,
              )}
            </g>
            {sources.map((s, i) => (
              <text x={4} y={AXIS_H + i * LANE_H + LANE_H / 2 + 4} class="lane-label">
                {s}
              </text>
            ))}
          </svg>
        )}
        {!v && !error && <p class="empty">{t("timeline.empty")}</p>}
        {error && (
          <p class="error" role="alert" data-testid="timeline-error">
            {error}
          </p>
        )}
      </div>
      <div class="tl-head vrow">
        <span class="c-time">{t("timeline.caseTime", { zone })}</span>
        <span class="c-src">{t("timeline.source")}</span>
        <span class="c-desc">{t("timeline.description")}</span>
        <span class="c-msg">{t("timeline.message")}</span>
        <span class="c-raw">{t("timeline.raw")}</span>
      </div>
      {marker && sel !== null && inView[sel] && (
        <div class="tl-selected" data-testid="timeline-selected">
          <span class="muted">{inView[sel].entry.entry}</span>
          <TagControls target={inView[sel].entry.entry} tags={tags} marker={marker} />
        </div>
      )}
      <VirtualList
        count={inView.length}
        rowHeight={26}
        selected={sel}
        onSelect={setSel}
        testid="timeline-list"
        label={t("nav.timeline")}
        renderRow={(i) => {
          const r = inView[i];
          if (!r) return null;
          return (
            <>
              <span class="c-time" title={r.ms !== null ? `UTC ${formatUtc(r.ms)}` : t("timeline.undated")} data-testid="timeline-time">
                {r.ms !== null ? formatInZone(r.ms, zone) : t("timeline.undated")}
              </span>
              <span class="c-src">{r.entry.source_id}</span>
              <span class="c-desc">{r.entry.timestamp_desc}</span>
              <span class="c-msg">
                {r.entry.message || r.entry.phenomenon_id}
                {tagsOn(marked, r.entry.entry).map((x) => (
                  <span class="chip tag">{x}</span>
                ))}
              </span>
              <span class="c-raw muted" title={`${r.entry.raw_encoding} · ${r.entry.zone}`}>
                {r.entry.raw_value} ({r.entry.raw_encoding})
              </span>
            </>
          );
        }}
      />
    </div>
  );
}
