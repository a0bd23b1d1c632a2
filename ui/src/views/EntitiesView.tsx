// Entities: an SVG graph (entities as nodes, same_as links styled by state) with the actors it
// implies. A link opens its coreference hypothesis and the identifiers behind it; approve /
// retract (a reason is required to retract) go to the backend, and the links and actors it
// returns replace the drawn ones at once: each entity is drawn on the ring of the actor it now
// belongs to (actors whose members did not change stay where they were).
import { useMemo, useRef, useState } from "preact/hooks";
import { api, errorText, type Failure } from "../api";
import type { Why } from "../bindings";
import { TagControls, TagFilter, type Marker } from "../components/TagControls";
import type { TagsView } from "../generated/ipc";
import { fmtNum, t, tOr } from "../i18n";
import { actorOf, edgeClass, labelAnchor, layout, orderedLinks, reasonOk, ringCentres, sharedIdentifiers, type Layout } from "../logic/entities";
import { NO_TAGS, tagsInUse, targetsWithTag } from "../logic/tags";
import type { Actor, Entity, Report, SameAs } from "../model/report";

export interface GraphState {
  links: SameAs[];
  actors: Actor[];
}

const PALETTE = 8;

export function EntitiesView({
  report,
  graph,
  onGraph,
  onOpenFinding,
  tags = NO_TAGS,
  marker,
}: {
  report: Report;
  graph: GraphState;
  onGraph: (g: GraphState) => void;
  onOpenFinding?: (id: string) => void;
  tags?: TagsView;
  marker?: Marker;
}) {
  const [tagFilter, setTagFilter] = useState("");
  const withTag = useMemo(() => targetsWithTag(tags, tagFilter), [tags, tagFilter]);
  const [selLink, setSelLink] = useState<string | null>(null);
  const [selEnt, setSelEnt] = useState<string | null>(null);
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<Failure | null>(null);
  const [tried, setTried] = useState(false);
  // the explanation of the selected link (`masf links --why`), fetched when its panel opens
  const [why, setWhy] = useState<{ id: string; data?: Why; err?: unknown } | null>(null);

  const ents = useMemo(() => new Map(report.entities.map((e) => [e.id, e])), [report]);
  // one ring per current actor; the previous layout (same report) keeps untouched actors in place
  const last = useRef<{ report: Report; lay: Layout } | null>(null);
  const lay = useMemo(() => {
    const prev = last.current?.report === report ? last.current.lay : undefined;
    const l = layout(report.entities, graph.actors.map((a) => a.entity_ids), prev);
    last.current = { report, lay: l };
    return l;
  }, [report, graph.actors]);
  const centres = useMemo(() => ringCentres(lay), [lay]);
  const links = useMemo(() => orderedLinks(graph.links), [graph.links]);
  const owner = useMemo(() => actorOf(graph.actors), [graph.actors]);
  // an actor's colour is its slot's: after a decision, untouched actors keep theirs
  const colour = useMemo(() => {
    const m = new Map<string, number>();
    lay.slots.forEach((s, i) => {
      const a = owner.get(s.ids[0] ?? "");
      if (a) m.set(a.id, i % PALETTE);
    });
    return m;
  }, [lay, owner]);
  const link = links.find((l) => l.id === selLink) ?? null;
  const hyp = link ? report.hypotheses.find((h) => h.id === link.hypothesis_id) : undefined;

  const selectEntity = (id: string) => {
    setSelEnt(id);
    setSelLink(null);
  };
  const selectLink = (id: string) => {
    setSelLink(id);
    setSelEnt(null);
    setTried(false);
  };
  const explain = (id: string) => {
    if (why?.id === id && !why.err) return;
    setWhy({ id });
    api.whyLink(id).then(
      (data) => setWhy((w) => (w?.id === id ? { id, data } : w)),
      (err: unknown) => setWhy((w) => (w?.id === id ? { id, err } : w)),
    );
  };

  const decide = (d: "approve" | "retract") => {
    if (!link) return;
    setTried(true);
    if (!reasonOk(d, reason)) return;
    setBusy(true);
    setErr(null);
    const call = d === "approve" ? api.approveLink(link.id, reason.trim() || null) : api.retractLink(link.id, reason.trim());
    call
      .then((r) => {
        onGraph({ links: r.same_as, actors: r.actors });
        setReason("");
        setTried(false);
      }, (error: unknown) => setErr({ error }))
      .finally(() => setBusy(false));
  };

  const node = (e: Entity) => {
    const p = lay.nodes.get(e.id);
    if (!p) return null;
    const a = owner.get(e.id);
    const c = a ? `actor-c${colour.get(a.id) ?? 0}` : "actor-none";
    const la = labelAnchor(p, centres.get(e.id) ?? null);
    return (
      <g
        key={e.id}
        class={`node ${c} ${selEnt === e.id ? "selected" : ""}`}
        transform={`translate(${p.x},${p.y})`}
        tabIndex={0}
        role="button"
        aria-label={`${e.label} (${e.id})`}
        data-testid={`entity-${e.id}`}
        data-actor={a?.id ?? ""}
        onClick={() => selectEntity(e.id)}
        onKeyDown={(ev) => ev.key === "Enter" && setSelEnt(e.id)}
      >
        <circle r={e.kind === "person" ? 14 : 10} class={`kind-${e.kind}`} />
        <text x={la.dx} y={la.dy} text-anchor={la.anchor} class="node-label">
          {e.label.length > 22 ? `${e.label.slice(0, 21)}…` : e.label}
        </text>
        <title>{`${e.label} · ${e.kind} · ${e.source_ids.join(", ")}`}</title>
      </g>
    );
  };

  const ent = selEnt ? ents.get(selEnt) : undefined;

  return (
    <div class="view entities" data-testid="view-entities">
      <div class="split">
        <div class="pane graph-pane">
          <div class="legend">
            {(["live", "approved", "retracted", "dormant", "candidate"] as const).map((s) => (
              <span class="legend-item">
                <svg width="28" height="10">
                  <line x1="0" x2="28" y1="5" y2="5" class={edgeClass(s)} />
                </svg>
                {t(`link.state.${s}`)}
              </span>
            ))}
          </div>
          <div class="scroll">
            <svg
              class="graph"
              width={lay.width}
              height={lay.height}
              viewBox={`0 0 ${lay.width} ${lay.height}`}
              role="group"
              aria-label={t("entities.graph")}
              data-testid="entity-graph"
            >
              {lay.rings.map((g) => {
                const a = owner.get(g.ids[0] ?? "");
                return (
                  <circle
                    key={g.ids.join(",")}
                    class="actor-ring"
                    cx={g.cx}
                    cy={g.cy}
                    r={g.r}
                    data-testid={a ? `actor-ring-${a.id}` : undefined}
                    data-actor={a?.id ?? ""}
                  />
                );
              })}
              {links.map((l) => {
                const a = lay.nodes.get(l.a);
                const b = lay.nodes.get(l.b);
                if (!a || !b) return null;
                return (
                  <g
                    key={l.id}
                    class={`link ${selLink === l.id ? "selected" : ""}`}
                    tabIndex={0}
                    role="button"
                    aria-label={t("entities.linkLabel", { id: l.id, state: tOr(`link.state.${l.state}`, l.state) })}
                    data-testid={`same-as-${l.id}`}
                    data-state={l.state}
                    onClick={() => selectLink(l.id)}
                    onKeyDown={(e) => e.key === "Enter" && selectLink(l.id)}
                  >
                    <line x1={a.x} y1={a.y} x2={b.x} y2={b.y} class="hit" />
                    <line x1={a.x} y1={a.y} x2={b.x} y2={b.y} class={edgeClass(l.state)} />
                    <title>{`${l.id} · ${l.state} · ${fmtNum(l.confidence * 100, 1)}%`}</title>
                  </g>
                );
              })}
              {report.entities.map(node)}
            </svg>
          </div>
        </div>
        <div class="pane scroll detail side">
          {link && (
            <section data-testid="link-detail">
              <h2>
                {link.id} <span class={`chip state-${link.state}`}>{tOr(`link.state.${link.state}`, link.state)}</span>
                {link.relation === "control" && (
                  <>
                    {" "}
                    <span class="chip" data-testid="link-relation">
                      {t("link.relation.control")}
                    </span>
                  </>
                )}
              </h2>
              {hyp && (
                <p>
                  <span class="id">{hyp.id}</span> {hyp.statement} ·{" "}
                  {t("entities.hypConf", { conf: fmtNum(hyp.confidence * 100, 2), lo: fmtNum(hyp.log_odds, 2) })}
                </p>
              )}
              <div class="stack">
                {[link.a, link.b].map((id) => {
                  const e = ents.get(id);
                  return (
                    <div class="ent-card">
                      <h3>
                        {e?.label ?? id} <span class="muted">{id}</span>
                      </h3>
                      <p class="muted">
                        {e?.kind} · {e?.source_ids.join(", ")} · {e?.context}
                      </p>
                      <ul class="idents">
                        {(e?.identifiers ?? []).map((i) => (
                          <li>
                            <code>{i.type}</code> {i.value} <span class={`chip ${i.strength}`}>{tOr(`ident.${i.strength}`, i.strength)}</span>
                          </li>
                        ))}
                      </ul>
                    </div>
                  );
                })}
              </div>
              <h3>{t("entities.shared")}</h3>
              <ul data-testid="link-shared">
                {sharedIdentifiers(ents.get(link.a), ents.get(link.b)).map((s) => (
                  <li>
                    <code>{s.type}</code> {s.normalized}
                  </li>
                ))}
              </ul>
              {hyp && (
                <>
                  <h3>{t("entities.evidence")}</h3>
                  <ul>
                    {hyp.edges.map((e) => (
                      <li>
                        <button class="link" onClick={() => onOpenFinding?.(e.phenomenon_id)} title={t("hyp.openFinding")}>
                          {e.phenomenon_id}
                        </button>{" "}
                        · {e.edge_type} · +{fmtNum(e.contribution ?? e.log10_lr, 2)}{" "}
                        <span class="muted">{report.phenomena.find((p) => p.id === e.phenomenon_id)?.title}</span>
                      </li>
                    ))}
                  </ul>
                </>
              )}
              <details
                key={link.id}
                class="why"
                data-testid="link-why"
                onToggle={(e) => (e.currentTarget as HTMLDetailsElement).open && explain(link.id)}
              >
                <summary data-testid="link-why-open">{t("entities.why")}</summary>
                <WhyPanel why={why?.id === link.id ? why : null} onOpenFinding={onOpenFinding} />
              </details>
              {(link.decisions ?? []).length > 0 && (
                <>
                  <h3>{t("entities.decisions")}</h3>
                  <ul data-testid="link-decisions">
                    {link.decisions.map((d) => (
                      <li>
                        <strong>{tOr(`entities.decision.${d.decision}`, d.decision)}</strong> · {d.by} · {d.at} — {d.reason}
                      </li>
                    ))}
                  </ul>
                </>
              )}
              <label class="field block">
                <span>{t("entities.reason")}</span>
                <textarea
                  rows={2}
                  value={reason}
                  data-testid="decision-reason"
                  aria-invalid={tried && !reasonOk("retract", reason)}
                  onInput={(e) => setReason(e.currentTarget.value)}
                />
              </label>
              {tried && !reasonOk("retract", reason) && (
                <p class="error" role="alert" data-testid="reason-required">
                  {t("entities.reasonRequired")}
                </p>
              )}
              <div class="row">
                <button onClick={() => decide("approve")} disabled={busy} data-testid="approve-link">
                  {t("entities.approve")}
                </button>
                <button class="danger" onClick={() => decide("retract")} disabled={busy} data-testid="retract-link">
                  {t("entities.retract")}
                </button>
              </div>
              {err && <p class="error" role="alert">{errorText(err.error)}</p>}
            </section>
          )}
          {!link && ent && (
            <section>
              <h2>
                {ent.label} <span class="muted">{ent.id}</span>
              </h2>
              <p class="muted">
                {ent.kind} · {ent.source_ids.join(", ")} · {ent.context}
              </p>
              <ul class="idents">
                {ent.identifiers.map((i) => (
                  <li>
                    <code>{i.type}</code> {i.value} <span class="muted">{i.phenomenon_id}</span>
                  </li>
                ))}
              </ul>
            </section>
          )}
          {!link && !ent && <p class="empty">{t("entities.pick")}</p>}
          <h2>{t("entities.actors", { n: graph.actors.length })}</h2>
          <TagFilter value={tagFilter} tags={tagsInUse(tags)} onChange={setTagFilter} />
          <ul class="actors" data-testid="actor-list" data-count={graph.actors.length}>
            {graph.actors.filter((a) => !withTag || withTag.has(a.id)).map((a) => (
              <li key={a.id} data-testid={`actor-${a.id}`} class={`actor-c${colour.get(a.id) ?? 0}`}>
                <span class="swatch" />
                <strong>{a.label}</strong> <span class="muted">{a.id}</span>
                {marker && <TagControls target={a.id} tags={tags} marker={marker} />}
                <div class="muted small">
                  {t("entities.actorLine", { n: a.entity_ids.length, sources: (a.source_ids ?? []).join(", ") })}
                </div>
                <div class="small">
                  {a.identifiers.map((i) => (
                    <span
                      class="chip"
                      title={i.claimed_by?.length ? t("entities.claimedBy", { ids: i.claimed_by.join(", ") }) : undefined}
                    >
                      {i.type}: {i.normalized}
                      {i.claimed_by?.length ? ` (${t("entities.claimed")})` : ""}
                    </span>
                  ))}
                </div>
                {(a.edges ?? []).length > 0 && (
                  <div class="small" data-testid={`joined-${a.id}`}>
                    <span class="muted">{t("entities.joinedBy")}</span>{" "}
                    {(a.edges ?? []).map((id) => (
                      <button
                        type="button"
                        class={`chip link ${selLink === id ? "selected" : ""}`}
                        data-testid={`joined-${a.id}-${id}`}
                        onClick={() => selectLink(id)}
                      >
                        {id}
                      </button>
                    ))}
                  </div>
                )}
                {(a.mentioned_in ?? []).length > 0 && (
                  <div class="small" data-testid={`mentions-${a.id}`}>
                    <span class="muted">{t("entities.mentionedIn")}</span>{" "}
                    {(a.mentioned_in ?? []).map((id) => (
                      <button type="button" class="chip link" data-testid={`mention-${a.id}-${id}`} onClick={() => selectEntity(id)}>
                        {ents.get(id)?.label ?? id}
                      </button>
                    ))}
                  </div>
                )}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </div>
  );
}

/** The explanation of one link: each evidence edge with the identifier or attribution pattern
 *  it stands for, its verified facts and the logged invocations whose outputs hold them. */
function WhyPanel({
  why,
  onOpenFinding,
}: {
  why: { id: string; data?: Why; err?: unknown } | null;
  onOpenFinding?: (id: string) => void;
}) {
  if (!why || (!why.data && !why.err)) return <p class="muted">{t("entities.whyLoading")}</p>;
  if (why.err !== undefined) return <p class="error" role="alert">{errorText(why.err)}</p>;
  const w = why.data!;
  return (
    <ol class="why-list" data-testid="why-evidence" data-count={w.evidence.length}>
      {w.evidence.map((x) => (
        <li data-testid={`why-${x.edge.phenomenon_id}`}>
          <div>
            <strong>{x.edge.edge_type}</strong> · +{fmtNum(x.edge.contribution, 2)} ·{" "}
            <button class="link" onClick={() => onOpenFinding?.(x.edge.phenomenon_id)} title={t("hyp.openFinding")}>
              {x.edge.phenomenon_id}
            </button>{" "}
            <span class="muted">
              {x.title} · {x.source_id}
            </span>
          </div>
          <div class="small">{x.interpretation}</div>
          <ul class="small">
            {x.facts.map((f) => {
              const inv = w.invocations[f.invocation_id];
              return (
                <li>
                  <code>{f.fact_type}</code> {f.value} <span class="muted">({f.match.method})</span> · {t("entities.whyIn")}{" "}
                  <span class="id">{f.invocation_id}</span>
                  {inv && (
                    <span class="muted">
                      {" "}
                      {inv.tool} {inv.args} · {inv.status} · sha256 {inv.output_sha256.slice(0, 12)}…
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
        </li>
      ))}
    </ol>
  );
}
