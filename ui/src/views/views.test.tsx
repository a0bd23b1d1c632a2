// Views rendered in jsdom with the real demo report. The backend boundary (src/api.ts) is
// replaced by recorded calls: these tests check what the views do with data and input; the
// real IPC is exercised by the e2e suite (tests/e2e) against the built app.
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { caseStatus, demoReport, fixtureText } from "../test/fixture";
import type { ArtefactCoverage, ReportAnswer } from "../model/report";

// approve / retract answer the report's rows (LinksAndActors: same_as and actors, as the
// report lists them: actors of two entities or more)

const calls: { cmd: string; args: unknown[] }[] = [];
// what approve / retract answer, when a test sets it (else the answers below)
const answer: { retract: (() => unknown) | null; approve: (() => unknown) | null } = { retract: null, approve: null };
vi.mock("../api", () => ({
  api: {
    invocation: (...args: unknown[]) => {
      calls.push({ cmd: "invocation", args });
      return Promise.resolve({
        id: args[0], source_id: "src-iphone", tool: "sqlite_query", args: {}, status: "ok", reason: null, agent: "ios-triage",
        task_id: "t", ts: "", duration_ms: 1, output_sha256: "ab".repeat(32), output_size: 10,
        output_text: "x\t<b>Chan.MH@example.net</b>\ty", output_truncated: false, rerun_command: "masf rerun c inv-000005",
        // where Rust's gateway matching finds the fact asked about
        highlight: args[1] ? { how: "verbatim", field: null, spans: [{ start: 5, end: 24 }] } : null,
      });
    },
    rerunInvocation: () => Promise.resolve({ invocation_id: "inv-000005", verdict: "rerun_differs", matched: false, expected_sha256: "a", actual_sha256: "b", detail: null }),
    retractLink: (...args: unknown[]) => {
      calls.push({ cmd: "retract", args });
      if (answer.retract) return Promise.resolve(answer.retract());
      const r = demoReport();
      const link = r.same_as[0]!;
      return Promise.resolve({
        same_as: r.same_as.map((l) => ({ ...l, state: l.id === link.id ? "retracted" : l.state })),
        // the actor that held the link's two ends is gone: each is an entity on its own
        actors: r.actors.filter((a) => !a.entity_ids.includes(link.a)),
      });
    },
    whyLink: (...args: unknown[]) => {
      calls.push({ cmd: "why", args });
      if (args[0] === "sa-broken") return Promise.reject(new Error("unknown edge sa-broken"));
      return Promise.resolve({
        link: { id: args[0] },
        evidence: [
          {
            edge: { phenomenon_id: "ph-000007", edge_type: "direct_evidence", contribution: 1.2, entity_id: "ent-000001", id_type: "phone", normalized: "+85291234567" },
            source_id: "src-iphone",
            title: "Contact <b>CHAN</b>",
            interpretation: "both hold the phone +85291234567",
            facts: [{ fact_type: "phone", value: "+852 9123 4567", invocation_id: "inv-000005", match: { method: "exact" } }],
          },
        ],
        invocations: { "inv-000005": { tool: "sqlite_query", args: "{\"db\":\"AddressBook.sqlitedb\"}", source_id: "src-iphone", status: "ok", output_sha256: "ab".repeat(32) } },
      });
    },
    timeline: (...args: unknown[]) => {
      calls.push({ cmd: "timeline", args });
      // what `masf timeline --json [--actor actor-000005]` printed for the demo case
      const q = args[0] as { actor?: string | null };
      if (q.actor === "actor-000014") return Promise.reject(new Error("no actor or entity \"actor-000014\""));
      return Promise.resolve(JSON.parse(fixtureText(q.actor ? "demo-timeline-leung.json" : "demo-timeline.json")));
    },
    giveBackupPassword: (...args: unknown[]) => {
      calls.push({ cmd: "password", args });
      if (args[1] !== "right") return Promise.reject(new Error("the password does not open this backup's keybag"));
      return Promise.resolve(null);
    },
    search: (...args: unknown[]) => {
      calls.push({ cmd: "search", args });
      const r = args[0] as { query: string; mode: string };
      if (r.mode === "identifier" && r.query === "hello") {
        return Promise.reject(new Error("invalid arguments: hello reads as no phone number, e-mail address or wallet address"));
      }
      // what `masf search case.yaml USDT --limit 4 --json` printed for the demo case, plus a
      // source not yet indexed
      const found = JSON.parse(fixtureText("demo-search.json"));
      found.not_searched = [{ source_id: "src-new", reason: "no index in /w/index/src-new: build it first (masf index)" }];
      return Promise.resolve(found);
    },
    buildIndex: (...args: unknown[]) => {
      calls.push({ cmd: "buildIndex", args });
      return Promise.resolve([
        { source_id: "src-usb", outcome: "current", files: 0, skipped: 0 },
        { source_id: "src-new", outcome: "built", invocation_id: "inv-000099", files: 12, skipped: 0 },
      ]);
    },
    approveLink: (...args: unknown[]) => {
      calls.push({ cmd: "approve", args });
      if (answer.approve) return Promise.resolve(answer.approve());
      return Promise.resolve({ same_as: demoReport().same_as, actors: demoReport().actors });
    },
  },
  errorText: (e: unknown) => String(e),
  events: {},
}));

const { FindingsView } = await import("./FindingsView");
const { EntitiesView } = await import("./EntitiesView");
const { ReportView } = await import("./ReportView");
const { TimelineView } = await import("./TimelineView");
const { RunView } = await import("./RunView");
const { SearchView, hitTargets } = await import("./SearchView");
const { LogFeed } = await import("../logic/feed");

let root: HTMLDivElement;
beforeEach(() => {
  calls.length = 0;
  answer.retract = null;
  answer.approve = null;
  root = document.createElement("div");
  document.body.appendChild(root);
});
afterEach(() => {
  render(null, root);
  root.remove();
});
const q = (id: string) => root.querySelector(`[data-testid="${id}"]`);
const flush = () => act(async () => { await new Promise((r) => setTimeout(r, 0)); });

describe("Report view, coverage", () => {
  // `masf coverage case.yaml --json` on the demo case (fixtures/FIXTURES.md), placed on the
  // report's sources as report.json carries it.
  const withCoverage = () => {
    const r = demoReport();
    const tables = JSON.parse(fixtureText("demo-coverage.json")) as (ArtefactCoverage & { source_id: string })[];
    r.sources = r.sources.map((s) => ({ ...s, coverage: tables.filter((c) => c.source_id === s.id) }));
    return r;
  };
  it("shows what came of every artefact of every source", async () => {
    await act(() => render(<ReportView report={withCoverage()} defaultDir="/tmp/r" />, root));
    const tables = [...root.querySelectorAll('[data-testid="coverage-table"]')];
    expect(tables.map((t) => t.getAttribute("data-plugin"))).toEqual(["disk", "android", "ios"]);
    const ios = tables.find((t) => t.getAttribute("data-source") === "src-iphone")!;
    const rows = [...ios.querySelectorAll('[data-testid="coverage-row"]')];
    const row = (name: string) => rows.find((r) => r.firstElementChild?.textContent === name)!;
    expect(row("sms.db").getAttribute("data-status")).toBe("parsed");
    expect(Number(row("sms.db").querySelector(".num")!.textContent)).toBeGreaterThan(0);
    expect(row("CallHistory.storedata").textContent).toContain("not present");
    expect(ios.textContent).toContain("The triage ran to its end");
  });
  it("says so when no plugin examined a source", async () => {
    await act(() => render(<ReportView report={demoReport()} defaultDir="/tmp/r" />, root));
    expect(q("coverage")!.textContent).toContain("No plugin has examined a source yet.");
    expect(root.querySelectorAll('[data-testid="coverage-table"]').length).toBe(0);
  });
});

describe("Report view, the answer first", () => {
  // The `answer` of report.json from a real `masf run` + `masf report` of the demo case
  // (fixtures/FIXTURES.md), on the report model the view receives.
  const withAnswer = () => ({ ...demoReport(), answer: JSON.parse(fixtureText("demo-answer.json")) as ReportAnswer });
  it("opens with the question, the sources, the people with their identifiers and wallets", async () => {
    const r = withAnswer();
    await act(() => render(<ReportView report={r} defaultDir="/tmp/r" />, root));
    const card = q("answer")!;
    // the answer comes before the export card
    expect(root.querySelector(".card")).toBe(card);
    expect(q("answer-question")!.textContent).toBe(r.answer.summary.question);
    expect(q("answer-sources")!.querySelectorAll("tbody tr").length).toBe(r.answer.summary.sources.length);
    const people = [...root.querySelectorAll('[data-testid="answer-person"]')];
    expect(people.map((p) => p.querySelector("h4")!.textContent)).toEqual(
      r.answer.people.map((p) => expect.stringContaining(p.label)),
    );
    // every attributed wallet is shown under its person, with its confidence
    for (const [i, p] of r.answer.people.entries()) {
      const shown = people[i]?.textContent ?? "";
      for (const w of p.wallets) {
        expect(shown).toContain(w.value);
        expect(shown).toContain(`${Math.round(w.confidence * 100)}%`);
      }
      for (const id of p.identifiers) expect(shown).toContain(`${id.type}=${id.value}`);
    }
    expect(r.answer.people.some((p) => p.wallets.length > 0)).toBe(true);
    expect(root.querySelectorAll('[data-testid="answer-hypothesis"]').length).toBe(r.answer.hypotheses.length);
    expect(root.querySelectorAll('[data-testid="answer-message"]').length).toBe(r.answer.communications.length);
    expect(root.querySelectorAll('[data-testid="answer-transaction"]').length).toBe(r.answer.transactions.length);
    expect(root.querySelectorAll('[data-testid="answer-limitation"]').length).toBe(r.answer.limitations.length);
    // hypotheses read in words: no statement is made of ids only
    for (const h of root.querySelectorAll('[data-testid="answer-hypothesis"] strong')) {
      expect(h.textContent).not.toMatch(/^(ent|actor)-\d+ and (ent|actor)-\d+ are/);
    }
  });
  it("is left out for a report model without an answer", async () => {
    await act(() => render(<ReportView report={demoReport()} defaultDir="/tmp/r" />, root));
    expect(q("answer")).toBeNull();
  });
});

describe("Findings view", () => {
  it("lists every phenomenon, narrows by source, marks interpretations unverified", async () => {
    await act(() => render(<FindingsView report={demoReport()} />, root));
    expect(root.querySelectorAll("article.finding")).toHaveLength(117);
    expect(root.querySelectorAll('[data-testid="interpretation-unverified"]')).toHaveLength(117);
    const sel = q("findings-filter-source") as HTMLSelectElement;
    await act(() => {
      sel.value = "src-usb";
      sel.dispatchEvent(new Event("change", { bubbles: true }));
    });
    const n = root.querySelectorAll("article.finding").length;
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(117);
    expect(q("findings-count")?.textContent).toContain(`${n} of 117`);
  });
  it("opens a fact's invocation with the value highlighted, as text", async () => {
    await act(() => render(<FindingsView report={demoReport()} />, root));
    await act(() => (q("fact-ph-000006-0") as HTMLButtonElement).click());
    await flush();
    expect(calls).toEqual([{ cmd: "invocation", args: ["inv-000005", { fact_type: "email", value: "Chan.MH@example.net" }] }]);
    const out = q("invocation-output");
    expect(out?.textContent).toBe("x\t<b>Chan.MH@example.net</b>\ty");
    expect(out?.querySelector("b")).toBeNull(); // markup in output stays text
    expect(root.querySelector('[data-testid="output-highlight"]')?.textContent).toBe("Chan.MH@example.net");
    await act(() => (q("rerun-button") as HTMLButtonElement).click());
    await flush();
    expect(q("rerun-verdict")?.getAttribute("data-verdict")).toBe("rerun_differs");
  });
  it("renders hostile evidence strings as text", async () => {
    const r = demoReport();
    r.phenomena = [{ ...r.phenomena[0]!, title: '<img src=x onerror="alert(1)">', interpretation: "<script>alert(2)</script>" }];
    await act(() => render(<FindingsView report={r} />, root));
    expect(root.querySelector("img")).toBeNull();
    expect(root.querySelector("script")).toBeNull();
    expect(root.textContent).toContain('<img src=x onerror="alert(1)">');
  });
});

describe("Entities view", () => {
  it("lists under each actor the mentions that bridge it to another, and selects one on click", async () => {
    const r = demoReport();
    // as the real report now gives it (main at 7617b17): the payment instructions name CHAN's
    // phone and LEUNG's e-mail, so the mention is listed under both actors and joins neither
    const bridged = ["actor-000001", "actor-000005"];
    const actors = r.actors.map((a) => (bridged.includes(a.id) ? { ...a, mentioned_in: ["ent-000022"] } : a));
    const graph = { links: r.same_as, actors };
    await act(() => render(<EntitiesView report={r} graph={graph} onGraph={() => {}} />, root));
    const label = r.entities.find((e) => e.id === "ent-000022")!.label;
    for (const id of bridged) {
      const chip = q(`mention-${id}-ent-000022`);
      expect(chip?.textContent).toBe(label);
    }
    expect(q("mentions-actor-000007")).toBeNull();
    await act(() => (q("mention-actor-000005-ent-000022") as HTMLButtonElement).click());
    expect(q("entity-ent-000022")?.getAttribute("class")).toContain("selected");
  });

  it("refuses to retract without a reason, then retracts and shows the new actors at once", async () => {
    const r = demoReport();
    let graph = { links: r.same_as, actors: r.actors };
    const onGraph = (g: typeof graph) => {
      graph = g;
      void act(() => render(<EntitiesView report={r} graph={graph} onGraph={onGraph} />, root));
    };
    await act(() => render(<EntitiesView report={r} graph={graph} onGraph={onGraph} />, root));
    expect(q("actor-list")?.getAttribute("data-count")).toBe(String(r.actors.length));
    const edge = q("same-as-sa-000001-000010")!;
    expect(edge.getAttribute("data-state")).toBe("live");
    await act(() => {
      edge.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    });
    expect(q("link-detail")).not.toBeNull();
    await act(() => (q("retract-link") as HTMLButtonElement).click());
    expect(q("reason-required")).not.toBeNull();
    expect(calls).toEqual([]);
    const reason = q("decision-reason") as HTMLTextAreaElement;
    await act(() => {
      reason.value = "different people share the family phone";
      reason.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await act(() => (q("retract-link") as HTMLButtonElement).click());
    await flush();
    expect(calls).toEqual([{ cmd: "retract", args: ["sa-000001-000010", "different people share the family phone"] }]);
    expect(q("same-as-sa-000001-000010")?.getAttribute("data-state")).toBe("retracted");
    const joined = r.actors.find((a) => a.entity_ids.includes("ent-000001"))!;
    expect(joined.entity_ids).toEqual(["ent-000001", "ent-000010"]);
    expect(q(`actor-${joined.id}`)).toBeNull(); // the actor the link made is gone
    expect(q("actor-list")?.getAttribute("data-count")).toBe(String(r.actors.length - 1));
    expect(q("entity-ent-000001")?.getAttribute("data-actor")).toBe("");
    expect(q("entity-ent-000010")?.getAttribute("data-actor")).toBe("");
  });
});

describe("Entities view, why a link exists", () => {
  it("explains a link when its panel opens: each edge, its facts and the invocations", async () => {
    const r = demoReport();
    const graph = { links: r.same_as, actors: r.actors };
    await act(() => render(<EntitiesView report={r} graph={graph} onGraph={() => {}} />, root));
    // the actor lists the links that join it; a chip selects one
    const actor = r.actors.find((a) => a.entity_ids.includes("ent-000001"))!;
    const chip = q(`joined-${actor.id}-sa-000001-000010`) as HTMLButtonElement;
    expect(chip).not.toBeNull();
    await act(() => chip.click());
    expect(q("link-detail")?.textContent).toContain("sa-000001-000010");
    expect(calls).toEqual([]); // nothing fetched until the panel opens
    const panel = q("link-why") as HTMLDetailsElement;
    await act(() => {
      panel.open = true;
      panel.dispatchEvent(new Event("toggle"));
    });
    await flush();
    expect(calls).toEqual([{ cmd: "why", args: ["sa-000001-000010"] }]);
    const list = q("why-evidence")!;
    expect(list.getAttribute("data-count")).toBe("1");
    const item = q("why-ph-000007")!.textContent!;
    for (const want of ["direct_evidence", "both hold the phone +85291234567", "+852 9123 4567", "inv-000005", "sqlite_query", "Contact <b>CHAN</b>"]) {
      expect(item).toContain(want);
    }
    expect(root.querySelector("b")).toBeNull(); // evidence text is text, never markup
  });

  it("says why an explanation failed", async () => {
    const r = demoReport();
    r.same_as.push({ ...r.same_as[0]!, id: "sa-broken" });
    const graph = { links: r.same_as, actors: r.actors };
    await act(() => render(<EntitiesView report={r} graph={graph} onGraph={() => {}} />, root));
    await act(() => {
      q("same-as-sa-broken")!.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    });
    const panel = q("link-why") as HTMLDetailsElement;
    await act(() => {
      panel.open = true;
      panel.dispatchEvent(new Event("toggle"));
    });
    await flush();
    expect(panel.querySelector("[role=alert]")?.textContent).toContain("unknown edge sa-broken");
  });
});

describe("Entities view, contact claims", () => {
  it("marks an identifier an entity wrote as its own", async () => {
    const r = demoReport();
    const a0 = r.actors[0]!;
    const first = a0.identifiers[0]!;
    const owner = a0.entity_ids[0]!;
    const claimed = { ...first, claimed_by: [owner] };
    const actors = [{ ...a0, identifiers: [claimed, ...a0.identifiers.slice(1)] }, ...r.actors.slice(1)];
    await act(() => render(<EntitiesView report={r} graph={{ links: r.same_as, actors }} onGraph={() => {}} />, root));
    const chips = Array.from(q(`actor-${a0.id}`)!.querySelectorAll(".chip"));
    const chip = chips.find((c) => c.textContent?.includes(claimed.normalized))!;
    expect(chip.textContent).toContain("(written as their own)");
    expect(chip.getAttribute("title")).toContain(owner);
    const other = chips.find((c) => c.textContent?.includes(a0.identifiers[1]?.normalized ?? "\u0000"));
    if (other) expect(other.textContent).not.toContain("written as their own");
  });
});

describe("Entities view, control links", () => {
  it("marks a control link (a wallet and the person controlling it) in its detail", async () => {
    const r = demoReport();
    const control = "sa-000012-000014";
    r.same_as.push({
      ...r.same_as.find((l) => l.id === "sa-000007-000012")!,
      id: control,
      a: "ent-000012",
      b: "ent-000014",
      relation: "control",
    });
    const graph = { links: r.same_as, actors: r.actors };
    await act(() => render(<EntitiesView report={r} graph={graph} onGraph={() => {}} />, root));
    await act(() => {
      q("same-as-sa-000001-000010")!.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    });
    expect(q("link-relation")).toBeNull(); // a coreference link has no relation chip
    await act(() => {
      q(`same-as-${control}`)!.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    });
    expect(q("link-relation")?.textContent).toBe("controlled by");
  });
});

describe("Entities layout after a decision", () => {
  // The demo report plus one bridging link, FUNG CC's ent-000012 — ent-000014 (a wallet of the
  // TRh4… actor): while it is live the two groups are one actor; retracting it splits them.
  const bridge = "sa-000012-000014";
  const model = () => {
    const r = demoReport();
    r.same_as.push({ ...r.same_as.find((l) => l.id === "sa-000007-000012")!, id: bridge, a: "ent-000012", b: "ent-000014" });
    const fung = r.actors.find((a) => a.id === "actor-000007")!;
    const wallet = r.actors.find((a) => a.id === "actor-000014")!;
    const joined = { ...fung, entity_ids: [...fung.entity_ids, ...wallet.entity_ids] };
    const together = [...r.actors.filter((a) => a !== fung && a !== wallet), joined];
    return { r, fung, wallet, together };
  };
  const pos = (id: string) => {
    const m = /translate\(([-\d.e]+),([-\d.e]+)\)/.exec(q(`entity-${id}`)?.getAttribute("transform") ?? "");
    if (!m) throw new Error(`no position for ${id}`);
    return { x: Number(m[1]), y: Number(m[2]) };
  };
  const ring = (actor: string) => {
    const c = q(`actor-ring-${actor}`);
    if (!c) throw new Error(`no ring for ${actor}`);
    return { x: Number(c.getAttribute("cx")), y: Number(c.getAttribute("cy")), r: Number(c.getAttribute("r")) };
  };
  const dist = (p: { x: number; y: number }, c: { x: number; y: number }) => Math.hypot(p.x - c.x, p.y - c.y);
  const NODE = 14; // the largest node radius: a node within r + NODE of a centre touches that ring's disc

  it("moves the ends of a retracted link to their new actors' rings, and back after approval", async () => {
    const { r, fung, wallet, together } = model();
    let graph = { links: r.same_as, actors: together };
    const onGraph = (g: typeof graph) => {
      graph = g;
      void act(() => render(<EntitiesView report={r} graph={graph} onGraph={onGraph} />, root));
    };
    await act(() => render(<EntitiesView report={r} graph={graph} onGraph={onGraph} />, root));
    const others = r.actors.filter((a) => a !== fung && a !== wallet);
    const untouched = new Map(others.flatMap((a) => a.entity_ids).map((id) => [id, pos(id)]));
    const colours = new Map(others.flatMap((a) => a.entity_ids).map((id) => [id, q(`entity-${id}`)?.getAttribute("class")]));
    const joinedRing = ring("actor-000007");
    for (const id of [...fung.entity_ids, ...wallet.entity_ids]) expect(dist(pos(id), joinedRing)).toBeCloseTo(joinedRing.r, 3);

    // retract the bridge: the backend answers with the two actors apart
    answer.retract = () => ({
      same_as: r.same_as.map((l) => ({ ...l, state: l.id === bridge ? "retracted" : l.state })),
      actors: r.actors,
    });
    await act(() => {
      q(`same-as-${bridge}`)!.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    });
    const reason = q("decision-reason") as HTMLTextAreaElement;
    await act(() => {
      reason.value = "a shared wallet address is not the same person";
      reason.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await act(() => (q("retract-link") as HTMLButtonElement).click());
    await flush();
    expect(calls.map((c) => c.cmd)).toEqual(["retract"]);
    expect(q("entity-ent-000012")?.getAttribute("data-actor")).toBe(fung.id);
    expect(q("entity-ent-000014")?.getAttribute("data-actor")).toBe(wallet.id);
    const fr = ring(fung.id);
    const wr = ring(wallet.id);
    for (const id of fung.entity_ids) {
      expect(dist(pos(id), fr), id).toBeLessThanOrEqual(fr.r + 0.001);
      expect(dist(pos(id), wr), id).toBeGreaterThan(wr.r + NODE);
    }
    for (const id of wallet.entity_ids) {
      expect(dist(pos(id), wr), id).toBeLessThanOrEqual(wr.r + 0.001);
      expect(dist(pos(id), fr), id).toBeGreaterThan(fr.r + NODE);
    }
    for (const [id, p] of untouched) expect(pos(id), id).toEqual(p); // other actors did not move
    for (const [id, c] of colours) expect(q(`entity-${id}`)?.getAttribute("class"), id).toBe(c); // nor change colour

    // approve it again: one actor, one ring, drawn where it was
    answer.approve = () => ({
      same_as: r.same_as.map((l) => ({ ...l, state: l.id === bridge ? "approved" : l.state })),
      actors: together,
    });
    await act(() => (q("approve-link") as HTMLButtonElement).click());
    await flush();
    expect(q(`actor-ring-${wallet.id}`)).toBeNull();
    const back = ring("actor-000007");
    expect(back).toEqual(joinedRing);
    for (const id of [...fung.entity_ids, ...wallet.entity_ids]) expect(dist(pos(id), back), id).toBeCloseTo(back.r, 3);
    for (const [id, p] of untouched) expect(pos(id), id).toEqual(p);
  });
});

describe("Timeline view", () => {
  it("shows the rows the timeline command serves, and asks it again for an actor", async () => {
    const r = demoReport();
    await act(() => render(<TimelineView report={r} actors={r.actors} />, root));
    await flush();
    expect(calls.filter((c) => c.cmd === "timeline").map((c) => c.args[0])).toEqual([
      { sources: [], actor: null, tag: null, from: null, to: null },
    ]);
    expect(q("timeline-count")?.textContent).toContain("of 89");
    const pick = q("timeline-filter-actor") as HTMLSelectElement;
    pick.value = "actor-000005";
    await act(() => {
      pick.dispatchEvent(new Event("change"));
    });
    await flush();
    expect(calls.at(-1)).toEqual({ cmd: "timeline", args: [{ sources: [], actor: "actor-000005", tag: null, from: null, to: null }] });
    expect(q("timeline-count")?.textContent).toContain("of 17");
    expect(q("timeline-error")).toBeNull();
  });
  it("says why the command refused a filter", async () => {
    const r = demoReport();
    await act(() => render(<TimelineView report={r} actors={r.actors} />, root));
    const pick = q("timeline-filter-actor") as HTMLSelectElement;
    pick.value = "actor-000014";
    await act(() => {
      pick.dispatchEvent(new Event("change"));
    });
    await flush();
    expect(q("timeline-error")?.textContent).toContain("no actor or entity");
    expect(q("timeline-count")?.textContent).toContain("of 0");
  });
});

describe("Search view", () => {
  const type = async (v: string) =>
    act(async () => {
      const input = q("search-query") as HTMLInputElement;
      input.value = v;
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
  it("shows each hit's place and its match as text, names sources not searched, opens the logged search", async () => {
    await act(async () => render(<SearchView />, root));
    expect((q("search-run") as HTMLButtonElement).disabled).toBe(true);
    await type("USDT");
    await act(async () => (q("search-run") as HTMLButtonElement).click());
    await flush();
    expect(calls.filter((c) => c.cmd === "search").map((c) => c.args[0])).toEqual([{ query: "USDT", mode: "words", sources: [] }]);
    const hits = root.querySelectorAll('[data-testid="search-hit"]');
    expect(hits.length).toBe(4);
    const marks = [...root.querySelectorAll('[data-testid="search-match"]')].map((m) => m.textContent);
    expect(marks).toEqual(["USDT", "USDT", "USDT", "USDT"]);
    expect(hits[0]!.textContent).toContain("mmssms.db");
    expect(hits[0]!.textContent).toContain("table words rowid 1");
    expect(q("search-not-searched")!.textContent).toContain("src-new");
    expect(q("search-count")!.textContent).toContain("4");
    await act(async () => (hits[0]!.querySelector("button") as HTMLButtonElement).click());
    await flush();
    expect(calls.filter((c) => c.cmd === "invocation").map((c) => c.args[0])).toEqual(["inv-000014"]);
  });
  it("names each hit as its search's invocation and its place in it, as `masf tag` takes it", () => {
    const found = JSON.parse(fixtureText("demo-search.json")) as { hits: { invocation_id: string }[] };
    const targets = hitTargets(found.hits as never);
    const ids = found.hits.map((h) => h.invocation_id);
    expect(targets[0]).toBe(`${ids[0]}#hit1`);
    const firstOfLast = ids.indexOf(ids[ids.length - 1]!);
    expect(targets[firstOfLast]).toBe(`${ids[ids.length - 1]}#hit1`);
    expect(new Set(targets).size).toBe(targets.length);
  });
  it("sends the mode, says a refused query, and builds the missing indexes", async () => {
    await act(async () => render(<SearchView />, root));
    await type("hello");
    await act(async () => {
      const sel = q("search-mode") as HTMLSelectElement;
      sel.value = "identifier";
      sel.dispatchEvent(new Event("change", { bubbles: true }));
    });
    await act(async () => (q("search-run") as HTMLButtonElement).click());
    await flush();
    expect(q("search-error")!.textContent).toContain("no phone number");
    await act(async () => (q("search-build") as HTMLButtonElement).click());
    await flush();
    expect(calls.filter((c) => c.cmd === "buildIndex").map((c) => c.args)).toEqual([[false]]);
    expect(q("search-built")!.textContent).toContain("src-new");
  });
});

describe("Run view, encrypted backups", () => {
  const status = (available: boolean) =>
    caseStatus([
      { id: "src-usb", password_available: false },
      { id: "src-backup", password_env: "IPHONE_BACKUP_PW", password_available: available },
    ]);
  it("asks for the password of a backup that needs one, says a wrong one, takes a right one", async () => {
    const changed: string[] = [];
    const view = (available: boolean) => (
      <RunView feed={new LogFeed(() => {})} status={status(available)} finished="" running={false} hasCase={true} onChanged={(w) => changed.push(w)} />
    );
    await act(async () => render(view(false), root));
    expect(q("run-password-src-usb")).toBeNull();
    const input = q("run-password-src-backup") as HTMLInputElement;
    expect(input.type).toBe("password");
    expect(root.textContent).toContain("IPHONE_BACKUP_PW");
    const type = async (v: string) => {
      await act(async () => {
        input.value = v;
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
      await act(async () => (q("run-password-give-src-backup") as HTMLButtonElement).click());
      await flush();
    };
    await type("wrong");
    expect(root.querySelector('[role="alert"]')?.textContent).toContain("does not open");
    expect(input.value).toBe("");
    expect(changed).toEqual([]);
    await type("right");
    expect(calls.filter((c) => c.cmd === "password").map((c) => c.args)).toEqual([["src-backup", "wrong"], ["src-backup", "right"]]);
    expect(changed).toEqual(["password"]);
    await act(async () => render(view(true), root));
    expect(q("run-passwords")).toBeNull();
  });
});

describe("Virtual list", () => {
  it("renders a window of a 100,000-row list", async () => {
    const { VirtualList } = await import("../components/VirtualList");
    await act(() =>
      render(<VirtualList count={100_000} rowHeight={24} label="x" testid="vl" renderRow={(i) => <span>row {i}</span>} />, root),
    );
    const rows = root.querySelectorAll(".vrow");
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(60);
    expect(rows[0]?.textContent).toBe("row 0");
  });
});

describe("Findings paging", () => {
  it("renders 300 cards at a time on a large case", async () => {
    const r = demoReport();
    const base = r.phenomena[0]!;
    r.phenomena = Array.from({ length: 1000 }, (_, i) => ({ ...base, id: `ph-${String(i + 1).padStart(6, "0")}` }));
    await act(() => render(<FindingsView report={r} />, root));
    expect(root.querySelectorAll("article.finding")).toHaveLength(300);
    await act(() => (q("findings-more") as HTMLButtonElement).click());
    expect(root.querySelectorAll("article.finding")).toHaveLength(600);
    expect(q("findings-count")?.textContent).toContain("1000 of 1000");
  });
});
