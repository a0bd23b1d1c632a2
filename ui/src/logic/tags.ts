// The examiner's tags, bookmarks and notes as the views show them. Rust decides everything (what
// a target is, what a tag selects on the timeline, spelling, refusals): this indexes the rows
// the `tags` command serves and answers "what is on this item" and "which items carry this tag".
import type { MarkAct, TaggedRow, TagsView } from "../generated/ipc";

export const NO_TAGS: TagsView = { offered: [], items: [] };

/** The rows by target (`ph-000012`, `ph-000012#time1`, `actor-000003`, …). */
export function tagIndex(view: TagsView): Map<string, TaggedRow> {
  return new Map(view.items.map((r) => [r.target, r]));
}

/** The tags on `target`, in the order Rust gave them. */
export function tagsOn(index: Map<string, TaggedRow>, target: string): string[] {
  return index.get(target)?.tags.map((t) => t.tag) ?? [];
}

function sameTag(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** The rows carrying `tag` (compared without case, as Rust does). */
export function rowsWithTag(view: TagsView, tag: string): TaggedRow[] {
  return view.items.filter((r) => r.tags.some((t) => sameTag(t.tag, tag)));
}

/** The phenomena a tag marks: tagged phenomena and the phenomena of tagged facts and timeline
 * entries (each row says its phenomenon). */
export function phenomenaWithTag(view: TagsView, tag: string): Set<string> {
  const out = new Set<string>();
  for (const r of rowsWithTag(view, tag)) if (r.phenomenon_id) out.add(r.phenomenon_id);
  return out;
}

/** The targets that carry `tag` ("" = no filter: null). */
export function targetsWithTag(view: TagsView, tag: string): Set<string> | null {
  if (!tag) return null;
  return new Set(rowsWithTag(view, tag).map((r) => r.target));
}

/** The tags a filter offers: those on at least one item, in the order they are offered. */
export function tagsInUse(view: TagsView): string[] {
  const used = view.items.flatMap((r) => r.tags.map((t) => t.tag));
  return view.offered.filter((o) => used.some((u) => sameTag(u, o)));
}

/** The tags to offer for an item: the offered ones not already on it. */
export function tagChoices(view: TagsView, row: TaggedRow | undefined): string[] {
  const on = row?.tags.map((t) => t.tag) ?? [];
  return view.offered.filter((o) => !on.some((t) => sameTag(t, o)));
}

/** The act for the bookmark toggle. */
export function bookmarkAct(row: TaggedRow | undefined): MarkAct {
  return row?.bookmark ? { act: "unbookmark" } : { act: "bookmark" };
}
