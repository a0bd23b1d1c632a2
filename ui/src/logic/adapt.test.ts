import { describe, expect, it } from "vitest";
import type { Actor, EntityRef, LinkView } from "../generated/ipc";
import { actorsFromViews, linksFromViews } from "./adapt";

const ref = (id: string): EntityRef => ({ id, label: id, source_id: "s", context: "", kind: "person" });
const link = (id: string, over: Partial<LinkView> = {}): LinkView => ({
  id,
  exists: true,
  state: "live",
  relation: "coreference",
  a: ref("ent-000001"),
  b: ref("ent-000002"),
  hypothesis_id: "hyp-1",
  confidence: 0.9,
  status: "supported",
  revisions: ["hyp-1"],
  evidence: [],
  decisions: [],
  ...over,
});
const actor = (id: string, over: Partial<Actor> = {}): Actor => ({
  id,
  label: id,
  entities: [],
  mentioned_in: [],
  sources: [],
  identifiers: [],
  joined_by: [],
  ...over,
});

describe("live links to report rows (api::report's rule)", () => {
  it("keeps edges, drops candidates, and keeps relation and decisions", () => {
    const decision = { decision: "retract" as const, by: "J. Doe", at: "2026-11-30T18:00:00Z", reason: "r" };
    const l = linksFromViews([
      link("sa-1-2", { state: "retracted", relation: "control", decisions: [decision] }),
      link("sa-1-3", { exists: false, state: "candidate" }),
    ]);
    expect(l).toEqual([
      { id: "sa-1-2", relation: "control", a: "ent-000001", b: "ent-000002", hypothesis_id: "hyp-1", confidence: 0.9, state: "retracted", decisions: [decision] },
    ]);
  });
});

describe("live actors to report rows", () => {
  it("renames the fields as the report does and keeps claims and contested wallets", () => {
    const a = actorsFromViews([
      actor("actor-1", {
        entities: ["ent-1", "ent-2"],
        sources: ["s"],
        joined_by: ["sa-1-2"],
        identifiers: [{ id_type: "phone", normalized: "+1", strength: "strong", entities: ["ent-1"], claimed_by: ["ent-1"] }],
        contested: ["ent-9"],
      }),
      actor("actor-5", { entities: ["ent-5"] }),
    ]);
    expect(a).toEqual([
      {
        id: "actor-1",
        label: "actor-1",
        entity_ids: ["ent-1", "ent-2"],
        source_ids: ["s"],
        identifiers: [{ type: "phone", normalized: "+1", claimed_by: ["ent-1"] }],
        edges: ["sa-1-2"],
        mentioned_in: [],
        contested: ["ent-9"],
      },
    ]);
  });
  it("keeps a one-entity actor that mentions point at", () => {
    const a = actorsFromViews([
      actor("actor-1", { entities: ["ent-1"], mentioned_in: ["ent-22"] }),
      actor("actor-3", { entities: ["ent-7"] }),
    ]);
    expect(a.map((x) => [x.id, x.entity_ids, x.mentioned_in])).toEqual([["actor-1", ["ent-1"], ["ent-22"]]]);
  });
});
