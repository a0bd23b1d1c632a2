import { describe, expect, it } from "vitest";
import { actorsFromViews, decisionsOf, linksFromViews } from "./adapt";

describe("live link / actor views to report shapes", () => {
  it("takes entity refs or ids", () => {
    const l = linksFromViews([
      { id: "sa-1-2", state: "retracted", a: { id: "ent-000001", label: "A" }, b: "ent-000002", hypothesis_id: "hyp-1", confidence: 0.9 },
    ]);
    expect(l).toEqual([
      { id: "sa-1-2", a: "ent-000001", b: "ent-000002", hypothesis_id: "hyp-1", confidence: 0.9, state: "retracted", decisions: [] },
    ]);
  });
  it("reads graph actors (entities/sources) and report actors (entity_ids/source_ids)", () => {
    const a = actorsFromViews([
      { id: "actor-1", label: "X", entities: ["ent-1", "ent-2"], sources: ["s"], identifiers: [{ id_type: "phone", normalized: "+1" }] },
      { id: "actor-2", label: "Y", entity_ids: ["ent-3", "ent-4"], identifiers: [{ type: "email", value: "a@b" }] },
      { id: "actor-3", label: "empty" },
      { id: "actor-5", label: "alone", entities: ["ent-5"] },
    ]);
    // single entities are not actors (the report's rule)
    expect(a.map((x) => [x.id, x.entity_ids, x.identifiers[0]?.normalized])).toEqual([
      ["actor-1", ["ent-1", "ent-2"], "+1"],
      ["actor-2", ["ent-3", "ent-4"], "a@b"],
    ]);
  });
});

describe("relation and joining edges", () => {
  it("keeps a link's relation and an actor's joining edges in either shape", () => {
    const l = linksFromViews([
      { id: "sa-1-2", state: "live", a: "ent-1", b: "ent-2", hypothesis_id: "h", confidence: 0.9, relation: "control" },
      { id: "sa-1-3", state: "live", a: "ent-1", b: "ent-3", hypothesis_id: "h", confidence: 0.9, relation: "bogus" },
    ]);
    expect(l.map((x) => x.relation)).toEqual(["control", undefined]);
    const a = actorsFromViews([
      { id: "actor-1", label: "X", entities: ["ent-1", "ent-2"], joined_by: ["sa-1-2"] },
      { id: "actor-2", label: "Y", entity_ids: ["ent-3", "ent-4"], edges: ["sa-3-4"] },
    ]);
    expect(a.map((x) => x.edges)).toEqual([["sa-1-2"], ["sa-3-4"]]);
  });
});

describe("mentions", () => {
  it("keeps the mentions of an actor, and a one-entity actor that mentions point at", () => {
    const a = actorsFromViews([
      { id: "actor-1", label: "CHAN", entities: ["ent-1"], mentioned_in: ["ent-22"] },
      { id: "actor-2", label: "LEUNG", entity_ids: ["ent-5", "ent-6"], mentioned_in: ["ent-22"] },
      { id: "actor-3", label: "alone", entities: ["ent-7"], mentioned_in: [] },
    ]);
    expect(a.map((x) => [x.id, x.entity_ids, x.mentioned_in])).toEqual([
      ["actor-1", ["ent-1"], ["ent-22"]],
      ["actor-2", ["ent-5", "ent-6"], ["ent-22"]],
    ]);
  });
});

describe("decisions", () => {
  it("keeps well-formed decisions only", () => {
    expect(decisionsOf([{ decision: "retract", by: "J. Doe", at: "2026-11-30T18:00:00Z", reason: "r" }, "junk", null, {}])).toEqual([
      { decision: "retract", by: "J. Doe", at: "2026-11-30T18:00:00Z", reason: "r" },
    ]);
    expect(decisionsOf(undefined)).toEqual([]);
  });
});
