import { describe, expect, it } from "vitest";
import type { TaggedRow, TagsView } from "../generated/ipc";
import { bookmarkAct, phenomenaWithTag, tagChoices, tagIndex, tagsInUse, tagsOn, targetsWithTag } from "./tags";

const act = { by: "J. Doe", at: "2025-03-01T10:00:00Z", reason: "" };
function row(target: string, tags: string[], extra: Partial<TaggedRow> = {}): TaggedRow {
  return {
    target,
    kind: "phenomenon",
    what: target,
    present: true,
    tags: tags.map((tag) => ({ tag, ...act })),
    bookmark: null,
    notes: [],
    ...extra,
  };
}

const view: TagsView = {
  offered: ["Notable", "Suspicious", "Follow up", "Exculpatory", "Wallet"],
  items: [
    row("ph-000001", ["Suspicious"], { phenomenon_id: "ph-000001" }),
    row("ph-000002#time1", ["Follow up", "Suspicious"], { kind: "timeline_entry", phenomenon_id: "ph-000002" }),
    row("actor-000003", ["Notable"], { kind: "actor", bookmark: act }),
    row("src-usb:/a.txt", [], { kind: "file", notes: [{ id: "note-000001", text: "x", by: "J. Doe", at: act.at }] }),
  ],
};

describe("tags", () => {
  it("says what is on an item", () => {
    const idx = tagIndex(view);
    expect(tagsOn(idx, "ph-000002#time1")).toEqual(["Follow up", "Suspicious"]);
    expect(tagsOn(idx, "ph-000009")).toEqual([]);
  });

  it("finds the phenomena a tag marks, through their facts and entries too, without case", () => {
    expect([...phenomenaWithTag(view, "suspicious")].sort()).toEqual(["ph-000001", "ph-000002"]);
    expect([...phenomenaWithTag(view, "Notable")]).toEqual([]);
    expect(targetsWithTag(view, "")).toBeNull();
    expect([...(targetsWithTag(view, "notable") ?? [])]).toEqual(["actor-000003"]);
  });

  it("offers the tags not on the item, and filters by the tags in use", () => {
    const idx = tagIndex(view);
    expect(tagChoices(view, idx.get("ph-000002#time1"))).toEqual(["Notable", "Exculpatory", "Wallet"]);
    expect(tagChoices(view, undefined)).toEqual(view.offered);
    expect(tagsInUse(view)).toEqual(["Notable", "Suspicious", "Follow up"]);
  });

  it("toggles a bookmark", () => {
    const idx = tagIndex(view);
    expect(bookmarkAct(idx.get("actor-000003"))).toEqual({ act: "unbookmark" });
    expect(bookmarkAct(idx.get("ph-000001"))).toEqual({ act: "bookmark" });
  });
});
